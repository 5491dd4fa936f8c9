"""The record's JSON Schema (``record.schema.json``, shipped in the package)
and a small checker for it, standard library only.

The schema says the shape of a ``damepique-game/1`` record
(``docs/record-format.md``): its fields and their types, every rules key with
its values and default, the spelling of a card. Whether the deals and plays
follow the rules is the referee's (``record.replay``). ``check`` reports the
first fault the way the referee does (``RecordError``, with the referee's
error kinds: ``bad_json``, ``bad_rules``, ``bad_deal``, ``bad_card``,
``illegal_pass``, ``illegal_play``), so ``damepique replay --check`` answers
alike whichever of the two found it.

>>> check({"format": "damepique-game/1", "rules": {"players": 6}})
Traceback (most recent call last):
...
damepique.engine.record.RecordError: rules.players: 6 is not one of 3, 4, 5
>>> try:
...     check({"format": "damepique-game/1", "deals": [{"hands": [["QS", "QX"]]}]})
... except RecordError as e:
...     print(e.kind, e.deal, e.seat, "|", e.reason)
bad_card 0 0 | deals[0].hands[0][1]: 'QX' is not a card (rank then suit, e.g. 'QS' or '10♥')
>>> check({"format": "damepique-game/1"}) is None
True
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import Any

from .record import RecordError

_TYPES: dict[str, Any] = {
    "object": dict,
    "array": list,
    "string": str,
    "boolean": bool,
    "null": type(None),
}


@cache
def record_schema() -> dict[str, Any]:
    """The record's JSON Schema (draft 2020-12), as shipped in the package."""
    text = resources.files("damepique.engine").joinpath("record.schema.json").read_text("utf-8")
    return dict(json.loads(text))


class _Fault(Exception):
    def __init__(self, path: tuple[str | int, ...], reason: str, card: bool) -> None:
        super().__init__(reason)
        self.path, self.reason, self.card = path, reason, card


def _is(value: object, kind: str) -> bool:
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, _TYPES[kind])


def _show(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, (dict, list)) else None
    if text is None:
        return "an object" if isinstance(value, dict) else "a list"
    return repr(value) if isinstance(value, str) and len(value) <= 20 else text[:40]


def _walk(value: object, node: dict[str, Any], path: tuple[str | int, ...], root: dict[str, Any]) -> None:
    ref = node.get("$ref")
    if ref is not None:
        target: Any = root
        for part in ref.removeprefix("#/").split("/"):
            target = target[part]
        node = {**target, "_card": ref == "#/$defs/card"}
    card = bool(node.get("_card"))
    kinds = node.get("type")
    if kinds is not None:
        kinds = [kinds] if isinstance(kinds, str) else kinds
        if not any(_is(value, k) for k in kinds):
            if card:
                raise _Fault(path, f"a card is a string such as 'QS', not {_show(value)}", True)
            raise _Fault(path, f"must be {' or '.join(kinds)}, not {_show(value)}", False)
    if "const" in node and value != node["const"]:
        raise _Fault(path, f"must be {node['const']!r}, not {_show(value)}", False)
    if "enum" in node and not any(value == v and type(value) is type(v) for v in node["enum"]):
        words = ", ".join(json.dumps(v) for v in node["enum"])
        raise _Fault(path, f"{_show(value)} is not one of {words}", False)
    if isinstance(value, str) and "pattern" in node and not re.search(node["pattern"], value):
        if card:
            raise _Fault(path, f"{_show(value)} is not a card (rank then suit, e.g. 'QS' or '10♥')", True)
        raise _Fault(path, f"{_show(value)} is not of the form {node['pattern']}", False)
    if _is(value, "number") and isinstance(value, (int, float)):
        if "minimum" in node and value < node["minimum"]:
            raise _Fault(path, f"{value} is less than {node['minimum']}", False)
        if "maximum" in node and value > node["maximum"]:
            raise _Fault(path, f"{value} is more than {node['maximum']}", False)
    if isinstance(value, dict):
        for key in node.get("required", ()):
            if key not in value:
                raise _Fault(path, f"{key!r} is missing", False)
        props = node.get("properties", {})
        if node.get("additionalProperties") is False:
            for key in value:
                if key not in props:
                    raise _Fault((*path, key), f"unknown key {str(key)[:40]!r}", False)
        for key, sub in props.items():
            if key in value:
                _walk(value[key], sub, (*path, key), root)
    if isinstance(value, list):
        if "maxItems" in node and len(value) > node["maxItems"]:
            raise _Fault(path, f"{len(value)} items, at most {node['maxItems']}", False)
        if "minItems" in node and len(value) < node["minItems"]:
            raise _Fault(path, f"{len(value)} items, at least {node['minItems']}", False)
        if "items" in node:
            for i, item in enumerate(value):
                _walk(item, node["items"], (*path, i), root)


def _pointer(path: tuple[str | int, ...]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out or "the record"


def check(record: object) -> None:
    """Raise ``RecordError`` (the referee's kinds) at the record's first fault of shape."""
    schema = record_schema()
    try:
        _walk(record, schema, (), schema)
    except _Fault as f:
        raise _error(f) from None


def _error(f: _Fault) -> RecordError:
    path = f.path
    reason = f"{_pointer(path)}: {f.reason}"
    if not path or (path[0] != "deals" and path[0] != "rules"):
        return RecordError("bad_json", reason)
    if path[0] == "rules":
        return RecordError("bad_rules", reason)
    deal = path[1] if len(path) > 1 and isinstance(path[1], int) else None
    part = path[2] if len(path) > 2 else None
    index = path[3] if len(path) > 3 and isinstance(path[3], int) else None
    if deal is None:
        return RecordError("bad_json", reason)
    if f.card:
        seat = index if part in ("hands", "passes") else None
        play = index if part == "plays" else None
        return RecordError("bad_card", reason, deal=deal, seat=seat, play=play)
    if part == "passes":
        return RecordError("illegal_pass", reason, deal=deal, seat=index)
    if part == "plays":
        return RecordError("illegal_play", reason, deal=deal, play=index)
    return RecordError("bad_deal", reason, deal=deal, seat=index if part == "hands" else None)


__all__ = ["check", "record_schema"]
