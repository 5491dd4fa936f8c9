"""The referee never crashes: whatever the input, one JSON object of the
spec's shape, exit 0 or 2, in-process and through the real command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from damepique.cli import random_game, referee, referee_data
from damepique.engine import PRESETS, Rules

# DAMEPIQUE_FUZZ=20 runs the mutation tests 20 times longer, to hunt for crashes.
FUZZ = int(os.environ.get("DAMEPIQUE_FUZZ", "1"))
KINDS = {"bad_json", "bad_card", "bad_rules", "bad_deal", "illegal_pass", "illegal_play"}
ERROR_KEYS = {"error", "deal", "play", "seat", "card", "reason"}
GOLDEN = Path(__file__).resolve().parents[1] / "golden"

# A short complete game to mutate (target 30: a few deals).
GAME = random_game(Rules(target=30), 5)
KITTY_GAME = random_game(PRESETS["five_players_kitty"].replace(target=30), 6)


def check_answer(status: int, answer: dict[str, Any], command: str) -> None:
    """The shape the spec promises, and no internal fault behind it."""
    assert status in (0, 2)
    assert isinstance(answer, dict)
    json.dumps(answer)  # printable as JSON
    if status == 2:
        assert answer["error"] in KINDS
        assert set(answer) <= ERROR_KEYS
        assert isinstance(answer["reason"], str) and 0 < len(answer["reason"]) < 200
        assert "unreadable record" not in answer["reason"], answer
        for key in ("deal", "play", "seat"):
            if key in answer:
                assert isinstance(answer[key], int) and answer[key] >= 0
        if "card" in answer:
            assert isinstance(answer["card"], str)
    elif command == "replay":
        keys = {"deals", "totals", "over", "winner"}
        if "winners" in answer:
            # Only with tie "share", once the game is over; winner is its one seat or null.
            assert answer["over"] is True and answer["winners"] == sorted(set(answer["winners"]))
            assert answer["winner"] == (answer["winners"][0] if len(answer["winners"]) == 1 else None)
            keys.add("winners")
        assert set(answer) == keys
    else:
        assert set(answer) in ({"seat", "phase", "legal"}, {"seat", "phase", "legal", "count"})


def test_random_games_replay() -> None:
    for game in (GAME, KITTY_GAME):
        status, answer = referee_data(json.dumps(game))
        assert status == 0 and answer["over"] and answer["winner"] is not None
        assert answer["totals"] == [
            sum(d["points"][s] for d in answer["deals"]) for s in range(len(answer["totals"]))
        ]


# -- mutations of a valid record ------------------------------------------------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=6)
    | st.sampled_from(["QS", "2C", "10♥", "q♠", "AH", "", "ZZ"]),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=3)
    ),
    max_leaves=8,
)


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += paths(v, (*prefix, i))
    return out


def mutate(record: Any, path: tuple[Any, ...], how: str, value: Any) -> Any:
    record = json.loads(json.dumps(record))
    if not path:
        return value
    parent = record
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    if how == "delete":
        del parent[key]
    elif how == "duplicate" and isinstance(parent, list):
        parent.insert(key, parent[key])
    else:
        parent[key] = value
    return record


@settings(max_examples=300 * FUZZ, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.data(),
    st.sampled_from(["set", "delete", "duplicate"]),
    json_values,
    st.sampled_from(["replay", "legal"]),
)
def test_mutated_records_never_crash(data: st.DataObject, how: str, value: Any, command: str) -> None:
    base = data.draw(st.sampled_from([GAME, KITTY_GAME]))
    candidates = paths(base)
    path = data.draw(st.sampled_from(candidates))
    record = mutate(base, path, how, value)
    status, answer = referee_data(json.dumps(record), command)
    check_answer(status, answer, command)


@settings(max_examples=200 * FUZZ, deadline=None)
@given(st.data(), st.sampled_from(["replay", "legal"]))
def test_cut_or_corrupted_bytes_never_crash(data: st.DataObject, command: str) -> None:
    raw = json.dumps(GAME).encode()
    cut = data.draw(st.integers(min_value=0, max_value=len(raw)))
    junk = data.draw(st.binary(max_size=8))
    at = data.draw(st.integers(min_value=0, max_value=cut))
    blob = raw[:at] + junk + raw[at:cut]
    status, answer = referee_data(blob, command)
    check_answer(status, answer, command)


@settings(max_examples=200 * FUZZ, deadline=None)
@given(json_values, st.sampled_from(["replay", "legal"]))
def test_any_json_never_crashes(value: Any, command: str) -> None:
    for doc in (
        value,
        {"format": "damepique-game/1", "rules": value},
        {"format": "damepique-game/1", "deals": value},
    ):
        status, answer = referee_data(json.dumps(doc), command)
        check_answer(status, answer, command)


@settings(max_examples=100 * FUZZ, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from([*sorted(Rules().to_json()), "deck", "pass_count", "x"]), json_values, max_size=4
    )
)
def test_any_rules_never_crash(rules: dict[str, Any]) -> None:
    status, answer = referee_data(
        json.dumps({"format": "damepique-game/1", "rules": rules, "deals": GAME["deals"][:1]})
    )
    check_answer(status, answer, "replay")


@pytest.mark.parametrize(
    ("rules", "reason"),
    [
        ({"hearts_broken_by": "queen"}, "hearts_broken_by must be one of 'any', 'discard', not 'queen'"),
        ({"hearts_broken_by": 1}, "hearts_broken_by must be a string, not 1"),
        ({"first_trick_discard": "spade"}, "first_trick_discard must be one of 'any', 'heart', not 'spade'"),
        ({"first_trick_discard": False}, "first_trick_discard must be a string, not False"),
        ({"tie": "split"}, "tie must be one of 'play_on', 'share', not 'split'"),
        ({"tie": ["share"]}, "tie must be a string, not ['share']"),
    ],
)
def test_the_new_rules_keys_are_refused_with_a_reason(rules: dict[str, Any], reason: str) -> None:
    record = json.dumps(dict(GAME, rules={"players": 4, **rules}))
    for command in ("replay", "legal"):
        assert referee_data(record, command) == (2, {"error": "bad_rules", "reason": reason})


def test_tie_share_writes_the_winners_once_over() -> None:
    # The random game under tie "share": the same deals end the game where
    # they did (it was over with one seat lowest), and "winners" names it.
    status, plain = referee_data(json.dumps(GAME))
    status2, shared = referee_data(json.dumps(dict(GAME, rules={**GAME["rules"], "tie": "share"})))
    assert status == status2 == 0 and plain["over"] and "winners" not in plain
    assert shared == {**plain, "winners": [plain["winner"]]}
    check_answer(status2, shared, "replay")


@pytest.mark.parametrize(
    ("doc", "kind"),
    [
        ("[" * 100_000, "bad_json"),
        ('{"format": "damepique-game/1", "deals": ' + "[" * 50_000 + "]" * 50_000 + "}", "bad_json"),
        ('{"format": "damepique-game/1", "rules": {"target": ' + "9" * 5000 + "}}", "bad_json"),
        ('{"format": "damepique-game/1", "rules": {"target": ' + "9" * 4000 + "}}", "bad_rules"),
        ('{"format": "damepique-game/1", "deals": [{"hands": ["' + "Q" * 100_000 + '"]}]}', "bad_deal"),
        ('{"format": "damepique-game/1", "deals": [{"hands": [["' + "Q" * 100_000 + '"]]}]}', "bad_card"),
        ('{"format": "damepique-game/1", "deals": [{"hands": [["\\ud800"]]}]}', "bad_card"),
        ('{"format": "damepique-game/1", "players": ["a"]}', "bad_json"),
        ('{"format": "damepique-game/1", "deals": {}}', "bad_json"),
        ('{"format": "damepique-game/1", "deals": [[]]}', "bad_deal"),
        ("\ufeff{}", "bad_json"),
        ("", "bad_json"),
        ("NaN", "bad_json"),
    ],
)
def test_hostile_documents(doc: str, kind: str) -> None:
    for command in ("replay", "legal"):
        status, answer = referee_data(doc, command)
        check_answer(status, answer, command)
        assert status == 2 and answer["error"] == kind


def test_non_utf8_and_missing_file(tmp_path: Path) -> None:
    assert referee_data(b"\xff\xfe{}") == (2, {"error": "bad_json", "reason": "the record is not UTF-8 text"})
    status, answer = referee(str(tmp_path / "nope.json"))
    assert status == 2 and answer["error"] == "bad_json" and "cannot read" in answer["reason"]
    status, answer = referee(str(tmp_path))
    assert status == 2 and answer["error"] == "bad_json"


def test_error_fields_of_a_bad_card_in_the_plays() -> None:
    deal = json.loads(json.dumps(GAME["deals"][0]))
    status, answer = referee_data(
        json.dumps(dict(GAME, deals=[dict(deal, plays=[*deal["plays"][:1], "ZZ"])]))
    )
    assert status == 2
    assert answer == {
        "error": "bad_card",
        "deal": 0,
        "play": 1,
        "seat": answer["seat"],
        "card": "ZZ",
        "reason": answer["reason"],
    }
    assert "ZZ" in answer["reason"]


# -- through a real process -------------------------------------------------------


def run(args: list[str], data: bytes | None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "damepique", *args], input=data, capture_output=True, timeout=60, check=False
    )


@pytest.mark.parametrize(
    "data",
    [
        json.dumps(GAME).encode()[:300],
        b"\xff\xfe\x00garbage",
        b"[" * 200_000,
        json.dumps(dict(GAME, rules={"players": "four"})).encode(),
        json.dumps({"format": "damepique-game/1", "deals": [{"hands": [["\\ud800"]]}]}).encode(),
    ],
    ids=["truncated", "not-utf8", "nested", "bad-rules", "surrogate"],
)
def test_the_command_prints_one_json_object(data: bytes) -> None:
    for command in ("replay", "legal"):
        proc = run([command, "-"], data)
        assert proc.returncode == 2
        assert proc.stderr == b""
        lines = proc.stdout.splitlines()
        assert len(lines) == 1
        check_answer(2, json.loads(lines[0]), command)


def test_the_command_on_a_missing_file_and_a_good_one(tmp_path: Path) -> None:
    proc = run(["replay", str(tmp_path / "missing.json")], None)
    assert proc.returncode == 2 and proc.stderr == b""
    assert json.loads(proc.stdout)["error"] == "bad_json"
    good = tmp_path / "game.json"
    good.write_text(json.dumps(GAME), encoding="utf-8")
    proc = run(["replay", str(good)], None)
    assert proc.returncode == 0 and proc.stderr == b""
    assert json.loads(proc.stdout) == referee_data(json.dumps(GAME))[1]


def test_random_game_command_is_deterministic() -> None:
    a = run(["random-game", "--seed", "9", "--rules", '{"target": 40}'], None)
    b = run(["random-game", "--seed", "9", "--rules", '{"target": 40}'], None)
    assert a.returncode == 0 and a.stdout == b.stdout
    record = json.loads(a.stdout)
    assert record == random_game(Rules(target=40), 9)
    assert referee_data(a.stdout)[1]["over"] is True
