"""Where a bot program connects: a table's link as the page shows it, or an arena.

A table's link (``http://host:port/#/t/K7QM4XPA``, as the page shows it) names
the server and the table; the server's address with a separate code does the
same; a ``ws://`` address is an arena's remote seat (``damepique arena
--listen``), where there is nothing to sit at over HTTP.

>>> Target.parse("http://127.0.0.1:8000/#/t/K7QM-4XPA")
Target(http='http://127.0.0.1:8000', ws='ws://127.0.0.1:8000/ws', code='K7QM4XPA')
>>> Target.parse("https://cards.example/hearts/", "k7qm4xpa").ws
'wss://cards.example/hearts/ws'
>>> Target.parse("ws://127.0.0.1:9000")
Target(http=None, ws='ws://127.0.0.1:9000', code=None)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from damepique.wire import normalize_code

_LINK = re.compile(r"^/?t/([0-9A-Za-z-]{8,9})$")


class LinkError(ValueError):
    """An address that names no table (the message says what is missing)."""


@dataclass(frozen=True)
class Target:
    http: str | None
    """The server's address for HTTP (no trailing slash); None for an arena."""
    ws: str
    """The game socket's address."""
    code: str | None
    """The table's code; None for an arena."""

    @classmethod
    def parse(cls, url: str, table: str | None = None) -> Target:
        """The target of ``damepique bot --url URL [--table CODE]``; ``LinkError`` names what is wrong."""
        parts = urlsplit(url.strip())
        scheme = parts.scheme.lower()
        if scheme in ("ws", "wss"):
            return cls(None, urlunsplit((scheme, parts.netloc, parts.path, parts.query, "")), None)
        if scheme not in ("http", "https") or not parts.netloc:
            raise LinkError(f"{url!r} is not an http(s):// link to a table nor a ws:// arena")
        code = table
        found = _LINK.match(parts.fragment)
        if code is None and found is not None:
            code = found.group(1)
        if code is None:
            raise LinkError(f"{url!r} names no table: give its link (…/#/t/CODE) or --table CODE")
        path = parts.path.rstrip("/")
        http = urlunsplit((scheme, parts.netloc, path, "", ""))
        ws = urlunsplit(("wss" if scheme == "https" else "ws", parts.netloc, path + "/ws", "", ""))
        normal = normalize_code(code)
        if normal is None:
            raise LinkError(f"{code!r} is not a table code (eight letters and digits, e.g. K7QM-4XPA)")
        return cls(http, ws, normal)


__all__ = ["LinkError", "Target", "normalize_code"]
