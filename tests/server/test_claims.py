"""A seat claims the rest of a deal at the table: refused (nothing changed)
unless it is its turn and its own view proves every trick is its; accepted, the
deal ends with every trick to the claimer, and a restart replays it."""

from __future__ import annotations

import pytest

from damepique.engine import DONE, PLAY, Rules, View, cards_of
from damepique.server.errors import Refusal
from damepique.server.play.game import Game, Seat

SECRET = bytes(range(32))
SEATS = [Seat("human", f"P{i}") for i in range(4)]


def _game_at_a_claim() -> tuple[Game, int]:
    """A game whose seat to act may claim the rest (found by playing every
    seat's lowest legal card, deal after deal, from a fixed secret)."""
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
            if len(deal.tricks) >= 2 and game.view(seat).claim_plan() is not None:
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
    assert len(events[0]["cards"]) == len(plan)
    assert all(e["type"] == "play" for e in events[1:])
    assert deal.phase == DONE
    assert all(t[3] == claimer or True for t in deal.tricks)  # shape check below is the real one
    winners = [winner for _leader, _cards, winner, _points in deal.tricks[tricks_before:]]
    assert winners and set(winners) == {claimer}

    again = Game.replay(Rules(), SEATS, SECRET, game.log)
    assert again.log == game.log
    assert again.deal is not None and again.deal.phase == DONE
    assert again.deal.result().points == deal.result().points


def test_a_plan_that_loses_a_trick_is_refused_and_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    # View.claim_plan only offers proved plans; should it ever offer a bad one, the
    # game checks each trick's winner (the engine's finish_claim) before it moves.
    game = Game(Rules(), SEATS, SECRET)
    game.deal_next()
    for seat in range(4):
        game.pass_cards(seat, sorted(cards_of(game.view(seat).hand))[:3])
    deal = game.deal
    assert deal is not None and deal.to_act is not None
    leader = deal.to_act
    lowest_first = tuple(sorted(cards_of(game.view(leader).hand)))  # the 2♣: a higher club takes it
    monkeypatch.setattr(View, "claim_plan", lambda self: lowest_first)
    before, copy = list(game.log), deal.copy()
    with pytest.raises(Refusal) as refused:
        game.claim(leader)
    assert refused.value.code == "no_claim"
    assert game.log == before and deal == copy
