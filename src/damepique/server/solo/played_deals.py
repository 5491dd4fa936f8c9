"""The finished deals of a solo game still being played, for its own player.

A training review points at cards of a deal that just ended; the player may
replay that deal at once, with the expert's view, while the game goes on. Only
that deal is sent, read from the stored events of it and of the deals before
it: never a card of the deal being played or of a later one, nor the game's
secret (the deals come from it). Another person, a table with others and the
daily deal (others play the same cards) wait for the game's end, as before.
"""

from __future__ import annotations

from damepique.engine import DONE, Match, Rules

from ..errors import Refusal
from ..play.game import Game, Seat
from ..protocol import Json
from ..storage.games import GameRow
from .replays import replay_data

SHOWN_BEFORE_THE_END = frozenset({"solo"})
"""The kinds of game whose finished deals their player may replay while it goes on."""


def check_shown(row: GameRow) -> None:
    """Refuse (``shown_at_end``) a game whose deals wait for its end."""
    if row.options.get("kind") not in SHOWN_BEFORE_THE_END:
        raise Refusal("shown_at_end", "this game's deals are replayed once it is over")


def played_until(row: GameRow, events: list[Json], number: int) -> Match:
    """The game as its stored ``events`` tell it up to the end of deal
    ``number``: the events of later deals are not read (run in a thread).
    Refuses ``bad_deal`` when that deal is not finished (the deal being
    played, or one not dealt yet)."""
    # The deals come from the events, which hold their hands: no secret is needed.
    game = Game(Rules.from_json(row.rules), [Seat.from_json(s) for s in row.seats], b"", sealed=False)
    for event in events:
        if event["type"] == "deal" and event["number"] > number:
            break
        game.apply_stored(event)
    deals = game.match.deals
    if not 0 <= number < len(deals) or deals[number].phase != DONE:
        raise Refusal("bad_deal", "this deal is not finished")
    return game.match


def deal_data(row: GameRow, events: list[Json], number: int) -> Json:
    """Finished deal ``number`` as the replay page draws it (``replay_data``'s
    entry for it, with the players and the rules), alone (run in a thread)."""
    data = replay_data(played_until(row, events, number), [str(s.get("name", "")) for s in row.seats])
    return {"players": data["players"], "rules": data["rules"], "deals": [data["deals"][number]]}


__all__ = ["SHOWN_BEFORE_THE_END", "check_shown", "deal_data", "played_until"]
