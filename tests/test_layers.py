"""The import direction of shared/ARCHITECTURE.md, enforced with ast.

engine <- bots <- server -> web;  engine <- scorer;  cli may import anything.
botapi (a program at a server's tables) sits beside the server, on engine and
bots, and imports nothing of it: only the standard library and websockets.
wire (the protocol's messages, table codes, decision ids, the error shape) sits
on the engine, below the server and botapi alike: both speak through it.
The interop modules at the top of the package sit above engine and bots:
observation <- worlds <- openspiel, observation <- pettingzoo; nothing below
imports them. words (the pages' words, read from web/strings) imports nothing of
ours: bots say their reasons and sentences with it, the score keeper its reasons.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "damepique"

# What each layer may import of ours.
ALLOWED = {
    "engine": {"engine"},
    # "words": the pages' words (web/strings), read where Python must say a sentence.
    "bots": {"engine", "bots", "words"},
    "scorer": {"engine", "scorer", "words"},
    "server": {"engine", "bots", "scorer", "server", "wire"},
    # "damepique": the package root, for ``__version__`` (its User-Agent).
    "botapi": {"engine", "bots", "botapi", "damepique", "wire"},
    "wire": {"engine", "wire"},
}

# Modules at the top of the package (src/damepique/NAME.py) and what they may import of ours.
TOP = {
    "extras": set(),
    "words": set(),
    "observation": {"engine"},
    "worlds": {"engine", "bots"},
    "pettingzoo": {"engine", "bots", "observation"},
    "openspiel": {"engine", "bots", "observation", "worlds"},
}


def _layer_imports(path: Path, root: Path = SRC.parent) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = path.relative_to(root).with_suffix("").parts
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level]
                names = [".".join((*base, node.module or ""))]
            else:
                names = [node.module or ""]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] == "damepique" and len(parts) > 1:
                found.append((node.lineno, parts[1]))
            elif parts[0] == "damepique":
                found.append((node.lineno, "damepique"))
    return found


def _files(layer: str) -> list[Path]:
    return sorted((SRC / layer).rglob("*.py"))


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_layer_imports_only_below(layer: str) -> None:
    bad = []
    for path in _files(layer):
        for line, target in _layer_imports(path):
            if target not in ALLOWED[layer]:
                bad.append(f"{path.relative_to(SRC)}:{line} imports damepique.{target}")
    assert not bad, "imports against the layer direction:\n" + "\n".join(bad)


@pytest.mark.parametrize("module", sorted(TOP))
def test_top_level_modules_import_only_below(module: str) -> None:
    path = SRC / f"{module}.py"
    bad = [
        f"{module}.py:{line} imports damepique.{t}"
        for line, t in _layer_imports(path)
        if t not in TOP[module]
    ]
    assert not bad, "imports against the layer direction:\n" + "\n".join(bad)


def test_every_package_has_a_rule() -> None:
    packages = {p.parent.name for p in SRC.glob("*/__init__.py")} - {"web"}
    assert packages == set(ALLOWED), packages ^ set(ALLOWED)


def _foreign_imports(layer: str, allowed: set[str]) -> list[str]:
    """The imports of ``layer``'s files of modules outside ``allowed`` (absolute ones)."""
    bad = []
    for path in _files(layer):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                mods = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                mods = [(node.module or "").split(".")[0]]
            else:
                continue
            bad += [f"{path.name}:{node.lineno} {m}" for m in mods if m not in allowed]
    return bad


STDLIB = set(sys.stdlib_module_names) | {"__future__"}


def test_botapi_needs_only_the_standard_library_and_websockets() -> None:
    assert not (bad := _foreign_imports("botapi", STDLIB | {"damepique", "websockets"})), bad


def test_wire_needs_only_the_standard_library() -> None:
    assert not (bad := _foreign_imports("wire", STDLIB | {"damepique"})), bad


def test_engine_uses_only_the_standard_library() -> None:
    assert not (bad := _foreign_imports("engine", STDLIB)), bad


def test_the_checker_sees_a_violation(tmp_path: Path) -> None:
    # A test that cannot fail is worse than none: prove the parser catches both forms.
    probe = tmp_path / "damepique" / "engine" / "probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text("from damepique.server import app\nfrom ..bots import base\nfrom . import cards\n")
    assert _layer_imports(probe, tmp_path) == [(1, "server"), (2, "bots"), (3, "engine")]


# -- inside the server --------------------------------------------------------------------------

# Each part of the server and its rank: a part imports parts of lower rank, or its
# own (the bottom modules each other). shared/ARCHITECTURE.md: errors, protocol,
# settings <- storage <- play <- accounts, cluster <- solo, tables, sheets <- app.
SERVER_RANKS = {
    "clock": 0, "static": 0,
    "duplicate": 0,
    "errors": 0, "protocol": 0, "settings": 0, "public_view": 0, "asgi": 0, "http": 0,
    "patches": 0, "plays": 0,
    "shield": 0, "guard": 0, "keepalive": 0, "collector": 0,
    "fair": 0,
    "storage": 1,
    "play": 2,
    "accounts": 3, "cluster": 3,
    "tables": 4, "sheets": 4, "stats": 4,
    "solo": 5, "testing": 5, "quick": 5, "daily": 5, "tourney": 5, "challenges": 5,
    "app": 6,
    "run": 7,
}  # fmt: skip
BOTTOM = 0


def _part(module: str) -> str | None:
    """``damepique.server.tables.session`` -> ``tables`` (None outside the server)."""
    parts = module.split(".")
    if parts[:2] != ["damepique", "server"] or len(parts) < 3:
        return None
    return parts[2]


def _module_of(path: Path, root: Path = SRC.parent) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, root: Path = SRC.parent) -> list[tuple[int, str]]:
    """Every module of ours ``path`` imports, anywhere in it (under ``TYPE_CHECKING``
    and inside functions too), resolved: ``from . import x`` is the module ``x``
    when there is one, else its package."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parts = path.relative_to(root).with_suffix("").parts
    package = parts[:-1]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith("damepique")]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1])
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            if not module.startswith("damepique"):
                continue
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                is_module = (root / Path(*sub.split("."))).with_suffix(".py").exists() or (
                    root / Path(*sub.split(".")) / "__init__.py"
                ).exists()
                found.append((node.lineno, sub if is_module else module))
    return found


def test_server_parts_import_only_below() -> None:
    bad = []
    for path in sorted((SRC / "server").rglob("*.py")):
        if "migrations" in path.parts or path == SRC / "server" / "__init__.py":
            continue
        own = _part(_module_of(path))
        assert own in SERVER_RANKS, f"{path.relative_to(SRC)}: a server part missing from SERVER_RANKS"
        for line, target in _imports(path):
            part = _part(target)
            if part is None or part == own:
                continue
            rank, theirs = SERVER_RANKS[own], SERVER_RANKS[part]
            if theirs > rank or (theirs == rank and rank != BOTTOM):
                bad.append(f"{path.relative_to(SRC)}:{line} ({own}) imports {target} ({part})")
    assert not bad, "imports against the server's direction:\n" + "\n".join(bad)


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        graph[_module_of(path)] = {target for _, target in _imports(path)}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of imports, if there is one (depth-first, with the path kept)."""
    done: set[str] = set()
    for start in sorted(graph):
        stack: list[tuple[str, list[str]]] = [(start, [start])]
        on_path: set[str] = set()
        while stack:
            node, path = stack.pop()
            if node in done:
                continue
            on_path = set(path)
            children = sorted(graph.get(node, ()))
            for child in children:
                if child in on_path:
                    return [*path[path.index(child) :], child]
            pending = [c for c in children if c not in done]
            if not pending:
                done.add(node)
                continue
            stack.append((node, path))
            child = pending[0]
            stack.append((child, [*path, child]))
    return None


def test_no_import_cycle_anywhere() -> None:
    """Counting imports under ``TYPE_CHECKING`` and inside functions: where two
    parts need each other, one gets a callback or a protocol."""
    assert _cycle(_graph()) is None, " -> ".join(_cycle(_graph()) or [])


def test_the_cycle_finder_sees_a_cycle(tmp_path: Path) -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": {"c"}, "d": {"a", "c"}}) is None
    probe = tmp_path / "damepique" / "server" / "tables" / "probe.py"
    probe.parent.mkdir(parents=True)
    (tmp_path / "damepique" / "server" / "tables" / "registry.py").write_text("")
    probe.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .registry import Tables\n"
        "def f():\n    from ..app import create_app\n"
    )
    assert _imports(probe, tmp_path) == [
        (3, "damepique.server.tables.registry"),
        (5, "damepique.server.app"),
    ]


def test_no_server_module_is_over_500_lines() -> None:
    # One concept per module (issue 15): a module past this has grown a second one.
    long = {
        str(path.relative_to(SRC)): n
        for path in (SRC / "server").rglob("*.py")
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > 500
    }
    assert long == {}
