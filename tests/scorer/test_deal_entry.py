"""Every check of a deal entry, under every variant, with hand-worked examples."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from damepique.scorer import (
    AMBIGUOUS,
    BAD_ENTRY,
    MoonEntry,
    PointsEntry,
    ScoreError,
    SheetRules,
    entry_from_json,
    entry_to_json,
    score_entry,
    seat_of,
)

FOUR = ["Ann", "Bob", "Cy", "Dee"]
THREE = ["Ann", "Bob", "Cy"]
SIX = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


def refused(entry, rules=None, names=FOUR) -> ScoreError:
    with pytest.raises(ScoreError) as info:
        score_entry(entry, rules or SheetRules(), names)
    assert info.value.kind == BAD_ENTRY
    return info.value


# -- the deal's total under each variant ---------------------------------------


@pytest.mark.parametrize(
    ("rules", "total", "moon"),
    [
        (SheetRules(), 26, 26),  # 13 hearts + Q♠ 13
        (SheetRules(queen_points=12), 25, 25),  # 13 hearts + Q♠ 12
        (SheetRules(jack_of_diamonds=True), 16, 26),  # 26 - 10 for the J♦
        (SheetRules(black_maria=True), 43, 43),  # 13 + 13 + K♠ 10 + A♠ 7
        (SheetRules(black_maria=True, queen_points=12), 42, 42),
        (SheetRules(black_maria=True, jack_of_diamonds=True), 33, 43),
        (SheetRules(jack_of_diamonds=True, queen_points=12), 15, 25),
        (SheetRules(deck=36), 15, 15),  # 9 hearts + Q♠ 5 + the last trick 1
        (SheetRules(deck=36, jack_of_diamonds=True), 5, 15),  # 15 - 10 for the J♦
        (SheetRules(deck=36, black_maria=True), 32, 32),  # 15 + K♠ 10 + A♠ 7
    ],
)
def test_deal_total_and_moon_points_of_each_variant(rules, total, moon):
    assert rules.deal_total == total
    assert rules.moon_points == moon


def test_points_adding_up_are_saved_as_entered():
    deal = score_entry(PointsEntry((5, 8, 13, 0)), SheetRules(), FOUR)
    assert deal.points == (5, 8, 13, 0)
    assert deal.shooter is None


def test_two_points_missing_says_so():
    err = refused(PointsEntry((5, 8, 11, 0)))
    assert err.reason == "the points add up to 24, a deal gives 26: 2 points are missing"
    assert err.code == "sum_short"
    assert err.params == {"total": 24, "expected": 26, "difference": 2}
    assert err.player is None


def test_one_point_missing_is_singular():
    err = refused(PointsEntry((5, 8, 12, 0)))
    assert err.reason == "the points add up to 25, a deal gives 26: 1 point is missing"


def test_too_many_points_says_how_many():
    err = refused(PointsEntry((5, 8, 13, 3)))
    assert err.reason == "the points add up to 29, a deal gives 26: 3 points too many"


def test_queen_of_12_gives_25():
    assert score_entry(PointsEntry((12, 13, 0, 0)), SheetRules(queen_points=12), FOUR).points == (
        12,
        13,
        0,
        0,
    )
    err = refused(PointsEntry((13, 13, 0, 0)), SheetRules(queen_points=12))
    assert err.reason == "the points add up to 26, a deal gives 25: 1 point too many"


def test_jack_of_diamonds_gives_16_and_one_negative_score():
    rules = SheetRules(jack_of_diamonds=True)
    # Ann took 3 hearts and the J♦: 3 - 10 = -7; Bob the queen; Cy 10 hearts.
    deal = score_entry(PointsEntry((-7, 13, 10, 0)), rules, FOUR)
    assert deal.points == (-7, 13, 10, 0)
    assert deal.jack == 0
    err = refused(PointsEntry((5, 8, 13, 0)), rules)
    assert err.reason == "the points add up to 26, a deal gives 16: 10 points too many"


def test_black_maria_gives_43():
    rules = SheetRules(black_maria=True)
    assert score_entry(PointsEntry((13, 10, 7, 13)), rules, FOUR).points == (13, 10, 7, 13)
    err = refused(PointsEntry((13, 10, 7, 10)), rules)
    assert err.reason == "the points add up to 40, a deal gives 43: 3 points are missing"


def test_three_and_six_players_have_the_same_deal_total():
    assert score_entry(PointsEntry((0, 13, 13)), SheetRules(), THREE).points == (0, 13, 13)
    assert score_entry(PointsEntry((1, 2, 3, 4, 3, 13)), SheetRules(), SIX).points == (1, 2, 3, 4, 3, 13)


# -- negative points, more points than exist, wrong shapes ---------------------------


def test_negative_points_refused_without_the_jack():
    err = refused(PointsEntry((-2, 8, 13, 7)))
    assert err.code == "points_negative"
    assert err.player == 0
    assert err.reason == "Ann has -2: points cannot be negative (no jack of diamonds on this sheet)"


def test_below_minus_ten_refused_with_the_jack():
    err = refused(PointsEntry((-11, 13, 14, 0)), SheetRules(jack_of_diamonds=True))
    assert err.code == "points_below_jack"
    assert err.player == 0


def test_only_one_player_can_take_the_jack():
    err = refused(PointsEntry((-5, -5, 13, 13)), SheetRules(jack_of_diamonds=True))
    assert err.code == "jack_twice"
    assert err.player == 1
    assert err.reason == "Ann and Bob have negative points, but only one player takes the jack of diamonds"


def test_no_more_points_than_exist():
    err = refused(PointsEntry((30, 0, 0, -4)), SheetRules(jack_of_diamonds=True))
    assert err.code == "points_too_many"
    assert err.player == 0
    assert err.reason == "Ann has 30, but a deal only gives 26 points: 4 points too many"


def test_huge_value_is_refused_as_too_many_points():
    err = refused(PointsEntry((10**30, 0, 0, 0)))
    assert err.code == "points_too_many"


def test_wrong_number_of_points():
    err = refused(PointsEntry((13, 13, 0)))
    assert err.code == "points_count"
    assert err.reason == "4 players, but 3 scores given"


@pytest.mark.parametrize("bad", ["3", 2.5, None, True])
def test_points_must_be_whole_numbers(bad):
    err = refused(PointsEntry((bad, 13, 13, 0)))
    assert err.code == "points_not_number"
    assert err.player == 0


# -- the moon ---------------------------------------------------------------------


def test_moon_others_gives_26_to_each_other_player():
    deal = score_entry(MoonEntry(1), SheetRules(), FOUR)
    assert deal.points == (26, 0, 26, 26)
    assert deal.shooter == 1


def test_moon_self_takes_26_off_the_shooter():
    assert score_entry(MoonEntry(1), SheetRules(moon="self"), FOUR).points == (0, -26, 0, 0)


def test_moon_with_queen_12_and_black_maria_uses_every_point_of_the_deck():
    assert score_entry(MoonEntry(0), SheetRules(queen_points=12), THREE).points == (0, 25, 25)
    assert score_entry(MoonEntry(0), SheetRules(black_maria=True), THREE).points == (0, 43, 43)
    assert score_entry(MoonEntry(2), SheetRules(black_maria=True, moon="self"), THREE).points == (0, 0, -43)


def test_moon_with_jack_defaults_to_the_shooter_taking_it():
    rules = SheetRules(jack_of_diamonds=True)
    assert score_entry(MoonEntry(0), rules, FOUR).points == (-10, 26, 26, 26)
    assert score_entry(MoonEntry(0, jack=2), rules, FOUR).points == (0, 26, 16, 26)
    assert score_entry(MoonEntry(0), SheetRules(jack_of_diamonds=True, moon="self"), FOUR).points == (
        -36,
        0,
        0,
        0,
    )


def test_moon_refused_when_the_sheet_has_no_moon():
    err = refused(MoonEntry(0), SheetRules(moon="off"))
    assert err.code == "moon_off"


def test_jack_named_on_a_sheet_without_the_jack():
    assert refused(MoonEntry(0, jack=1)).code == "jack_off"


def test_moon_shooter_must_be_a_player():
    assert refused(MoonEntry(4)).code == "unknown_player"


def test_every_point_written_for_one_player_is_scored_as_a_moon():
    deal = score_entry(PointsEntry((0, 0, 26, 0)), SheetRules(), FOUR)
    assert deal.points == (26, 26, 0, 26)
    assert deal.shooter == 2
    deal = score_entry(PointsEntry((26, -10, 0, 0)), SheetRules(jack_of_diamonds=True), FOUR)
    assert deal.points == (0, 16, 26, 26)
    assert (deal.shooter, deal.jack) == (0, 1)
    assert score_entry(PointsEntry((0, 26, 0)), SheetRules(moon="self"), THREE).points == (0, -26, 0)


def test_moon_written_out_as_its_fixed_amounts_is_accepted():
    deal = score_entry(PointsEntry((26, 26, 0, 26)), SheetRules(), FOUR)
    assert deal.points == (26, 26, 0, 26)
    assert deal.shooter == 2
    assert score_entry(PointsEntry((0, -26, 0, 0)), SheetRules(moon="self"), FOUR).shooter == 1


def test_moon_written_wrong_is_refused_by_its_total():
    err = refused(PointsEntry((26, 26, 0, 25)))
    assert err.reason == "the points add up to 77, a deal gives 26: 51 points too many"


def test_with_the_moon_off_every_point_to_one_player_is_just_26():
    assert score_entry(PointsEntry((26, 0, 0, 0)), SheetRules(moon="off"), FOUR).points == (26, 0, 0, 0)


# -- JSON entries ---------------------------------------------------------------------


def test_entry_from_json_by_name_or_position():
    assert entry_from_json({"moon": "cy"}, FOUR) == MoonEntry(2)
    assert entry_from_json({"moon": 3, "jack": "Ann"}, FOUR) == MoonEntry(3, 0)
    assert entry_from_json({"points": [1, 2, 3, 20]}, FOUR) == PointsEntry((1, 2, 3, 20))
    assert seat_of(" BOB ", FOUR) == 1


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({}, "entry_empty"),
        ({"points": [26, 0, 0, 0], "moon": 1}, "entry_both"),
        ({"moon": "Zed"}, "unknown_player"),
        ({"moon": 7}, "unknown_player"),
        ({"points": 26}, "points_count"),
    ],
)
def test_bad_json_entries(data, code):
    with pytest.raises(ScoreError) as info:
        entry_from_json(data, FOUR)
    assert info.value.code == code


# -- a property: anything accepted adds up ------------------------------------------------

VARIANTS = [
    SheetRules(),
    SheetRules(moon="self"),
    SheetRules(moon="off"),
    SheetRules(jack_of_diamonds=True),
    SheetRules(queen_points=12),
    SheetRules(black_maria=True),
    SheetRules(black_maria=True, jack_of_diamonds=True),
    SheetRules(deck=36),
    SheetRules(deck=36, jack_of_diamonds=True, moon="self"),
]


@given(
    st.sampled_from(VARIANTS),
    st.integers(3, 6).flatmap(lambda n: st.lists(st.integers(-15, 50), min_size=n, max_size=n)),
)
def test_accepted_points_add_up_to_the_deal_or_are_a_moon(rules, points):
    names = SIX[: len(points)]
    try:
        deal = score_entry(PointsEntry(tuple(points)), rules, names)
    except ScoreError as err:
        assert err.kind in (BAD_ENTRY, AMBIGUOUS)
        assert err.reason
        if err.kind == AMBIGUOUS:
            # Both readings are entries the sheet takes, scored as they say.
            for reading in err.params["readings"]:
                entry = entry_from_json(reading["entry"], names)
                assert list(score_entry(entry, rules, names).points) == reading["points"]
        return
    if deal.shooter is None:
        assert sum(deal.points) == rules.deal_total
        assert all(rules.lowest <= p <= rules.moon_points for p in deal.points)
    else:
        assert deal.points == score_entry(MoonEntry(deal.shooter, deal.jack), rules, names).points


# -- a moon with the J♦, or an ordinary deal? -----------------------------------------------


def ambiguous(points, rules, names=FOUR) -> ScoreError:
    with pytest.raises(ScoreError) as info:
        score_entry(PointsEntry(points), rules, names)
    assert info.value.kind == AMBIGUOUS and info.value.code == "moon_or_ordinary"
    return info.value


@pytest.mark.parametrize(
    ("rules", "points", "moon"),
    [
        # 16 = 26 - 10: Bob took every point card and the J♦ (a moon: -10, the
        # others 26), or the Q♠ and three hearts while another player took the
        # J♦ with the other ten hearts (10 - 10 = 0).
        (SheetRules(jack_of_diamonds=True), (0, 16, 0, 0), [26, -10, 26, 26]),
        (SheetRules(jack_of_diamonds=True, moon="self"), (0, 16, 0, 0), [0, -36, 0, 0]),
        (SheetRules(jack_of_diamonds=True, queen_points=12), (0, 15, 0, 0), [25, -10, 25, 25]),
        # Black Maria: 43 - 10 = 33 (Q♠ 13, K♠ 10 and ten hearts; A♠ 7 and
        # three hearts go with the J♦).
        (SheetRules(jack_of_diamonds=True, black_maria=True), (0, 33, 0, 0), [43, -10, 43, 43]),
        # 36 cards: 15 - 10 = 5 (Q♠ alone; nine hearts and the last trick with the J♦).
        (SheetRules(jack_of_diamonds=True, deck=36), (0, 5, 0, 0), [15, -10, 15, 15]),
    ],
)
def test_every_point_less_the_jack_asks_which_it_was(rules, points, moon):
    err = ambiguous(points, rules)
    assert err.player == 1
    readings = err.params["readings"]
    assert readings == [
        {"entry": {"moon": 1, "jack": 1}, "points": moon},
        {"entry": {"points": list(points), "ordinary": True}, "points": list(points)},
    ]
    assert score_entry(MoonEntry(1, 1), rules, FOUR).points == tuple(moon)
    ordinary = score_entry(entry_from_json(readings[1]["entry"], FOUR), rules, FOUR)
    assert ordinary.points == points and ordinary.shooter is None


def test_the_question_in_words():  # (in French: the page's words, tests/web/scorer_words.test.mjs)
    err = ambiguous((16, 0, 0, 0), SheetRules(jack_of_diamonds=True))
    assert err.reason == (
        "Ann has 16: a moon with the J♦ too (Ann -10, the others 26 each) or an ordinary deal? Choose one"
    )


def test_three_players_ask_too():
    assert ambiguous((0, 0, 16), SheetRules(jack_of_diamonds=True), THREE).player == 2


@pytest.mark.parametrize(
    ("rules", "points"),
    [
        # Without the J♦ a deal gives 26: 16 alone is 10 points short.
        (SheetRules(), (16, 0, 0, 0)),
        # Points spread over two players cannot be a moon.
        (SheetRules(jack_of_diamonds=True), (10, 6, 0, 0)),
    ],
)
def test_points_that_cannot_be_a_moon_are_not_asked(rules, points):
    try:
        deal = score_entry(PointsEntry(points), rules, FOUR)
    except ScoreError as err:
        assert err.kind == BAD_ENTRY and err.code == "sum_short"
    else:
        assert deal.points == points and deal.shooter is None


def test_with_the_moon_off_sixteen_is_just_an_ordinary_deal():
    deal = score_entry(PointsEntry((16, 0, 0, 0)), SheetRules(jack_of_diamonds=True, moon="off"), FOUR)
    assert deal.points == (16, 0, 0, 0) and deal.shooter is None


def test_an_ordinary_entry_round_trips_through_json():
    entry = PointsEntry((16, 0, 0, 0), ordinary=True)
    assert entry_from_json(entry_to_json(entry), FOUR) == entry
    assert entry_to_json(PointsEntry((16, 0, 0, 0))) == {"points": [16, 0, 0, 0]}
    # "ordinary" does not turn a moon written as taken into 26 points for one player.
    deal = score_entry(PointsEntry((26, -10, 0, 0), ordinary=True), SheetRules(jack_of_diamonds=True), FOUR)
    assert deal.points == (0, 16, 26, 26) and deal.shooter == 0


# -- the 36-card game ----------------------------------------------------------------------


def test_36_cards_gives_15_and_the_same_checks():
    rules = SheetRules(deck=36)
    assert score_entry(PointsEntry((6, 4, 5, 0)), rules, FOUR).points == (6, 4, 5, 0)
    assert refused(PointsEntry((6, 4, 4, 0)), rules).reason == (
        "the points add up to 14, a deal gives 15: 1 point is missing"
    )
    assert refused(PointsEntry((16, 0, 0, 0)), rules).code == "points_too_many"
    assert refused(PointsEntry((-1, 16, 0, 0)), rules).code == "points_negative"
    # Every point to one player (the 9 hearts, Q♠ 5, the last trick 1): a moon.
    assert score_entry(PointsEntry((0, 0, 15, 0)), rules, FOUR).points == (15, 15, 0, 15)
    assert score_entry(MoonEntry(0), SheetRules(deck=36, moon="self"), SIX).points == (-15, 0, 0, 0, 0, 0)
