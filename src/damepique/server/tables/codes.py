"""Table codes people can read aloud, and seat tokens nobody can guess.

Codes use 31 characters with no 0/O or 1/I/L look-alikes, eight of them
(about 39 bits): with the server's rate limits, guessing a private table's
code is out of reach in practice, and no listing ever shows private tables.
"""

from __future__ import annotations

import re
import secrets

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 8
_CODE_RE = re.compile(f"^[{ALPHABET}]{{{CODE_LENGTH}}}$")


def new_code() -> str:
    """A fresh table code such as ``K7QM4XPA`` (shown as ``K7QM-4XPA``)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(text: str) -> str | None:
    """The code typed by a person (any case, spaces or dashes), or None when it
    cannot be a code. Look-alikes (0 for O, 1 or L for I) are not in the
    alphabet, so they are refused rather than guessed."""
    cleaned = re.sub(r"[\s\-]", "", text).upper()
    return cleaned if _CODE_RE.match(cleaned) else None


def display_code(code: str) -> str:
    """``K7QM-4XPA``: two groups of four, easier to read aloud."""
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}"


def new_token() -> str:
    """A secret seat or session token (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)
