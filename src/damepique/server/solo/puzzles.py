"""Puzzles (issue 26, ``docs/protocol.md``): positions where one card is
clearly right, from the starter set shipped with the package
(``bots.puzzles``). A puzzle is served without its answer; the answer comes
back with the numbers of the card chosen and of the best one, and the
player's new puzzle rating (Glicko-2, computed with the ``glicko2``
library: the puzzle is the opponent, at its own rating).

Each answer is kept for who gave it (``storage.puzzles``): the signed-in
account, else the browser (``player``, its id), whose answers move to the
account first signed in on it (``POST /api/stats/link``). The rating an
answer starts from is the player's kept one; a player with none yet starts
from the rating the page sends (what the device kept before), else a new
player's. ``GET /api/puzzles/me``: the player's puzzle figures.
"""

from __future__ import annotations

import functools
import random
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from damepique.bots import puzzles as bank

from ..accounts.accounts import Accounts
from ..clock import Clock
from ..errors import Refusal
from ..http import client_id, json_body
from ..protocol import Json
from ..stats.puzzles import START, figures_of, new_rating
from ..storage.puzzles import Attempt, PuzzleStore

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


def _pass_of(p: Json, cards: object) -> list[str]:
    """The cards a pass puzzle's answer names, checked: as many as the rules pass, from the hand."""
    count = len(p["answer"])
    hand = set(p["view"]["hand"])
    if (
        not isinstance(cards, list)
        or len(cards) != count
        or len(set(map(str, cards))) != count
        or not all(isinstance(c, str) and c in hand for c in cards)
    ):
        raise Refusal("illegal_pass", f"cards must be {count} different cards of the hand")
    return [str(c) for c in cards]


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


def install(app: FastAPI, store: PuzzleStore, accounts: Accounts, clock: Clock) -> None:
    async def who(request: Request, device: object) -> str | None:
        """``a:KEY`` signed in, ``g:BROWSER`` a guest that said its id, else None."""
        account = await accounts.account_of(request.cookies, request.headers.get("authorization"))
        if account is not None:
            return f"a:{account}"
        found = client_id(device)
        return None if found is None else f"g:{found}"

    @app.get("/api/puzzles/me")
    async def my_puzzles(request: Request) -> JSONResponse:
        """The puzzle figures of the signed-in account, else of this browser (``X-Player``)."""
        player = await who(request, request.headers.get("x-player"))
        if player is None:
            raise Refusal("bad_request", "say which browser: its player id (X-Player)")
        kind, _, key = player.partition(":")
        if kind == "a":
            return JSONResponse(await figures_of(store, key, []))
        return JSONResponse(await figures_of(store, None, [key]))

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
        if p["theme"] == "pass":
            cards = _pass_of(p, body.get("cards"))
            right = set(cards) == set(p["answer"])
            chosen = next((o for o in p["options"] if set(o["cards"]) == set(cards)), None)
            card: str | None = None
        else:
            card = body.get("card")
            if not isinstance(card, str) or card not in p["view"]["legal"]:
                legal = " ".join(p["view"]["legal"])
                said = repr(card) if isinstance(card, str) else "no card"
                raise Refusal(
                    "illegal_play", f"{said} is not a legal card of this puzzle: play one of {legal}"
                )
            cards = [card]
            right = card in p["answer"]
            chosen = next((o for o in p["options"] if card in o["cards"]), None)
        rating = _rating(body.get("rating"))
        player = await who(request, body.get("player"))
        kept = None if player is None else await store.rating(player)
        before = rating if kept is None else kept
        best = next(o for o in p["options"] if o["best"])
        out: dict[str, Any] = {
            "id": puzzle_id,
            "card": card,
            "cards": cards,
            "correct": right,
            "answer": p["answer"],
            "margin": p["margin"],
            "theme": p["theme"],
            "chosen": chosen,
            "best": best,
            "options": p["options"],
            "puzzle_rating": p["rating"],
            "rating": new_rating(before, p["rating"], right),
        }
        if player is not None:
            await store.answered(
                Attempt(
                    player, puzzle_id, p["theme"], right, p["rating"], clock.time(), before, out["rating"]
                )
            )
        return JSONResponse(out)


__all__ = ["START", "figures_of", "install", "new_rating", "pick", "shown", "starter"]
