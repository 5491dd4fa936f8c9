"""CPU per card of a table's update alone: the runner's ``next_update`` and each seat's patch.

Random games of four people (standard rules) played on a ``Runner`` with no
sockets, no event loop and no database: after each card the update is built
(``Runner.next_update``: the common part, the public view's changes) and each
of the four seats is asked for its patch text, as the hub does for four
connections that asked for patches. What it prints, in microseconds of CPU a
card (``time.process_time``): the update, the first seat's patch (which
writes the parts every seat shares: the top-level changes, the view's
changes, the events), a seat that neither played nor must act, the seat that
played and the seat to act (its claim is checked). The engine's play is
timed apart. Much steadier than ``server_inprocess.py`` on a loaded machine
(nothing but this work runs), so a change to the update's path shows here
first; it says nothing of the rest of a card's cost (parsing, the session,
the event log, the sockets).

    python benchmarks/card_update.py --cards 20000 --rounds 3
    python benchmarks/card_update.py --no-plays   # plain patches: each rewrites the trick, tricks, hand
    PYTHONPATH=/path/to/other/src python benchmarks/card_update.py --no-plays   # another commit's
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from damepique.engine import PLAY, PRESETS
from damepique.server.clock import ManualClock
from damepique.server.play.game import Game, Seat
from damepique.server.play.hub import Hub
from damepique.server.play.pace import Pace
from damepique.server.play.runner import Runner
from damepique.server.play.seating import SeatPlan
from damepique.server.storage.games import GameRow


class People:
    """A ``Seating`` of four people: nothing happens around the game."""

    def plan(self, game: Game) -> SeatPlan:
        return SeatPlan("fast", 0, (None,) * game.rules.players, "table")

    def readers(self) -> list[int]:
        return []

    async def game_over(self, game_id: str, game: Game) -> None:
        return None

    async def after_game(self, game: Game) -> None:
        return None

    async def notice(self, kind: str, seat: int) -> None:
        return None


def runner(seed: int) -> Runner:
    rules = PRESETS["standard"]
    seats = [Seat("human", f"P{i}") for i in range(rules.players)]
    secret = seed.to_bytes(32, "big")
    row = GameRow(id="g", owner=None, rules=rules.to_json(), seats=[], secret=secret.hex(), options={})
    store: Any = None  # never written: the update is built without storing
    thinker: Any = None
    return Runner(
        row, Game(rules, seats, secret), "T", store, Hub(), thinker, People(), Pace(), clock=ManualClock()
    )


def measure(cards: int, seed: int, plays: bool = True) -> dict[str, float]:
    rng = random.Random(seed)
    r = runner(rng.randrange(1 << 30))
    clock = time.process_time
    spent = dict.fromkeys(
        ("update", "first seat", "other seat", "seat that played", "seat to act", "engine"), 0.0
    )
    played = 0
    while played < cards:
        game = r.game
        if game.over:
            r = runner(rng.randrange(1 << 30))
            continue
        waiting = game.waiting_on()
        deal = game.deal
        is_play = False
        if not waiting:
            events = game.deal_next()
        elif deal is not None and deal.phase != PLAY:
            hand = deal.hands[waiting[0]]
            events = [game.pass_cards(waiting[0], rng.sample([c for c in range(52) if hand >> c & 1], 3))]
        else:
            assert deal is not None
            seat = deal.to_act
            legal = deal.legal_mask()
            card = rng.choice([c for c in range(52) if legal >> c & 1])
            t = clock()
            events = [game.play(seat, card)]
            spent["engine"] += clock() - t
            played += 1
            is_play = True
        ack_seat = events[0].get("seat") if events else None
        t = clock()
        update = (
            r.next_update(events, ack_seat, True, plays) if plays else r.next_update(events, ack_seat, True)
        )
        took = clock() - t
        deal = game.deal
        to_act = None if deal is None else deal.to_act
        # The seats that changed least first, as the shared parts are written by the first asked.
        order = sorted(range(4), key=lambda s: (s in (ack_seat, to_act), s == to_act))
        times = []
        for s in order:
            t = clock()
            if update.patch(s) is None:
                update.text(s)
            times.append(clock() - t)
        if is_play:
            spent["update"] += took
            spent["first seat"] += times[0]
            for s, dt in zip(order[1:], times[1:], strict=True):
                kind = "seat to act" if s == to_act else "seat that played" if s == ack_seat else "other seat"
                spent[kind] += dt
    return {k: 1e6 * v / cards for k, v in spent.items()}


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--cards", type=int, default=20000)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--no-plays", action="store_true", help="plain patches, not play patches")
    a = p.parse_args()
    for k in range(a.rounds):
        got = measure(a.cards, a.seed + k, not a.no_plays)
        total = sum(v for name, v in got.items() if name != "engine")
        print(
            f"us/card: update and patches {total:.1f} | "
            + " | ".join(f"{name} {v:.1f}" for name, v in got.items())
        )


if __name__ == "__main__":
    main()
