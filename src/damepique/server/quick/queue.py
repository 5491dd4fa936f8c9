"""The quick-match queue: who waits for which game, and who sits together.

Pure state, no I/O: the process that owns the queue (``service``) adds and
removes people and asks, each time someone comes and each second of the app's
clock, which groups to seat (``Queue.groups``). Time is an input (``now``).

A group forms around the person waiting longest (the *anchor*): people of the
same choice join it, oldest first (ranked: nearest rating first, each within
everyone's window), until it is full; a full group sits down at once, and a
group whose anchor's chosen wait is over sits down as it is, bots filling
the empty seats. A ranked window is ``BASE_WINDOW`` rating points at first
and widens by ``WIDEN_PER_S`` each second waited.

>>> q = Queue()
>>> for i, r in enumerate((1500, 1520, 1900, 1490)):
...     _ = q.add(Entry(f"t{i}", f"p{i}", Choice(ranked=True), since=0.0, wait=30, rating=r))
>>> [[e.ticket for e in g] for g in q.groups(now=1.0)]
[]
>>> [[e.ticket for e in g] for g in q.groups(now=30.0)]  # 1900 is 410 from 1490: a table of its own
[['t0', 't3', 't1'], ['t2']]
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ..errors import Refusal
from ..protocol import Json

PLAYER_CHOICES = ("4", "3-5")
"""Four players, or three to five: as many as come (bots filling up to three)."""
TARGETS = (100, 50)
DEFAULT_WAIT = 30
"""Seconds a person waits for people before bots fill the empty seats."""
MAX_WAIT = 300
BASE_WINDOW = 100.0
"""Rating points apart two people may be to sit at a ranked quick match at once..."""
WIDEN_PER_S = 10.0
"""...and how much wider the window gets each second waited (400 at 30 s)."""


@dataclass(frozen=True)
class Choice:
    """What a person queues for: ranked or casual, 100 or 50 points, 4 or 3-5 players."""

    ranked: bool = False
    target: int = 100
    players: str = "4"

    @property
    def key(self) -> str:
        """One queue per choice: ``"casual-100-4"``, ``"ranked-50-3-5"``."""
        return f"{'ranked' if self.ranked else 'casual'}-{self.target}-{self.players}"

    @property
    def seats(self) -> tuple[int, int]:
        """The fewest and the most seats of its tables."""
        return (4, 4) if self.players == "4" else (3, 5)

    def to_json(self) -> Json:
        return asdict(self)

    @classmethod
    def from_json(cls, body: Json) -> Choice:
        """The choice a page sent; ``Refusal`` (``bad_option``) names what is wrong.

        >>> Choice.from_json({"ranked": True, "target": 50, "players": "3-5"}).key
        'ranked-50-3-5'
        >>> Choice.from_json({"players": 6})
        Traceback (most recent call last):
        ...
        damepique.server.errors.Refusal: players must be "4" or "3-5"
        """
        ranked = body.get("ranked", False)
        if not isinstance(ranked, bool):
            raise Refusal("bad_option", "ranked must be true or false")
        target = body.get("target", 100)
        if target not in TARGETS or isinstance(target, bool):
            raise Refusal("bad_option", "target must be 100 or 50")
        players = body.get("players", "4")
        if isinstance(players, int) and not isinstance(players, bool):
            players = str(players)
        if players not in PLAYER_CHOICES:
            raise Refusal("bad_option", 'players must be "4" or "3-5"')
        return cls(ranked, int(target), str(players))


def wait_from(body: Json) -> int:
    """The seconds a page asked to wait for people (``wait``, default 30)."""
    wait = body.get("wait", DEFAULT_WAIT)
    if not isinstance(wait, int) or isinstance(wait, bool) or not 0 <= wait <= MAX_WAIT:
        raise Refusal("bad_option", f"wait must be a whole number of seconds from 0 to {MAX_WAIT}")
    return wait


@dataclass
class Entry:
    """One person waiting. ``person`` says who it is (an account, a device),
    so one person waits in one place; ``ticket`` is this wait's own name (the
    page keeps it to come back after a reconnect)."""

    ticket: str
    person: str
    choice: Choice
    since: float
    """When the person came (the clock's ``time()``)."""
    wait: float
    rating: float | None = None
    name: str = ""
    sitter: Json = field(default_factory=dict)
    """Who sits (``tables.seats.Sitter.to_json``)."""
    pid: str = ""
    """The process holding the person's connection."""

    @property
    def due(self) -> float:
        return self.since + self.wait

    def window(self, now: float) -> float:
        return BASE_WINDOW + WIDEN_PER_S * max(0.0, now - self.since)

    def to_json(self) -> Json:
        return asdict(self)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Entry:
        fields = {k: d[k] for k in cls.__dataclass_fields__ if k in d}
        fields["choice"] = Choice(**d["choice"])
        return cls(**fields)


UNRATED = 1500.0
"""The rating of a ranked entry that came without one (a new account's)."""


def _rating(e: Entry) -> float:
    return UNRATED if e.rating is None else e.rating


def _close_enough(a: Entry, b: Entry, now: float) -> bool:
    return abs(_rating(a) - _rating(b)) <= min(a.window(now), b.window(now))


class Queue:
    """Everyone waiting, by ticket, of every choice."""

    def __init__(self) -> None:
        self.entries: dict[str, Entry] = {}

    def __len__(self) -> int:
        return len(self.entries)

    def add(self, entry: Entry) -> Entry | None:
        """Queue ``entry``; returns the entry of the same person it replaces
        (they queued again from elsewhere), if any. The same ticket again keeps
        its place (its ``since``)."""
        old = self.entries.get(entry.ticket)
        if old is not None:
            entry.since = old.since
        replaced = next(
            (e for e in self.entries.values() if e.person == entry.person and e.ticket != entry.ticket), None
        )
        if replaced is not None:
            del self.entries[replaced.ticket]
        self.entries[entry.ticket] = entry
        return replaced

    def remove(self, ticket: str) -> Entry | None:
        return self.entries.pop(ticket, None)

    def waiting(self, choice: Choice) -> int:
        return sum(1 for e in self.entries.values() if e.choice == choice)

    def groups(self, now: float) -> list[list[Entry]]:
        """The groups to seat now, taken out of the queue: each full one, and
        each whose anchor waited its chosen time (then bots fill). Each choice
        on its own; about linear in the people waiting (a ranked anchor looks
        only at the ratings inside its window: ``benchmarks/README.md``)."""
        by_choice: dict[Choice, list[Entry]] = {}
        for e in sorted(self.entries.values(), key=lambda e: e.since):  # stable: who came first
            by_choice.setdefault(e.choice, []).append(e)
        out: list[list[Entry]] = []
        for choice, waiting in by_choice.items():
            out += self._groups_of(choice, waiting, now)
        for group in out:
            for e in group:
                del self.entries[e.ticket]
        return out

    def _groups_of(self, choice: Choice, waiting: list[Entry], now: float) -> list[list[Entry]]:
        most = choice.seats[1]
        taken: set[str] = set()
        by_rating = sorted(waiting, key=_rating) if choice.ranked else []
        place = {e.ticket: i for i, e in enumerate(by_rating)}
        out = []
        for anchor in waiting:
            if anchor.ticket in taken:
                continue
            if choice.ranked:
                group = self._nearest(anchor, by_rating, place[anchor.ticket], taken, now, most)
            else:
                group = [anchor]
                for e in waiting:
                    if len(group) >= most:
                        break
                    if e is not anchor and e.ticket not in taken:
                        group.append(e)
            if len(group) >= most or now >= anchor.due:
                taken.update(e.ticket for e in group)
                out.append(group)
        return out

    @staticmethod
    def _nearest(
        anchor: Entry, by_rating: list[Entry], at: int, taken: set[str], now: float, most: int
    ) -> list[Entry]:
        """The anchor and the nearest ratings to it (outward from ``at``, its place
        in rating order), each within every member's window, up to ``most``."""
        group = [anchor]
        rating, reach = _rating(anchor), anchor.window(now)
        left, right = at - 1, at + 1
        while len(group) < most:
            while left >= 0 and by_rating[left].ticket in taken:
                left -= 1
            while right < len(by_rating) and by_rating[right].ticket in taken:
                right += 1
            below = rating - _rating(by_rating[left]) if left >= 0 else None
            above = _rating(by_rating[right]) - rating if right < len(by_rating) else None
            if below is None and above is None:
                break
            if above is None or (
                below is not None and (below, by_rating[left].since) <= (above, by_rating[right].since)
            ):
                e, left, gap = by_rating[left], left - 1, below
            else:
                e, right, gap = by_rating[right], right + 1, above
            assert gap is not None
            if gap > reach:
                break  # everyone further is outside the anchor's window
            if all(_close_enough(e, g, now) for g in group):
                group.append(e)
        return group


__all__ = [
    "BASE_WINDOW",
    "DEFAULT_WAIT",
    "MAX_WAIT",
    "PLAYER_CHOICES",
    "TARGETS",
    "UNRATED",
    "WIDEN_PER_S",
    "Choice",
    "Entry",
    "Queue",
    "wait_from",
]
