"""The score keeper's JSON API and pages (owned by the score-keeper work).

``install(app, database_url)`` adds the routes under ``/api/sheets`` and the
pages under ``/scorer`` to the web app; ``create_app`` calls it.
"""

from __future__ import annotations

from typing import Any


def install(app: Any, database_url: str) -> None:
    """Add the score keeper to ``app`` (placeholder until the score keeper lands)."""
    del app, database_url
