"""A player's figures, computed from the records of the games they finished.

One source of truth: each stored game's record (``damepique-game/1``) is
replayed and the player's seat read off it; nothing is counted on the way,
so nothing on the path of a card costs more. ``figures`` is pure: the
routes hand it the games (``storage.stats.StatsStore.games_of``).

>>> figures([])["games"], figures([])["average_points"]
(0, None)
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from damepique.engine import PRESETS, QS, Rules
from damepique.engine.errors import HeartsError
from damepique.engine.record import replay

from ..protocol import Json
from ..storage.daily import Entry
from ..storage.games import GameRow

log = logging.getLogger("damepique.server")

LAST = 10
"""Games listed under "last games"."""
MODES = ("solo", "daily", "casual", "ranked")


def mode_of(row: GameRow) -> str:
    """``solo`` (one person and bots), ``daily`` (the daily deal), ``ranked`` or
    ``casual`` (a table with others)."""
    if row.options.get("kind") in ("solo", "daily"):
        return str(row.options["kind"])
    return "ranked" if row.options.get("ranked") else "casual"


def preset_of(rules: Rules) -> str:
    """The preset these rules are (``custom`` when none is)."""
    return next((name for name, preset in PRESETS.items() if preset == rules), "custom")


def _rate(part: int, whole: int, digits: int = 3) -> float | None:
    return round(part / whole, digits) if whole else None


def figures(games: Sequence[tuple[GameRow, int]]) -> Json:
    """The figures of one player over ``games`` (each with the seat they played),
    newest first (``docs/multiplayer.md``, "Statistics")."""
    n = wins = firsts = deals = points = queens = made = conceded = 0
    by_mode: dict[str, dict[str, int]] = {}
    by_preset: dict[str, dict[str, int]] = {}
    last: list[Json] = []
    for row, seat in games:
        if row.record is None:
            continue
        try:
            match = replay(row.record)
        except HeartsError:
            log.warning("stats: game %s does not replay; left out", row.id)
            continue
        totals = match.totals
        if not 0 <= seat < len(totals):
            continue
        won = match.over and seat in match.winners
        place = 1 + sum(1 for t in totals if t < totals[seat])
        n += 1
        wins += won
        firsts += place == 1
        for deal in match.completed:
            result = deal.result()
            deals += 1
            points += result.points[seat]
            queens += any(w == seat and QS in cards for (_, cards, w, _) in deal.tricks)
            if result.moon is not None:
                made += result.moon == seat
                conceded += result.moon != seat
        mode, preset = mode_of(row), preset_of(match.rules)
        for table, key in ((by_mode, mode), (by_preset, preset)):
            entry = table.setdefault(key, {"games": 0, "wins": 0})
            entry["games"] += 1
            entry["wins"] += won
        if len(last) < LAST:
            last.append(
                {
                    "game": row.id,
                    "finished": row.finished,
                    "mode": mode,
                    "preset": preset,
                    "players": [s.get("name", "") for s in row.seats],
                    "seat": seat,
                    "totals": totals,
                    "place": place,
                    "won": won,
                    "replay": f"#/replay/{row.id}",
                    "analysis": f"#/analysis/{row.id}",
                }
            )
    return {
        "games": n,
        "wins": wins,
        "first_places": firsts,
        "first_place_rate": _rate(firsts, n),
        "deals": deals,
        "points": points,
        "average_points": _rate(points, deals, 2),
        "queens": queens,
        "queens_per_deal": _rate(queens, deals),
        "moons_made": made,
        "moons_conceded": conceded,
        "by_mode": by_mode,
        "by_preset": by_preset,
        "last": last,
    }


def daily_figures(entries: Sequence[Entry]) -> Json:
    """The daily deals a player finished (``storage.daily``): how many, their
    average total, the best (lowest), and the last ten, newest first."""
    done = sorted((e for e in entries if e.total is not None), key=lambda e: e.date, reverse=True)
    totals = [e.total for e in done if e.total is not None]
    return {
        "played": len(totals),
        "average": round(sum(totals) / len(totals), 2) if totals else None,
        "best": min(totals) if totals else None,
        "last": [{"date": e.date, "total": e.total} for e in done[:LAST]],
    }


__all__ = ["LAST", "MODES", "daily_figures", "figures", "mode_of", "preset_of"]
