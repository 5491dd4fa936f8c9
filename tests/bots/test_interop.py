"""OpenSpiel interop with OpenSpiel's own Hearts (skipped without open-spiel); the
PettingZoo environment and our OpenSpiel game are tested in tests/interop/."""

from __future__ import annotations

import random

import pytest

from damepique.engine import QS

pyspiel = pytest.importorskip("pyspiel")

from damepique.bots.openspiel import (  # noqa: E402
    deal_from_spiel_state,
    from_spiel,
    play_openspiel_deal,
    spiel_bot,
    spiel_game,
    to_spiel,
)


def test_card_mapping():
    assert to_spiel(QS) == 43
    assert all(from_spiel(to_spiel(c)) == c for c in range(52))
    assert spiel_game().new_initial_state().action_to_string(1) == "Left"


def test_openspiel_bots_in_the_arena():
    points, _moon = play_openspiel_deal(
        ["intermediate", "openspiel-ismcts:20", "openspiel-mcts:20", "expert:playouts=30"], 1, 0
    )
    assert sum(points) in (26, 78)


def test_openspiel_deal_logs_its_moves():
    """The move log replays to the same deal and result (IS-MCTS does not
    replay a deal the same way twice, so the log is the only record)."""
    from damepique.engine import Deal, Rules

    log: dict = {}
    points, moon = play_openspiel_deal(
        ["expert:playouts=30", "openspiel-ismcts:20", "intermediate", "random"], 2, 5, log
    )
    assert [len(h) for h in log["hands"]] == [13] * 4
    assert sorted(c for h in log["hands"] for c in h) == list(range(52))
    assert len(log["plays"]) == 52 and log["fallbacks"] == 0
    deal = Deal(Rules(), [sum(1 << c for c in h) for h in log["hands"]], 0, 0)
    if log["passes"]:
        assert len(log["passes"]) == 4
        # OpenSpiel's pass direction is drawn per deal: find the deal number that gives it.
        for number in range(4):
            deal = Deal(Rules(), [sum(1 << c for c in h) for h in log["hands"]], 0, number)
            if deal.phase != "pass":
                continue
            try:
                for s in range(4):
                    deal.pass_cards(s, log["passes"][s])
                for seat, card in log["plays"]:
                    deal.play(card, seat)
            except Exception:
                continue
            break
    else:
        deal = Deal(Rules(), [sum(1 << c for c in h) for h in log["hands"]], 0, 3)
        for seat, card in log["plays"]:
            deal.play(card, seat)
    assert deal.phase == "done"
    assert deal.result().points == points and deal.result().moon == moon


def test_our_bots_as_openspiel_bots():
    game = spiel_game()
    bots = [
        spiel_bot("intermediate"),
        spiel_bot("expert:playouts=30"),
        spiel_bot("beginner"),
        spiel_bot("random"),
    ]
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
            continue
        deal = deal_from_spiel_state(state)
        if deal.phase == "play":
            assert deal.to_act == state.current_player()
            assert sorted(to_spiel(c) for c in deal.legal_cards()) == sorted(state.legal_actions())
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    final = deal_from_spiel_state(state)
    assert final.phase == "done"
