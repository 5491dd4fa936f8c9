"""A deal's training review is prepared while the deal is played (issue 25:
the final deal's review took 16.6 s): once the player trains, each of its
decisions is reviewed in the background as soon as it is made, in a process
of lower priority, so that the review asked at the deal's end waits for no
decision already made; its items are exactly those of reviewing the finished
deal, and a review asked after a restart (the runner loaded from its events)
still answers the same."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from damepique.bots.advice import ReviewSoFar, review, review_next
from damepique.engine import PRESETS, Deal
from damepique.server.play import thinking
from damepique.server.play.reviews import Reviews
from damepique.server.tables.seats import TableSeat

from ..harness import Harness, Page, play

PLAYOUTS = 60
"""Fewer play-outs than the server's: the same code, sooner."""


async def solo(h: Harness) -> tuple[Any, Page, str]:
    seats = [TableSeat("human", "You")] + [TableSeat("bot", n, "random") for n in ("West", "North", "East")]
    table, token = await h.tables.create_solo(PRESETS["standard"], "random", "fast", seats)
    page = await opened(h, token)
    return table, page, token


async def opened(h: Harness, token: str) -> Page:
    page = Page(h)
    await page.send(type="hello", token=token)
    return page


async def test_the_review_is_prepared_as_the_deal_is_played_and_survives_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Reviews, "playouts", PLAYOUTS)
    async with Harness.open(tmp_path) as h:
        asked: list[ReviewSoFar] = []
        real = h.thinker.review

        async def watched(deal: Deal, so_far: ReviewSoFar) -> list[Any]:
            asked.append(so_far)
            return await real(deal, so_far)

        monkeypatch.setattr(h.thinker, "review", watched)

        async def no_advice(view: Any) -> list[Any]:
            return []  # the advice itself is another test's: here, only that it turns training on

        monkeypatch.setattr(h.thinker, "advise", no_advice)
        table, page, token = await solo(h)
        runner = table.runner
        # Asking for advice is training: from then on the player's decisions are reviewed as made.
        await page.send(type="advice", id="a")
        await page.next("advice")
        assert runner.reviews.training == {0}
        page.read = 0  # the game played from its first state, read again
        await play(page, 3, lambda s: len(s["results"]) >= 1)
        await runner.reviews.settled()
        await page.send(type="review", deal=0, id="r")
        got = await page.next("review")
        done = runner.game.match.deals[0]
        # Every decision of the deal was reviewed before the review was asked: it waited for none.
        assert len(asked) == 1 and review_next(done, asked[0]) is None
        assert asked[0].passed and asked[0].next_play > 0
        # The same items as reviewing the finished deal whole (same deal, same generator).
        expected = [it.to_json() for it in review(done, 0, runner.game.totals_before(done), PLAYOUTS)]
        assert got["items"] == expected and got["deal"] == 0
        # Asked again: the kept answer.
        await page.send(type="review", deal=0, id="r2")
        assert (await page.next("review"))["items"] == expected and len(asked) == 1

        # Another process: the game loaded from its events; the review is computed whole.
        await h.restart()
        again = await opened(h, token)
        await again.send(type="review", deal=0, id="r3")
        after = await again.next("review")
        assert after["items"] == expected and after["ref"] == "r3"
        assert len(asked) == 2 and not asked[1].passed and asked[1].items == ()


async def test_a_player_who_does_not_train_costs_no_background_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with Harness.open(tmp_path) as h:
        background: list[Any] = []

        async def counted(work: Any, *args: Any) -> None:
            background.append(work)

        monkeypatch.setattr(h.thinker, "background", counted)
        table, page, _ = await solo(h)
        await play(page, 4, lambda s: len(s["results"]) >= 1)
        await table.runner.reviews.settled()
        assert background == [] and table.runner.reviews.training == set()


async def test_background_work_runs_at_a_lower_priority_and_is_dropped_when_too_much_waits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with Harness.open(tmp_path) as h:
        mine = os.nice(0)
        assert await h.thinker.background(os.nice, 0) == min(19, mine + thinking.BACKGROUND_NICE)
        monkeypatch.setattr(thinking, "BACKGROUND_QUEUE", 0)
        assert await h.thinker.background(os.nice, 0) is None  # dropped: nothing ran
