"""A bot of one's own for the bot API: the same two decisions as every bot.

A program that plays over the bot API hands its bot what a bot in the
server is handed: a seat's ``View`` (read back from the wire by
``View.from_json``) and a seeded ``random.Random``. So any bot of
``damepique.bots.registry`` plays remotely as it is, and one's own is a
subclass of ``RemoteBot`` with ``choose_pass`` and ``choose_play``; the hooks
see every state and the end of each game, for a program that logs or learns.

>>> from damepique.engine import cards_of
>>> class Lowest(RemoteBot):
...     name = "lowest"
...     def choose_pass(self, view, rng):
...         return cards_of(view.hand)[-view.rules.pass_count :]
...     def choose_play(self, view, rng):
...         return view.legal_cards()[0]
>>> Lowest().name
'lowest'
"""

from __future__ import annotations

import random
from typing import Any

from damepique.engine import View


class RemoteBot:
    """Subclass it and write ``choose_pass`` and ``choose_play``; the runner
    (``botapi.client.play``) calls them when the seat must act."""

    name = "remote"

    def choose_pass(self, view: View, rng: random.Random) -> tuple[int, ...]:
        """The cards to pass (``view.rules.pass_count`` of them) from ``view.hand``."""
        raise NotImplementedError

    def choose_play(self, view: View, rng: random.Random) -> int:
        """One card of ``view.legal_mask()``."""
        raise NotImplementedError

    def on_state(self, state: dict[str, Any]) -> None:
        """Every ``state`` message, before any decision in it (does nothing here)."""

    def on_game_over(self, state: dict[str, Any]) -> None:
        """The state that ends a game: ``totals``, ``winner`` (does nothing here)."""


__all__ = ["RemoteBot"]
