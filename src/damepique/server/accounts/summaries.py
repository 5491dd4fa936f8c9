"""One person's part of a finished game, summed up once: what their statistics
add up (``server/stats``). Worked out from the game when it ends (``seat_summary``,
called by the tables' registry) or, for a game from before, from its stored
record (``summary_of``, a replay: some 20 ms a game to 100)."""

from __future__ import annotations

import logging

from damepique.engine import QS, Match, preset_of
from damepique.engine.errors import HeartsError
from damepique.engine.record import replay

from ..protocol import Json
from ..storage.games import GameRow

log = logging.getLogger("damepique.server")


def mode_of(row: GameRow) -> str:
    """``solo`` (one person and bots), ``daily`` (the daily deal), ``tourney``
    (a duplicate tournament's table), ``ranked`` or ``casual`` (a table with others)."""
    return mode_for(str(row.options.get("kind", "table")), bool(row.options.get("ranked")))


def mode_for(kind: str, ranked: bool) -> str:
    return kind if kind in ("solo", "daily", "tourney") else "ranked" if ranked else "casual"


def seat_summary(
    match: Match, seat: int, *, game: str, finished: float | None, mode: str, players: list[str]
) -> Json:
    """One seat's part of a finished game, worked out once (when the game ends,
    or from its record): what ``figures`` adds up."""
    totals = match.totals
    deals = points = queens = made = conceded = 0
    for deal in match.completed:
        result = deal.result()
        deals += 1
        points += result.points[seat]
        queens += any(w == seat and QS in cards for (_, cards, w, _) in deal.tricks)
        if result.moon is not None:
            made += result.moon == seat
            conceded += result.moon != seat
    return {
        "game": game,
        "finished": finished,
        "mode": mode,
        "preset": preset_of(match.rules),
        "players": players,
        "seat": seat,
        "totals": totals,
        "place": 1 + sum(1 for t in totals if t < totals[seat]),
        "won": match.over and seat in match.winners,
        "deals": deals,
        "points": points,
        "queens": queens,
        "moons_made": made,
        "moons_conceded": conceded,
    }


def summary_of(row: GameRow, seat: int) -> Json | None:
    """A seat's summary from the game's stored record (None: it does not replay)."""
    if row.record is None:
        return None
    try:
        match = replay(row.record)
    except HeartsError:
        log.warning("stats: game %s does not replay; left out", row.id)
        return None
    if not 0 <= seat < match.players:
        return None
    players = [str(s.get("name", "")) for s in row.seats]
    return seat_summary(match, seat, game=row.id, finished=row.finished, mode=mode_of(row), players=players)


__all__ = ["mode_for", "mode_of", "preset_of", "seat_summary", "summary_of"]
