"""One deal as written on the sheet: each player's points, or "moon shot by X".

An entry is checked before it is saved, and turned into the deal's points
under the sheet's rules: the engine's ``score`` applies the moon and the J♦.

A points entry is what each player scores in the deal (the J♦ counted as
-10). It must add up to the deal's total, or be exactly the points of a moon
(``0, 26, 26, 26``). A player written down with every point of the deck (26)
shot the moon, and the moon rule is applied.

With the J♦, points such as ``16, 0, 0, 0`` read two ways: a moon by a player
who took the J♦ as well (26 - 10, to be scored -10, 26, 26, 26), or an
ordinary deal (the queen and three hearts to one player, the J♦ and ten hearts
to another). Such an entry is refused as ``ambiguous`` with both readings, each
an entry to send back: the moon, or the same points marked ``ordinary``.

>>> rules = SheetRules()
>>> score_entry(PointsEntry((5, 8, 13, 0)), rules, ["Ann", "Bob", "Cy", "Dee"]).points
(5, 8, 13, 0)
>>> score_entry(MoonEntry(2), rules, ["Ann", "Bob", "Cy", "Dee"]).points
(26, 26, 0, 26)
>>> score_entry(PointsEntry((5, 8, 11, 0)), rules, ["Ann", "Bob", "Cy", "Dee"])
Traceback (most recent call last):
...
damepique.scorer.errors.ScoreError: the points add up to 24, a deal gives 26: 2 points are missing
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import AMBIGUOUS, BAD_ENTRY, ScoreError
from .rules import JACK_POINTS, SheetRules


@dataclass(frozen=True)
class PointsEntry:
    """Each player's points in the deal, in the sheet's order of players.

    ``ordinary``: the points are an ordinary deal, not a moon by the player
    who also took the J♦ (the answer to an ``ambiguous`` refusal)."""

    points: tuple[int, ...]
    ordinary: bool = False


@dataclass(frozen=True)
class MoonEntry:
    """``shooter`` took every point card; ``jack`` took the J♦ (the shooter if not said)."""

    shooter: int
    jack: int | None = None


Entry = PointsEntry | MoonEntry


@dataclass(frozen=True)
class ScoredDeal:
    """An entry that passed the checks, with the points it puts on the sheet."""

    entry: Entry
    points: tuple[int, ...]
    shooter: int | None
    jack: int | None


def moon_points(rules: SheetRules, players: int, shooter: int, jack: int | None) -> tuple[int, ...]:
    """The fixed amounts of a moon shot by ``shooter`` (J♦ taken by ``jack``).

    >>> moon_points(SheetRules(moon="self"), 4, 1, None)
    (0, -26, 0, 0)
    >>> moon_points(SheetRules(jack_of_diamonds=True), 4, 0, 3)
    (0, 26, 26, 16)
    """
    taken = [rules.moon_points if seat == shooter else 0 for seat in range(players)]
    points, _ = rules.card_rules.score(taken, jack if rules.jack_of_diamonds else None)
    return tuple(points)


def score_entry(entry: Entry, rules: SheetRules, names: Sequence[str]) -> ScoredDeal:
    """Check ``entry`` and give its points; raises ScoreError saying what is wrong."""
    if isinstance(entry, MoonEntry):
        return _score_moon(entry, rules, names)
    return _score_points(entry, rules, names)


def _score_moon(entry: MoonEntry, rules: SheetRules, names: Sequence[str]) -> ScoredDeal:
    n = len(names)
    if not rules.has_moon:
        raise ScoreError(BAD_ENTRY, "moon_off")
    _check_seat(entry.shooter, n)
    jack = entry.jack
    if jack is not None:
        if not rules.jack_of_diamonds:
            raise ScoreError(BAD_ENTRY, "jack_off")
        _check_seat(jack, n)
    elif rules.jack_of_diamonds:
        jack = entry.shooter
    points = moon_points(rules, n, entry.shooter, jack)
    return ScoredDeal(MoonEntry(entry.shooter, jack), points, entry.shooter, jack)


def _score_points(entry: PointsEntry, rules: SheetRules, names: Sequence[str]) -> ScoredDeal:
    n = len(names)
    points = tuple(entry.points)
    if len(points) != n:
        raise ScoreError(BAD_ENTRY, "points_count", {"players": n, "count": len(points)})
    for seat, value in enumerate(points):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ScoreError(BAD_ENTRY, "points_not_number", {"player": names[seat], "value": value}, seat)
    if rules.has_moon:
        moon = _moon_written_out(points, rules)
        if moon is not None:
            return ScoredDeal(entry, points, *moon)
    for seat, value in enumerate(points):
        params = {"player": names[seat], "points": value, "limit": rules.moon_points}
        if value < rules.lowest:
            code = "points_below_jack" if rules.jack_of_diamonds else "points_negative"
            raise ScoreError(BAD_ENTRY, code, params, seat)
        if value > rules.moon_points:
            raise ScoreError(BAD_ENTRY, "points_too_many", params | {"over": value - rules.moon_points}, seat)
    negative = [seat for seat, value in enumerate(points) if value < 0]
    if len(negative) > 1:
        raise ScoreError(BAD_ENTRY, "jack_twice", {"players": [names[s] for s in negative]}, negative[1])
    total, expected = sum(points), rules.deal_total
    if total != expected:
        code = "sum_short" if total < expected else "sum_over"
        params = {"total": total, "expected": expected, "difference": abs(total - expected)}
        raise ScoreError(BAD_ENTRY, code, params)
    if rules.has_moon and rules.moon_points in points:
        # Someone took every point card: written as taken, scored as a moon.
        shooter = points.index(rules.moon_points)
        jack = negative[0] if negative else None
        return ScoredDeal(entry, moon_points(rules, n, shooter, jack), shooter, jack)
    taker = _moon_with_jack_as_taken(points, rules)
    if taker is not None and not entry.ordinary:
        scores = moon_points(rules, n, taker, taker)
        params = {
            "player": names[taker],
            "points": points[taker],
            "shooter_score": scores[taker],
            "others_score": scores[(taker + 1) % n],
            "readings": [
                {"entry": entry_to_json(MoonEntry(taker, taker)), "points": list(scores)},
                {"entry": entry_to_json(PointsEntry(points, ordinary=True)), "points": list(points)},
            ],
        }
        raise ScoreError(AMBIGUOUS, "moon_or_ordinary", params, taker)
    return ScoredDeal(entry, points, None, negative[0] if negative else None)


def _moon_with_jack_as_taken(points: tuple[int, ...], rules: SheetRules) -> int | None:
    """The seat that would have shot the moon taking the J♦ too, when ``points``
    read so: that seat has every point less 10 and the others nothing."""
    if not (rules.has_moon and rules.jack_of_diamonds):
        return None
    taken = rules.moon_points + JACK_POINTS
    seats = [seat for seat, value in enumerate(points) if value]
    if len(seats) == 1 and points[seats[0]] == taken:
        return seats[0]
    return None


def _moon_written_out(points: tuple[int, ...], rules: SheetRules) -> tuple[int, int | None] | None:
    """``(shooter, jack)`` when ``points`` are exactly the amounts of a moon."""
    n = len(points)
    jacks: Sequence[int | None] = range(n) if rules.jack_of_diamonds else (None,)
    for shooter in range(n):
        for jack in jacks:
            if moon_points(rules, n, shooter, jack) == points:
                return shooter, jack
    return None


def _check_seat(seat: object, players: int) -> None:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
        raise ScoreError(BAD_ENTRY, "unknown_player", {"player": seat})


def seat_of(player: object, names: Sequence[str]) -> int:
    """A player given by position (0-based int) or by name (case does not matter)."""
    if isinstance(player, int) and not isinstance(player, bool):
        _check_seat(player, len(names))
        return player
    if isinstance(player, str):
        wanted = player.strip().casefold()
        for seat, name in enumerate(names):
            if name.casefold() == wanted:
                return seat
    raise ScoreError(BAD_ENTRY, "unknown_player", {"player": player})


def entry_from_json(data: Mapping[str, Any], names: Sequence[str]) -> Entry:
    """``{"points": [..]}`` (with ``"ordinary": true`` to say it was no moon) or
    ``{"moon": player, "jack": player}`` (a player by position or name).

    >>> entry_from_json({"moon": "bob"}, ["Ann", "Bob", "Cy"])
    MoonEntry(shooter=1, jack=None)
    """
    points, moon = data.get("points"), data.get("moon")
    if points is not None and moon is not None:
        raise ScoreError(BAD_ENTRY, "entry_both")
    if moon is not None:
        jack = data.get("jack")
        return MoonEntry(seat_of(moon, names), None if jack is None else seat_of(jack, names))
    if points is None:
        raise ScoreError(BAD_ENTRY, "entry_empty")
    if not isinstance(points, (list, tuple)):
        raise ScoreError(BAD_ENTRY, "points_count", {"players": len(names), "count": 1})
    return PointsEntry(tuple(points), data.get("ordinary") is True)


def entry_to_json(entry: Entry) -> dict[str, Any]:
    if isinstance(entry, MoonEntry):
        return {"moon": entry.shooter, "jack": entry.jack}
    if entry.ordinary:
        return {"points": list(entry.points), "ordinary": True}
    return {"points": list(entry.points)}
