"""A seat's state, the message sent after every card (``docs/protocol.md``,
"state"): its parts, whole or as a patch, as a dict and as text written from
parts (a server writes what is common to every seat once per update)."""

from __future__ import annotations

from typing import Literal, Required, TypedDict, cast

from .base import VERSION, Json, Ref

StateMode = Literal["solo", "table", "arena"]


class StateSeat(TypedDict):
    """Who plays a seat, as a state says it: a person (``human``) or a ``bot`` of ``level``."""

    name: str
    kind: str
    level: str | None


def state_seat(name: str, kind: str, level: str | None) -> StateSeat:
    return {"name": name, "kind": kind, "level": level}


class DealResult(TypedDict):
    """A finished deal's points per seat (after a moon), who shot the moon, and what each took."""

    points: list[int]
    moon: int | None
    taken: list[int]


def deal_result(points: list[int], moon: int | None, taken: list[int]) -> DealResult:
    return {"points": points, "moon": moon, "taken": taken}


class TimerInfo(TypedDict):
    """A table's turn timer: its ``seconds`` a turn, the seats it times now,
    when their time runs out (ms since 1970) and the seconds that leaves."""

    seconds: int
    seats: list[int]
    deadline: int | None
    remaining: float | None


def timer_info(seconds: int, seats: list[int], deadline: int | None, remaining: float | None) -> TimerInfo:
    return {"seconds": seconds, "seats": seats, "deadline": deadline, "remaining": remaining}


class SummaryInfo(TypedDict):
    """The last deal's summary being read: the deal, who still reads it, until when (ms since 1970)."""

    deal: int
    waiting: list[int]
    deadline: int


def summary_info(deal: int, waiting: list[int], deadline: int) -> SummaryInfo:
    return {"deal": deal, "waiting": waiting, "deadline": deadline}


class StateCommon(TypedDict):
    """What a state says alike to every seat and spectator: built once per
    update (``server.play.runner``), the seat's own fields laid over it."""

    game: str
    seats: list[StateSeat]
    rules: Json
    """Every rules key, even at its default (``Rules.to_json``)."""
    mode: StateMode
    speed: str
    level: str | None
    view: Json | None
    """The public view (``server.public_view.public_json``): a seat's state has the seat's own view."""
    results: list[DealResult]
    totals: list[int]
    over: bool
    winner: int | None
    winners: list[int]
    fairness: dict[str, str] | None
    timer: TimerInfo | None
    summary: SummaryInfo | None


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
    plays: bool
    """True: a play patch (``lay_plays``): its ``view`` leaves out what its events
    say, and it has no ``event`` (the last of its ``events``)."""
    seat: Required[int]
    event: Json | None
    events: list[Json]
    ack: Ref | bool


PLAYED_KEYS = ("trick", "trick_leader", "tricks", "hand_sizes", "hand")
"""The view's keys a play patch leaves out: the client works them out from its
events (``lay_plays``)."""


def lay_plays(view: Json, events: list[Json]) -> Json:
    """The view after the cards of a play patch (``"plays": true``), before its
    own ``view`` keys are laid over it: for each ``play`` event in order, the
    card leaves the hand (when it is this seat's) and joins the trick, its
    seat's hand size goes down by one, the trick's first card names its leader,
    and an event that closed the trick (``trick_winner``) moves the trick to
    ``tricks`` with its winner and points, the winner leading the next.
    ``view`` is not changed: a new view, with new lists where they changed.

    >>> view = {"seat": 1, "hand": ["2C", "QS"], "trick": ["3C", "KC", "AC"], "trick_leader": 2,
    ...         "tricks": [], "hand_sizes": [2, 2, 1, 1]}
    >>> last = {"type": "play", "seat": 1, "card": "2C", "trick_winner": 0, "trick_points": 0}
    >>> out = lay_plays(view, [last])
    >>> out["hand"], out["trick"], out["trick_leader"], out["hand_sizes"]
    (['QS'], [], 0, [2, 1, 1, 1])
    >>> out["tricks"]
    [{'leader': 2, 'cards': ['3C', 'KC', 'AC', '2C'], 'winner': 0, 'points': 0}]
    """
    out = dict(view)
    hand, trick, tricks, sizes = out["hand"], list(out["trick"]), out["tricks"], list(out["hand_sizes"])
    leader = out["trick_leader"]
    for e in events:
        if e.get("type") != "play":
            continue
        seat, card = e["seat"], e["card"]
        if seat == out["seat"]:
            hand = [c for c in hand if c != card]
        sizes[seat] -= 1
        if not trick:
            leader = seat
        trick.append(card)
        if "trick_winner" in e:
            tricks = [
                *tricks,
                {"leader": leader, "cards": trick, "winner": e["trick_winner"], "points": e["trick_points"]},
            ]
            trick, leader = [], e["trick_winner"]
    out.update(hand=hand, trick=trick, trick_leader=leader, tricks=tricks, hand_sizes=sizes)
    return out


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

    >>> import json
    >>> from damepique.engine import Rules
    >>> from damepique.wire import loads
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
    seat: int,
    events: str,
    view: str | None,
    changed: str,
    *,
    n: int,
    base: int,
    ack: str | None,
    plays: bool = False,
) -> str:
    """A seat's state as a patch (``StatePatch``): ``view`` the inside of
    the view's changes (None: no view), ``changed`` the inside of the
    changed members of ``StateCommon``; ``plays``: a play patch (its view
    leaves out ``PLAYED_KEYS``); the rest as ``state_text``."""
    head, tail = state_patch_parts(events, view, changed, n=n, base=base, ack=ack, plays=plays)
    return head + str(seat) + tail


def state_patch_parts(
    events: str,
    view: str | None,
    changed: str,
    *,
    n: int,
    base: int,
    ack: str | None,
    plays: bool = False,
) -> tuple[str, str]:
    """``state_patch_text`` cut where the seat goes: ``head + str(seat) + tail``.
    A server writes it once for the seats whose patches say the same (those
    that neither played nor must act, after a card).

    >>> head, tail = state_patch_parts('"event":null,"events":[]', "", "", n=2, base=1, ack=None)
    >>> head + "3" + tail == state_patch_text(3, '"event":null,"events":[]', "", "", n=2, base=1, ack=None)
    True
    """
    acked = "" if ack is None else ',"ack":' + ack
    tail = "," + events + acked
    if view is not None:
        tail += ',"view":{' + view + "}"
    played = ',"plays":true' if plays else ""
    return (
        f'{{"v":{VERSION},"type":"state","n":{n},"base":{base}{played},"seat":',
        tail + ("," + changed if changed else "") + "}",
    )
