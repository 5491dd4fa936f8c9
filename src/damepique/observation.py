"""One seat's view as a flat vector of numbers: the observation of the
PettingZoo environment (``damepique.pettingzoo``) and the observation tensor
of the OpenSpiel game (``damepique.openspiel``). Standard library only.

Everything comes from the seat's ``View`` (and the cards it has chosen so far
for a pass it gives one card at a time), so a hidden card never reaches it.
Seats are written by *position* from the observing seat: position ``k`` is
seat ``(seat + k) % players``, so position 0 is always oneself and one policy
can play every seat. A card is our number, ``suit * 13 + rank`` (clubs,
diamonds, hearts, spades; two to ace). ``docs/environments.md`` has the
table; ``Encoding.fields`` lists the same blocks in order.

>>> import random
>>> from damepique.engine import Deal, Rules, view_of
>>> enc = Encoding(Rules())
>>> enc.size
667
>>> deal = Deal.shuffled(Rules(), random.Random(1))
>>> vec = enc.dense(view_of(deal, 0))
>>> sum(vec[:52])  # the thirteen cards in hand
13.0
"""

from __future__ import annotations

from dataclasses import dataclass

from damepique.engine import PASS, PLAY, Rules, View, cards_of


@dataclass(frozen=True)
class Field:
    """One block of the vector: ``size`` numbers from ``start``."""

    name: str
    start: int
    size: int
    low: float
    high: float
    meaning: str


class Encoding:
    """The observation layout for one set of rules (its size depends on the
    number of players only)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        n = rules.players
        blocks = [
            ("hand", 52, 0.0, 1.0, "cards in hand now (without those set aside for the pass)"),
            ("passed", 52, 0.0, 1.0, "cards this seat gives in the pass (chosen so far, or given)"),
            ("received", 52, 0.0, 1.0, "cards received in the pass (once the cards have changed hands)"),
            ("trick", n * 52, 0.0, 1.0, "the current trick: for each position, the card it played to it"),
            ("played", n * 52, 0.0, 1.0, "for each position, every card it played this deal"),
            ("kitty", 52, 0.0, 1.0, "the kitty's cards, once the first trick has taken them"),
            ("voids", n * 4, 0.0, 1.0, "for each position and suit, 1 once it failed to follow that suit"),
            ("points", n, 0.0, 1.0, "for each position, points taken this deal / the points of a moon"),
            ("jack", n, 0.0, 1.0, "for each position, 1 if it took the jack of diamonds"),
            ("leader", n, 0.0, 1.0, "the position that led (or is to lead) the current trick"),
            ("to_act", n, 0.0, 1.0, "the position whose turn it is (oneself while one has a pass to give)"),
            ("pass_to", n, 0.0, 1.0, "the position this deal passes to (position 0: no passing)"),
            ("phase", 2, 0.0, 1.0, "pass, play (both 0 once the deal is over)"),
            ("hearts_broken", 1, 0.0, 1.0, "1 once hearts are broken"),
            ("totals", n, -1.0, 2.0, "for each position, its game total before this deal / the target, "
             "clipped to [-1, 2] (0 in single deals)"),
        ]  # fmt: skip
        fields = []
        start = 0
        for name, size, low, high, meaning in blocks:
            fields.append(Field(name, start, size, low, high, meaning))
            start += size
        self.fields: tuple[Field, ...] = tuple(fields)
        self.size = start
        self._at = {f.name: f.start for f in fields}
        self.low = [f.low for f in fields for _ in range(f.size)]
        self.high = [f.high for f in fields for _ in range(f.size)]

    def start(self, name: str) -> int:
        """Where the block ``name`` begins."""
        return self._at[name]

    def sparse(self, view: View, pending: int = 0) -> tuple[list[int], list[tuple[int, float]]]:
        """The vector as the indices that hold 1 and ``(index, value)`` pairs
        for the rest that are not 0 (points and totals): cheap to lay into a
        zeroed array. ``pending``: a mask of the cards chosen so far for a pass
        not yet given (they leave the hand)."""
        rules = self.rules
        n = rules.players
        me = view.seat
        at = self._at
        ones: list[int] = []
        put = ones.append

        def cards(base: int, mask: int) -> None:
            for c in cards_of(mask):
                put(base + c)

        cards(at["hand"], view.hand & ~pending)
        cards(at["passed"], (view.passed or 0) | pending)
        cards(at["received"], view.received or 0)
        trick = at["trick"]
        for i, c in enumerate(view.trick):
            put(trick + (view.trick_leader + i - me) % n * 52 + c)
        played = at["played"]
        for seat, c in view.plays:
            put(played + (seat - me) % n * 52 + c)
        cards(at["kitty"], view.kitty)
        voids = at["voids"]
        for k in range(n):
            shown = view.voids[(me + k) % n]
            for su in range(4):
                if shown >> (13 * su) & 1:
                    put(voids + k * 4 + su)
        values: list[tuple[int, float]] = []
        points = at["points"]
        scale = rules.moon_points or 1
        for k in range(n):
            taken = view.taken_points[(me + k) % n]
            if taken:
                values.append((points + k, taken / scale))
        if view.jack_seat is not None:
            put(at["jack"] + (view.jack_seat - me) % n)
        if view.trick_leader >= 0:
            put(at["leader"] + (view.trick_leader - me) % n)
        if view.to_act is not None:
            put(at["to_act"] + (view.to_act - me) % n)
        put(at["pass_to"] + view.pass_offset % n)
        if view.phase == PASS:
            put(at["phase"])
        elif view.phase == PLAY:
            put(at["phase"] + 1)
        if view.hearts_broken:
            put(at["hearts_broken"])
        if view.totals:
            totals = at["totals"]
            for k in range(n):
                t = view.totals[(me + k) % n]
                if t:
                    values.append((totals + k, min(max(t / rules.target, -1.0), 2.0)))
        return ones, values

    def dense(self, view: View, pending: int = 0) -> list[float]:
        """The vector as a list of ``size`` floats."""
        out = [0.0] * self.size
        ones, values = self.sparse(view, pending)
        for i in ones:
            out[i] = 1.0
        for i, v in values:
            out[i] = v
        return out
