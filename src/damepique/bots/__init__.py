"""Computer players: each decides from one seat's view only.

``advise`` (``bots.advice``) is loaded on first use: importing the bots does
not load the expert's search.

>>> from damepique.bots import advise
>>> advise.__module__
'damepique.bots.advice'
"""

from typing import Any

from .base import Advice, Bot
from .registry import LEVELS, bot_names, get_bot

__all__ = ["LEVELS", "Advice", "Bot", "advise", "bot_names", "get_bot"]


def __getattr__(name: str) -> Any:
    if name == "advise":
        from .advice import advise

        return advise
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
