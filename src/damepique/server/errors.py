"""One refusal: what the server says when it will not do something.

A ``Refusal`` carries a stable ``code`` (the pages hold the words for it, in
English and French), a ``reason`` in English for programs and logs, the
``params`` a page needs to say it (a suit, a number of seconds), and the seat
and card it concerns when there are any. Its HTTP status comes from one
table, ``STATUS``; on a WebSocket it is an ``error`` message and the
connection stays open. Nothing changed when one is raised.

>>> from damepique.engine.errors import IllegalPlay
>>> r = Refusal.from_engine(IllegalPlay("must follow clubs", 2, 51))
>>> r.code, r.reason, r.seat, r.card, r.status
('illegal_play', 'must follow clubs', 2, 'AS', 400)
>>> Refusal("no_table", "no table with this code").status
404
"""

from __future__ import annotations

from damepique.engine import CARD_NAMES
from damepique.engine.errors import CardError, DealError, HeartsError, IllegalAction, RulesError

STATUS: dict[str, int] = {
    "account_needed": 401,
    "bad_login": 401,
    "bad_bot_token": 401,
    "person_needed": 403,
    "bad_origin": 403,
    "not_your_seat": 403,
    "not_found": 404,
    "no_challenge": 404,
    "not_challenged": 403,
    "challenge_over": 409,
    "no_table": 404,
    "no_such_sheet": 404,
    "no_such_deal": 404,
    "daily_not_yet": 404,
    "no_daily": 404,
    "no_tourney": 404,
    "bad_player": 404,
    "not_director": 403,
    "withheld": 403,
    "shown_at_end": 403,
    "already_started": 409,
    "nickname_taken": 409,
    "name_taken": 409,
    "table_full": 409,
    "game_over": 409,
    "not_finished": 409,
    "too_many_bots": 409,
    "same_owner": 409,
    "nothing_to_undo": 409,
    "daily_played": 409,
    "day_over": 409,
    "tourney_started": 409,
    "tourney_full": 409,
    "not_enough_players": 409,
    "round_over": 409,
    "no_rematch": 409,
    "too_large": 413,
    "unsupported_media_type": 415,
    "bad_body": 422,
    "bad_sheet": 422,
    "bad_entry": 422,
    "ambiguous": 422,
    "too_slow": 422,
    "rate_limited": 429,
    "too_many_attempts": 429,
    "too_many_codes": 429,
    "too_many_created": 429,
    "too_many": 429,
    "too_many_challenges": 429,
    "busy": 429,
    "unavailable": 503,
    "storage_failed": 503,
}
"""HTTP status by code (or, for a code not listed, by its ``kind``); every other
refusal is 400 (the request was wrong). ``docs/protocol.md`` (Refusals over
HTTP) shows this table; a test keeps the two the same."""


class Refusal(Exception):
    """A request the server refuses; nothing changed."""

    def __init__(
        self,
        code: str,
        reason: str,
        *,
        params: dict[str, object] | None = None,
        seat: int | None = None,
        card: str | None = None,
        retry_after: int | None = None,
        kind: str | None = None,
        player: int | None = None,
    ) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.params = params or {}
        self.seat = seat
        self.card = card
        self.retry_after = retry_after
        """Seconds before asking again is worth it (``Retry-After``), where that is known."""
        self.kind = kind
        """The family of a finer code, where there is one (the score keeper's
        ``bad_entry`` for ``sum_short``): the status of a code not in ``STATUS``."""
        self.player = player
        """The score keeper's player (a column of the sheet) it concerns."""

    @property
    def status(self) -> int:
        return STATUS.get(self.code, STATUS.get(self.kind or "", 400))

    @classmethod
    def from_engine(cls, error: HeartsError) -> Refusal:
        """The engine's error as a refusal, its kind as the code, its seat and card kept."""
        seat = card = None
        if isinstance(error, (IllegalAction, DealError)):
            seat = error.seat
            card = None if error.card is None else CARD_NAMES[error.card]
        elif isinstance(error, CardError):
            card = error.text[:20]
        code = error.kind
        if isinstance(error, RulesError):
            code = "bad_rules"
        return cls(code, error.reason, seat=seat, card=card)

    def to_json(self) -> dict[str, object]:
        """The refusal's fields as every answer writes them (HTTP and WebSocket alike)."""
        out: dict[str, object] = {"code": self.code, "reason": self.reason}
        if self.params:
            out["params"] = self.params
        if self.seat is not None:
            out["seat"] = self.seat
        if self.card is not None:
            out["card"] = self.card
        if self.kind is not None:
            out["kind"] = self.kind
        if self.player is not None:
            out["player"] = self.player
        return out

    def body(self) -> dict[str, object]:
        """The one shape of every refusal over HTTP (``docs/protocol.md``, Refusals
        over HTTP): ``error`` and ``code`` (the same code), ``reason`` (English, for
        programs and logs: a page says it in its own words from ``code`` and
        ``params``), ``params`` (always, maybe empty), then ``seat``, ``card``,
        ``kind``, ``player`` where they apply.

        >>> Refusal("no_table", "no table with this code").body()
        {'error': 'no_table', 'code': 'no_table', 'reason': 'no table with this code', 'params': {}}
        """
        out: dict[str, object] = {"error": self.code, "code": self.code, "reason": self.reason}
        return out | {"params": self.params} | self.to_json()

    def __repr__(self) -> str:
        return f"Refusal({self.code!r}, {self.reason!r})"


__all__ = ["STATUS", "Refusal"]
