"""Errors with fields, never strings to parse.

Each error carries the ``kind`` of the spec (``bad_card``, ``bad_rules``,
``bad_deal``, ``illegal_pass``, ``illegal_play``; ``bad_claim``, a claim
that does not hold, is the engine's own) and a ``reason`` a person
understands; the referee turns them into its JSON answer.
"""

from __future__ import annotations


def short_repr(value: object, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters, for reasons that echo input.

    >>> short_repr("x" * 100, 10)
    "'xxxxxx..."
    """
    try:
        text = repr(value)
    except (RecursionError, ValueError):
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


class HeartsError(Exception):
    """Base class of every error the engine raises."""

    kind = "error"

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class CardError(HeartsError, ValueError):
    """Text that is not a card."""

    kind = "bad_card"

    def __init__(self, text: str, reason: str) -> None:
        super().__init__(reason)
        self.text = text


class RulesError(HeartsError, ValueError):
    """An unknown rules key or a value out of range."""

    kind = "bad_rules"

    def __init__(self, reason: str, key: str | None = None) -> None:
        super().__init__(reason)
        self.key = key


class DealError(HeartsError, ValueError):
    """Hands that do not make a deal: wrong sizes, duplicate or missing cards.

    ``seat`` and ``card`` name the hand and the card at fault where there is one."""

    kind = "bad_deal"

    def __init__(self, reason: str, seat: int | None = None, card: int | None = None) -> None:
        super().__init__(reason)
        self.seat = seat
        self.card = card


class IllegalAction(HeartsError):
    """A pass or a play the rules refuse; nothing was changed."""

    kind = "illegal_action"

    def __init__(self, reason: str, seat: int | None = None, card: int | None = None) -> None:
        super().__init__(reason)
        self.seat = seat
        self.card = card


class IllegalPass(IllegalAction):
    kind = "illegal_pass"


class IllegalPlay(IllegalAction):
    kind = "illegal_play"


class ClaimError(HeartsError, ValueError):
    """A claim that does not hold: its cards cannot be played, a trick went
    against it, or the score it came to is not the one it said. ``seat`` is
    the claimer; ``card`` the card played when it failed, where there is one.
    The reason may name a card the claimer has not seen: a server does not
    pass it on."""

    kind = "bad_claim"

    def __init__(self, reason: str, seat: int, card: int | None = None) -> None:
        super().__init__(reason)
        self.seat = seat
        self.card = card
