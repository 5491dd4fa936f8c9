"""What a table is made of: its seats and its options, as stored and shown."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from damepique.wire import SeatShown, seat_shown

from ..errors import Refusal
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

    def shown(self, connected: bool) -> SeatShown:
        """The seat as everybody at the table and in the lobby may see it
        (no account key, browser id or owner)."""
        return seat_shown(
            self.kind,
            self.name,
            nickname=self.nickname,
            level=self.level,
            program=self.program,
            connected=connected,
            away=self.away,
            left=self.left,
        )


@dataclass(frozen=True)
class Sitter:
    """Who takes a seat: nobody signed in, a person with an account, or a program
    with a bot account (``program``, ``owner`` the person who made it)."""

    account: str | None = None
    nickname: str | None = None
    program: bool = False
    owner: str | None = None
    player: str | None = None
    """The browser's id, where the page said it (a quick match): a guest's statistics."""
    ticket: str | None = None
    """The quick-match wait that seats them: a wait sits at one table once
    (``TableStore.add_token``: ``already_seated``, nothing changed, when it sits already)."""

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
    ladder: bool = False
    """A ranked challenge between bots only: rated on the bots' ladder, not on
    the people's ratings (``ranked`` stays false)."""
    training: bool = True
    """Advice, hints and reviews may be asked for (not in the daily deal)."""

    def to_json(self) -> Json:
        return asdict(self)

    def shown(self) -> Json:
        """The options everybody may see (the rules are shown on their own)."""
        return {
            "timer": self.timer,
            "fill": self.fill,
            "level": self.level,
            "public": self.public,
            "ranked": self.ranked,
            "spectators": self.spectators,
            "speed": self.speed,
        }


MIN_PLAYERS, MAX_PLAYERS = 3, 5

BOT_NAMES = ("Bot Ada", "Bot Bea", "Bot Cy", "Bot Dom", "Bot Eve")


def enough_people(seats: list[TableSeat], options: TableOptions) -> tuple[bool, str]:
    """Whether a waiting table's host may start it, and if not why: two people
    where bots fill, three at an "auto" table without bots, else every seat."""
    humans = sum(1 for s in seats if s.kind == "human")
    if options.fill:
        if humans < 2:
            return False, "a second person must sit down first"
    elif options.auto_players:
        if humans < MIN_PLAYERS:
            return False, f"{MIN_PLAYERS} people must sit down first"
    elif humans < len(seats):
        return False, "every seat must be taken first"
    return True, ""


def check_ranked_sitter(seats: list[TableSeat], sitter: Sitter) -> None:
    """``Refusal`` unless ``sitter`` may sit at a ranked table with ``seats``:
    an account, not seated already, and no other seat of the same owner."""
    if sitter.account is None:
        raise Refusal("account_needed", "ranked tables need an account: sign in first")
    if any(s.account == sitter.account for s in seats):
        raise Refusal("already_seated", "you already sit at this table")
    if sitter.owner is not None and any(s.owner == sitter.owner for s in seats):
        # Else a person could feed their rating with their own bots' losses.
        raise Refusal("same_owner", "at a ranked table a person and their bots take one seat between them")


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
    "check_ranked_sitter",
    "clean_name",
    "enough_people",
]
