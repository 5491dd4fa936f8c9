"""Nicknames: what people and bots are called, and the key an account is found by.

People and bots share one namespace: a nickname taken by either is taken.

>>> nickname_key("  Léa_42 ")
'léa_42'
>>> nickname_key("no spaces") is None
True
"""

from __future__ import annotations

import re

_NICK = re.compile(r"^[\w\-]{3,24}$")


def nickname_key(nickname: object) -> str | None:
    """The account key for a nickname (case-insensitive), or None if it is not a valid nickname."""
    if not isinstance(nickname, str):
        return None
    nick = nickname.strip()
    if not _NICK.match(nick):
        return None
    return nick.lower()


__all__ = ["nickname_key"]
