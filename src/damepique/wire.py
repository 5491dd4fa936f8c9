"""The wire: the protocol's messages, table codes, decision ids and the error
shape, in one module below the server and the bot API alike (``docs/protocol.md``).

Standard library and the engine only: a program outside the server reads and
writes the same messages the server does, from this one place. A client's
frame is parsed here once into a typed message, cards already ints; a fault
raises ``WireError`` (the server turns it into its ``Refusal``, an ``error``
message, the connection kept). What the server sends is typed by the
``TypedDict`` classes below and built by their functions.

>>> parse('{"type": "play", "card": "QS", "id": 7}')
Play(ref=7, card=49, decision=None)
>>> parse('{"type": "pass", "cards": ["2C", "3c", "4♣"], "decision": "0:pass:1"}').decision
'0:pass:1'
>>> parse("{oops")
Traceback (most recent call last):
...
damepique.wire.WireError: not valid JSON
>>> normalize_code("k7qm-4xpa"), normalize_code("K7QM0XPA"), display_code("K7QM4XPA")
('K7QM4XPA', None, 'K7QM-4XPA')
>>> error_message("not_your_turn", "it is seat 2's turn", ref=3, seat=2)
{'v': 2, 'type': 'error', 'code': 'not_your_turn', 'reason': "it is seat 2's turn", 'seat': 2, 'ref': 3}
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal, TypedDict, Unpack

from damepique.engine import CARD_NAMES, decision_id, parse_card
from damepique.engine.errors import CardError

VERSION = 2
"""The protocol's version: every message the server sends carries it as ``v``."""
BOT_API = 1
"""The bot API's own version (its HTTP routes and the account's event stream)."""
MAX_MESSAGE = 4096
"""Bytes; a client message is a few dozen."""

Ref = str | int | None
"""A client's ``id`` for a message, echoed as ``ack`` or ``ref``."""
Json = dict[str, Any]
"""A JSON object as it goes over the wire or into the store: its values are arbitrary JSON."""


class WireError(ValueError):
    """A message that is not one of the protocol's: ``code`` and ``reason`` as
    the ``error`` message says them (the server's ``Refusal`` carries the same)."""

    def __init__(self, code: str, reason: str, *, card: str | None = None) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.card = card


# -- table codes -------------------------------------------------------------------------

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""31 characters, no 0/O or 1/I/L look-alikes (the page's ``web/codes.js`` has the same)."""
CODE_LENGTH = 8
_CODE = re.compile(f"^[{ALPHABET}]{{{CODE_LENGTH}}}$")


def normalize_code(text: str) -> str | None:
    """The table code typed by a person (any case, spaces or dashes), or None
    when it cannot be a code. Look-alikes (0 for O, 1 or L for I) are not in
    the alphabet, so they are refused rather than guessed."""
    if not isinstance(text, str) or len(text) >= 40:
        return None
    cleaned = re.sub(r"[\s\-]", "", text).upper()
    return cleaned if _CODE.match(cleaned) else None


def display_code(code: str) -> str:
    """``K7QM-4XPA``: two groups of four, easier to read aloud."""
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}"


# -- decision ids ------------------------------------------------------------------------

_DECISION = re.compile(r"^(\d{1,6}):(pass|play):(\d{1,3})$")
"""``decision_id``'s form (the engine's, ``View.decision``): ``DEAL:pass:SEAT`` or ``DEAL:play:K``."""


def parse_decision(text: object) -> tuple[int, str, int] | None:
    """``(deal, phase, index)`` of a decision id, or None when it is not one.

    >>> decision_id(3, "play", 17), parse_decision("3:play:17"), parse_decision("3:play")
    ('3:play:17', (3, 'play', 17), None)
    """
    found = _DECISION.match(text) if isinstance(text, str) else None
    if found is None:
        return None
    return int(found.group(1)), found.group(2), int(found.group(3))


# -- what a client sends -----------------------------------------------------------------


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
    if _lone_surrogate(value):
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
            elif name == "patches" and not value:
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
    kind: str
    """``timeout``, ``stand_in``, ``back`` or ``left``."""
    seat: int | None


class ChatMessage(TypedDict):
    v: int
    type: Literal["chat"]
    seat: int | None
    message: str


class MutedMessage(TypedDict):
    v: int
    type: Literal["muted"]
    seats: list[int]
    ref: Ref


class PongMessage(TypedDict):
    v: int
    type: Literal["pong"]
    ref: Ref


class AckMessage(TypedDict):
    """A pass or play whose decision was already made: acknowledged, nothing changed."""

    v: int
    type: Literal["ack"]
    decision: str
    ref: Ref


class LobbyMessage(TypedDict):
    v: int
    type: Literal["lobby"]
    tables: list[Json]


class LobbyChangesMessage(TypedDict):
    v: int
    type: Literal["lobby_changes"]
    tables: list[Json]
    gone: list[str]


class StateMessage(TypedDict, total=False):
    """A seat's whole picture (written as text by ``server.patches.Update``)."""

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
    timer: Json | None
    summary: Json | None
    event: Json | None
    events: list[Json]
    ack: Ref


def error_message(
    code: str,
    reason: str,
    *,
    ref: Ref = None,
    params: Json | None = None,
    seat: int | None = None,
    card: str | None = None,
) -> ErrorMessage:
    """The ``error`` message: ``code`` and ``reason`` always; ``params``,
    ``seat``, ``card`` and the message's ``ref`` where they apply."""
    out: ErrorMessage = {"v": VERSION, "type": "error", "code": code, "reason": reason}
    if params:
        out["params"] = params
    if seat is not None:
        out["seat"] = seat
    if card is not None:
        out["card"] = card
    if ref is not None:
        out["ref"] = ref
    return out


def table_message(you: int | None, table: Json) -> TableMessage:
    return {"v": VERSION, "type": "table", "you": you, "table": table}


def seated_message(code: str, token: str, seat: int, ref: Ref) -> SeatedMessage:
    return {"v": VERSION, "type": "seated", "code": code, "token": token, "seat": seat, "ref": ref}


def notice_message(kind: str, seat: int | None) -> NoticeMessage:
    return {"v": VERSION, "type": "notice", "kind": kind, "seat": seat}


def chat_message(seat: int | None, message: str) -> ChatMessage:
    return {"v": VERSION, "type": "chat", "seat": seat, "message": message}


def muted_message(seats: list[int], ref: Ref) -> MutedMessage:
    return {"v": VERSION, "type": "muted", "seats": seats, "ref": ref}


def pong_message(ref: Ref) -> PongMessage:
    return {"v": VERSION, "type": "pong", "ref": ref}


def ack_message(decision: str, ref: Ref) -> AckMessage:
    return {"v": VERSION, "type": "ack", "decision": decision, "ref": ref}


def lobby_message(tables: list[Json]) -> LobbyMessage:
    return {"v": VERSION, "type": "lobby", "tables": tables}


def lobby_changes_message(tables: list[Json], gone: list[str]) -> LobbyChangesMessage:
    return {"v": VERSION, "type": "lobby_changes", "tables": tables, "gone": gone}


# -- quick match (``/ws/match``, docs/multiplayer.md) -------------------------------------

QuickStatus = Literal["queued", "waiting", "matched", "replaced", "restarting", "left", "failed"]


class QuickSeat(TypedDict):
    """Where a quick match seated a person: the table, its seat token, the seat."""

    code: str
    token: str
    seat: int


class QuickFields(TypedDict, total=False):
    choice: Json
    """``queued``: the game waited for (players, target, ranked)."""
    seconds: int
    """``queued``: before bots fill the seats left."""
    waiting: int
    """``queued``, ``waiting``: how many wait for the same game."""
    code: str
    token: str
    seat: int
    link: str
    """``matched``: the table's page."""


class QuickMessage(QuickFields):
    v: int
    type: Literal["quick"]
    status: QuickStatus
    ticket: str


def quick_message(status: QuickStatus, ticket: str, **fields: Unpack[QuickFields]) -> QuickMessage:
    """What ``/ws/match`` tells a person waiting.

    >>> quick_message("waiting", "t1", waiting=2)
    {'v': 2, 'type': 'quick', 'status': 'waiting', 'ticket': 't1', 'waiting': 2}
    """
    return {"v": VERSION, "type": "quick", "status": status, "ticket": ticket, **fields}


class ChangedEvent(TypedDict):
    """A tournament changed (``GET /api/tournaments/{code}/changes``): its page draws it again."""

    type: Literal["changed"]


def changed_event() -> ChangedEvent:
    return {"type": "changed"}


# -- the account's event stream (``GET /api/stream/event``, docs/bot-api.md) --------------

ChallengeKind = Literal["challenge", "challengeDeclined", "challengeCanceled"]


class ChallengeEvent(TypedDict):
    """A challenge received, declined by one of the challenged, or canceled:
    ``challenge`` as ``GET /api/challenges`` shows it."""

    type: ChallengeKind
    challenge: Json


def challenge_event(kind: ChallengeKind, challenge: Json) -> ChallengeEvent:
    return {"type": kind, "challenge": challenge}


class GameStart(TypedDict, total=False):
    """Where the account sits in a game that starts: ``token`` is its seat's
    (say ``hello`` with it); ``challenge`` only for a challenge's game."""

    table: str
    seat: int
    game: str
    token: str
    challenge: str


class GameStartEvent(TypedDict):
    type: Literal["gameStart"]
    id: str
    game: GameStart


class GameFinish(TypedDict):
    table: str
    game: str
    seat: int
    totals: list[int]
    winner: int | None


class GameFinishEvent(TypedDict):
    type: Literal["gameFinish"]
    id: str
    game: GameFinish


def game_event_id(kind: str, game: str, seat: int) -> str:
    """The same every time one seat's event of one game is told (again after a
    restart, or when a stream opens): a client drops an id it has seen.

    >>> game_event_id("gameFinish", "9f2c01ab", 2)
    'gameFinish:9f2c01ab:2'
    """
    return f"{kind}:{game}:{seat}"


def game_start_event(game: GameStart) -> GameStartEvent:
    return {"type": "gameStart", "id": game_event_id("gameStart", game["game"], game["seat"]), "game": game}


def game_finish_event(game: GameFinish) -> GameFinishEvent:
    return {"type": "gameFinish", "id": game_event_id("gameFinish", game["game"], game["seat"]), "game": game}


__all__ = [
    "ALPHABET",
    "BOT_API",
    "CODE_LENGTH",
    "MAX_MESSAGE",
    "TYPES",
    "VERSION",
    "AckMessage",
    "Advice",
    "ChallengeEvent",
    "ChallengeKind",
    "ChangedEvent",
    "Chat",
    "ChatMessage",
    "Claim",
    "Continue",
    "ErrorMessage",
    "GameFinish",
    "GameFinishEvent",
    "GameStart",
    "GameStartEvent",
    "Hello",
    "Hint",
    "Json",
    "Leave",
    "LobbyChangesMessage",
    "LobbyMessage",
    "Message",
    "Mute",
    "MutedMessage",
    "NoticeMessage",
    "Pass",
    "Ping",
    "Play",
    "PongMessage",
    "QuickFields",
    "QuickMessage",
    "QuickSeat",
    "QuickStatus",
    "Ref",
    "Rematch",
    "Review",
    "SeatedMessage",
    "Sit",
    "Start",
    "StateMessage",
    "TableMessage",
    "WireError",
    "ack_message",
    "challenge_event",
    "changed_event",
    "chat_message",
    "decision_id",
    "display_code",
    "encode",
    "error_message",
    "game_event_id",
    "game_finish_event",
    "game_start_event",
    "loads",
    "lobby_changes_message",
    "lobby_message",
    "muted_message",
    "normalize_code",
    "notice_message",
    "parse",
    "parse_decision",
    "pong_message",
    "quick_message",
    "seated_message",
    "table_message",
]
