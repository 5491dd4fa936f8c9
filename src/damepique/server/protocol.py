"""The WebSocket protocol, version 1 (``docs/protocol.md``): parsing and building messages.

Every message is one JSON object with a ``type``; the server adds ``"v": 1``.
Parsing never raises anything but ``ProtocolError``, which becomes an
``error`` message; the connection stays open.

>>> parse('{"type": "play", "card": "QS"}')["card"]
'QS'
>>> parse("{oops")
Traceback (most recent call last):
...
damepique.server.protocol.ProtocolError: not valid JSON
"""

from __future__ import annotations

import json
from typing import Any

VERSION = 1
MAX_MESSAGE = 4096
"""Bytes; a client message is a few dozen."""

CLIENT_TYPES = ("join", "pass", "play", "advice", "review", "ping")


class ProtocolError(Exception):
    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


def parse(text: str | bytes | None, types: tuple[str, ...] = CLIENT_TYPES) -> dict[str, Any]:
    """One client message, checked for shape (not for the rules); ``types`` are
    the message types this connection understands."""
    if text is None:
        raise ProtocolError("bad_message", "empty message")
    if len(text) > MAX_MESSAGE:
        raise ProtocolError("too_large", f"message larger than {MAX_MESSAGE} bytes")
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", "not valid JSON") from None
    if not isinstance(msg, dict):
        raise ProtocolError("bad_message", "a message is a JSON object")
    kind = msg.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", "a message needs a string 'type'")
    if "v" in msg and msg["v"] != VERSION:
        raise ProtocolError("bad_version", f"this server speaks version {VERSION}")
    if kind not in types:
        raise ProtocolError("unknown_type", f"unknown message type {kind[:40]!r}")
    return msg


def error(code: str, reason: str, ref: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {"v": VERSION, "type": "error", "code": code, "reason": reason}
    if ref is not None:
        out["ref"] = ref
    return out


def dumps(msg: dict[str, Any]) -> str:
    return json.dumps(msg, separators=(",", ":"), ensure_ascii=False)
