"""Differential test against OpenSpiel's Hearts (4 players, QS does not
break hearts): on thousands of random deals, the legal cards at every
decision (passes and plays) and the final points agree exactly.

OpenSpiel first draws the pass direction (chance outcome 0..3: none, left,
across, right; the receiver is ``(player + outcome) % 4``), then deals the 52
cards one chance outcome at a time (the i-th card dealt goes to seat i % 4;
its action is ``rank * 4 + suit``), then each seat passes three cards, one
action per card, then the play. Our deal ``k`` passes left, right, across,
none for ``k % 4`` = 0, 1, 2, 3, so each OpenSpiel deal maps to the deal
number with the same direction. OpenSpiel's returns are 26 minus the points.
"""

from __future__ import annotations

import random

import pytest

from damepique.engine import CARD_NAMES, Deal, Rules, cards_of

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install open-spiel): differential test skipped"
)

DEALS = 3_000
# OpenSpiel's pass-direction outcome -> our deal number with that direction.
DEAL_NUMBER = {0: 3, 1: 0, 2: 2, 3: 1}


def ours(action: int) -> int:
    """OpenSpiel's card action (rank * 4 + suit) -> our card (suit * 13 + rank)."""
    return action % 4 * 13 + action // 4


@pytest.fixture(scope="module")
def game():  # type: ignore[no-untyped-def]
    return pyspiel.load_game("hearts", {"qs_breaks_hearts": False})


def test_card_encoding_matches_openspiel(game) -> None:  # type: ignore[no-untyped-def]
    state = game.new_initial_state()
    state.apply_action(0)
    for action in range(52):
        assert state.action_to_string(action) == CARD_NAMES[ours(action)]


def play_one(game, rng: random.Random, rules: Rules) -> tuple[int, int | None]:  # type: ignore[no-untyped-def]
    """One random deal through both engines; returns (direction, moon)."""
    state = game.new_initial_state()
    direction = rng.randrange(4)
    state.apply_action(direction)
    hands = [0, 0, 0, 0]
    for i in range(52):
        outcomes = [a for a, _ in state.chance_outcomes()]
        action = outcomes[rng.randrange(len(outcomes))]
        state.apply_action(action)
        hands[i % 4] |= 1 << ours(action)
    deal = Deal(rules, hands, 0, DEAL_NUMBER[direction])
    assert deal.pass_offset % 4 == direction
    if direction:
        # OpenSpiel passes one card per action; ours one pass of three per seat.
        chosen = [0, 0, 0, 0]
        while not state.is_chance_node() and len(state.history()) < 1 + 52 + 12:
            seat = state.current_player()
            legal = {ours(a) for a in state.legal_actions()}
            assert legal == set(cards_of(deal.hands[seat] & ~chosen[seat])), "pass options differ"
            action = state.legal_actions()[rng.randrange(len(legal))]
            state.apply_action(action)
            chosen[seat] |= 1 << ours(action)
            if chosen[seat].bit_count() == 3:
                deal.pass_cards(seat, chosen[seat])
    assert deal.phase == "play"
    while not state.is_terminal():
        seat = state.current_player()
        assert seat == deal.to_act, "a different seat to act"
        legal = sorted(ours(a) for a in state.legal_actions())
        assert legal == list(deal.legal_cards()), f"legal cards differ at play {deal.play_count}"
        actions = state.legal_actions()
        action = actions[rng.randrange(len(actions))]
        state.apply_action(action)
        deal.play(ours(action))
    assert deal.phase == "done"
    result = deal.result()
    assert list(result.points) == [26 - r for r in state.returns()], "final points differ"
    return direction, result.moon


def test_random_deals_agree_with_openspiel(game) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(20_250_101)
    rules = Rules()
    directions = [0, 0, 0, 0]
    moons = 0
    for _ in range(DEALS):
        direction, moon = play_one(game, rng, rules)
        directions[direction] += 1
        moons += moon is not None
    # Every direction was exercised, and the moon scoring too.
    assert min(directions) > DEALS // 8
    assert moons > 0


@pytest.mark.parametrize(
    ("rules", "params"),
    [
        (Rules(queen_breaks_hearts=True), {"qs_breaks_hearts": True}),
        (Rules(must_break_hearts=False), {"must_break_hearts": False, "qs_breaks_hearts": False}),
        (Rules(no_points_first_trick=False), {"no_pts_on_first_trick": False, "qs_breaks_hearts": False}),
        (Rules(jack_of_diamonds=True), {"jd_bonus": True, "qs_breaks_hearts": False}),
    ],
    ids=["queen_breaks_hearts", "hearts_lead_any_time", "points_on_first_trick", "jack_of_diamonds"],
)
def test_rule_variants_agree_with_openspiel(rules: Rules, params: dict[str, bool]) -> None:
    """The same rule flags on both sides agree too (OpenSpiel's returns are
    26 minus the points, J♦'s −10 included)."""
    game = pyspiel.load_game("hearts", params)
    rng = random.Random(7)
    for _ in range(400):
        play_one(game, rng, rules)
