"""The lines of the account's event stream (``GET /api/stream/event``,
``docs/bot-api.md``) and of a tournament's changes: ndjson, no version."""

from __future__ import annotations

from typing import Literal, TypedDict

from .base import Json


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
