"""The score keeper's errors: fields to read, never strings to parse.

Every refusal is a ``ScoreError`` with a ``kind`` (what sort of thing is
wrong), the ``player`` it concerns (a seat index, or None), a ``code`` and
``params`` for the sentence, and ``reason``, the English sentence.

>>> err = ScoreError("bad_entry", "sum_short", {"total": 24, "expected": 26, "difference": 2})
>>> err.kind, err.player, err.reason
('bad_entry', None, 'the points add up to 24, a deal gives 26: 2 points are missing')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .messages import render

# The kinds of refusal.
BAD_SHEET = "bad_sheet"  # names or rules of a new sheet
BAD_ENTRY = "bad_entry"  # the points or the moon of one deal
AMBIGUOUS = "ambiguous"  # points that read as a moon and as an ordinary deal: which was it?
NO_SUCH_DEAL = "no_such_deal"
GAME_OVER = "game_over"
NOTHING_TO_UNDO = "nothing_to_undo"
NO_SUCH_SHEET = "no_such_sheet"  # raised where sheets are stored, not by a sheet
KINDS = (BAD_SHEET, BAD_ENTRY, AMBIGUOUS, NO_SUCH_DEAL, GAME_OVER, NOTHING_TO_UNDO, NO_SUCH_SHEET)


class ScoreError(ValueError):
    """A sheet or a deal entry the score keeper refuses; nothing was changed."""

    def __init__(
        self, kind: str, code: str, params: Mapping[str, Any] | None = None, player: int | None = None
    ) -> None:
        self.kind = kind
        self.code = code
        self.params = dict(params or {})
        self.player = player
        self.reason = render(code, self.params)
        super().__init__(self.reason)

    def to_json(self) -> dict[str, Any]:
        """The fields (the page has the words for ``code`` and ``params``) and the English ``reason``."""
        return {
            "kind": self.kind,
            "code": self.code,
            "player": self.player,
            "reason": self.reason,
            "params": self.params,
        }

    def __repr__(self) -> str:
        return f"ScoreError({self.kind!r}, {self.code!r}, {self.params!r}, player={self.player!r})"
