"""Bots by name: ``get_bot("expert")``.

``expert`` takes options after a colon: ``expert:samples=40`` or
``expert:budget_ms=500`` (see ``docs/bots.md``). Other packages add bots
through the ``damepique.bots`` entry points (``pyproject.toml``): a factory
called with what follows the colon, loaded on first use, so this layer never
imports them (ours: ``ismcts-py:SIMS`` in ``damepique.openspiel``).

>>> get_bot("intermediate").name
'intermediate'
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import EntryPoint, entry_points

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
        pass
    plugins = _plugins()
    if base in plugins:
        try:
            factory = plugins[base].load()
        except ImportError as e:
            raise KeyError(f"bot {base!r} cannot be loaded: {e}") from None
        bot: Bot = factory(options)
        return bot
    known = ", ".join(sorted({*_FACTORIES, "expert", *plugins}))
    raise KeyError(f"unknown bot {name!r}; known bots: {known}")


def _plugins() -> dict[str, EntryPoint]:
    return {ep.name: ep for ep in entry_points(group="damepique.bots")}


def bot_names() -> list[str]:
    return sorted({*_FACTORIES, "expert"})
