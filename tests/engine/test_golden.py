"""Golden records (tests/golden, built by tests/golden/build_golden.py from
scenarios whose expected points were worked out by hand): the referee's
answers must stay exactly these, in-process and through the real command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from damepique.cli import referee

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
RECORDS = sorted(p for p in GOLDEN.glob("*.json") if not p.name.endswith(".expected.json"))


def test_there_are_golden_records() -> None:
    assert len(RECORDS) >= 50
    for path in RECORDS:
        assert path.with_suffix(".expected.json").exists(), path.name


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_golden_record(path: Path) -> None:
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    for command in ("replay", "legal"):
        status, answer = referee(str(path), command)
        assert answer == expected[command], command
        assert status == expected[f"{command}_status"], command


@pytest.mark.parametrize(
    "name",
    [
        "moon_jd_taken_by_another",
        "error_pass_of_two_cards",
        "error_truncated_json",
        "first_lead_any_left_of_dealer",
        "tie_share_two_winners",
        "error_tie_split",
    ],
)
def test_golden_through_the_command(name: str) -> None:
    path = GOLDEN / f"{name}.json"
    expected = json.loads((GOLDEN / f"{name}.expected.json").read_text(encoding="utf-8"))
    for command in ("replay", "legal"):
        proc = subprocess.run(
            [sys.executable, "-m", "damepique", command, "-"],
            input=path.read_bytes(),
            capture_output=True,
            timeout=60,
            check=False,
        )
        assert proc.stderr == b""
        lines = proc.stdout.decode("utf-8").splitlines()
        assert len(lines) == 1
        assert json.loads(lines[0]) == expected[command]
        assert proc.returncode == expected[f"{command}_status"]
