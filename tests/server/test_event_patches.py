"""A card's update built from its event is the diff of the two whole states.

After cards are played the runner carries the public view forward by what
they change (``public_view.played_changes``) and rebuilds only the own fields of
the seats that played or must act; every other seat's fields and the view's
other keys are the last update's. Here, over random games of every preset
(passes, plays, several plays in one update as at ``fast`` speed, claims, a
``hello`` in between, deals ending), each seat's patch is checked against
the two whole states built from scratch: laid over the first it gives the
second, and it holds exactly the keys whose value changed, each once. The claim offered
to the seat to act, read from the deal's fields (``claim_plan_of``), is the
one its view proves.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from damepique.engine import PLAY, PRESETS, claim_plan_of, view_of
from damepique.server.play.seating import SeatPlan
from damepique.server.plays import PlayUpdate
from damepique.server.protocol import apply_patch
from damepique.server.public_view import played_changes, public_json
from damepique.wire import PLAYED_KEYS

from .helpers import QuietSeating, runner_for

HEAD = {"v", "type", "n", "base", "seat", "event", "events", "ack"}


def _once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    assert len(keys) == len(set(keys)), f"a key written twice: {keys}"
    return dict(pairs)


def _check_patch(old: dict[str, Any], new: dict[str, Any], text: str, plays: bool = False) -> None:
    # Each key once (whose turn it is was written twice, from the seat's fields and the public view's).
    patch = json.loads(text, object_pairs_hook=_once)
    assert apply_patch(old, patch) == new
    assert patch.get("plays", False) is plays
    top = {k for k in new if k not in HEAD | {"view", "spectator"} and new[k] != old.get(k)}
    assert set(patch) - HEAD - {"view", "plays"} == top
    if new["view"] is not None:
        changed = {k for k, v in new["view"].items() if v != old["view"].get(k)}
        # A play patch leaves out what its cards say (the client lays them: ``wire.lay_plays``).
        assert set(patch.get("view", {})) == (changed - set(PLAYED_KEYS) if plays else changed)


def _step(runner: Any, rng: random.Random) -> list[dict[str, Any]]:
    """The next events: a pass, one or a few cards, a claim, or the next deal."""
    game = runner.game
    if not game.waiting_on():
        return list(game.deal_next())
    deal = game.deal
    seat = game.waiting_on()[0]
    if deal.phase != PLAY:
        hand = view_of(deal, seat).hand
        cards = rng.sample([c for c in range(52) if hand >> c & 1], deal.rules.pass_count)
        return [game.pass_cards(seat, cards)]
    assert claim_plan_of(deal, seat) == view_of(deal, seat).claim_plan()
    if claim_plan_of(deal, seat) is not None and rng.random() < 0.3:
        return list(game.claim(seat))
    events = []
    for _ in range(rng.choice((1, 1, 1, 2, 4))):  # several cards in one update, as at "fast" speed
        if deal.phase != PLAY or game.over:
            break
        legal = deal.legal_mask()
        card = rng.choice([c for c in range(52) if legal >> c & 1])
        events.append(game.play(deal.to_act, card))
    return events


class TimedSeating(QuietSeating):
    """People at every seat, 30 s a turn: the state's ``timer`` changes as the turn moves."""

    def plan(self, game: Any) -> SeatPlan:
        return replace(super().plan(game), timer=30)


@pytest.mark.parametrize("plays", [False, True])
@pytest.mark.parametrize("timed", [False, True])
@pytest.mark.parametrize("preset", sorted(PRESETS))
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(20, 140))
def test_a_patch_from_events_is_the_diff_of_whole_states(
    preset: str, timed: bool, plays: bool, seed: int, steps: int
) -> None:
    rules = PRESETS[preset]
    runner = runner_for(rules, seed % 1000)
    if timed:
        runner.seating = TimedSeating()
    rng = random.Random(seed)
    seats = [*range(rules.players), -1]
    last: dict[int, dict[str, Any]] = {}
    built = played = 0
    for _ in range(steps):
        if runner.game.over:
            break
        events = _step(runner, rng)
        if timed:
            runner.reseat()  # the timer armed for the new position, as before every broadcast
        if rng.random() < 0.2:  # a hello between two updates: its state is built, nothing changes
            runner.state(rng.randrange(rules.players))
        # Acknowledged to the seat whose move it was, as after a person's command.
        acked = events[0].get("seat") if events else None
        update = runner.next_update(events, acked, rng.choice((True, 7)), plays=plays)
        built += update.from_events
        played += isinstance(update, PlayUpdate)
        deal = runner.game.deal
        for s in seats:
            whole = update.message(s)
            if whole["view"] is not None:  # the whole view as the engine writes it, from scratch
                totals = runner.game.totals_before(deal)
                fresh = public_json(deal, totals) if s < 0 else view_of(deal, s, totals).to_json()
                assert whole["view"] == fresh
            patch = update.patch(s) if s in last else None
            if patch is not None:
                _check_patch(last[s], whole, patch, isinstance(update, PlayUpdate))
            # Its text is the same whole state (what a connection without patches gets).
            assert json.loads(update.text(s)) == whole
            last[s] = whole
    assert built > 0  # most cards' updates: built from their events
    assert (played > 0) is plays  # and, where every connection lays play patches, as play patches


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_played_changes_are_the_changed_keys(preset: str) -> None:
    """``played_changes`` over one card at a time, a whole deal: the keys that differ, no more."""
    rules = PRESETS[preset]
    runner = runner_for(rules, 3)
    rng = random.Random(3)
    game = runner.game
    game.deal_next()
    deal = game.deal
    while deal.phase != PLAY:
        seat = deal.passing_seats[0]
        hand = deal.hands[seat]
        game.pass_cards(seat, rng.sample([c for c in range(52) if hand >> c & 1], rules.pass_count))
    before = public_json(deal, [0] * rules.players)
    while deal.phase == PLAY:
        event = game.play(deal.to_act, rng.choice(deal.legal_cards()))
        changes = played_changes(deal, before, [event])
        if deal.phase != PLAY:
            assert changes is None  # the deal ended: built whole
            break
        after = public_json(deal, [0] * rules.players)
        assert changes == {k: v for k, v in after.items() if v != before[k]}
        assert {**before, **changes} == after
        before = after


LAY_WITH_PAGE = """
import { readFileSync } from "node:fs";
import assert from "node:assert/strict";
const { patched } = await import(process.argv[2]);
const cases = JSON.parse(readFileSync(process.argv[3], "utf8"));
for (const [i, [prev, patch, want]] of cases.entries()) {
  assert.deepStrictEqual(patched(prev, patch), want, `case ${i}`);
}
console.log(`laid ${cases.length}`);
"""


@pytest.mark.parametrize(
    "preset", ["standard", "black_maria", "five_players_kitty", "omnibus", "three_players_kitty"]
)
def test_the_page_lays_play_patches_as_the_server_means_them(preset: str, tmp_path: Any) -> None:
    """The page's ``patched`` (``web/patch.js``, under Node) gives, from each
    play patch and the state before it, the server's whole state: the same
    cases as the property test above, a whole game of each of a few presets."""
    node = shutil.which("node")
    assert node is not None, "Node.js is needed for the front end's tests (scripts/_system.sh installs it)"
    rules = PRESETS[preset]
    runner = runner_for(rules, 11)
    rng = random.Random(11)
    last: dict[int, dict[str, Any]] = {}
    cases = []
    while not runner.game.over and len(cases) < 400:
        events = _step(runner, rng)
        acked = events[0].get("seat") if events else None
        update = runner.next_update(events, acked, True, plays=True)
        for s in range(rules.players):
            whole = update.message(s)
            patch = update.patch(s) if s in last else None
            if patch is None:
                update.text(s)  # sent whole, as the hub does
            elif isinstance(update, PlayUpdate):
                cases.append([last[s], json.loads(patch), whole])
            last[s] = whole
    assert len(cases) > 100
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    (tmp_path / "lay.mjs").write_text(LAY_WITH_PAGE)
    page = Path(__file__).parents[2] / "src" / "damepique" / "web" / "patch.js"
    done = subprocess.run(
        [node, str(tmp_path / "lay.mjs"), page.as_uri(), str(tmp_path / "cases.json")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"laid {len(cases)}" in done.stdout
