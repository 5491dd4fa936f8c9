"""The sheet: names, rules, passes, running totals, end of game, edit/delete/undo, export."""

from __future__ import annotations

import csv
import io
import json

import pytest

from damepique.engine import Rules
from damepique.scorer import (
    BAD_SHEET,
    GAME_OVER,
    NO_SUCH_DEAL,
    NOTHING_TO_UNDO,
    MoonEntry,
    PointsEntry,
    ScoreError,
    Sheet,
    SheetRules,
    pass_direction,
    render,
    to_csv,
    to_export_json,
)
from damepique.scorer.messages import CODES

FOUR = ["Ann", "Bob", "Cy", "Dee"]


def sheet_error(*args, **kwargs) -> ScoreError:
    with pytest.raises(ScoreError) as info:
        Sheet(*args, **kwargs)
    return info.value


# -- a new sheet ------------------------------------------------------------------------


@pytest.mark.parametrize("count", [0, 1, 2, 7, 10])
def test_sheet_needs_3_to_6_players(count):
    err = sheet_error([f"P{i}" for i in range(count)])
    assert err.kind == BAD_SHEET
    assert err.reason == f"a sheet needs 3 to 6 players, not {count}"


@pytest.mark.parametrize("count", [3, 4, 5, 6])
def test_3_to_6_players_are_fine(count):
    assert Sheet([f"P{i}" for i in range(count)]).players == count


def test_names_are_trimmed_and_must_differ():
    assert Sheet(["  Ann  Marie ", "Bob", "Cy"]).names == ["Ann Marie", "Bob", "Cy"]
    err = sheet_error(["Ann", "ann", "Cy"])
    assert (err.code, err.player) == ("player_name_twice", 1)
    err = sheet_error(["Ann", "   ", "Cy"])
    assert (err.code, err.player, err.reason) == ("player_name_empty", 1, "player 2 has no name")
    assert sheet_error(["A" * 31, "Bob", "Cy"]).code == "player_name_long"
    assert sheet_error([3, "Bob", "Cy"]).code == "player_name_empty"


@pytest.mark.parametrize(
    ("rules", "code"),
    [
        ({"target": 0}, "target_range"),
        ({"target": 10**9}, "target_range"),
        ({"target": "100"}, "rules_type"),
        ({"target": True}, "rules_type"),
        ({"moon": "sun"}, "moon_rule"),
        ({"queen_points": 14}, "queen_points"),
        ({"jack_of_diamonds": "yes"}, "rules_type"),
        ({"jokers": True}, "rules_unknown"),
        ({"deck": 32}, "deck"),
        ({"deck": "36"}, "rules_type"),
        ({"deck": 36, "queen_points": 13}, "queen_points_36"),
        ({"queen_points": 5}, "queen_points"),
        ({"tie": "split"}, "tie_rule"),
        ({"tie": True}, "rules_type"),
    ],
)
def test_bad_rules(rules, code):
    with pytest.raises(ScoreError) as info:
        SheetRules.from_json(rules)
    assert (info.value.kind, info.value.code) == (BAD_SHEET, code)
    assert info.value.reason


def test_any_target_is_fine():
    assert SheetRules(target=50).target == 50
    assert SheetRules(target=73).target == 73
    assert SheetRules.from_json(None) == SheetRules()


# -- passing ------------------------------------------------------------------------------


def test_pass_directions():
    assert [pass_direction(4, n) for n in range(1, 9)] == ["left", "right", "across", "none"] * 2
    for players in (3, 5, 6):
        assert [pass_direction(players, n) for n in range(1, 7)] == ["left", "right", "none"] * 2


@pytest.mark.parametrize("players", [3, 4, 5])
def test_pass_directions_match_the_engine(players):
    rules = Rules(players=players)
    assert [pass_direction(players, n) for n in range(1, 9)] == [rules.pass_direction(k) for k in range(8)]


def test_sheet_shows_the_next_pass():
    sheet = Sheet(FOUR)
    passes = []
    for _ in range(5):
        passes.append(sheet.next_pass)
        sheet.add(PointsEntry((6, 7, 13, 0)))
    assert passes == ["left", "right", "across", "none", "left"]
    assert [d["pass"] for d in sheet.view()["deals"]] == passes


# -- totals, leader, end of game -----------------------------------------------------------


def test_running_totals_and_leader():
    sheet = Sheet(FOUR)
    sheet.add(PointsEntry((5, 8, 13, 0)))
    sheet.add(PointsEntry((10, 0, 3, 13)))
    sheet.add(MoonEntry(1))
    assert sheet.running_totals == [[5, 8, 13, 0], [15, 8, 16, 13], [41, 8, 42, 39]]
    assert sheet.totals == [41, 8, 42, 39]
    assert sheet.leaders == [1]
    assert sheet.outcome.code == "playing"
    assert render(sheet.outcome.code, sheet.outcome.params) == "Bob leads"


def test_new_sheet_has_everyone_leading():
    sheet = Sheet(FOUR)
    assert sheet.totals == [0, 0, 0, 0]
    assert sheet.leaders == [0, 1, 2, 3]
    assert not sheet.outcome.over


def test_game_ends_at_the_target_with_a_single_lowest_total():
    sheet = Sheet(FOUR, SheetRules(target=50))
    sheet.add(PointsEntry((13, 13, 0, 0)))
    sheet.add(PointsEntry((13, 13, 0, 0)))
    assert not sheet.outcome.over  # 26 each: nobody at 50
    sheet.add(PointsEntry((24, 0, 2, 0)))  # Ann 50: at the target
    outcome = sheet.outcome
    assert sheet.totals == [50, 26, 2, 0]
    assert (outcome.over, outcome.winner, outcome.code) == (True, 3, "winner")
    assert render("winner", outcome.params) == "Dee wins with 0 points"
    with pytest.raises(ScoreError) as info:
        sheet.add(PointsEntry((26, 0, 0, 0)))
    assert info.value.kind == GAME_OVER
    assert "Dee" in info.value.reason


def test_past_the_target_counts_too():
    sheet = Sheet(["Ann", "Bob", "Cy"], SheetRules(target=20))
    sheet.add(PointsEntry((25, 1, 0)))
    assert sheet.outcome.over and sheet.outcome.winner == 2


def test_tie_for_lowest_says_play_another_deal():
    sheet = Sheet(FOUR, SheetRules(target=50))
    sheet.add(PointsEntry((25, 1, 0, 0)))
    sheet.add(PointsEntry((25, 1, 0, 0)))  # Ann 50, Cy and Dee tied at 0
    outcome = sheet.outcome
    assert (outcome.over, outcome.winner, outcome.tied, outcome.code) == (False, None, (2, 3), "tie")
    assert render("tie", outcome.params) == "Cy and Dee are tied on 0 points: play another deal"
    sheet.add(PointsEntry((0, 0, 1, 25)))
    assert sheet.outcome.winner == 2


def test_tie_share_ends_the_game_and_the_tied_players_share_the_win():
    # The same deals as above: Ann reaches 50, Cy and Dee tie at 0; under
    # "share" the game is over and both win.
    sheet = Sheet(FOUR, SheetRules(target=50, tie="share"))
    sheet.add(PointsEntry((25, 1, 0, 0)))
    sheet.add(PointsEntry((25, 1, 0, 0)))
    outcome = sheet.outcome
    assert (outcome.over, outcome.winner, outcome.winners, outcome.code) == (True, None, (2, 3), "shared")
    assert render("shared", outcome.params) == "Cy and Dee share the win with 0 points"
    view = sheet.view()
    assert (view["over"], view["winner"], view["winners"], view["next_deal"]) == (True, None, [2, 3], None)
    with pytest.raises(ScoreError) as info:
        sheet.add(PointsEntry((26, 0, 0, 0)))
    assert info.value.kind == GAME_OVER
    # One player alone lowest wins alone under "share" too.
    sheet.edit(2, PointsEntry((25, 0, 1, 0)))
    assert (sheet.outcome.winners, sheet.outcome.winner, sheet.outcome.code) == ((3,), 3, "winner")


def test_once_over_the_sheet_announces_no_next_deal():
    sheet = Sheet(FOUR, SheetRules(target=50))
    sheet.add(PointsEntry((26, 0, 0, 0)))  # a moon written as taken: 0, 26, 26, 26
    assert sheet.view()["next_deal"] == {"number": 2, "pass": "right"}
    sheet.add(PointsEntry((0, 26, 0, 0)))  # Bob's moon: 26, 26, 52, 52, a tie: on
    assert sheet.view()["next_deal"] == {"number": 3, "pass": "across"}
    sheet.add(PointsEntry((0, 1, 0, 25)))
    view = sheet.view()
    assert view["over"] and view["winner"] == 0 and view["next_deal"] is None
    assert to_csv(sheet).splitlines()[-1] == "total,,,26,27,52,77"


def test_a_sheet_saved_before_the_question_keeps_its_ordinary_deal():
    # Sheets saved before the score keeper asked "a moon with the J♦, or an
    # ordinary deal?" hold 16 0 0 0 as an ordinary deal: they load as one.
    stored = {
        "players": FOUR,
        "rules": {"jack_of_diamonds": True},
        "deals": [{"points": [16, 0, 0, 0]}],
        "history": [{"action": "add", "number": 1, "before": None}],
    }
    sheet = Sheet.from_json(stored)
    assert sheet.totals == [16, 0, 0, 0] and sheet.deals[0].shooter is None
    assert sheet.to_json()["deals"] == [{"points": [16, 0, 0, 0], "ordinary": True}]
    with pytest.raises(ScoreError) as info:  # a new entry is asked about
        sheet.add(PointsEntry((0, 16, 0, 0)))
    assert info.value.kind == "ambiguous"


def test_a_36_card_sheet_round_trips():
    sheet = Sheet(FOUR, SheetRules(deck=36, jack_of_diamonds=True))
    sheet.add(PointsEntry((6, -10, 5, 4)))
    again = Sheet.from_json(json.loads(json.dumps(sheet.to_json())))
    assert again.rules == sheet.rules and again.rules.queen_points == 5 and again.totals == [6, -10, 5, 4]
    assert sheet.view()["deal_total"] == 5 and sheet.view()["moon_points"] == 15


def test_moon_can_end_the_game():
    sheet = Sheet(FOUR, SheetRules(target=50))
    sheet.add(PointsEntry((13, 13, 0, 0)))
    sheet.add(PointsEntry((13, 12, 1, 0)))
    sheet.add(MoonEntry(2))
    assert sheet.totals == [52, 51, 1, 26]
    assert sheet.outcome.winner == 2


# -- edit, delete, undo ------------------------------------------------------------------------


def test_edit_delete_and_undo_each_change():
    sheet = Sheet(FOUR)
    sheet.add(PointsEntry((5, 8, 13, 0)))
    sheet.add(PointsEntry((10, 0, 3, 13)))
    sheet.edit(1, MoonEntry(3))
    assert sheet.totals == [36, 26, 29, 13]
    sheet.delete(2)
    assert sheet.totals == [26, 26, 26, 0]
    sheet.undo()  # the delete
    assert sheet.totals == [36, 26, 29, 13]
    sheet.undo()  # the edit
    assert sheet.totals == [15, 8, 16, 13]
    sheet.undo()  # the second entry
    assert sheet.totals == [5, 8, 13, 0]
    sheet.undo()
    assert sheet.deals == []
    with pytest.raises(ScoreError) as info:
        sheet.undo()
    assert info.value.kind == NOTHING_TO_UNDO


def test_refused_edit_changes_nothing():
    sheet = Sheet(FOUR)
    sheet.add(PointsEntry((5, 8, 13, 0)))
    with pytest.raises(ScoreError):
        sheet.edit(1, PointsEntry((5, 8, 11, 0)))
    assert sheet.totals == [5, 8, 13, 0]
    assert len(sheet.history) == 1


@pytest.mark.parametrize("number", [0, 3, -1, "1"])
def test_no_such_deal(number):
    sheet = Sheet(FOUR)
    sheet.add(PointsEntry((5, 8, 13, 0)))
    sheet.add(PointsEntry((5, 8, 13, 0)))
    with pytest.raises(ScoreError) as info:
        sheet.delete(number)
    assert info.value.kind == NO_SUCH_DEAL


def test_deleting_a_deal_can_reopen_a_finished_game():
    sheet = Sheet(FOUR, SheetRules(target=30))
    sheet.add(PointsEntry((26, 0, 0, 0)))
    sheet.add(PointsEntry((0, 0, 0, 26)))
    sheet.add(PointsEntry((4, 0, 0, 22)))
    assert sheet.outcome.over
    sheet.delete(3)
    assert not sheet.outcome.over
    sheet.add(PointsEntry((0, 13, 13, 0)))


# -- storage and export --------------------------------------------------------------------------


def test_json_round_trip_keeps_deals_and_history():
    sheet = Sheet(FOUR, SheetRules(jack_of_diamonds=True, target=75))
    sheet.add(PointsEntry((-7, 13, 10, 0)))
    sheet.add(MoonEntry(2, jack=1))
    sheet.edit(1, PointsEntry((3, 13, 10, -10)))
    data = json.loads(json.dumps(sheet.to_json()))
    again = Sheet.from_json(data)
    assert again.totals == sheet.totals == [29, 29, 10, 16]
    assert again.view() == sheet.view()
    again.undo()
    assert again.totals == [19, 29, 10, 26]


def test_csv_export():
    sheet = Sheet(["Ann", "=Bob", "Cy", "Dee"])
    sheet.add(PointsEntry((5, 8, 13, 0)))
    sheet.add(MoonEntry(3))
    rows = list(csv.reader(io.StringIO(to_csv(sheet))))
    assert rows == [
        ["deal", "pass", "moon", "Ann", "'=Bob", "Cy", "Dee"],
        ["1", "left", "", "5", "8", "13", "0"],
        ["2", "right", "Dee", "26", "26", "26", "0"],
        ["total", "", "", "31", "34", "39", "0"],
    ]


def test_json_export():
    sheet = Sheet(FOUR)
    sheet.add(PointsEntry((5, 8, 13, 0)))
    data = to_export_json(sheet, title="x")
    assert data["format"] == "damepique-sheet/1"
    assert data["title"] == "x"
    assert data["deals"][0]["totals"] == [5, 8, 13, 0]
    assert data["totals"] == [5, 8, 13, 0]


def test_every_message_has_its_english_reason():
    sample = {
        "count": 2,
        "position": 1,
        "name": "Ann",
        "length": 40,
        "limit": 30,
        "key": "k",
        "expected": "x",
        "value": 1,
        "target": 0,
        "players": ["Ann", "Bob"],
        "player": "Ann",
        "points": 3,
        "total": 3,
        "difference": 2,
        "number": 3,
        "winner": "Ann",
        "detail": "x",
        "queen": 5,
        "shooter_score": -10,
        "others_score": 26,
    }
    # (The French, and the English the pages show, are the pages' words: scm_CODE, below.)
    for code in CODES:
        assert render(code, sample), code


def test_pages_have_every_word_in_both_languages():
    # The score keeper's words live in the pages' one translation system
    # (web/strings/en.js and fr.js, keys sc_*).
    from ..web.page_words import page_string_keys

    en, fr = page_string_keys()
    score_keeper = {k for k in en if k.startswith(("sc_", "scm_"))}
    assert score_keeper <= fr
    assert len(score_keeper) > 50
    # Every code the server sends (its errors and the game's outcome) has the page's own words.
    from damepique.scorer.messages import CODES

    assert {"scm_" + code for code in CODES} - en == set()
    assert {"scm_" + code for code in CODES} - fr == set()
