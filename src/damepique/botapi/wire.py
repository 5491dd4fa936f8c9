"""The bot API's messages as a program reads and writes them (protocol 2).

The server's ``state`` carries the seat's view as ``View.to_json`` wrote it;
``view_of_state`` reads it back into the very ``View`` a bot in the server
gets. ``decision`` says what a state asks of the seat (a pass, a play, or
nothing), and ``answer`` is the message that says it.

>>> import random
>>> from damepique.engine import Deal, Rules, view_of
>>> deal = Deal.shuffled(Rules(), random.Random(2))
>>> state = {"type": "state", "game": "g1", "seat": 0, "over": False,
...          "rules": Rules().to_json(), "view": view_of(deal, 0).to_json()}
>>> decision(state)
('g1', 0, 'pass', 0, 0)
>>> view_of_state(state) == view_of(deal, 0)
True
>>> answer(view_of_state(state), (0, 1, 2))
{'type': 'pass', 'cards': ['2C', '3C', '4C']}
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from damepique.engine import CARD_NAMES, PASS, PLAY, Rules, View

VERSION = 2
"""The protocol the bot API speaks (``docs/protocol.md``); the bot API itself is version ``BOT_API``."""
BOT_API = 1

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
    """The position this seat must act in (game, deal, phase, tricks, cards in
    the trick), or None when the state asks nothing of it."""
    view = state.get("view")
    seat = state.get("seat")
    if not view or state.get("over") or seat is None or view.get("to_act") != seat:
        return None
    if view["phase"] not in (PASS, PLAY):
        return None
    return (state.get("game"), view["deal"], view["phase"], len(view["tricks"]), len(view["trick"]))


def answer(view: View, choice: int | Sequence[int]) -> Message:
    """The ``pass`` or ``play`` message for a bot's choice in ``view``."""
    if view.phase == PASS:
        assert not isinstance(choice, int)
        return {"type": "pass", "cards": [CARD_NAMES[c] for c in choice]}
    assert isinstance(choice, int)
    return {"type": "play", "card": CARD_NAMES[choice]}


def error(code: str, reason: str, ref: Any = None, **extra: Any) -> Message:
    """An ``error`` message shaped as the server's (``docs/protocol.md``)."""
    out: Message = {"v": VERSION, "type": "error", "code": code, "reason": reason}
    out.update({k: v for k, v in extra.items() if v is not None})
    if ref is not None:
        out["ref"] = ref
    return out


__all__ = ["BOT_API", "VERSION", "answer", "decision", "error", "rules_of", "view_of_state"]
