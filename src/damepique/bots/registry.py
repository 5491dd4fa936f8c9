"""Bots by name: ``get_bot("expert")``."""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot
from .random_bot import RandomBot

_FACTORIES: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
}

LEVELS = ("random", "beginner", "intermediate", "expert")


def register(name: str, factory: Callable[[], Bot]) -> None:
    _FACTORIES[name] = factory


def get_bot(name: str) -> Bot:
    """A new bot of the named level; raises KeyError naming the known ones."""
    try:
        return _FACTORIES[name]()
    except KeyError:
        known = ", ".join(sorted(_FACTORIES))
        raise KeyError(f"unknown bot {name!r}; known bots: {known}") from None


def bot_names() -> list[str]:
    return sorted(_FACTORIES)
