"""The account routes: register, log in, log out, who am I, leaderboard and profiles."""

from __future__ import annotations

import os

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from ..errors import Refusal
from ..http import address_key, client_host, json_body, refused
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
        try:
            body = await json_body(request, 4096)
            key, code, reason = await accounts.register(
                address_key(client_host(request)), body.get("nickname"), body.get("password")
            )
        except Refusal as e:
            return refused(e)
        if key is None:
            return refused(Refusal(code, reason))
        return await signed_in(key, str(body["nickname"]).strip(), request, 201)

    @app.post("/api/login")
    async def login(request: Request) -> JSONResponse:
        try:
            body = await json_body(request, 4096)
            key = await accounts.login(
                address_key(client_host(request)), body.get("nickname"), body.get("password")
            )
        except Refusal as e:
            return refused(e)
        if key is None:
            return refused(Refusal("bad_login", "wrong nickname or password"))
        acc = await store.get_account(key)
        assert acc is not None
        return await signed_in(key, acc["nickname"], request)

    @app.post("/api/logout")
    async def logout(request: Request) -> JSONResponse:
        await accounts.close_session(request.cookies)
        resp = JSONResponse({"ok": True})
        resp.delete_cookie(COOKIE, path="/")
        return resp

    @app.get("/api/me")
    async def me(request: Request) -> JSONResponse:
        key = await accounts.account_of(request.cookies)
        acc = await store.get_account(key) if key else None
        if acc is None:
            return JSONResponse({"nickname": None})
        return JSONResponse({"nickname": acc["nickname"], "rating": round(acc["rating"])})

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
                    }
                    for i, r in enumerate(rows)
                ]
            }
        )

    @app.get("/api/players/{nickname}")
    async def profile(nickname: str) -> JSONResponse:
        key = nickname_key(nickname)
        acc = await store.get_account(key) if key else None
        if acc is None:
            return refused(Refusal("not_found", "no player with this nickname"))
        s = acc["stats"]
        return JSONResponse(
            {
                "nickname": acc["nickname"],
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
