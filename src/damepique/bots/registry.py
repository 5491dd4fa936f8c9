"""Bots by name: ``get_bot("expert")``.

``expert`` takes options after a colon: ``expert:samples=40`` or
``expert:budget_ms=500`` (see ``docs/bots.md``).

>>> get_bot("intermediate").name
'intermediate'
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot
from .heuristic import BeginnerBot, IntermediateBot
from .random_bot import RandomBot

_FACTORIES: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "beginner": BeginnerBot,
    "intermediate": IntermediateBot,
}

LEVELS = ("random", "beginner", "intermediate", "expert")


def register(name: str, factory: Callable[[], Bot]) -> None:
    _FACTORIES[name] = factory


def get_bot(name: str) -> Bot:
    """A new bot of the named level; raises KeyError naming the known ones.

    A name may carry options after a colon for the levels that take them
    (``expert:samples=40``)."""
    base, _, options = name.partition(":")
    if options and base == "expert":
        from .montecarlo import ExpertBot

        return ExpertBot.from_options(options)
    if base == "expert" and "expert" not in _FACTORIES:
        from .montecarlo import ExpertBot

        return ExpertBot()
    try:
        return _FACTORIES[name]()
    except KeyError:
        known = ", ".join(sorted({*_FACTORIES, "expert"}))
        raise KeyError(f"unknown bot {name!r}; known bots: {known}") from None


def bot_names() -> list[str]:
    return sorted({*_FACTORIES, "expert"})
