"""The record's JSON Schema (issue 29): ``engine/record.schema.json`` in the
package, and ``engine.schema.check``. Every golden record that replays has the
schema's shape; a broken one the schema refuses is refused with the referee's
own error kind (and deal); the rules keys, values and defaults are the
engine's; ``damepique replay --check`` uses it; with the ``jsonschema``
library installed, it agrees that the schema is valid and on each record."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from damepique.cli import main, referee
from damepique.engine import Rules
from damepique.engine.record import RecordError, load
from damepique.engine.rules import (
    DECKS,
    FIRST_LEADS,
    FIRST_TRICK_DISCARDS,
    HEARTS_BROKEN_BY,
    LEFTOVER_RULES,
    MOON_RULES,
    PASS_CYCLES,
    TIE_RULES,
)
from damepique.engine.schema import check, record_schema

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
RECORDS = sorted(p for p in GOLDEN.glob("*.json") if not p.name.endswith(".expected.json"))


def _expected(path: Path) -> dict[str, Any]:
    return dict(json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8")))


def _record(path: Path) -> Any:
    try:
        return load(path.read_text(encoding="utf-8"))
    except RecordError:
        return None  # not JSON, or not an object: the referee's bad_json before any shape


def test_every_golden_record_that_replays_has_the_schemas_shape() -> None:
    good = [p for p in RECORDS if _expected(p)["replay_status"] == 0]
    assert len(good) >= 40
    for path in good:
        check(_record(path))


def test_a_broken_record_the_schema_refuses_gets_the_referees_error() -> None:
    refused = []
    for path in RECORDS:
        expected = _expected(path)["replay"]
        record = _record(path)
        if "error" not in expected or record is None:
            continue
        try:
            check(record)
        except RecordError as e:
            refused.append(path.stem)
            assert e.kind == expected["error"], path.stem
            assert e.deal == expected.get("deal"), path.stem
    # The faults of shape are all the schema's to find (the others are the rules').
    assert {
        "error_bad_card",
        "error_unknown_rules_key",
        "error_six_players",
        "error_players_not_a_number",
        "error_tie_true",
        "error_tie_split",
        "error_wrong_format",
    } <= set(refused), refused


def test_the_schemas_rules_are_the_engines() -> None:
    rules = record_schema()["properties"]["rules"]["properties"]
    assert list(rules) == list(Rules().to_json())
    assert {k: v["default"] for k, v in rules.items()} == Rules().to_json()
    choices = {
        "pass_cycle": PASS_CYCLES,
        "moon": MOON_RULES,
        "leftover": LEFTOVER_RULES,
        "first_lead": FIRST_LEADS,
        "hearts_broken_by": HEARTS_BROKEN_BY,
        "first_trick_discard": FIRST_TRICK_DISCARDS,
        "tie": TIE_RULES,
        "deck": DECKS,
        "players": (3, 4, 5),
    }
    for key, values in choices.items():
        assert tuple(rules[key]["enum"]) == tuple(values), key


@pytest.mark.parametrize(
    ("record", "kind", "where"),
    [
        ([], "bad_json", {}),
        ({"format": "damepique-game/2"}, "bad_json", {}),
        ({"format": "damepique-game/1", "players": "Ann"}, "bad_json", {}),
        ({"format": "damepique-game/1", "rules": {"moon": "sometimes"}}, "bad_rules", {}),
        ({"format": "damepique-game/1", "deals": [{}]}, "bad_deal", {"deal": 0}),
        ({"format": "damepique-game/1", "deals": [{"hands": [[1]]}]}, "bad_card", {"deal": 0, "seat": 0}),
        (
            {"format": "damepique-game/1", "deals": [{"hands": [], "passes": ["QS"]}]},
            "illegal_pass",
            {"seat": 0},
        ),
        (
            {"format": "damepique-game/1", "deals": [{"hands": [], "plays": ["2C", "ZZ"]}]},
            "bad_card",
            {"play": 1},
        ),
        (
            {"format": "damepique-game/1", "deals": [{"hands": [], "plays": "2C"}]},
            "illegal_play",
            {"deal": 0},
        ),
        ({"format": "damepique-game/1", "fairness": {"scheme": "x", "commitment": "NOPE"}}, "bad_json", {}),
    ],
)
def test_each_fault_of_shape_has_its_kind_and_place(record: Any, kind: str, where: dict[str, int]) -> None:
    with pytest.raises(RecordError) as raised:
        check(record)
    assert raised.value.kind == kind
    for key, value in where.items():
        assert getattr(raised.value, key) == value


def test_replay_check_uses_the_schema(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A record the referee replays (an unknown top-level key is ignored), but
    # whose fairness object is malformed: --check refuses it, plain replay does not.
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"format": "damepique-game/1", "fairness": {"scheme": 1}}))
    assert referee(str(path))[0] == 0
    status, answer = referee(str(path), check=True)
    assert status == 2 and answer["error"] == "bad_json" and "fairness" in answer["reason"]
    assert main(["replay", "--check", str(GOLDEN / "error_six_players.json")]) == 2
    assert json.loads(capsys.readouterr().out)["error"] == "bad_rules"
    assert main(["replay", "--check", str(GOLDEN / "moon_jd_taken_by_another.json")]) == 0


def test_the_jsonschema_library_agrees() -> None:
    jsonschema = pytest.importorskip("jsonschema", reason="the jsonschema library is not installed")
    schema = record_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for path in RECORDS:
        record = _record(path)
        if record is None:
            continue
        try:
            check(record)
            ours = True
        except RecordError:
            ours = False
        assert validator.is_valid(record) == ours, path.stem
