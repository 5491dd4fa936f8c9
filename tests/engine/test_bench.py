"""``damepique bench`` runs and prints what it promises (no timing asserted)."""

from __future__ import annotations

import json

import pytest

from damepique.bench import ours_checked, ours_fast, run_bench
from damepique.cli import main
from damepique.engine import PRESETS


def test_bench_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--deals", "30", "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1
    result = json.loads(lines[0])
    assert result["deals"] == 30 and result["deals_per_s"] > 0 and result["checked_deals_per_s"] > 0
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        assert "ratio" not in result and "not measured" in result["openspiel"]
    else:
        assert result["openspiel_deals_per_s"] > 0 and result["ratio"] > 0


def test_bench_text_and_bad_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_bench(10, 3) == 0
    assert "deals/s" in capsys.readouterr().out
    assert run_bench(0, 3) == 2


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_bench_loops_play_every_preset(name: str) -> None:
    assert ours_fast(5, 1, PRESETS[name]) > 0
    assert ours_checked(5, 1, PRESETS[name]) > 0
