"""Bots by name: ``get_bot("expert")``.

``expert`` and ``shooter`` take options after a colon: ``expert:playouts=400``
or ``expert:budget_ms=500`` (see ``docs/bots.md``); a bad option raises
``ValueError``, an unknown bot ``KeyError``. Other packages add bots through
the ``damepique.bots`` entry points (``pyproject.toml``): a factory called
with what follows the colon, loaded on first use, so this layer never
imports them (ours: ``ismcts-py:SIMS`` in ``damepique.openspiel``).

``BOT_INFO`` holds each bot's kind (a ``level`` of the ladder, or a
``personality``); the pages have the words for its name and what it does.

>>> get_bot("intermediate").name
'intermediate'
>>> BOT_INFO["shooter"]["kind"]
'personality'
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

_SEARCH = ("expert", "shooter", "expert-2026-12")
"""Bots built by the search module (loaded on first use) that take options."""

FROZEN = ("expert-2026-12",)
"""Earlier experts kept by name for paired comparisons in the arena
(``damepique arena --seats expert,expert-2026-12,...``): not on the ladder,
not offered at tables."""

LEVELS = ("random", "beginner", "intermediate", "expert")
"""The ladder, weakest first."""

PERSONALITIES = ("shooter",)
"""Bots with a style rather than a rung on the ladder."""

BOT_INFO: dict[str, dict[str, object]] = {
    "random": {"kind": "level"},
    "beginner": {"kind": "level"},
    "intermediate": {"kind": "level"},
    "expert": {"kind": "level"},
    "shooter": {"kind": "personality"},
}
"""Each bot's kind, by name (``/api/options``, ``bots``). Its name and what it
does in people's words are the page's alone (``level_NAME`` and
``level_NAME_about`` in ``web/strings/en.js`` and ``fr.js``): no copy here."""


def register(name: str, factory: Callable[[], Bot]) -> None:
    _FACTORIES[name] = factory


def get_bot(name: str) -> Bot:
    """A new bot of the named level; raises KeyError naming the known ones.

    A name may carry options after a colon for the levels that take them
    (``expert:playouts=400``, ``shooter:playouts=400``)."""
    base, _, options = name.partition(":")
    if base in _SEARCH and base not in _FACTORIES:
        from .montecarlo import ExpertBot, FrozenExpertBot, ShooterBot

        cls = {"expert": ExpertBot, "shooter": ShooterBot, "expert-2026-12": FrozenExpertBot}[base]
        return cls.from_options(options) if options else cls()
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
    known = ", ".join(sorted({*bot_names(), *FROZEN, *plugins}))
    raise KeyError(f"unknown bot {name!r}; known bots: {known}")


def _plugins() -> dict[str, EntryPoint]:
    return {ep.name: ep for ep in entry_points(group="damepique.bots")}


def bot_names() -> list[str]:
    """The bots on the ladder and the personalities (``FROZEN`` left out)."""
    return sorted({*_FACTORIES, *_SEARCH} - set(FROZEN))
