"""Table codes people can read aloud, and seat tokens nobody can guess.

Codes use 31 characters with no 0/O or 1/I/L look-alikes, eight of them
(about 39 bits): with the server's rate limits, guessing a private table's
code is out of reach in practice, and no listing ever shows private tables.
"""

from __future__ import annotations

import secrets

from damepique.wire import ALPHABET, CODE_LENGTH, display_code, normalize_code


def new_code() -> str:
    """A fresh table code such as ``K7QM4XPA`` (shown as ``K7QM-4XPA``)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def new_token() -> str:
    """A secret seat or session token (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


__all__ = ["ALPHABET", "CODE_LENGTH", "display_code", "new_code", "new_token", "normalize_code"]
