"""``damepique advise`` on hand-checked records (tests/bots/golden/advise_*.json,
built by build_advise.py there): the queen dumped on a void, a forced duck, a
moon to stop, a pass that voids a suit; its output's shape, determinism and
errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from damepique.cli import advise_data, main, referee_data

GOLDEN = Path(__file__).resolve().parent / "golden"
KEYS = ["cards", "expected_points", "stderr", "reason", "best", "mistake", "outcomes"]
OUTCOMES = ["queen", "hearts", "moon_by_self", "moon_by_other"]


def _advise(name: str, capsys, *extra: str) -> tuple[int, dict]:
    status = main(["advise", str(GOLDEN / f"{name}.json"), "--playouts", "2000", "--seed", "0", *extra])
    out = capsys.readouterr().out
    assert out.endswith("\n") and out.count("\n") == 1
    return status, json.loads(out)


def _by_card(answer: dict) -> dict[str, dict]:
    return {" ".join(a["cards"]): a for a in answer["advice"]}


def _check_shape(answer: dict, legal: list[str] | None) -> None:
    assert list(answer) == ["seat", "phase", "advice"]
    for a in answer["advice"]:
        assert list(a) == KEYS
        assert list(a["outcomes"]) == OUTCOMES
        for k in ("queen", "moon_by_self", "moon_by_other"):
            assert 0.0 <= a["outcomes"][k] <= 1.0
        assert a["stderr"] >= 0
    assert answer["advice"][0]["best"]
    if legal is not None:
        assert sorted(c for a in answer["advice"] for c in a["cards"]) == sorted(legal)


def _legal(name: str) -> dict:
    status, legal = referee_data((GOLDEN / f"{name}.json").read_bytes(), "legal")
    assert status == 0
    return legal


def test_the_queen_dumped_on_a_void(capsys):
    """Seat 3, void in diamonds on seat 0's 8♦ (trick five, nobody has a
    point): the queen goes, and with her gone this seat cannot take her."""
    status, answer = _advise("advise_queen_dump", capsys)
    legal = _legal("advise_queen_dump")
    assert status == 0 and answer["seat"] == legal["seat"] == 3 and answer["phase"] == "play"
    _check_shape(answer, legal["legal"])
    cards = _by_card(answer)
    best = answer["advice"][0]
    assert best["cards"] == ["QS"] and best["reason"] == "dumps_queen" and not best["mistake"]
    assert best["outcomes"]["queen"] == 0.0
    for name, a in cards.items():
        if name != "QS":
            assert a["outcomes"]["queen"] > 0 and a["expected_points"] > best["expected_points"]
    assert {cards[h]["reason"] for h in ("7H", "TH", "JH", "AH")} == {"gives_points"}
    assert cards["7H"]["mistake"]


def test_a_forced_duck(capsys):
    """Hearts led, the 10♥ winning; seat 3 holds 2♥ 3♥ 4♥ 6♥ and nothing
    else: every card loses the trick, and none of them can be a mistake."""
    status, answer = _advise("advise_forced_duck", capsys)
    assert status == 0 and answer["seat"] == 3
    _check_shape(answer, _legal("advise_forced_duck")["legal"])
    cards = _by_card(answer)
    assert {k: a["reason"] for k, a in cards.items()} == {
        "2H": "follows_low",
        "3H": "follows_under",
        "4H": "follows_under",
        "6H": "ducks",
    }
    assert not any(a["mistake"] for a in answer["advice"])
    assert len({a["expected_points"] for a in answer["advice"]}) == 1


def test_a_moon_to_stop(capsys):
    """Seat 2 has taken every point (9 of them) and the queen is still out;
    seat 0, void in clubs on seat 3's trick, stops the moon by throwing its
    heart there: keeping it leaves a moon in about two deals of five."""
    status, answer = _advise("advise_moon_to_stop", capsys)
    assert status == 0 and answer["seat"] == 0
    _check_shape(answer, _legal("advise_moon_to_stop")["legal"])
    best, *others = answer["advice"]
    assert best["cards"] == ["3H"] and best["reason"] == "stops_moon"
    assert best["outcomes"]["moon_by_other"] == 0.0
    for a in others:
        assert a["reason"] == "discards_low" and a["mistake"]
        assert a["outcomes"]["moon_by_other"] >= 0.3


def test_a_pass_that_voids_a_suit(capsys):
    """Seat 0 passes left holding only the 9♣ and 10♣ in clubs: the best pass
    gives both, with the ace of hearts."""
    status, answer = _advise("advise_pass_void", capsys)
    assert status == 0 and answer["seat"] == 0 and answer["phase"] == "pass"
    _check_shape(answer, None)
    assert len(answer["advice"]) == 3
    best = answer["advice"][0]
    assert best["reason"] == "voids_clubs" and {"9C", "TC"} <= set(best["cards"])
    for a in answer["advice"]:
        assert len(a["cards"]) == 3


def test_advise_is_deterministic_and_follows_its_options(capsys):
    first = _advise("advise_queen_dump", capsys)
    assert _advise("advise_queen_dump", capsys) == first
    status, small = _advise("advise_queen_dump", capsys, "--playouts", "100", "--seed", "3")
    assert status == 0 and small != first[1]


@pytest.mark.parametrize(
    "text", [b'{"format": ', b'{"format": "damepique-game/1", "deals": [{"hands": [["2C"]]}]}']
)
def test_a_bad_record_gets_the_referees_error(text, capsys):
    status, answer = advise_data(text)
    assert status == 2
    assert answer == referee_data(text, "legal")[1]
    assert "error" in answer


def test_a_finished_deal_has_no_advice(tmp_path, capsys):
    from damepique.cli import random_game
    from damepique.engine import Rules

    path = tmp_path / "game.json"
    path.write_text(json.dumps(random_game(Rules(target=20), 1)))
    assert main(["advise", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == {"seat": None, "phase": "over", "advice": []}
