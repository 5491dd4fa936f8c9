"""The import direction of shared/ARCHITECTURE.md, enforced with ast.

engine <- bots <- server -> web;  engine <- scorer;  cli may import anything.
The interop modules at the top of the package sit above engine and bots:
observation <- worlds <- openspiel, observation <- pettingzoo; nothing below
imports them.
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
    "bots": {"engine", "bots"},
    "scorer": {"engine", "scorer"},
    "server": {"engine", "bots", "scorer", "server"},
}

# Modules at the top of the package (src/damepique/NAME.py) and what they may import of ours.
TOP = {
    "extras": set(),
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


def test_engine_uses_only_the_standard_library() -> None:
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    bad = []
    for path in _files("engine"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                mods = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                mods = [(node.module or "").split(".")[0]]
            else:
                continue
            bad += [f"{path.name}:{node.lineno} {m}" for m in mods if m not in stdlib]
    assert not bad, bad


def test_the_checker_sees_a_violation(tmp_path: Path) -> None:
    # A test that cannot fail is worse than none: prove the parser catches both forms.
    probe = tmp_path / "damepique" / "engine" / "probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text("from damepique.server import app\nfrom ..bots import base\nfrom . import cards\n")
    assert _layer_imports(probe, tmp_path) == [(1, "server"), (2, "bots"), (3, "engine")]
