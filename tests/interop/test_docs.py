"""The examples of docs/environments.md run (they need both interop extras)."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo", reason="the rl extra is not installed: pip install 'damepique[rl]'")
pytest.importorskip(
    "pyspiel", reason="the openspiel extra is not installed: pip install 'damepique[openspiel]'"
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "environments.md"


def test_the_examples_of_docs_environments_run() -> None:
    result = doctest.testfile(str(DOC), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 5 and result.failed == 0
