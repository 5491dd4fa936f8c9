"""The account routes: register, log in, log out, who am I, leaderboard and profiles,
and the bots a person makes (``bots``)."""

from __future__ import annotations

import os

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from ..errors import Refusal
from ..http import address_key, client_host, json_body
from ..protocol import Json
from .accounts import COOKIE, SESSION_AGE, Accounts, nickname_key


def _secure(request: Request) -> bool:
    if os.environ.get("DAMEPIQUE_SECURE_COOKIES") == "1":
        return True
    return request.url.scheme == "https" or request.headers.get("x-forwarded-proto") == "https"


def install(app: FastAPI, accounts: Accounts) -> None:
    store = accounts.store

    async def signed_in(key: str, nickname: str, request: Request, status: int = 200) -> JSONResponse:
        cookie = await accounts.open_session(key)
        resp = JSONResponse({"nickname": nickname}, status_code=status)
        resp.set_cookie(
            COOKIE,
            cookie,
            max_age=SESSION_AGE,
            httponly=True,
            samesite="lax",
            secure=_secure(request),
            path="/",
        )
        return resp

    @app.post("/api/accounts")
    async def register(request: Request) -> JSONResponse:
        body = await json_body(request, 4096)
        key, code, reason = await accounts.register(
            address_key(client_host(request)), body.get("nickname"), body.get("password")
        )
        if key is None:
            raise Refusal(code, reason)
        return await signed_in(key, str(body["nickname"]).strip(), request, 201)

    @app.post("/api/login")
    async def login(request: Request) -> JSONResponse:
        body = await json_body(request, 4096)
        key = await accounts.login(
            address_key(client_host(request)), body.get("nickname"), body.get("password")
        )
        if key is None:
            raise Refusal("bad_login", "wrong nickname or password")
        acc = await store.get_account(key)
        assert acc is not None
        return await signed_in(key, acc["nickname"], request)

    @app.post("/api/logout")
    async def logout(request: Request) -> JSONResponse:
        await accounts.close_session(request.cookies)
        resp = JSONResponse({"ok": True})
        resp.delete_cookie(COOKIE, path="/")
        return resp

    async def account_of(request: Request) -> str | None:
        return await accounts.account_of(request.cookies, request.headers.get("authorization"))

    @app.get("/api/me")
    async def me(request: Request) -> JSONResponse:
        key = await account_of(request)
        acc = await store.get_account(key) if key else None
        if acc is None:
            return JSONResponse({"nickname": None})
        return JSONResponse(
            {
                "nickname": acc["nickname"],
                "rating": round(acc["rating"]),
                "bot": acc["kind"] == "bot",
                "puzzle_consent": acc["puzzle_consent"],
            }
        )

    @app.post("/api/me/puzzle-consent")
    async def puzzle_consent(request: Request) -> JSONResponse:
        """The person lets puzzles be mined from the games they finish (``{"allowed": true}``),
        or no longer does; off until they say so (``docs/bots.md``, "Puzzles")."""
        body = await json_body(request, 4096)
        allowed = body.get("allowed")
        if not isinstance(allowed, bool):
            raise Refusal("bad_request", "allowed must be true or false")
        key = await account_of(request)
        if key is None or not await store.set_puzzle_consent(key, allowed):
            raise Refusal("account_needed", "sign in first (a person's account)")
        return JSONResponse({"puzzle_consent": allowed})

    # -- bots: a person's programs, each with an account and a token ------------------------------

    bots = accounts.bots

    @app.get("/api/bots")
    async def my_bots(request: Request) -> JSONResponse:
        return JSONResponse({"bots": await bots.list(await account_of(request))})

    @app.post("/api/bots")
    async def make_bot(request: Request) -> JSONResponse:
        body = await json_body(request, 4096)
        made = await bots.create(await account_of(request), body.get("nickname"))
        return JSONResponse(made, status_code=201)

    async def bot_change(nickname: str, request: Request, change: str) -> JSONResponse:
        """A new token (``new_token``) or none (``revoke``) for one of the person's bots."""
        account = await account_of(request)
        made = await (bots.new_token if change == "new_token" else bots.revoke)(account, nickname)
        return JSONResponse(made)

    @app.post("/api/bots/{nickname}/token")
    async def new_bot_token(nickname: str, request: Request) -> JSONResponse:
        return await bot_change(nickname, request, "new_token")

    @app.post("/api/bots/{nickname}/quick")
    async def bot_quick(nickname: str, request: Request) -> JSONResponse:
        """The owner allows (or no longer allows) a bot in casual quick matches."""
        body = await json_body(request, 4096)
        return JSONResponse(await bots.allow_quick(await account_of(request), nickname, body.get("allowed")))

    @app.delete("/api/bots/{nickname}")
    async def revoke_bot(nickname: str, request: Request) -> JSONResponse:
        return await bot_change(nickname, request, "revoke")

    @app.get("/api/leaderboard")
    async def leaderboard() -> JSONResponse:
        rows = await store.leaderboard()
        return JSONResponse(
            {
                "players": [
                    {
                        "rank": i + 1,
                        "nickname": r["nickname"],
                        "rating": r["rating"],
                        "games": r["stats"]["ranked"],
                        "wins": r["stats"]["wins"],
                        "bot": r["kind"] == "bot",
                    }
                    for i, r in enumerate(rows)
                ]
            }
        )

    @app.get("/api/ladder")
    async def ladder() -> Json:
        """The bots' ladder: ratings from ranked challenges between bots only (docs/bot-api.md)."""
        rows = await store.ladder()
        return {"bots": [{"rank": i + 1, **r} for i, r in enumerate(rows)]}

    @app.get("/api/players/{nickname}")
    async def profile(nickname: str) -> JSONResponse:
        key = nickname_key(nickname)
        acc = await store.get_account(key) if key else None
        if acc is None:
            raise Refusal("not_found", "no player with this nickname")
        s = acc["stats"]
        owner = await store.get_account(acc["owner"]) if acc["owner"] else None
        return JSONResponse(
            {
                "nickname": acc["nickname"],
                "bot": acc["kind"] == "bot",
                "owner": None if owner is None else owner["nickname"],
                "rating": round(acc["rating"]),
                "history": await store.history(acc["key"]),
                "stats": {
                    "games": s["games"],
                    "ranked": s["ranked"],
                    "wins": s["wins"],
                    "deals": s["deals"],
                    "average_points": round(s["points"] / s["deals"], 2) if s["deals"] else None,
                    "moons": s["moons"],
                    "queens": s["queens"],
                },
            }
        )


__all__ = ["install"]
