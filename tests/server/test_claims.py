"""A seat claims the rest of a deal at the table: refused (nothing changed)
unless it is its turn and its own view proves every trick is its, or none with
no points left; accepted, the deal ends with every trick to the claimer, or
none, at the score the claim said, and a restart replays it."""

from __future__ import annotations

import json

import pytest

from damepique.engine import CARD_NAMES, DONE, PLAY, ClaimPlan, DealResult, Rules, cards_of
from damepique.engine.record import replay
from damepique.server.errors import Refusal
from damepique.server.play import game as game_module
from damepique.server.play.game import Game, Seat

SECRET = bytes(range(32))
SEATS = [Seat("human", f"P{i}") for i in range(4)]


def _game_at_a_claim(tricks: str = "all") -> tuple[Game, int]:
    """A game whose seat to act may claim the rest, every trick or none
    (``tricks``), found by playing every seat's lowest legal card, deal after
    deal, from a fixed secret."""
    game = Game(Rules(), SEATS, SECRET)
    while not game.over:
        game.deal_next()
        deal = game.deal
        assert deal is not None
        while deal.phase != DONE:
            if deal.phase != PLAY:
                for seat in range(4):
                    if deal.passes[seat] is None:
                        game.pass_cards(seat, sorted(cards_of(game.view(seat).hand))[:3])
                continue
            seat = deal.to_act
            assert seat is not None
            plan = game.view(seat).claim_plan()
            if len(deal.tricks) >= 2 and plan is not None and plan.tricks == tricks:
                return game, seat
            game.play(seat, game.view(seat).legal_cards()[0])
    raise AssertionError("no claim in a whole game")


def test_a_claim_out_of_turn_or_unproved_is_refused_and_changes_nothing() -> None:
    game, claimer = _game_at_a_claim()
    before = list(game.log)
    with pytest.raises(Refusal) as refused:
        game.claim((claimer + 1) % 4)
    assert refused.value.code == "not_your_turn"
    assert game.log == before

    # At the first lead of a game nobody's cards prove every trick.
    fresh = Game(Rules(), SEATS, SECRET)
    fresh.deal_next()
    for seat in range(4):
        fresh.pass_cards(seat, sorted(cards_of(fresh.view(seat).hand))[:3])
    leader = fresh.deal.to_act  # type: ignore[union-attr]
    assert leader is not None and fresh.view(leader).claim_plan() is None
    before = list(fresh.log)
    with pytest.raises(Refusal) as refused:
        fresh.claim(leader)
    assert refused.value.code == "no_claim"
    assert fresh.log == before


def test_an_accepted_claim_gives_every_trick_left_to_the_claimer_and_replays() -> None:
    game, claimer = _game_at_a_claim()
    deal = game.deal
    assert deal is not None
    tricks_before = len(deal.tricks)
    plan = game.view(claimer).claim_plan()
    assert plan is not None

    events = game.claim(claimer)

    assert events[0]["type"] == "claim" and events[0]["seat"] == claimer
    assert events[0]["tricks"] == "all" and events[0]["cards"] == [CARD_NAMES[c] for c in plan.cards]
    assert all(e["type"] == "play" for e in events[1:])
    assert deal.phase == DONE
    winners = [winner for _leader, _cards, winner, _points in deal.tricks[tricks_before:]]
    assert winners and set(winners) == {claimer}

    assert deal.result() == plan.result
    again = Game.replay(Rules(), SEATS, SECRET, game.log)
    assert again.log == game.log
    assert again.deal is not None and again.deal.phase == DONE
    assert again.deal.result().points == deal.result().points


def test_an_accepted_claim_of_none_gives_no_trick_to_the_claimer_and_settles_the_score() -> None:
    game, claimer = _game_at_a_claim("none")
    deal = game.deal
    assert deal is not None
    tricks_before, taken = len(deal.tricks), list(deal.taken_points)
    plan = game.view(claimer).claim_plan()
    assert plan is not None and plan.tricks == "none"
    held = sorted(CARD_NAMES[c] for c in cards_of(deal.hands[claimer]))

    events = game.claim(claimer)

    claim = events[0]
    assert claim["type"] == "claim" and claim["seat"] == claimer and claim["tricks"] == "none"
    # The claimed hand, shown to everyone, in the order its cards were played.
    assert sorted(claim["cards"]) == held
    assert claim["cards"] == [e["card"] for e in events[1:] if e["seat"] == claimer]
    assert deal.phase == DONE and events[-1]["deal_over"]
    winners = {winner for _leader, _cards, winner, _points in deal.tricks[tricks_before:]}
    assert winners and claimer not in winners
    assert list(deal.taken_points) == taken  # no points were left to take
    assert deal.result() == plan.result
    again = Game.replay(Rules(), SEATS, SECRET, game.log)
    assert again.log == game.log and again.deal is not None
    assert again.deal.result() == deal.result()
    # The game record (spec/game-record.md) has no claim of its own: the deal's plays,
    # played out, which the engine's referee replays to the same score.
    replayed = replay(json.loads(json.dumps(game.record())))
    assert replayed.deals[deal.number].result() == deal.result()


def test_a_plan_that_goes_against_the_claim_is_refused_and_changes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The engine only offers proved plans; should it ever offer a bad one, the
    # game plays it out on a copy (the engine's finish_claim) before it moves.
    game = Game(Rules(), SEATS, SECRET)
    game.deal_next()
    for seat in range(4):
        game.pass_cards(seat, sorted(cards_of(game.view(seat).hand))[:3])
    deal = game.deal
    assert deal is not None and deal.to_act is not None
    leader = deal.to_act
    score = DealResult((0, 0, 0, 0), None, (0, 0, 0, 0))
    for tricks, order in (("all", False), ("none", True)):
        cards = tuple(sorted(cards_of(game.view(leader).hand), reverse=order))
        bad = ClaimPlan(leader, tricks, cards, score)  # type: ignore[arg-type]
        monkeypatch.setattr(game_module, "claim_plan_of", lambda deal, seat, bad=bad: bad)
        before, copy = list(game.log), deal.copy()
        with pytest.raises(Refusal) as refused:
            game.claim(leader)
        assert refused.value.code == "no_claim"
        assert game.log == before and deal == copy
