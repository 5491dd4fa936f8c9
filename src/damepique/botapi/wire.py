"""The bot API's messages as a program reads and writes them (protocol 2).

The messages, codes and the error shape are ``damepique.wire``'s, the
server's own; this adds what a program needs on top. The server's ``state``
carries the seat's view as ``View.to_json`` wrote it; ``view_of_state`` reads
it back into the very ``View`` a bot in the server gets. ``decision`` says
what a state asks of the seat (its ``view.decision``, or None), and
``answer`` is the message that answers it, naming the decision, so that
sending it twice is safe.

>>> import random
>>> from damepique.engine import Deal, Rules, view_of
>>> deal = Deal.shuffled(Rules(), random.Random(2))
>>> state = {"type": "state", "game": "g1", "seat": 0, "over": False,
...          "rules": Rules().to_json(), "view": view_of(deal, 0).to_json()}
>>> decision(state)
('g1', '0:pass:0')
>>> view_of_state(state) == view_of(deal, 0)
True
>>> answer(view_of_state(state), (0, 1, 2))
{'type': 'pass', 'cards': ['2C', '3C', '4C'], 'decision': '0:pass:0'}
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from damepique.engine import PASS, Rules, View
from damepique.wire import BOT_API, VERSION, Pass, Play, encode, error_message

Message = dict[str, Any]

_RULES: dict[str, Rules] = {}


def rules_of(state: Message) -> Rules:
    """The state's rules (kept once read: every state of a game carries the same)."""
    key = json.dumps(state["rules"], sort_keys=True)
    rules = _RULES.get(key)
    if rules is None:
        rules = _RULES[key] = Rules.from_json(state["rules"])
    return rules


def view_of_state(state: Message) -> View:
    """The seat's ``View`` in a state message."""
    return View.from_json(state["view"], rules_of(state))


def decision(state: Message) -> tuple[Any, ...] | None:
    """The decision this state asks of its seat, ``(game, view.decision)``, or
    None when it asks nothing."""
    view = state.get("view")
    if not view or state.get("over") or state.get("seat") is None or not view.get("decision"):
        return None
    return (state.get("game"), view["decision"])


def answer(view: View, choice: int | Sequence[int]) -> Message:
    """The ``pass`` or ``play`` message for a bot's choice in ``view``, naming
    its decision (``damepique.wire.encode``, the one spelling of each message)."""
    if view.phase == PASS:
        assert not isinstance(choice, int)
        return encode(Pass(None, tuple(choice), view.decision))
    assert isinstance(choice, int)
    return encode(Play(None, choice, view.decision))


def error(code: str, reason: str, ref: Any = None, **extra: Any) -> Message:
    """An ``error`` message shaped as the server's (``damepique.wire.error_message``)."""
    return dict(error_message(code, reason, ref=ref, **extra))


__all__ = ["BOT_API", "VERSION", "answer", "decision", "error", "rules_of", "view_of_state"]
