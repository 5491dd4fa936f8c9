"""What a server sends on its sockets (``/ws``, ``/ws/lobby``, ``/ws/match``,
a sheet's live one): each message a ``TypedDict`` built by its function;
``SENT`` names them all by ``type`` and ``misfit`` says why a message is not one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, Required, TypedDict, Unpack

from .base import VERSION, Json, Ref, display_code
from .state import StateCommon, StateMessage, StatePatch


class ErrorMessage(TypedDict, total=False):
    v: int
    type: Literal["error"]
    code: str
    reason: str
    params: Json
    seat: int
    card: str
    ref: str | int


class SeatShown(TypedDict):
    """A seat of a table as everybody may see it: who sits there (a person,
    ``human``, or the table's ``bot`` of ``level``), their account's nickname,
    whether a program plays it, and whether its player is here, away or gone."""

    kind: str
    name: str
    nickname: str | None
    level: str | None
    program: bool
    connected: bool
    away: bool
    left: bool


class TableInfo(TypedDict):
    """The table as everybody may see it (``server.tables.table.Table.info``)."""

    code: str
    display: str
    kind: str
    """``table``, ``solo``, ``arena``."""
    status: str
    """``waiting``, ``playing``, ``over``, ``closed``."""
    host: int | None
    game: str | None
    options: Json
    rules: Json
    seats: list[SeatShown]
    spectators: int
    can_start: bool


class TableMessage(TypedDict):
    """The table as everybody may see it, with this connection's seat (``you``)."""

    v: int
    type: Literal["table"]
    you: int | None
    table: TableInfo


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


class LobbyEntry(TypedDict):
    """A public table as the lobby lists it: how many seats (``auto``: the
    host chooses at the start), how many people sit, how many seats are free,
    who sits, its rules and options."""

    code: str
    display: str
    status: str
    players: int | Literal["auto"]
    taken: int
    free: int
    names: list[str]
    rules: Json
    options: Json


class LobbyMessage(TypedDict):
    v: int
    type: Literal["lobby"]
    tables: list[LobbyEntry]


class LobbyChangesMessage(TypedDict):
    v: int
    type: Literal["lobby_changes"]
    tables: list[LobbyEntry]
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


def seat_shown(
    kind: str,
    name: str,
    *,
    nickname: str | None,
    level: str | None,
    program: bool,
    connected: bool,
    away: bool,
    left: bool,
) -> SeatShown:
    return {
        "kind": kind,
        "name": name,
        "nickname": nickname,
        "level": level,
        "program": program,
        "connected": connected,
        "away": away,
        "left": left,
    }


def table_info(
    code: str,
    kind: str,
    status: str,
    *,
    host: int | None,
    game: str | None,
    options: Json,
    rules: Json,
    seats: list[SeatShown],
    spectators: int,
    can_start: bool,
    display: str | None = None,
) -> TableInfo:
    """The table's ``TableInfo``; its code shown as ``display`` says, by default
    in two groups (``display_code``)."""
    return {
        "code": code,
        "display": display_code(code) if display is None else display,
        "kind": kind,
        "status": status,
        "host": host,
        "game": game,
        "options": options,
        "rules": rules,
        "seats": seats,
        "spectators": spectators,
        "can_start": can_start,
    }


def table_message(you: int | None, table: TableInfo) -> TableMessage:
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


def lobby_entry(
    info: TableInfo, players: int | Literal["auto"], taken: int, free: int, names: list[str]
) -> LobbyEntry:
    """A table's ``LobbyEntry``, its code, status, rules and options as its ``info`` shows them."""
    return {
        "code": info["code"],
        "display": info["display"],
        "status": info["status"],
        "players": players,
        "taken": taken,
        "free": free,
        "names": names,
        "rules": info["rules"],
        "options": info["options"],
    }


def lobby_message(tables: list[LobbyEntry]) -> LobbyMessage:
    return {"v": VERSION, "type": "lobby", "tables": tables}


def lobby_changes_message(tables: list[LobbyEntry], gone: list[str]) -> LobbyChangesMessage:
    return {"v": VERSION, "type": "lobby_changes", "tables": tables, "gone": gone}


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


class _Position(TypedDict):
    """Where the expert's word is about: the deal, its phase, the cards played in it."""

    v: int
    deal: int
    phase: str
    play: int


class AdviceMessage(_Position, total=False):
    """The expert's word on each option of the decision in front of the seat, best first."""

    type: Required[Literal["advice"]]
    options: Required[list[Json]]
    ref: Ref


class HintMessage(_Position, total=False):
    """The best option now (``advice``), and what separates it from the runner-up."""

    type: Required[Literal["hint"]]
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
