"""A player's figures, computed from the records of the games they finished.

One source of truth, the games: when a game ends each person's part of it
is summed up from the game (``seat_summary``: points, queens, moons, place)
and kept beside who played it; a player's figures add those up. A game
without one (from before they were kept) is summed up once from its stored
record (``summary_of``, a replay) and kept. Nothing is counted on the path of
a card. ``figures`` is pure.

>>> figures([])["games"], figures([])["average_points"]
(0, None)
"""

from __future__ import annotations

from collections.abc import Sequence

from ..accounts.summaries import mode_for, mode_of, preset_of, seat_summary, summary_of
from ..protocol import Json
from ..storage.daily import Entry
from ..storage.puzzles import Attempt

LAST = 10
"""Games listed under "last games"."""
MODES = ("solo", "daily", "casual", "ranked")


def _rate(part: int, whole: int, digits: int = 3) -> float | None:
    return round(part / whole, digits) if whole else None


def figures(summaries: Sequence[Json]) -> Json:
    """The figures of one player, adding up their summaries of the games they
    finished (``seat_summary``), newest first (``docs/multiplayer.md``, "Statistics")."""
    n = wins = firsts = deals = points = queens = made = conceded = 0
    by_mode: dict[str, dict[str, int]] = {}
    by_preset: dict[str, dict[str, int]] = {}
    last: list[Json] = []
    for g in summaries:
        n += 1
        wins += bool(g["won"])
        firsts += g["place"] == 1
        deals += g["deals"]
        points += g["points"]
        queens += g["queens"]
        made += g["moons_made"]
        conceded += g["moons_conceded"]
        for table, key in ((by_mode, g["mode"]), (by_preset, g["preset"])):
            entry = table.setdefault(key, {"games": 0, "wins": 0})
            entry["games"] += 1
            entry["wins"] += bool(g["won"])
        if len(last) < LAST:
            shown = ("game", "finished", "mode", "preset", "players", "seat", "totals", "place", "won")
            last.append(
                {k: g[k] for k in shown}
                # A tournament's game has no replay: its record stays with the tournament
                # (whose results page shows its deals), so a replay would only be refused.
                | {
                    "replay": None if g["mode"] == "tourney" else f"#/replay/{g['game']}",
                    "analysis": f"#/analysis/{g['game']}",
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


def puzzle_figures(attempts: Sequence[Attempt], rating: Json | None) -> Json:
    """The puzzles a player answered (``storage.puzzles``, oldest first) and
    their puzzle ``rating`` (None: none answered): how many were tried and
    solved, the current and best streaks of solved puzzles, and by theme."""
    streak = best = 0
    themes: dict[str, Json] = {}
    for a in attempts:
        streak = streak + 1 if a.correct else 0
        best = max(best, streak)
        t = themes.setdefault(a.theme, {"tried": 0, "solved": 0})
        t["tried"] += 1
        t["solved"] += int(a.correct)
    return {
        "rating": None if rating is None else round(float(rating["rating"])),
        "rd": None if rating is None else round(float(rating["rd"])),
        "tried": len(attempts),
        "solved": sum(1 for a in attempts if a.correct),
        "streak": streak,
        "best_streak": best,
        "by_theme": dict(sorted(themes.items())),
    }


__all__ = [
    "LAST",
    "MODES",
    "daily_figures",
    "figures",
    "mode_for",
    "mode_of",
    "preset_of",
    "puzzle_figures",
    "seat_summary",
    "summary_of",
]
