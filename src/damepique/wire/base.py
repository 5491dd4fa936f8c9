"""The protocol's basics: its versions, a fault in a client's message
(``WireError``), table codes and decision ids."""

from __future__ import annotations

import re
from typing import Any

VERSION = 2
"""The protocol's version: every message the server sends carries it as ``v``."""
BOT_API = 1
"""The bot API's own version (its HTTP routes and the account's event stream)."""
MAX_MESSAGE = 4096
"""Bytes; a client message is a few dozen."""

Ref = str | int | None
"""A client's ``id`` for a message, echoed as ``ack`` or ``ref``."""
Json = dict[str, Any]
"""A JSON object as it goes over the wire or into the store: its values are arbitrary JSON."""


class WireError(ValueError):
    """A message that is not one of the protocol's: ``code`` and ``reason`` as
    the ``error`` message says them (the server's ``Refusal`` carries the same)."""

    def __init__(self, code: str, reason: str, *, card: str | None = None) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.card = card


# -- table codes -------------------------------------------------------------------------

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""31 characters, no 0/O or 1/I/L look-alikes (the page's ``web/codes.js`` has the same)."""
CODE_LENGTH = 8
_CODE = re.compile(f"^[{ALPHABET}]{{{CODE_LENGTH}}}$")


def normalize_code(text: str) -> str | None:
    """The table code typed by a person (any case, spaces or dashes), or None
    when it cannot be a code. Look-alikes (0 for O, 1 or L for I) are not in
    the alphabet, so they are refused rather than guessed."""
    if not isinstance(text, str) or len(text) >= 40:
        return None
    cleaned = re.sub(r"[\s\-]", "", text).upper()
    return cleaned if _CODE.match(cleaned) else None


def display_code(code: str) -> str:
    """``K7QM-4XPA``: two groups of four, easier to read aloud."""
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}"


# -- decision ids ------------------------------------------------------------------------

_DECISION = re.compile(r"^(\d{1,6}):(pass|play):(\d{1,3})$")
"""``decision_id``'s form (the engine's, ``View.decision``): ``DEAL:pass:SEAT`` or ``DEAL:play:K``."""


def parse_decision(text: object) -> tuple[int, str, int] | None:
    """``(deal, phase, index)`` of a decision id, or None when it is not one.

    >>> from damepique.engine import decision_id
    >>> decision_id(3, "play", 17), parse_decision("3:play:17"), parse_decision("3:play")
    ('3:play:17', (3, 'play', 17), None)
    """
    found = _DECISION.match(text) if isinstance(text, str) else None
    if found is None:
        return None
    return int(found.group(1)), found.group(2), int(found.group(3))
