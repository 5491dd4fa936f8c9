"""The WebSocket protocol, version 2 (``docs/protocol.md``): its messages, typed.

A client's frame is parsed here, once, into one of the message classes
below, cards already ints: everything past this edge (the session, the
runner, the game) works on typed values and never reads wire text. Parsing
raises nothing but ``Refusal``, which becomes an ``error`` message; the
connection stays open. What the server sends is described by the
``TypedDict`` classes at the end; the state messages themselves are written
as text by ``patches``.

>>> parse('{"type": "play", "card": "QS", "id": 7}')
Play(ref=7, card=49)
>>> parse('{"type": "pass", "cards": ["2C", "3c", "4♣"]}').cards
(0, 1, 2)
>>> parse("{oops")
Traceback (most recent call last):
...
damepique.server.errors.Refusal: not valid JSON
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from damepique.engine import parse_card
from damepique.engine.errors import CardError

from .errors import Refusal

try:
    import orjson
except ImportError:  # pragma: no cover - a dependency; the standard library does the same, slower
    orjson = None  # type: ignore[assignment]

VERSION = 2
MAX_MESSAGE = 4096
"""Bytes; a client message is a few dozen."""

Ref = str | int | None
"""A client's ``id`` for a message, echoed as ``ack`` or ``ref``."""
Json = dict[str, Any]
"""A JSON object as it goes over the wire or into the store: its values are arbitrary JSON."""


# -- what a client sends ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hello:
    """Join a table: with a seat token as that seat, with a code alone as a visitor."""

    ref: Ref
    token: str | None = None
    table: str | None = None
    patches: bool = False


@dataclass(frozen=True, slots=True)
class Sit:
    ref: Ref
    name: str | None = None


@dataclass(frozen=True, slots=True)
class Start:
    ref: Ref


@dataclass(frozen=True, slots=True)
class Pass:
    ref: Ref
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Play:
    ref: Ref
    card: int


@dataclass(frozen=True, slots=True)
class Claim:
    """The rest of the deal for the seat to play: every trick left, which its
    view must prove (``view.claim``)."""

    ref: Ref


@dataclass(frozen=True, slots=True)
class Advice:
    ref: Ref


@dataclass(frozen=True, slots=True)
class Hint:
    """The best card now, and why: once a trick, never in a ranked game."""

    ref: Ref


@dataclass(frozen=True, slots=True)
class Review:
    ref: Ref
    deal: int


@dataclass(frozen=True, slots=True)
class Leave:
    ref: Ref


@dataclass(frozen=True, slots=True)
class Rematch:
    ref: Ref
    game: str | None


@dataclass(frozen=True, slots=True)
class Chat:
    ref: Ref
    message: str


@dataclass(frozen=True, slots=True)
class Mute:
    """``mute`` (``on``) or ``unmute`` a seat's quick messages on this connection."""

    ref: Ref
    seat: int
    on: bool


@dataclass(frozen=True, slots=True)
class Continue:
    """The player has read the summary of deal ``deal``."""

    ref: Ref
    deal: int


@dataclass(frozen=True, slots=True)
class Ping:
    ref: Ref


Message = (
    Hello
    | Sit
    | Start
    | Pass
    | Play
    | Claim
    | Advice
    | Hint
    | Review
    | Leave
    | Rematch
    | Chat
    | Mute
    | Continue
    | Ping
)
TYPES = (
    "hello", "sit", "start", "pass", "play", "claim", "advice", "hint", "review", "leave", "rematch", "chat",
    "mute", "unmute", "continue", "ping",
)  # fmt: skip


def _lone_surrogate(value: object) -> bool:
    """Whether a string anywhere in ``value`` (key or value) holds a UTF-16
    surrogate: half of a pair, which no UTF-8 text can carry."""
    if isinstance(value, str):
        return any("\ud800" <= ch <= "\udfff" for ch in value) if not value.isascii() else False
    if isinstance(value, dict):
        return any(_lone_surrogate(k) or _lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_lone_surrogate(v) for v in value)
    return False


def loads(text: str | bytes) -> Any:
    r"""JSON text as Python values; ``ValueError`` for what is not JSON, and for
    a string holding a lone UTF-16 surrogate (``"\ud800"``, or CESU-8 bytes):
    Python's ``json`` accepts one, but it cannot be written back as UTF-8, so
    an answer that echoed it (an ``id``, a card, a name) could never be sent.

    >>> loads('{"id": "\\ud83d\\ude00"}')  # a whole pair is a character
    {'id': '😀'}
    >>> loads('{"id": "\\ud800"}')
    Traceback (most recent call last):
    ...
    ValueError: a string holds a lone UTF-16 surrogate
    """
    value = json.loads(text)
    if _lone_surrogate(value):
        raise ValueError("a string holds a lone UTF-16 surrogate")
    return value


def parse(text: str | bytes | None) -> Message:
    """One client message, checked for shape (not for the rules); ``Refusal`` names the fault."""
    if text is None:
        raise Refusal("bad_message", "empty message")
    if len(text) > MAX_MESSAGE:
        raise Refusal("too_large", f"message larger than {MAX_MESSAGE} bytes")
    try:
        msg = loads(text)
    except (ValueError, RecursionError) as e:
        reason = str(e) if "surrogate" in str(e) else "not valid JSON"
        raise Refusal("bad_json", reason) from None
    if not isinstance(msg, dict):
        raise Refusal("bad_message", "a message is a JSON object")
    kind = msg.get("type")
    if not isinstance(kind, str):
        raise Refusal("bad_message", "a message needs a string 'type'")
    if "v" in msg and msg["v"] != VERSION:
        raise Refusal("bad_version", f"this server speaks version {VERSION}")
    raw_ref = msg.get("id")
    ref: Ref = raw_ref if isinstance(raw_ref, (str, int)) and not isinstance(raw_ref, bool) else None
    if kind == "play":
        return Play(ref, _card(msg.get("card")))
    if kind == "pass":
        return Pass(ref, _cards(msg.get("cards")))
    if kind == "hello":
        token, table = msg.get("token"), msg.get("table")
        return Hello(
            ref,
            token if isinstance(token, str) else None if token is None else "",
            table if isinstance(table, str) else None,
            msg.get("patches") is True,
        )
    if kind == "ping":
        return Ping(ref)
    if kind == "claim":
        return Claim(ref)
    if kind == "sit":
        name = msg.get("name")
        return Sit(ref, name if isinstance(name, str) else None)
    if kind == "start":
        return Start(ref)
    if kind == "advice":
        return Advice(ref)
    if kind == "hint":
        return Hint(ref)
    if kind == "review":
        return Review(ref, _number(msg.get("deal"), "bad_deal", "no such deal"))
    if kind == "leave":
        return Leave(ref)
    if kind == "rematch":
        game = msg.get("game")
        return Rematch(ref, game if isinstance(game, str) else None)
    if kind == "chat":
        message = msg.get("message")
        if not isinstance(message, str):
            raise Refusal("bad_chat", "only the preset quick messages can be sent")
        return Chat(ref, message)
    if kind in ("mute", "unmute"):
        return Mute(ref, _number(msg.get("seat"), "bad_seat", "no such seat"), kind == "mute")
    if kind == "continue":
        return Continue(ref, _number(msg.get("deal"), "bad_deal", "no such deal"))
    raise Refusal("unknown_type", f"unknown message type {kind[:40]!r}")


def _number(value: object, code: str, reason: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 1_000_000:
        raise Refusal(code, reason)
    return value


def _card(value: object) -> int:
    if not isinstance(value, str):
        raise Refusal("bad_card", "a card is a string such as 'QS'")
    try:
        return parse_card(value)
    except CardError as e:
        raise Refusal("bad_card", e.reason, card=value[:20]) from None


def _cards(value: object) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise Refusal("bad_card", "cards must be a list of card strings such as 'QS'")
    if len(value) > 52:
        raise Refusal("illegal_pass", "too many cards")
    return tuple(_card(c) for c in value)


# -- what the server sends ---------------------------------------------------------------


class ErrorMessage(TypedDict, total=False):
    v: int
    type: Literal["error"]
    code: str
    reason: str
    params: Json
    seat: int
    card: str
    ref: str | int


class TableMessage(TypedDict):
    """The table as everybody may see it (``Table.info``), with this connection's seat."""

    v: int
    type: Literal["table"]
    you: int | None
    table: Json


class SeatedMessage(TypedDict):
    v: int
    type: Literal["seated"]
    code: str
    token: str
    seat: int
    ref: Ref


class NoticeMessage(TypedDict):
    v: int
    type: Literal["notice"]
    kind: Literal["timeout", "stand_in", "back", "left"]
    seat: int | None


class ChatMessage(TypedDict):
    v: int
    type: Literal["chat"]
    seat: int | None
    message: str


class StateMessage(TypedDict, total=False):
    """A seat's whole picture (written as text by ``patches.Update``)."""

    v: int
    type: Literal["state"]
    n: int
    base: int
    mode: Literal["solo", "table"]
    game: str
    seat: int | None
    spectator: bool
    seats: list[Json]
    rules: Json
    speed: str
    level: str | None
    view: Json | None
    results: list[Json]
    totals: list[int]
    over: bool
    winner: int | None
    fairness: dict[str, str] | None
    table: Json
    timer: Json | None
    summary: Json | None
    event: Json | None
    events: list[Json]
    ack: Ref


def error(refusal: Refusal, ref: Ref = None) -> ErrorMessage:
    """The ``error`` message for a refusal."""
    out: ErrorMessage = {"v": VERSION, "type": "error", **refusal.to_json()}  # type: ignore[typeddict-item]
    if ref is not None:
        out["ref"] = ref
    return out


def pong(ref: Ref) -> Json:
    return {"v": VERSION, "type": "pong", "ref": ref}


def apply_patch(state: Json | None, patch: Json) -> Json:
    """The whole ``state`` message a patch gives (a ``state`` with ``base``,
    ``docs/protocol.md``), laid over ``state``, the last whole state a client
    holds: the patch's keys over the state's, its ``view`` over the state's
    view, ``base`` dropped, and an ``ack`` the patch does not carry not
    carried over. Neither message is changed. ``Refusal`` (``out_of_step``)
    when ``state`` is not the update the patch builds on: the client should
    then reconnect. The page does the same (``web/patch.js``).

    >>> last = {"type": "state", "n": 4, "ack": 2, "over": False, "view": {"to_act": 1, "trick": []}}
    >>> apply_patch(last, {"type": "state", "n": 5, "base": 4, "view": {"to_act": 2, "trick": ["2C"]}})
    {'type': 'state', 'n': 5, 'over': False, 'view': {'to_act': 2, 'trick': ['2C']}}
    """
    if state is None or state.get("n") != patch.get("base"):
        raise Refusal("out_of_step", "a patch for a state this client does not hold")
    out = {k: v for k, v in state.items() if k != "ack"}
    out.update((k, v) for k, v in patch.items() if k not in ("base", "view"))
    if "view" in patch:
        out["view"] = {**state["view"], **patch["view"]}
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
    "Rematch",
    "Review",
    "Sit",
    "Start",
    "StateMessage",
    "apply_patch",
    "dumps",
    "error",
    "parse",
    "pong",
]
