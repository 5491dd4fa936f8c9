"""Rules: defaults of the spec, validation, presets, derived tables, scoring."""

from __future__ import annotations

import json

import pytest

from damepique.engine import PRESETS, Rules, RulesError, mask_of, parse_cards
from damepique.engine.rules import EXTRA_KEYS, SPEC_KEYS


def test_defaults_are_the_specs_and_every_key_is_written() -> None:
    # Every key, even at its default (issue 29): a reader never has to know a default.
    assert Rules().to_json() == {
        "players": 4,
        "target": 100,
        "passing": True,
        "pass_cycle": "standard",
        "no_points_first_trick": True,
        "must_break_hearts": True,
        "moon": "others",
        "jack_of_diamonds": False,
        "leftover": "remove",
        "queen_points": 13,
        "first_lead": "two_of_clubs",
        "hearts_broken_by": "any",
        "first_trick_discard": "any",
        "tie": "play_on",
        "deck": 52,
        "black_maria": False,
        "last_trick_points": 0,
        "pass_count": 3,
        "queen_breaks_hearts": False,
    }
    assert Rules.from_json(None) == Rules.from_json({}) == Rules()


@pytest.mark.parametrize(
    ("data", "key", "words"),
    [
        ({"players": 6}, "players", "players must be 3, 4 or 5, not 6"),
        ({"players": 2}, "players", "players must be 3, 4 or 5, not 2"),
        ({"players": "4"}, "players", "players must be a whole number, not '4'"),
        ({"players": 4.0}, "players", "players must be a whole number, not 4.0"),
        ({"players": True}, "players", "players must be a whole number, not True"),
        ({"passing": 1}, "passing", "passing must be true or false, not 1"),
        ({"target": 0}, "target", "target must be between 1 and 10000, not 0"),
        ({"moon": "sun"}, "moon", "moon must be one of 'others', 'self', 'off', not 'sun'"),
        ({"leftover": "discard"}, "leftover", None),
        ({"first_lead": "2C"}, "first_lead", None),
        (
            {"hearts_broken_by": "lead"},
            "hearts_broken_by",
            "hearts_broken_by must be one of 'any', 'discard', not 'lead'",
        ),
        ({"hearts_broken_by": True}, "hearts_broken_by", "hearts_broken_by must be a string, not True"),
        (
            {"first_trick_discard": "queen"},
            "first_trick_discard",
            "first_trick_discard must be one of 'any', 'heart', not 'queen'",
        ),
        (
            {"first_trick_discard": None},
            "first_trick_discard",
            "first_trick_discard must be a string, not None",
        ),
        ({"tie": "split"}, "tie", "tie must be one of 'play_on', 'share', not 'split'"),
        ({"tie": 0}, "tie", "tie must be a string, not 0"),
        ({"pass_cycle": "across", "players": 3}, "pass_cycle", "passing across needs four players"),
        ({"pass_cycle": "left", "passing": False}, "pass_cycle", "pass_cycle 'left' needs passing true"),
        ({"queen_points": -1}, "queen_points", None),
        ({"deck": 32}, "deck", "deck must be 52 or 36, not 32"),
        ({"pass_count": 13}, "pass_count", "pass_count must be between 1 and 12, not 13"),
        ({"jokers": True}, "jokers", "unknown rules key 'jokers'"),
        ({"players": [4] * 1000}, "players", None),
    ],
)
def test_invalid_rules_are_refused_with_a_reason(
    data: dict[str, object], key: str, words: str | None
) -> None:
    with pytest.raises(RulesError) as e:
        Rules.from_json(data)
    assert e.value.key == key
    if words is not None:
        assert e.value.reason == words
    assert len(e.value.reason) < 120


def test_rules_must_be_an_object() -> None:
    with pytest.raises(RulesError, match="rules must be an object, not a list"):
        Rules.from_json([1])


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_presets_round_trip_through_json(name: str) -> None:
    rules = PRESETS[name]
    data = rules.to_json()
    assert list(data)[: len(SPEC_KEYS)] == list(SPEC_KEYS)
    assert list(data) == [*SPEC_KEYS, *EXTRA_KEYS]
    assert Rules.from_json(data) == rules


def test_the_presets_say_what_the_issue_says() -> None:
    assert PRESETS["short"].target == 50
    assert PRESETS["omnibus"].jack_of_diamonds
    assert PRESETS["three_players"].players == 3 and PRESETS["five_players"].players == 5
    assert PRESETS["three_players_kitty"].leftover == PRESETS["five_players_kitty"].leftover == "kitty"
    # The older rules (issue 17): the player left of the dealer leads any card
    # at all to the first trick, points included, and hearts may be led at any time.
    old = PRESETS["old_rules"]
    assert old == Rules(first_lead="any", no_points_first_trick=False, must_break_hearts=False)
    # Groups that lead hearts at any time but play the rest as the standard game.
    assert PRESETS["hearts_any_time"] == Rules(must_break_hearts=False)
    assert PRESETS["queen_12"].queen_points == 12
    assert PRESETS["black_maria"].black_maria
    # Black Maria is mostly played by three ("généralement pour trois joueurs", issue 25):
    # 17 cards each (2♦ out, as for three_players), K♠ 10 and A♠ 7 besides Q♠.
    bm3 = PRESETS["three_players_black_maria"]
    assert bm3 == Rules(players=3, black_maria=True)
    assert (bm3.hand_size, bm3.moon_points, bm3.removed_mask) == (17, 43, mask_of(parse_cards("2D")))
    d36 = PRESETS["deck_36"]
    assert (d36.deck, d36.queen_points, d36.last_trick_points) == (36, 5, 1)


@pytest.mark.parametrize(
    ("rules", "moon", "total", "hand", "kitty", "removed"),
    [
        (Rules(), 26, 26, 13, 0, ""),
        (Rules(jack_of_diamonds=True), 26, 16, 13, 0, ""),
        (Rules(queen_points=12), 25, 25, 13, 0, ""),
        (Rules(black_maria=True), 43, 43, 13, 0, ""),
        (Rules(players=3), 26, 26, 17, 0, "2D"),
        (Rules(players=5), 26, 26, 10, 0, "2C 2D"),
        (Rules(players=3, leftover="kitty"), 26, 26, 17, 1, ""),
        (Rules(players=5, leftover="kitty"), 26, 26, 10, 2, ""),
        (Rules(deck=36, queen_points=5, last_trick_points=1), 15, 15, 9, 0, ""),
        (Rules(deck=36, players=3, queen_points=5, last_trick_points=1), 15, 15, 12, 0, ""),
        (Rules(deck=36, players=5, queen_points=5, last_trick_points=1), 15, 15, 7, 0, "6D"),
    ],
)
def test_derived_tables(rules: Rules, moon: int, total: int, hand: int, kitty: int, removed: str) -> None:
    assert rules.moon_points == moon
    assert rules.deal_total == total
    assert rules.hand_size == hand
    assert rules.kitty_size == kitty
    assert rules.removed_mask == mask_of(parse_cards(removed))
    dealt = rules.deck_cards.bit_count()
    assert dealt == hand * rules.players + kitty == len(rules.deck_list)


def test_first_trick_mask_holds_queen_even_at_zero_points() -> None:
    qs = mask_of(parse_cards("QS"))
    assert Rules(queen_points=0).first_trick_mask & qs
    assert not Rules(no_points_first_trick=False).first_trick_mask
    assert Rules(black_maria=True).first_trick_mask & mask_of(parse_cards("KS AS"))
    assert not Rules(jack_of_diamonds=True).first_trick_mask & mask_of(parse_cards("JD"))


@pytest.mark.parametrize(
    ("rules", "directions"),
    [
        (Rules(), ["left", "right", "across", "none", "left"]),
        (Rules(players=3), ["left", "right", "none", "left"]),
        (Rules(players=5), ["left", "right", "none", "left"]),
        (Rules(pass_cycle="left"), ["left", "left", "left", "left"]),
        (Rules(passing=False), ["none", "none", "none"]),
    ],
)
def test_pass_cycle(rules: Rules, directions: list[str]) -> None:
    assert [rules.pass_direction(k) for k in range(len(directions))] == directions


@pytest.mark.parametrize(
    ("rules", "taken", "jack", "points", "moon"),
    [
        (Rules(), [26, 0, 0, 0], None, [0, 26, 26, 26], 0),
        (Rules(moon="self"), [0, 26, 0, 0], None, [0, -26, 0, 0], 1),
        (Rules(moon="off"), [26, 0, 0, 0], None, [26, 0, 0, 0], None),
        (Rules(jack_of_diamonds=True), [26, 0, 0, 0], 0, [-10, 26, 26, 26], 0),
        (Rules(jack_of_diamonds=True), [26, 0, 0, 0], 2, [0, 26, 16, 26], 0),
        (Rules(jack_of_diamonds=True, moon="self"), [0, 0, 26, 0], 2, [0, 0, -36, 0], 2),
        (Rules(jack_of_diamonds=True), [13, 13, 0, 0], 3, [13, 13, 0, -10], None),
        (Rules(), [13, 13, 0, 0], 3, [13, 13, 0, 0], None),
        (Rules(queen_points=12), [25, 0, 0, 0], None, [0, 25, 25, 25], 0),
    ],
)
def test_score(rules: Rules, taken: list[int], jack: int | None, points: list[int], moon: int | None) -> None:
    assert rules.score(taken, jack) == (points, moon)


def test_docs_table_every_option_and_preset() -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    documented = {line.split("`")[1] for line in rows}
    assert set(SPEC_KEYS) <= documented
    assert set(EXTRA_KEYS) <= documented
    assert set(PRESETS) <= documented
    for key in (*SPEC_KEYS, *EXTRA_KEYS):
        row = next(line for line in rows if line.startswith(f"| `{key}`"))
        default = row.split("|")[2].strip().strip("`")
        assert default == json.dumps(getattr(Rules(), key)), key
