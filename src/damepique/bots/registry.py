"""Bots by name: ``get_bot("expert")``.

``expert`` and ``shooter`` take options after a colon: ``expert:playouts=400``
or ``expert:budget_ms=500`` (see ``docs/bots.md``); a bad option raises
``ValueError``, an unknown bot ``KeyError``. Other packages add bots through
the ``damepique.bots`` entry points (``pyproject.toml``): a factory called
with what follows the colon, loaded on first use, so this layer never
imports them (ours: ``ismcts-py:SIMS`` in ``damepique.openspiel``).

``BOT_INFO`` holds what a page shows of each bot: its kind (a ``level`` of the
ladder, or a ``personality``) and its display name and a one-line
description in English and French.

>>> get_bot("intermediate").name
'intermediate'
>>> BOT_INFO["shooter"]["name"]["fr"]
'Audacieux'
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

_SEARCH = ("expert", "shooter")
"""Levels built by the search module (loaded on first use) that take options."""

LEVELS = ("random", "beginner", "intermediate", "expert")
"""The ladder, weakest first."""

PERSONALITIES = ("shooter",)
"""Bots with a style rather than a rung on the ladder."""

BOT_INFO: dict[str, dict[str, object]] = {
    "random": {
        "kind": "level",
        "name": {"en": "Random", "fr": "Au hasard"},
        "description": {"en": "plays any legal card", "fr": "joue n'importe quelle carte permise"},
    },
    "beginner": {
        "kind": "level",
        "name": {"en": "Beginner", "fr": "Débutant"},
        "description": {
            "en": "simple rules and human mistakes",
            "fr": "des règles simples et des erreurs humaines",
        },
    },
    "intermediate": {
        "kind": "level",
        "name": {"en": "Intermediate", "fr": "Intermédiaire"},
        "description": {"en": "sound rule-based play", "fr": "un jeu solide, à base de règles"},
    },
    "expert": {
        "kind": "level",
        "name": {"en": "Expert", "fr": "Expert"},
        "description": {
            "en": "searches the hands it cannot see",
            "fr": "explore les mains qu'il ne voit pas",
        },
    },
    "shooter": {
        "kind": "personality",
        "name": {"en": "Bold", "fr": "Audacieux"},
        "description": {
            "en": "an expert who goes for the moon whenever it has a fair chance",
            "fr": "un expert qui tente le grand chelem dès qu'il a une vraie chance",
        },
    },
}
"""Display names and descriptions, by bot name, for the pages."""


def register(name: str, factory: Callable[[], Bot]) -> None:
    _FACTORIES[name] = factory


def get_bot(name: str) -> Bot:
    """A new bot of the named level; raises KeyError naming the known ones.

    A name may carry options after a colon for the levels that take them
    (``expert:playouts=400``, ``shooter:playouts=400``)."""
    base, _, options = name.partition(":")
    if base in _SEARCH and base not in _FACTORIES:
        from .montecarlo import ExpertBot, ShooterBot

        cls = ExpertBot if base == "expert" else ShooterBot
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
    known = ", ".join(sorted({*bot_names(), *plugins}))
    raise KeyError(f"unknown bot {name!r}; known bots: {known}")


def _plugins() -> dict[str, EntryPoint]:
    return {ep.name: ep for ep in entry_points(group="damepique.bots")}


def bot_names() -> list[str]:
    return sorted({*_FACTORIES, *_SEARCH})
