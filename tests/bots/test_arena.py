"""The arena's statistics and command line, and the terminal demo."""

from __future__ import annotations

import argparse
import json

from damepique.bots.arena import DealOutcome, run_arena, summarize
from damepique.cli import main, play_demo, run_arena_cli
from damepique.engine import PRESETS, Rules


def _args(**kw):
    base = dict(
        seats="intermediate,random,random,random",
        deals=6,
        seed=3,
        duplicate=False,
        games=False,
        jobs=1,
        json=True,
        no_progress=True,
    )
    base.update(kw)
    return argparse.Namespace(**base)


def test_json_report_has_the_documented_shape(capsys):
    assert run_arena_cli(_args(duplicate=True), Rules()) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out) == ["bots"]
    names = [b["name"] for b in out["bots"]]
    assert names == ["intermediate", "random"]
    for b in out["bots"]:
        assert set(b) == {
            "name",
            "deals",
            "mean_points",
            "payoff",
            "payoff_ci95",
            "moons_made",
            "moons_conceded",
        }
        lo, hi = b["payoff_ci95"]
        assert lo <= b["payoff"] <= hi
    # Duplicate: every bot plays every hand, 6 deals x 4 rotations.
    assert out["bots"][0]["deals"] == 24
    assert out["bots"][1]["deals"] == 72


def test_payoffs_balance():
    rows = run_arena(["beginner", "random", "random", "random"], deals=5, seed=2, duplicate=True)
    total = rows[0]["payoff"] * rows[0]["deals"] + rows[1]["payoff"] * rows[1]["deals"]
    assert abs(total) < 0.01  # payoffs are rounded to 4 decimals


def test_summary_of_hand_made_outcomes():
    names = ["a", "b", "b", "b"]
    results = [[DealOutcome(0, (0, 1, 2, 3), (0, 26, 26, 26), 0)]]
    rows = summarize(names, results)
    assert rows[0]["payoff"] == 26 and rows[0]["moons_made"] == 1 and rows[1]["moons_conceded"] == 3


def test_games_report_share_won(capsys):
    rules = Rules(target=30)
    assert run_arena_cli(_args(games=True, deals=2), rules) == 0
    out = json.loads(capsys.readouterr().out)
    shares = [b["games_won_share"] for b in out["bots"]]
    assert abs(sum(shares) - 1.0) < 1e-9


def test_jobs_give_the_same_result():
    one = run_arena(["intermediate", "beginner", "random", "random"], deals=4, seed=9, jobs=1)
    two = run_arena(["intermediate", "beginner", "random", "random"], deals=4, seed=9, jobs=2)
    assert one == two


def test_every_preset_runs_in_the_arena():
    for name, rules in PRESETS.items():
        seats = (["intermediate", "beginner"] * 3)[: rules.players]
        rows = run_arena(seats, deals=1, seed=1, rules=rules)
        assert sum(r["deals"] for r in rows) == rules.players, name


def test_command_line_and_text_table(capsys):
    assert (
        main(["arena", "--seats", "intermediate,random,random,random", "--deals", "2", "--no-progress"]) == 0
    )
    out = capsys.readouterr().out
    assert "payoff" in out and "intermediate" in out


def test_unknown_bot_is_an_error(capsys):
    assert run_arena_cli(_args(seats="intermediate,nobody,random,random"), Rules()) == 2
    assert "nobody" in capsys.readouterr().err


def test_play_demo_prints_a_whole_game(capsys):
    assert play_demo(Rules(target=20), 4, "intermediate") == 0
    out = capsys.readouterr().out
    assert "trick  1" in out and "wins with" in out


def test_seats_keep_an_experts_options_together():
    from damepique.bots.arena import split_seats

    assert split_seats("expert:playouts=30,race=0,intermediate, random,openspiel-ismcts:20") == [
        "expert:playouts=30,race=0",
        "intermediate",
        "random",
        "openspiel-ismcts:20",
    ]
    assert split_seats("intermediate,beginner") == ["intermediate", "beginner"]


def test_json_report_of_one_deal_is_standard_json(capsys):
    """One deal gives no interval: its bounds are null, never ``Infinity``
    (which standard JSON parsers refuse)."""
    assert run_arena_cli(_args(deals=1), Rules()) == 0
    text = capsys.readouterr().out

    def refuse(name):
        raise ValueError(f"not standard JSON: {name}")

    out = json.loads(text, parse_constant=refuse)
    assert [b["payoff_ci95"] for b in out["bots"]] == [[None, None], [None, None]]


def test_deals_must_be_positive(capsys):
    for deals in ("0", "-3"):
        assert main(["arena", "--seats", "intermediate,random,random,random", "--deals", deals]) == 2
        assert "--deals must be at least 1" in capsys.readouterr().err


def test_bad_openspiel_seats_get_a_reason_before_anything_runs(capsys):
    cases = [
        ("openspiel-uct:5,random,random,random", None, "unknown OpenSpiel bot"),
        ("openspiel-mcts:lots,random,random,random", None, "positive whole number"),
        ("openspiel-mcts:0,random,random,random", None, "positive whole number"),
        ("openspiel-mcts:5,random,random", None, "OpenSpiel's Hearts has 4 players"),
        ("openspiel-mcts:5,random,random,random", '{"players": 3}', "leave out --rules"),
    ]
    for seats, rules, reason in cases:
        argv = ["arena", "--seats", seats, "--deals", "1"]
        if rules is not None:
            argv += ["--rules", rules]
        assert main(argv) == 2, seats
        assert reason in capsys.readouterr().err, seats
