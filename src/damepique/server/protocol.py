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

try:
    import orjson
except ImportError:  # pragma: no cover - a dependency; the standard library does the same, slower
    orjson = None  # type: ignore[assignment]

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


def apply_patch(state: dict[str, Any] | None, patch: dict[str, Any]) -> dict[str, Any]:
    """The whole ``state`` message a patch gives (a ``state`` with ``base``,
    ``docs/protocol.md``), laid over ``state``, the last whole state a client
    holds: the patch's keys over the state's, its ``view`` over the state's
    view, ``base`` dropped, and an ``ack`` the patch does not carry not
    carried over. Neither message is changed. ``ProtocolError``
    (``out_of_step``) when ``state`` is not the update the patch builds on: the
    client should then reconnect. The page does the same (``web/patch.js``).

    >>> last = {"type": "state", "n": 4, "ack": 2, "over": False, "view": {"to_act": 1, "trick": []}}
    >>> apply_patch(last, {"type": "state", "n": 5, "base": 4, "view": {"to_act": 2, "trick": ["2C"]}})
    {'type': 'state', 'n': 5, 'over': False, 'view': {'to_act': 2, 'trick': ['2C']}}
    """
    if state is None or state.get("n") != patch.get("base"):
        raise ProtocolError("out_of_step", "a patch for a state this client does not hold")
    out = {k: v for k, v in state.items() if k != "ack"}
    out.update((k, v) for k, v in patch.items() if k not in ("base", "view"))
    if "view" in patch:
        out["view"] = {**state["view"], **patch["view"]}
    return out


def error(code: str, reason: str, ref: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {"v": VERSION, "type": "error", "code": code, "reason": reason}
    if ref is not None:
        out["ref"] = ref
    return out


def dumps(msg: dict[str, Any]) -> str:
    """A message as compact JSON text (UTF-8, not escaped to ASCII).

    orjson when present: about ten times faster than ``json`` on a state
    message of a few KB, which a table sends to each of its seats after every
    card. Anything it refuses (an integer past 64 bits, an unknown type) goes
    to ``json``, which then either writes it or raises as before.

    >>> dumps({"type": "chat", "text": "dame de pique ♠", "seat": 2})
    '{"type":"chat","text":"dame de pique ♠","seat":2}'
    >>> dumps({"points": {0: 13}, "big": 2**70})
    '{"points":{"0":13},"big":1180591620717411303424}'
    """
    if orjson is not None:
        try:
            return orjson.dumps(msg).decode()
        except TypeError:  # orjson.JSONEncodeError
            pass
        try:  # keys that are not strings (twice as slow, so only when needed)
            return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()
        except TypeError:
            pass
    return json.dumps(msg, separators=(",", ":"), ensure_ascii=False)
