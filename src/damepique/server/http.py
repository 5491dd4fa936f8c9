"""What the HTTP routes share: a JSON body read within a limit, rules from it,
the browser's id, a refusal as a response, and a FastAPI WebSocket's frames
one after another."""

from __future__ import annotations

import ipaddress
from collections.abc import AsyncIterator, Callable

from fastapi import Request, WebSocket
from fastapi.responses import JSONResponse

from damepique.engine import PRESETS, Rules, RulesError

from .errors import Refusal
from .protocol import Json, loads


def rules_from_body(body: Json) -> Rules:
    """Rules from ``{"preset": name, "rules": {...}}``: the preset, then the
    options that change it. Raises ``Refusal`` (``bad_rules``) naming what is wrong."""
    preset = body.get("preset")
    base: Json = {}
    if preset is not None:
        if not isinstance(preset, str) or preset not in PRESETS:
            raise Refusal("bad_rules", f"unknown preset {str(preset)[:40]!r}")
        base = PRESETS[preset].to_json()
    extra = body.get("rules") or {}
    if not isinstance(extra, dict):
        raise Refusal("bad_rules", "rules must be an object")
    try:
        return Rules.from_json(base | extra)
    except RulesError as e:
        raise Refusal.from_engine(e) from None
    except TypeError as e:
        raise Refusal("bad_rules", str(e)) from None


def client_id(value: object) -> str | None:
    """An id a client made for itself (a browser's player id, ``prefs.playerId``;
    a quick match's ticket): 8 to 64 printable ASCII characters, else None.

    >>> client_id("a1b2c3d4"), client_id("a1b2c3"), client_id("é" * 8)
    ('a1b2c3d4', None, None)
    >>> client_id("a1b2" + chr(10) + "c3d4"), client_id(12345678)
    (None, None)
    """
    if isinstance(value, str) and 8 <= len(value) <= 64 and value.isascii() and value.isprintable():
        return value
    return None


def browser_id(request: Request, body: Json) -> str | None:
    """The browser's id (``X-Player``, or ``player`` in the body): its guest
    games and history; None when missing or not a ``client_id``."""
    return client_id(request.headers.get("x-player") or body.get("player"))


def refused(refusal: Refusal) -> JSONResponse:
    """A refusal as an HTTP answer: its status (``errors.STATUS``), ``Refusal.body``."""
    resp = JSONResponse(refusal.body(), status_code=refusal.status)
    if refusal.retry_after is not None:
        resp.headers["Retry-After"] = str(refusal.retry_after)
    return resp


async def json_body(request: Request, limit: int) -> Json:
    """The request's JSON object (an empty body is ``{}``); ``Refusal`` when the
    body is over ``limit`` bytes, not JSON, or not an object."""
    raw = await request.body()
    if len(raw) > limit:
        raise Refusal("too_large", f"a request body larger than {limit} bytes")
    try:
        data = loads(raw or b"{}")
    except (ValueError, RecursionError) as e:
        reason = str(e) if "surrogate" in str(e) else "send a JSON object"
        raise Refusal("bad_request", reason) from None
    if not isinstance(data, dict):
        raise Refusal("bad_request", "send a JSON object")
    return data


def client_host(conn: Request | WebSocket) -> str | None:
    """The client's address as the ASGI server gives it: behind a proxy, uvicorn's
    ``--proxy-headers`` and ``--forwarded-allow-ips`` decide what that is
    (``docs/deploy.md``); forwarding headers are never read here."""
    return conn.client.host if conn.client is not None else None


def address_key(host: str | None) -> str:
    """The bucket a client address counts in: an IPv6 address by its /64 (what one
    subscriber usually gets, so that walking through it does not give fresh
    allowances), any other address as it is.

    >>> address_key("203.0.113.9"), address_key("2001:db8::1:2"), address_key("::ffff:203.0.113.9")
    ('203.0.113.9', '2001:db8::/64', '203.0.113.9')
    """
    if not host:
        return ""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host[:100]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


async def frames(
    ws: WebSocket, on_close: Callable[[int], None] | None = None
) -> AsyncIterator[str | bytes | None]:
    """Each frame's text (or bytes, for a binary frame) until the peer leaves
    (``on_close`` then hears the close code: 1012 when the server restarts).
    A frame with neither is yielded as None, for the caller to refuse."""
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            if on_close is not None:
                on_close(int(message.get("code") or 1000))
            return
        text = message.get("text")
        yield message.get("bytes") if text is None else text


__all__ = [
    "address_key",
    "browser_id",
    "client_host",
    "client_id",
    "frames",
    "json_body",
    "refused",
    "rules_from_body",
]
