"""The expert's options: one frozen value, checked once, parsed from text.

``get_bot("expert:playouts=400,objective=points")`` and
``ExpertBot(playouts=400, objective="points")`` both build an
``ExpertOptions``; a bad value raises one ``ValueError`` that names the
option and the values it takes, whichever way it came in.

>>> ExpertOptions.parse("playouts=400,race=0").playouts
400
>>> ExpertOptions.parse("trust=2")
Traceback (most recent call last):
...
ValueError: expert option trust takes a share from 0 to below 1, not '2'
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from typing import Any

DEFAULT_PLAYOUTS = 1500
"""Play-outs per decision by default: tuned so that p95 stays under 250 ms on
one core of the reference machine (see benchmarks/README.md)."""

OBJECTIVES = ("payoff", "points", "cautious")
"""What the expert minimizes in a deal: ``payoff`` (its points minus the mean
of the others': a moon conceded costs about what 13 points of its own cost);
``points`` (its own points only: a moon conceded costs 26, its own moon
counts 0, what the others take does not matter); ``cautious`` (the payoff,
except that a moon conceded counts as if it had taken every point itself:
defends like ``points``, shoots like ``payoff``)."""

# What each kind of option accepts, in the words of the error message.
_ALLOWED = {
    "count": "a whole number of 1 or more",
    "ms": "a number of milliseconds above 0",
    "flag": "0 or 1",
    "share": "a share from 0 to 1",
    "trust": "a share from 0 to below 1",
    "objective": "one of " + ", ".join(OBJECTIVES),
}

_KIND = {
    "playouts": "count",
    "budget_ms": "ms",
    "race": "flag",
    "defend": "flag",
    "watch": "flag",
    "infer": "flag",
    "objective": "objective",
    "allies": "flag",
    "pass_voids": "share",
    "explore": "share",
    "trust": "trust",
    "bold": "share",
    "reading": "flag",
}

_ALIASES = {"samples": "playouts"}


def _bad(name: str, value: object) -> ValueError:
    text = value if isinstance(value, str) else repr(value)
    return ValueError(f"expert option {name} takes {_ALLOWED[_KIND[name]]}, not {text!r}")


@dataclass(frozen=True)
class ExpertOptions:
    """Every option of the expert's search (``docs/bots.md`` explains each).

    >>> ExpertOptions(objective="points").objective
    'points'
    """

    playouts: int = DEFAULT_PLAYOUTS
    """A deterministic budget: card plays worth this many play-outs per decision."""
    budget_ms: float | None = None
    """A wall-clock budget instead (not deterministic)."""
    race: bool = True
    """Candidates clearly worse than the leader stop being played out."""
    defend: bool = True
    """A seat that took every point so far runs for the moon in the play-outs."""
    watch: bool = True
    """Moon watch: a seat on course for a moon earlier than that (few points
    taken, all by it; or the passes) runs for the moon in a share of the
    worlds where its sampled hand could make it (``bots.moon``)."""
    infer: bool = True
    """Sample with the soft inference (a heavy card not dropped when void)."""
    objective: str = "payoff"
    allies: bool = True
    """The other seats defend against a moon in the play-outs."""
    pass_voids: float = 0.0
    explore: float = 0.0
    trust: float = 0.0
    bold: float = 0.0
    """The shooter's daring, from 0 (the expert: shoots only when that is
    better by half a point) to 1: shoots whenever its play-outs make the moon
    in at least ``moon.FAIR_CHANCE`` of the worlds, whatever the mean says
    (scaled down for values between), and passes to set a moon up."""
    reading: bool = True
    """Weigh the sampled worlds by how likely the others' plays are in each
    under the learned model of play (``bots.inference``). On since issue 31
    (no field of the paired runs showed a loss); ``expert-2026-12`` and the
    shooter sample uniformly."""

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if not _ok(f.name, value):
                raise _bad(f.name, value)

    @classmethod
    def parse(cls, text: str, base: ExpertOptions | None = None) -> ExpertOptions:
        """Options from ``"key=value,key=value"`` (the part of a bot name after
        the colon), over ``base`` (default: the defaults)."""
        known = {f.name for f in fields(cls)}
        values: dict[str, Any] = {}
        for part in text.split(","):
            if not part.strip():
                continue
            key, _, raw = part.partition("=")
            key = _ALIASES.get(key.strip(), key.strip())
            raw = raw.strip()
            if key not in known:
                raise ValueError(
                    f"unknown expert option {key!r}; the options are "
                    + ", ".join(f"{k} ({_ALLOWED[_KIND[k]]})" for k in sorted(known))
                )
            values[key] = _convert(key, raw)
        return replace(base or cls(), **values)

    def text(self) -> str:
        """The options that differ from the defaults, as ``parse`` reads them."""
        default = ExpertOptions()
        parts = []
        for f in fields(self):
            value = getattr(self, f.name)
            if value != getattr(default, f.name):
                if isinstance(value, bool):
                    value = int(value)
                parts.append(f"{f.name}={value}")
        return ",".join(parts)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _ok(name: str, value: Any) -> bool:
    kind = _KIND[name]
    if kind == "count":
        return isinstance(value, int) and not isinstance(value, bool) and value >= 1
    if kind == "ms":
        return value is None or (_is_number(value) and math.isfinite(value) and value > 0)
    if kind == "flag":
        return isinstance(value, bool)
    if kind == "objective":
        return value in OBJECTIVES
    if not _is_number(value):
        return False
    if kind == "trust":
        return bool(0.0 <= value < 1.0)
    return bool(0.0 <= value <= 1.0)


def _convert(key: str, raw: str) -> Any:
    """The value of ``key=raw``; the error names the text as it was written."""
    kind = _KIND[key]
    value: Any
    if kind == "count":
        value = int(raw) if raw.isdigit() else None
    elif kind == "flag":
        value = raw == "1" if raw in ("0", "1") else None
    elif kind == "objective":
        value = raw
    else:
        try:
            value = float(raw)
        except ValueError:
            value = None
    if value is None or not _ok(key, value):
        raise _bad(key, raw)
    return value
