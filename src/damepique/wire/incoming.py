"""What a client sends: each message a frozen dataclass, parsed once from
its JSON (``parse``, cards already ints; a fault raises ``WireError``) and
written back the same (``encode``), for the page, the bot API and tests."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from damepique.engine import CARD_NAMES, parse_card
from damepique.engine.errors import CardError

from .base import MAX_MESSAGE, VERSION, Json, Ref, WireError, parse_decision


@dataclass(frozen=True, slots=True)
class Hello:
    """Join a table: with a seat token as that seat, with a code alone as a visitor."""

    ref: Ref
    token: str | None = None
    table: str | None = None
    patches: bool = False
    plays: bool = False
    """With ``patches``: the client lays play patches (``wire.lay_plays``)."""


@dataclass(frozen=True, slots=True)
class Sit:
    ref: Ref
    name: str | None = None
    player: str | None = None
    """The browser's id (8 to 64 characters), where the page says it: a guest's statistics."""


@dataclass(frozen=True, slots=True)
class Start:
    ref: Ref


@dataclass(frozen=True, slots=True)
class Pass:
    """A seat's pass; ``decision``, when given, is the state's ``view.decision``
    it answers: an answer to a decision already made is acknowledged, not applied."""

    ref: Ref
    cards: tuple[int, ...]
    decision: str | None = None


@dataclass(frozen=True, slots=True)
class Play:
    ref: Ref
    card: int
    decision: str | None = None


@dataclass(frozen=True, slots=True)
class Claim:
    """The rest of the deal for the seat to play: every trick left, or none
    with no points left, which its view must prove (``view.claim``)."""

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
    # Only a \u escape or a character outside ASCII can be a surrogate: most
    # messages (a card played) have neither, and are not walked.
    escaped = "\\u" in text if isinstance(text, str) else b"\\u" in text
    if (escaped or not text.isascii()) and _lone_surrogate(value):
        raise ValueError("a string holds a lone UTF-16 surrogate")
    return value


def parse(text: str | bytes | None) -> Message:
    """One client message, checked for shape (not for the rules); ``WireError`` names the fault."""
    if text is None:
        raise WireError("bad_message", "empty message")
    if len(text) > MAX_MESSAGE:
        raise WireError("too_large", f"message larger than {MAX_MESSAGE} bytes")
    try:
        msg = loads(text)
    except (ValueError, RecursionError) as e:
        reason = str(e) if "surrogate" in str(e) else "not valid JSON"
        raise WireError("bad_json", reason) from None
    if not isinstance(msg, dict):
        raise WireError("bad_message", "a message is a JSON object")
    kind = msg.get("type")
    if not isinstance(kind, str):
        raise WireError("bad_message", "a message needs a string 'type'")
    if "v" in msg and msg["v"] != VERSION:
        raise WireError("bad_version", f"this server speaks version {VERSION}")
    raw_ref = msg.get("id")
    ref: Ref = raw_ref if isinstance(raw_ref, (str, int)) and not isinstance(raw_ref, bool) else None
    if kind == "play":
        return Play(ref, _card(msg.get("card")), _decision(msg))
    if kind == "pass":
        return Pass(ref, _cards(msg.get("cards")), _decision(msg))
    if kind == "hello":
        token, table = msg.get("token"), msg.get("table")
        return Hello(
            ref,
            token if isinstance(token, str) else None if token is None else "",
            table if isinstance(table, str) else None,
            msg.get("patches") is True,
            msg.get("patches") is True and msg.get("plays") is True,
        )
    if kind == "ping":
        return Ping(ref)
    if kind == "claim":
        return Claim(ref)
    if kind == "sit":
        name, player = msg.get("name"), msg.get("player")
        if not (
            isinstance(player, str) and 8 <= len(player) <= 64 and player.isascii() and player.isprintable()
        ):
            player = None
        return Sit(ref, name if isinstance(name, str) else None, player)
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
            raise WireError("bad_chat", "only the preset quick messages can be sent")
        return Chat(ref, message)
    if kind in ("mute", "unmute"):
        return Mute(ref, _number(msg.get("seat"), "bad_seat", "no such seat"), kind == "mute")
    if kind == "continue":
        return Continue(ref, _number(msg.get("deal"), "bad_deal", "no such deal"))
    raise WireError("unknown_type", f"unknown message type {kind[:40]!r}")


def encode(msg: Message) -> Json:
    """A client message as JSON, what ``parse`` reads back into the same value:
    the one spelling of each message for the page, the bot API client and tests.

    >>> encode(Play(7, 49, "0:play:5"))
    {'type': 'play', 'card': 'QS', 'decision': '0:play:5', 'id': 7}
    >>> parse(json.dumps(encode(Pass(None, (0, 1, 2), None)))) == Pass(None, (0, 1, 2), None)
    True
    """
    out: Json
    if isinstance(msg, Mute):
        out = {"type": "mute" if msg.on else "unmute", "seat": msg.seat}
    else:
        out = {"type": _TYPE_OF[type(msg)]}
        for name in type(msg).__dataclass_fields__:
            value = getattr(msg, name)
            if name == "ref" or (value is None and name != "game"):
                continue
            if name == "card":
                value = CARD_NAMES[value]
            elif name == "cards":
                value = [CARD_NAMES[c] for c in value]
            elif name in ("patches", "plays") and not value:
                continue
            out[name] = value
    if msg.ref is not None:
        out["id"] = msg.ref
    return out


_TYPE_OF: dict[type, str] = {
    Hello: "hello",
    Sit: "sit",
    Start: "start",
    Pass: "pass",
    Play: "play",
    Claim: "claim",
    Advice: "advice",
    Hint: "hint",
    Review: "review",
    Leave: "leave",
    Rematch: "rematch",
    Chat: "chat",
    Continue: "continue",
    Ping: "ping",
}


def _decision(msg: Json) -> str | None:
    raw = msg.get("decision")
    if raw is None:
        return None
    if parse_decision(raw) is None:
        shown = raw[:40] if isinstance(raw, str) else type(raw).__name__
        raise WireError("bad_decision", f"{shown!r} is not a decision id such as '0:play:5'")
    assert isinstance(raw, str)
    return raw


def _number(value: object, code: str, reason: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 1_000_000:
        raise WireError(code, reason)
    return value


def _card(value: object) -> int:
    if not isinstance(value, str):
        raise WireError("bad_card", "a card is a string such as 'QS'")
    try:
        return parse_card(value)
    except CardError as e:
        raise WireError("bad_card", e.reason, card=value[:20]) from None


def _cards(value: object) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise WireError("bad_card", "cards must be a list of card strings such as 'QS'")
    if len(value) > 52:
        raise WireError("illegal_pass", "too many cards")
    return tuple(_card(c) for c in value)
