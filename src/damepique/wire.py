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
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, Required, TypedDict, Unpack, cast

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


# -- a seat's state: after every card (docs/protocol.md, "state") ------------------------

StateMode = Literal["solo", "table", "arena"]


class StateCommon(TypedDict):
    """What a state says alike to every seat and spectator: built once per
    update (``server.play.runner``), the seat's own fields laid over it."""

    game: str
    seats: list[Json]
    rules: Json
    """Every rules key, even at its default (``Rules.to_json``)."""
    mode: StateMode
    speed: str
    level: str | None
    view: Json | None
    """The public view (``server.public_view.public_json``): a seat's state has the seat's own view."""
    results: list[Json]
    totals: list[int]
    over: bool
    winner: int | None
    winners: list[int]
    fairness: dict[str, str] | None
    timer: Json | None
    summary: Json | None


class StateMessage(StateCommon, total=False):
    """A seat's whole picture; as a patch (with ``base``), only what changed
    (``StatePatch``). ``n`` numbers the updates of a game's run (a hello's
    state has none); ``ack`` echoes the ``id`` of the seat's pass or play that
    made it (true: one without ``id``); ``arena``: an arena's results, in its
    last state."""

    v: Required[int]
    type: Required[Literal["state"]]
    n: int
    seat: int | None
    spectator: bool
    event: Json | None
    events: list[Json]
    ack: Ref | bool
    arena: list[Json]


class StatePatch(TypedDict, total=False):
    """A state as a patch: ``base`` names the update it is laid over; and
    besides these keys, those of ``StateCommon`` whose value changed, ``view``
    holding only the view's changed keys (``server.protocol.apply_patch``)."""

    v: Required[int]
    type: Required[Literal["state"]]
    n: Required[int]
    base: Required[int]
    seat: Required[int]
    event: Json | None
    events: list[Json]
    ack: Ref | bool


class StateEvents(TypedDict):
    """What just happened, as one seat may know it: the last event, and all of them."""

    event: Json | None
    events: list[Json]


def state_message(
    common: StateCommon,
    seat: int | None,
    view: Json | None,
    events: list[Json],
    *,
    n: int | None = None,
    ack: Ref | bool = None,
) -> StateMessage:
    """``seat``'s state (None: a spectator's) with its own ``view`` and the
    ``events`` it may know (``engine.views.event_for``), the last as ``event``.

    >>> from damepique.engine import Rules
    >>> common: StateCommon = {
    ...     "game": "g1", "seats": [], "rules": Rules().to_json(), "mode": "solo", "speed": "fast",
    ...     "level": None, "view": None, "results": [], "totals": [0, 0, 0, 0], "over": False,
    ...     "winner": None, "winners": [], "fairness": None, "timer": None, "summary": None}
    >>> msg = state_message(common, 2, None, [{"type": "deal", "number": 0}], n=1, ack=7)
    >>> [k for k in msg if k not in common]
    ['v', 'type', 'n', 'seat', 'spectator', 'event', 'events', 'ack']
    >>> events = json.dumps(state_events(msg["events"]))[1:-1]
    >>> loads(state_text(2, events, "null", "", n=1, ack="7")) == {
    ...     k: msg[k] for k in ("v", "type", "n", "seat", "spectator", "event", "events", "ack", "view")}
    True
    """
    head: Json = {"v": VERSION, "type": "state"} if n is None else {"v": VERSION, "type": "state", "n": n}
    msg = cast(StateMessage, head | common)  # mypy cannot add TypedDicts
    msg["view"] = view  # in the place of the public view: the same order of keys
    msg["seat"] = seat
    msg["spectator"] = seat is None
    msg["event"] = events[-1] if events else None
    msg["events"] = events
    if ack is not None:
        msg["ack"] = ack
    return msg


def state_events(events: list[Json]) -> StateEvents:
    """The members of a state that say what just happened (written once for
    every seat when none of ``events`` is private to one)."""
    return {"event": events[-1] if events else None, "events": events}


# What follows writes a state as text from parts already written as JSON: a
# server writes the parts common to every seat once per update, each seat's
# only its own, and joins them here (``server.patches.Update``); the text is
# ``state_message``'s, key for key (tests/server/test_state_text.py).


def state_text(seat: int, events: str, view: str, common: str, *, n: int | None, ack: str | None) -> str:
    """A seat's whole state as text: ``events``, ``state_events`` as JSON (no braces);
    ``view``, the seat's view as JSON (``null``: none); ``common``, the members
    of ``StateCommon`` but ``view`` (an object's inside, no braces); ``ack``,
    the acknowledgement's JSON (None: none)."""
    number = "" if n is None else f',"n":{n}'
    acked = "" if ack is None else ',"ack":' + ack
    rest = "," + common if common else ""
    return (
        f'{{"v":{VERSION},"type":"state"{number},"seat":{seat},"spectator":false,'
        f'{events}{acked},"view":{view}{rest}}}'
    )


def state_patch_text(
    seat: int, events: str, view: str | None, changed: str, *, n: int, base: int, ack: str | None
) -> str:
    """A seat's state as a patch (``StatePatch``): ``view`` the inside of
    the view's changes (None: no view), ``changed`` the inside of the
    changed members of ``StateCommon``; the rest as ``state_text``."""
    acked = "" if ack is None else ',"ack":' + ack
    text = f'{{"v":{VERSION},"type":"state","n":{n},"base":{base},"seat":{seat},{events}{acked}'
    if view is not None:
        text += ',"view":{' + view + "}"
    return text + ("," + changed if changed else "") + "}"


# -- the events a server adds to a game's log (the engine's own: deal, pass, play) --------


class ClaimEvent(TypedDict):
    """``seat`` ended deal ``deal`` at once, its cards taking every trick left
    (``tricks``: ``all``) or none (``none``): its ``cards``, in the order they
    are played (the ``play`` events of the rest follow)."""

    type: Literal["claim"]
    seat: int
    deal: int
    cards: list[str]
    tricks: Literal["all", "none"]


class HintEvent(TypedDict):
    """``seat`` was given a hint at trick ``trick`` of deal ``deal`` (once a trick)."""

    type: Literal["hint"]
    seat: int
    deal: int
    trick: int


def claim_event(seat: int, deal: int, cards: list[str], tricks: Literal["all", "none"]) -> ClaimEvent:
    return {"type": "claim", "seat": seat, "deal": deal, "cards": cards, "tricks": tricks}


def hint_event(seat: int, deal: int, trick: int) -> HintEvent:
    return {"type": "hint", "seat": seat, "deal": deal, "trick": trick}


# -- training: the expert's advice, hints and reviews (docs/protocol.md) -----------------


class AdviceMessage(TypedDict, total=False):
    """The expert's word on each option of the decision in front of the seat:
    the position (``deal``, ``phase``, ``play``: cards played), best first."""

    v: Required[int]
    type: Required[Literal["advice"]]
    deal: Required[int]
    phase: Required[str]
    play: Required[int]
    options: Required[list[Json]]
    ref: Ref


class HintMessage(TypedDict, total=False):
    """The best option now (``advice``), and what separates it from the runner-up."""

    v: Required[int]
    type: Required[Literal["hint"]]
    deal: Required[int]
    phase: Required[str]
    play: Required[int]
    advice: Required[Json]
    comparison: Required[Json | None]
    ref: Ref


class ReviewMessage(TypedDict, total=False):
    """The seat's costliest choices in finished deal ``deal``, by the ``expert`` level named."""

    v: Required[int]
    type: Required[Literal["review"]]
    deal: Required[int]
    expert: Required[str]
    items: Required[list[Json]]
    ref: Ref


TrainingMessage = AdviceMessage | HintMessage | ReviewMessage


def advice_message(deal: int, phase: str, play: int, options: list[Json]) -> AdviceMessage:
    return {"v": VERSION, "type": "advice", "deal": deal, "phase": phase, "play": play, "options": options}


def hint_message(deal: int, phase: str, play: int, advice: Json, comparison: Json | None) -> HintMessage:
    return {
        "v": VERSION,
        "type": "hint",
        "deal": deal,
        "phase": phase,
        "play": play,
        "advice": advice,
        "comparison": comparison,
    }


def review_message(deal: int, expert: str, items: list[Json]) -> ReviewMessage:
    return {"v": VERSION, "type": "review", "deal": deal, "expert": expert, "items": items}


# -- the score keeper's live sheet (``/api/sheets/shared/{id}/live``, docs/scorer.md) -----


class SheetMessage(TypedDict):
    """A shared sheet as it is now (sent at once, then after each change)."""

    type: Literal["sheet"]
    sheet: Json


def sheet_message(sheet: Json) -> SheetMessage:
    return {"type": "sheet", "sheet": sheet}


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


# -- every message a server sends on a socket ---------------------------------------------

SENT: dict[str, type] = {
    "error": ErrorMessage,
    "table": TableMessage,
    "state": StateMessage,
    "seated": SeatedMessage,
    "notice": NoticeMessage,
    "chat": ChatMessage,
    "muted": MutedMessage,
    "pong": PongMessage,
    "ack": AckMessage,
    "advice": AdviceMessage,
    "hint": HintMessage,
    "review": ReviewMessage,
    "lobby": LobbyMessage,
    "lobby_changes": LobbyChangesMessage,
    "quick": QuickMessage,
    "sheet": SheetMessage,
}
"""The type of each message a server sends on a socket (``/ws``, ``/ws/lobby``,
``/ws/match``, a sheet's live one), by its ``type``; a ``state`` with
``base`` is a ``StatePatch``."""


def misfit(msg: Mapping[str, object]) -> str | None:
    """Why ``msg`` is not one of the messages a server sends (``SENT``): an
    unknown ``type``, a key its type does not have, a key it needs; None when it is one.

    >>> misfit(pong_message(3)) is None
    True
    >>> misfit({"v": 2, "type": "pong", "ref": 3, "card": "QS"})
    "a pong has no 'card'"
    >>> misfit({"type": "shout"})
    "no message of type 'shout'"
    """
    kind = msg.get("type")
    shape = SENT.get(kind) if isinstance(kind, str) else None
    if shape is StateMessage and "base" in msg:
        shape = StatePatch
    if shape is None:
        return f"no message of type {kind!r}"
    keys: frozenset[str] = shape.__required_keys__ | shape.__optional_keys__  # type: ignore[attr-defined]
    if shape is StatePatch:
        keys |= StateCommon.__required_keys__
    if extra := sorted(msg.keys() - keys):
        return f"a {kind} has no {extra[0]!r}"
    if missing := sorted(shape.__required_keys__ - msg.keys()):  # type: ignore[attr-defined]
        return f"a {kind} needs {missing[0]!r}"
    return None


__all__ = [
    "ALPHABET",
    "BOT_API",
    "CODE_LENGTH",
    "MAX_MESSAGE",
    "SENT",
    "TYPES",
    "VERSION",
    "AckMessage",
    "Advice",
    "AdviceMessage",
    "ChallengeEvent",
    "ChallengeKind",
    "ChangedEvent",
    "Chat",
    "ChatMessage",
    "Claim",
    "ClaimEvent",
    "Continue",
    "ErrorMessage",
    "GameFinish",
    "GameFinishEvent",
    "GameStart",
    "GameStartEvent",
    "Hello",
    "Hint",
    "HintEvent",
    "HintMessage",
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
    "ReviewMessage",
    "SeatedMessage",
    "SheetMessage",
    "Sit",
    "Start",
    "StateCommon",
    "StateEvents",
    "StateMessage",
    "StateMode",
    "StatePatch",
    "TableMessage",
    "TrainingMessage",
    "WireError",
    "ack_message",
    "advice_message",
    "challenge_event",
    "changed_event",
    "chat_message",
    "claim_event",
    "decision_id",
    "display_code",
    "encode",
    "error_message",
    "game_event_id",
    "game_finish_event",
    "game_start_event",
    "hint_event",
    "hint_message",
    "loads",
    "lobby_changes_message",
    "lobby_message",
    "misfit",
    "muted_message",
    "normalize_code",
    "notice_message",
    "parse",
    "parse_decision",
    "pong_message",
    "quick_message",
    "review_message",
    "seated_message",
    "sheet_message",
    "state_events",
    "state_message",
    "state_patch_text",
    "state_text",
    "table_message",
]
