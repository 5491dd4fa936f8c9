"""What a table is made of: its seats and its options, as stored and shown."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from ..protocol import Json

STAND_IN_LEVEL = "intermediate"
"""The level that plays for a person away or gone."""


@dataclass
class TableSeat:
    """A chair at a table. ``kind`` is ``empty``, ``human`` or ``bot``."""

    kind: str = "empty"
    name: str = ""
    level: str | None = None
    account: str | None = None
    """The account key of a signed-in player (ranked games), never sent."""
    nickname: str | None = None
    player: str | None = None
    """The browser's player id (a solo game's history), never sent."""
    program: bool = False
    """A program plays this seat, with a bot account (``docs/bot-api.md``): shown, so people know."""
    owner: str | None = None
    """Whose the seat's account is: the person's own key, or a bot account's
    owner (a ranked table takes one seat of each owner), never sent."""
    left: bool = False
    """Left for good during the game: a bot plays the seat until the game ends."""
    away: bool = False
    """Gone longer than the grace period: a bot plays until the player is back."""

    def to_json(self) -> Json:
        return asdict(self)

    @classmethod
    def from_json(cls, d: Json) -> TableSeat:
        return cls(**{k: d[k] for k in cls.__dataclass_fields__ if k in d})


@dataclass(frozen=True)
class Sitter:
    """Who takes a seat: nobody signed in, a person with an account, or a program
    with a bot account (``program``, ``owner`` the person who made it)."""

    account: str | None = None
    nickname: str | None = None
    program: bool = False
    owner: str | None = None

    def to_json(self) -> Json:
        return asdict(self)

    @classmethod
    def from_json(cls, d: Json) -> Sitter:
        return cls(**{k: d[k] for k in cls.__dataclass_fields__ if k in d})


@dataclass
class TableOptions:
    rules: Json
    timer: int = 0
    fill: bool = True
    level: str = "intermediate"
    public: bool = False
    ranked: bool = False
    spectators: bool = True
    speed: str = "normal"
    auto_players: bool = False
    """``players: "auto"``: as many seats as people sit at the table when its
    host starts (``MIN_PLAYERS`` at least, bots filling); ``rules`` holds the
    most (``MAX_PLAYERS``) until then, and the count people sat at after."""

    def to_json(self) -> Json:
        return asdict(self)


MIN_PLAYERS, MAX_PLAYERS = 3, 5

BOT_NAMES = ("Bot Ada", "Bot Bea", "Bot Cy", "Bot Dom", "Bot Eve")


def clean_name(name: object, default: str) -> str:
    """A name a person typed, as shown: printable, trimmed, at most 24 characters."""
    text = name.strip() if isinstance(name, str) else ""
    text = "".join(ch for ch in text if ch.isprintable())[:24]
    return text or default


__all__ = [
    "BOT_NAMES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "STAND_IN_LEVEL",
    "Sitter",
    "TableOptions",
    "TableSeat",
    "clean_name",
]
