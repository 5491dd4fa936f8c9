"""What the routes share: a JSON body read within a limit, rules from it,
errors as responses, and a WebSocket's frames one after the other."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from fastapi import Request, WebSocket
from fastapi.responses import JSONResponse

from damepique.engine import PRESETS, Rules, RulesError


def rules_from_body(body: dict[str, Any]) -> Rules:
    """Rules from ``{"preset": name, "rules": {...}}``: the preset, then the
    options that change it. Raises RulesError naming what is wrong."""
    preset = body.get("preset")
    base: dict[str, Any] = {}
    if preset is not None:
        if preset not in PRESETS:
            raise RulesError(f"unknown preset {str(preset)[:40]!r}")
        base = PRESETS[preset].to_json()
    extra = body.get("rules") or {}
    if not isinstance(extra, dict):
        raise RulesError("rules must be an object")
    return Rules.from_json(base | extra)


def error_response(code: str, reason: str, status: int = 400) -> JSONResponse:
    """An error with a stable code and a readable reason."""
    return JSONResponse({"error": code, "code": code, "reason": reason}, status_code=status)


async def json_body(request: Request, limit: int) -> dict[str, Any] | None:
    """The request's JSON object (an empty body is ``{}``); None when the body is
    over ``limit`` bytes, not JSON, or not an object."""
    raw = await request.body()
    if len(raw) > limit:
        return None
    try:
        data = json.loads(raw or b"{}")
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


async def frames(ws: WebSocket) -> AsyncIterator[str | bytes | None]:
    """Each frame's text (or bytes, for a binary frame) until the peer leaves.
    A frame with neither is yielded as None, for the caller to refuse."""
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        yield message.get("bytes") if text is None else text
