"""The bot API's client: programs outside the server play at its tables.

A bot account's token (``POST /api/bots``) lets a program sit at a table and
play it over the page's own protocol (``docs/bot-api.md``): ``play`` seats any
bot, one of ``damepique.bots.registry``'s or a ``RemoteBot`` of one's own,
and plays whole games; ``damepique bot --url URL --token T --bot NAME`` is the
same from the command line. ``remote_seat`` is the arena's side: a program
plays a seat of ``damepique arena --seats remote,...`` the same way.

This package imports nothing of the server: it needs the standard library and
``websockets`` (``pip install 'damepique[bot]'``), loaded when a game begins.
"""

from __future__ import annotations

from .base import RemoteBot
from .client import Client, Refused, play
from .links import LinkError, Target
from .wire import BOT_API, VERSION, view_of_state

__all__ = [
    "BOT_API",
    "VERSION",
    "Client",
    "LinkError",
    "Refused",
    "RemoteBot",
    "Target",
    "play",
    "view_of_state",
]
