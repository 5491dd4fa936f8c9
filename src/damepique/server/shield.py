"""What stands in front of the routes: limits and checks no route has to repeat.

``Shield`` wraps the whole ASGI app:

- every request's body is read here, within a limit, before any route sees
  it: a body larger than its limit (``Content-Length`` or counted as it
  comes) is refused with 413 and never held in memory;
- a request that changes something (``POST``, ``PUT``, ``PATCH``,
  ``DELETE``) from another site is refused (its ``Origin`` is not this
  site's), and one with a body must say it is JSON (a cross-site form posts
  ``text/plain`` or a form encoding, which a browser sends without asking):
  no login CSRF, no action taken with someone's cookies from elsewhere;
- a WebSocket opened from another site is refused before it is accepted;
- every answer carries the security headers (a Content-Security-Policy that
  fits the pages: no inline script, no framing).

How long a request may take to arrive, and how many connections one address
may hold, is the HTTP server's part (``guard``).
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import Refusal

DEFAULT_BODY = 65_536
"""Bytes of a request body (a game's options, a score sheet's deal fit in a few hundred)."""
BODY_LIMITS = {"/api/replay": 2_100_000, "/api/analysis": 2_100_000}
"""Routes that take more: an uploaded record (up to 2 MB, with its headers' worth of slack)."""
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})

SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        b"img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; "
        b"base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
]
"""Inline ``style`` attributes are allowed (the pages set positions and sizes
that way); scripts come only from this site's files."""


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers") or ():
        if key == name:
            return str(value.decode("latin-1"))
    return None


def foreign_origin(scope: Scope) -> bool:
    """Whether the request says it comes from a page of another site: its
    ``Origin`` names a host other than the one it was sent to. No ``Origin``
    (a program, a same-origin GET) is not foreign.

    >>> foreign_origin({"headers": [(b"host", b"example.org"), (b"origin", b"https://evil.test")]})
    True
    >>> foreign_origin({"headers": [(b"host", b"example.org:8000"), (b"origin", b"http://example.org:8000")]})
    False
    """
    origin = _header(scope, b"origin")
    if origin is None:
        return False
    host = _header(scope, b"host")
    return origin == "null" or host is None or urlsplit(origin).netloc.lower() != host.lower()


async def _answer(send: Send, code: str, reason: str) -> None:
    # The one shape and status of a refusal over HTTP, written here below the app.
    refusal = Refusal(code, reason)
    status = refusal.status
    body = json.dumps(refusal.body()).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers + SECURITY_HEADERS})
    await send({"type": "http.response.body", "body": body})


class Shield:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "websocket":
            if foreign_origin(scope):
                await receive()  # the connect
                await send(
                    {"type": "websocket.close", "code": 1008, "reason": "this page is not from this site"}
                )
                return
            await self.app(scope, receive, send)
            return
        if kind != "http":
            await self.app(scope, receive, send)
            return
        method = scope.get("method", "GET")
        if method in UNSAFE and foreign_origin(scope):
            await _answer(send, "bad_origin", "a request from a page of another site")
            return
        limit = BODY_LIMITS.get(scope.get("path", ""), DEFAULT_BODY)
        length = _header(scope, b"content-length")
        if length is not None and length.isdigit() and int(length) > limit:
            await _answer(send, "too_large", f"a request body larger than {limit} bytes")
            return
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > limit:
                await _answer(send, "too_large", f"a request body larger than {limit} bytes")
                return
            more = message.get("more_body", False)
        if method in UNSAFE and body:
            ctype = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
            if ctype != "application/json":
                await _answer(send, "unsupported_media_type", "send the request's body as application/json")
                return
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if delivered:
                return await receive()  # after the body: the client going away
            delivered = True
            return {"type": "http.request", "body": bytes(body), "more_body": False}

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in SECURITY_HEADERS if k not in names]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, replay, with_headers)


__all__ = ["BODY_LIMITS", "DEFAULT_BODY", "SECURITY_HEADERS", "Shield", "foreign_origin"]
