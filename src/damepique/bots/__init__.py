"""Computer players: each decides from one seat's view only."""

from .base import Advice, Bot
from .registry import LEVELS, bot_names, get_bot

__all__ = ["LEVELS", "Advice", "Bot", "bot_names", "get_bot"]
