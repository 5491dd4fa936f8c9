"""A tournament's results: its boards, scored as duplicate, and the standings.

A *board* is one deal in one seat position: everyone who held those cards,
one a table. Deal ``k``'s boards are *published* (their results and who held
what) once every table has finished deal ``k``, or the tournament is over:
before that, no table may learn anything of a deal it is still playing from
another table's result. The standings count the published boards only:
matchpoints (``duplicate.score_board``), their share of the most possible,
and the average difference. A deal a table did not finish when the round
ended scores the board's average for its players (``docs/tournaments.md``).
"""

from __future__ import annotations

import csv
import io

from damepique.engine import CARD_NAMES, Rules
from damepique.engine.fairness import deal_cards, fairness_json

from ..duplicate import competition_ranks, score_board
from ..errors import Refusal
from ..play.fixed import FixedGame
from ..play.game import Seat
from ..protocol import Json
from ..storage.games import GameStore
from . import movement

Table = tuple[list[list[int]], list[list[bool]], list[Json]]
"""One table's points by deal and seat, whether a bot stood in for the seat
in each deal, and its seats (name, kind)."""


async def table_results(games: GameStore, game_id: str, secret: bytes, deals: int) -> Table:
    loaded = await games.load_game(game_id)
    if loaded is None:
        return [], [], []
    row, events = loaded
    seats = [Seat.from_json(s) for s in row.seats]
    game = FixedGame(
        Rules.from_json(row.rules),
        seats,
        secret,
        deals=deals,
        closed=lambda: False,
        revealed=lambda: False,
        refusal=Refusal("round_over", "never closed: never raised"),
    ).replayed(events)
    points = [list(r["points"]) for r in game.results()]
    stood: list[list[bool]] = []
    deal = -1
    for e in events:
        if e["type"] == "deal":
            deal = e["number"]
            stood.append([False] * len(seats))
        elif e.get("auto") and "seat" in e and deal >= 0:
            stood[deal][e["seat"]] = True
    people = [{"name": s.name, "kind": s.kind} for s in seats]
    return points, stood, people


async def results(doc: Json, games: GameStore) -> Json:
    rules = Rules.from_json(doc["rules"])
    secret = bytes.fromhex(doc["secret"])
    over = doc["status"] == "over"
    deals, count, current = doc["deals"], doc["tables"], doc.get("round", 0)
    begun = [p["game_ids"] for p in doc.get("past", [])] + [doc.get("game_ids", [])]
    boards: list[Json] = []
    totals: dict[tuple[int, int], list[float]] = {}
    """(first round's table, seat position) -> matchpoints, difference, most possible:
    a player keeps their seat position and moves between tables (``movement``)."""
    who: dict[tuple[int, int], Json] = {}
    progress: list[int] = []
    moves = movement.movement_of(doc)
    for r in range(doc.get("rounds", 1)):
        gids = begun[r] if r < len(begun) else []
        dealt = movement.round_secret(secret, r)
        tables = [await table_results(games, gid, dealt, deals) for gid in gids]
        progress = [len(points) for points, _, _ in tables] if r <= current else progress
        for k in range(deals):
            finished = r < current or all(len(points) > k for points, _, _ in tables)
            published = bool(tables) and (over or finished)
            board: Json = {"deal": r * deals + k, "round": r, "published": published}
            if published:
                hands, _ = deal_cards(rules, dealt, k)
                board["hands"] = [[CARD_NAMES[c] for c in sorted(h)] for h in hands]
                board["results"] = _board_rows(tables, k, r, moves, rules.players, totals, who)
            boards.append(board)
    standings = []
    for (t, s), (mp, diff, top) in totals.items():
        standings.append(
            {
                "name": who[(t, s)]["name"],
                "kind": who[(t, s)]["kind"],
                "table": t + 1,
                "seat": s,
                "matchpoints": round(mp, 2),
                "percent": round(100 * mp / top, 1) if top else 50.0,
                "diff": round(diff, 2),
            }
        )
    standings.sort(key=lambda r: (-r["matchpoints"], -r["diff"]))
    ranks = competition_ranks([-r["matchpoints"] for r in standings])
    for row, rank in zip(standings, ranks, strict=True):
        row["rank"] = rank
    return {
        "code": doc["code"],
        "name": doc["name"],
        "status": doc["status"],
        "final": over,
        "rules": doc["rules"],
        "deals": deals,
        "tables": count,
        "rounds": doc.get("rounds", 1),
        "round": current,
        "progress": progress,
        "fairness": fairness_json(secret, revealed=over),
        "boards": boards,
        "standings": standings,
    }


def _board_rows(
    tables: list[Table],
    k: int,
    r: int,
    moves: movement.Movement,
    players: int,
    totals: dict[tuple[int, int], list[float]],
    who: dict[tuple[int, int], Json],
) -> list[Json]:
    """One published board's results (deal ``k`` of round ``r``), added to the totals."""
    rows = []
    for s in range(players):
        held = [pts[k][s] if k < len(pts) else None for pts, _, _ in tables]
        for t, (score, (_, stood, people)) in enumerate(zip(score_board(held), tables, strict=True)):
            mp, diff = score
            rows.append(
                {
                    "table": t + 1,
                    "seat": s,
                    "name": people[s]["name"],
                    "kind": people[s]["kind"],
                    "points": held[t],
                    "matchpoints": mp,
                    "diff": diff,
                    "stand_in": k < len(stood) and stood[k][s],
                }
            )
            key = (moves.origin(t, s, r), s)
            who.setdefault(key, people[s])
            total = totals.setdefault(key, [0.0, 0.0, 0.0])
            total[0] += mp
            total[1] += diff
            total[2] += len(tables) - 1
    return rows


def results_csv(data: Json) -> str:
    """Every published board's results, one line a player and deal."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["deal", "table", "seat", "name", "kind", "points", "matchpoints", "diff", "stand_in"])
    for board in data["boards"]:
        for r in board.get("results", []):
            writer.writerow(
                [
                    board["deal"] + 1,
                    r["table"],
                    r["seat"],
                    r["name"],
                    r["kind"],
                    "" if r["points"] is None else r["points"],
                    r["matchpoints"],
                    r["diff"],
                    "yes" if r["stand_in"] else "",
                ]
            )
    return out.getvalue()


__all__ = ["results", "results_csv", "table_results"]
