"""Which optional parts of damepique are installed.

``pip install damepique`` brings the engine, the bots and the referee
commands with no other package; the rest are extras (``pyproject.toml``):
``server`` (the web app), ``openspiel``, ``rl`` (PettingZoo), ``postgres``,
``redis``. A command that needs one says which to install instead of
failing on an import.

>>> missing("no-such-extra")
[]
"""

from __future__ import annotations

import re
from importlib import metadata

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def missing(extra: str) -> list[str]:
    """The distributions that ``damepique[extra]`` requires and that are not
    installed, read from the package's own metadata (so the list is the one
    in ``pyproject.toml``). Empty when damepique itself is not installed (run
    from a source tree): the imports then speak for themselves."""
    try:
        requirements = metadata.requires("damepique") or []
    except metadata.PackageNotFoundError:
        return []
    out = []
    for requirement in requirements:
        spec, _, marker = requirement.partition(";")
        if f'extra == "{extra}"' not in marker.replace("'", '"'):
            continue
        found = _NAME.match(spec.strip())
        if found is None:  # pragma: no cover - metadata always names a distribution
            continue
        try:
            metadata.distribution(found.group(0))
        except metadata.PackageNotFoundError:
            out.append(found.group(0))
    return out


def install_hint(extra: str) -> str:
    """What to type to get ``extra``: ``pip install 'damepique[server]'``."""
    return f"pip install 'damepique[{extra}]'"
