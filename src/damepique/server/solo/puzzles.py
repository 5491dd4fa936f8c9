"""Puzzles (issue 26, ``docs/protocol.md``): positions where one card is
clearly right, from the starter set shipped with the package
(``bots.puzzles``). A puzzle is served without its answer; the answer comes
back with the numbers of the card chosen and of the best one, and the
player's new puzzle rating (Glicko-2, computed with the ``glicko2``
library: the puzzle is the opponent, at its own rating). The rating is the
player's to keep (the page keeps it on the device) and to send with the
next answer: the server stores nothing.
"""

from __future__ import annotations

import functools
import random
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from damepique.bots import puzzles as bank

from ..errors import Refusal
from ..http import json_body
from ..protocol import Json

PUZZLE_RD = 60.0
"""The deviation a puzzle's rating is taken with (puzzles are many and steady)."""
START = {"rating": 1500.0, "rd": 350.0, "vol": 0.06}
"""A new player's rating."""
NEAR = 200
"""A next puzzle is drawn among those within this of the player's rating (wider when none is)."""


@functools.lru_cache(maxsize=1)
def starter() -> tuple[Json, ...]:
    """The shipped puzzles, read once."""
    return tuple(bank.load()["puzzles"])


@functools.lru_cache(maxsize=1)
def by_id() -> dict[str, Json]:
    return {p["id"]: p for p in starter()}


def shown(p: Json) -> Json:
    """A puzzle as the page gets it before answering: the seat's view, never the answer."""
    return {k: p[k] for k in ("id", "preset", "rules", "view", "theme", "rating")}


def new_rating(player: Json, puzzle_rating: float, won: bool) -> Json:
    """The player's rating after a puzzle solved (``won``) or missed."""
    import glicko2  # the server's extra; read only here

    me = glicko2.Player(rating=float(player["rating"]), rd=float(player["rd"]), vol=float(player["vol"]))
    me.update_player([float(puzzle_rating)], [PUZZLE_RD], [1.0 if won else 0.0])
    return {
        "rating": round(float(me.rating), 1),
        "rd": round(float(me.rd), 1),
        "vol": round(float(me.vol), 6),
    }


def _rating(value: object) -> Json:
    """The player's rating as the page sends it, checked; a new player's when absent."""
    if value is None:
        return dict(START)
    if not isinstance(value, dict):
        raise Refusal("bad_request", "rating must be {rating, rd, vol}")
    out: Json = {}
    for key, low, high in (("rating", 0.0, 4000.0), ("rd", 1.0, 350.0), ("vol", 0.0001, 1.0)):
        x = value.get(key, START[key])
        if isinstance(x, bool) or not isinstance(x, int | float) or not low <= float(x) <= high:
            raise Refusal("bad_request", f"rating.{key} must be a number from {low:g} to {high:g}")
        out[key] = float(x)
    return out


def pick(theme: str | None, rating: float, seen: set[str], rng: random.Random) -> Json | None:
    """A puzzle of ``theme`` (any: None) near ``rating`` not in ``seen``."""
    pool = [p for p in starter() if (theme is None or p["theme"] == theme) and p["id"] not in seen]
    if not pool:
        pool = [p for p in starter() if theme is None or p["theme"] == theme]
    if not pool:
        return None
    for width in (NEAR, 2 * NEAR, 4 * NEAR):
        near = [p for p in pool if abs(p["rating"] - rating) <= width]
        if near:
            return rng.choice(near)
    return rng.choice(pool)


def install(app: FastAPI) -> None:
    @app.get("/api/puzzles")
    async def puzzle_set() -> JSONResponse:
        ps = starter()
        return JSONResponse(
            {"count": len(ps), "themes": bank.counts(ps, "theme"), "presets": bank.counts(ps, "preset")}
        )

    @app.get("/api/puzzles/next")
    async def next_puzzle(theme: str | None = None, rating: float = 1500.0, seen: str = "") -> JSONResponse:
        if theme in ("", "all"):
            theme = None
        if theme is not None and theme not in bank.THEMES:
            raise Refusal("bad_request", f"theme must be one of {', '.join(bank.THEMES)}")
        ids = set(seen.split(",")[-200:]) if seen else set()
        p = pick(theme, rating, ids, random.Random())
        if p is None:
            raise Refusal("not_found", "no puzzle of this theme")
        return JSONResponse(shown(p))

    @app.get("/api/puzzles/{puzzle_id}")
    async def one_puzzle(puzzle_id: str) -> JSONResponse:
        p = by_id().get(puzzle_id)
        if p is None:
            raise Refusal("not_found", "no puzzle with this id")
        return JSONResponse(shown(p))

    @app.post("/api/puzzles/{puzzle_id}/answer")
    async def answer(request: Request, puzzle_id: str) -> JSONResponse:
        p = by_id().get(puzzle_id)
        if p is None:
            raise Refusal("not_found", "no puzzle with this id")
        body = await json_body(request, 4096)
        card = body.get("card")
        if not isinstance(card, str) or card not in p["view"]["legal"]:
            raise Refusal("illegal_play", "card must be one of the legal cards of the puzzle")
        player = _rating(body.get("rating"))
        right = card in p["answer"]
        chosen = next((o for o in p["options"] if card in o["cards"]), None)
        best = next(o for o in p["options"] if o["best"])
        out: dict[str, Any] = {
            "id": puzzle_id,
            "card": card,
            "correct": right,
            "answer": p["answer"],
            "margin": p["margin"],
            "theme": p["theme"],
            "chosen": chosen,
            "best": best,
            "options": p["options"],
            "puzzle_rating": p["rating"],
            "rating": new_rating(player, p["rating"], right),
        }
        return JSONResponse(out)


__all__ = ["START", "install", "new_rating", "pick", "shown", "starter"]
