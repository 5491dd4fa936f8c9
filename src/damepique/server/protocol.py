"""The WebSocket protocol, version 2 (``docs/protocol.md``), as the server holds it.

The messages themselves, incoming and outgoing, live in ``damepique.wire``,
below the server and the bot API alike; this module adds what is the
server's: parsing that raises ``Refusal`` (which becomes an ``error``
message; the connection stays open), the ``error`` message of a refusal,
patches laid over a state, and ``dumps``.

>>> parse('{"type": "play", "card": "QS", "id": 7}')
Play(ref=7, card=49, decision=None)
>>> parse('{"type": "pass", "cards": ["2C", "3c", "4♣"]}').cards
(0, 1, 2)
>>> parse("{oops")
Traceback (most recent call last):
...
damepique.server.errors.Refusal: not valid JSON
"""

from __future__ import annotations

import json
from typing import Any

import damepique.wire as wire
from damepique.wire import (
    MAX_MESSAGE,
    TYPES,
    VERSION,
    Advice,
    Chat,
    Claim,
    Continue,
    ErrorMessage,
    Hello,
    Hint,
    Json,
    Leave,
    Message,
    Mute,
    Pass,
    Ping,
    Play,
    PongMessage,
    Ref,
    Rematch,
    Review,
    Sit,
    Start,
    StateCommon,
    StateMessage,
    loads,
)

from .errors import Refusal

try:
    import orjson
except ImportError:  # pragma: no cover - a dependency; the standard library does the same, slower
    orjson = None  # type: ignore[assignment]


def parse(text: str | bytes | None) -> Message:
    """One client message, checked for shape (not for the rules); ``Refusal`` names the fault."""
    try:
        return wire.parse(text)
    except wire.WireError as e:
        raise Refusal(e.code, e.reason, card=e.card) from None


def error(refusal: Refusal, ref: Ref = None) -> ErrorMessage:
    """The ``error`` message for a refusal."""
    return wire.error_message(
        refusal.code,
        refusal.reason,
        ref=ref,
        params=refusal.params,
        seat=refusal.seat,
        card=refusal.card,
    )


def pong(ref: Ref) -> PongMessage:
    return wire.pong_message(ref)


def apply_patch(state: Json | None, patch: Json) -> Json:
    """The whole ``state`` message a patch gives (a ``state`` with ``base``,
    ``docs/protocol.md``), laid over ``state``, the last whole state a client
    holds: the patch's keys over the state's, its ``view`` over the state's
    view, ``base`` dropped, and an ``ack`` the patch does not carry not
    carried over; a play patch (``"plays": true``) has its cards laid over the
    view first (``wire.lay_plays``) and its ``event`` is the last of its
    ``events``. Neither message is changed. ``Refusal`` (``out_of_step``)
    when ``state`` is not the update the patch builds on: the client should
    then reconnect. The page does the same (``web/patch.js``).

    >>> last = {"type": "state", "n": 4, "ack": 2, "over": False, "view": {"to_act": 1, "trick": []}}
    >>> apply_patch(last, {"type": "state", "n": 5, "base": 4, "view": {"to_act": 2, "trick": ["2C"]}})
    {'type': 'state', 'n': 5, 'over': False, 'view': {'to_act': 2, 'trick': ['2C']}}
    """
    if state is None or state.get("n") != patch.get("base"):
        raise Refusal("out_of_step", "a patch for a state this client does not hold")
    out = {k: v for k, v in state.items() if k != "ack"}
    out.update((k, v) for k, v in patch.items() if k not in ("base", "view", "plays"))
    view = state["view"]
    if patch.get("plays"):  # a play patch: first what its cards say; its last event not repeated
        view = wire.lay_plays(view, patch["events"])
        out["event"] = patch["events"][-1] if patch["events"] else None
    if "view" in patch:
        view = {**view, **patch["view"]}
    out["view"] = view
    return out


def dumps(msg: Any) -> str:
    """A message as compact JSON text (UTF-8, not escaped to ASCII).

    orjson when present: about ten times faster than ``json`` on a state
    message of a few KB, which a table sends to each of its seats after every
    card. Anything it refuses (an integer past 64 bits, an unknown type) goes
    to ``json``, which then either writes it or raises as before.

    >>> dumps({"type": "chat", "message": "dame de pique ♠", "seat": 2})
    '{"type":"chat","message":"dame de pique ♠","seat":2}'
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


__all__ = [
    "MAX_MESSAGE",
    "TYPES",
    "VERSION",
    "Advice",
    "Chat",
    "Claim",
    "Continue",
    "Hello",
    "Hint",
    "Json",
    "Leave",
    "Message",
    "Mute",
    "Pass",
    "Ping",
    "Play",
    "Ref",
    "Rematch",
    "Review",
    "Sit",
    "Start",
    "StateCommon",
    "StateMessage",
    "apply_patch",
    "dumps",
    "error",
    "loads",
    "parse",
    "pong",
]
