"""The moon: the shooter dares, the expert watches for a moon in the making."""

from __future__ import annotations

import random

import pytest

from damepique.bots.arena import play_deal
from damepique.bots.expert_options import ExpertOptions
from damepique.bots.montecarlo import ExpertBot, ShooterBot
from damepique.bots.moon import bold_could_shoot, can_run, moon_passes, point_takers, suspects
from damepique.bots.registry import BOT_INFO, LEVELS, PERSONALITIES, bot_names, get_bot
from damepique.engine import PASS, Deal, Rules, parse_card, parse_cards, view_of


def _mask(text: str) -> int:
    return sum(1 << c for c in parse_cards(text.split()))


def _deal(hands: list[str], plays: str = "", rules: Rules | None = None) -> Deal:
    deal = Deal(rules or Rules(passing=False), [_mask(h) for h in hands], 0, 0)
    for card in plays.split():
        deal.play(parse_card(card))
    return deal


HANDS = [
    "2C 3C 4C 5C 2D 3D 4D 5D 2S 3S 4S 5S 2H",
    "6C 7C 8C 9C 6D 7D 8D 9D 6S 7S 8S 9S 3H",
    "TC JC QC KC TD JD QD KD TS JS QS KS 4H",
    "AC AD AS 5H 6H 7H 8H 9H TH JH QH KH AH",
]


def test_the_shooter_is_a_named_personality():
    bot = get_bot("shooter")
    assert isinstance(bot, ShooterBot) and bot.name == "shooter" and bot.options.bold == 1.0
    assert get_bot("expert").options.bold == 0.0
    assert get_bot("shooter:playouts=300").options == ExpertOptions(bold=1.0, playouts=300, reading=False)
    assert "shooter" in bot_names() and "shooter" in PERSONALITIES and "shooter" not in LEVELS
    for name in bot_names():
        assert BOT_INFO[name] == {"kind": "personality" if name in PERSONALITIES else "level"}
    with pytest.raises(
        ValueError, match="expert option playouts takes a whole number of 1 or more, not 'abc'"
    ):
        get_bot("shooter:playouts=abc")


def test_expert_options_are_one_checked_value():
    assert ExpertOptions.parse("playouts=400,objective=points,race=0") == ExpertOptions(
        playouts=400, objective="points", race=False
    )
    assert ExpertOptions.parse(ExpertOptions(trust=0.2, watch=False).text()) == ExpertOptions(
        trust=0.2, watch=False
    )
    for text, message in [
        ("playouts=abc", "expert option playouts takes a whole number of 1 or more, not 'abc'"),
        ("trust=2", "expert option trust takes a share from 0 to below 1, not '2'"),
        ("budget_ms=0", "expert option budget_ms takes a number of milliseconds above 0, not '0'"),
        ("watch=2", "expert option watch takes 0 or 1, not '2'"),
        ("bold=-1", "expert option bold takes a share from 0 to 1, not '-1'"),
    ]:
        with pytest.raises(ValueError) as e:
            get_bot("expert:" + text)
        assert str(e.value) == message
    with pytest.raises(ValueError, match="unknown expert option 'speed'"):
        ExpertOptions.parse("speed=3")
    with pytest.raises(ValueError, match="expert option playouts takes"):
        ExpertBot(playouts=0)
    with pytest.raises(ValueError, match="unknown expert option 'fast'"):
        ExpertBot(fast=True)
    with pytest.raises(dataclass_error()):
        ExpertOptions().playouts = 3  # type: ignore[misc]


def dataclass_error() -> type[Exception]:
    from dataclasses import FrozenInstanceError

    return FrozenInstanceError


def test_suspects_read_the_points_and_the_tricks():
    # Seat 3 wins the first three tricks with its aces, no point yet.
    deal = _deal(HANDS, "2C 6C TC AC  AD 2D 6D TD  AS 2S 6S TS")
    view = view_of(deal, 0)
    assert point_takers(view) == []
    assert suspects(view) == ((3, pytest.approx(0.3), "evidence"),)
    # Then a heart trick: seat 3 alone has a point, fewer than a quarter.
    deal.play(parse_card("5H"))
    for card in ("2H", "3H", "4H"):
        deal.play(parse_card(card))
    view = view_of(deal, 0)
    assert point_takers(view) == [3]
    assert suspects(view) == ((3, 0.5, "evidence"),)
    assert suspects(view_of(deal, 3)) == ()  # only the seat itself could shoot
    # No trick yet: nobody (a strong hand alone is not evidence, by default).
    assert suspects(view_of(_deal(HANDS), 1)) == ()


def test_a_clear_threat_is_sure_and_two_takers_none():
    deal = _deal(HANDS, "2C 6C TC AC  AD 2D 6D TD  AS 2S 6S TS  6H 2H 3H 4H  7H 5D 9D QS")
    view = view_of(deal, 1)
    assert view.taken_points == (0, 0, 0, 18)
    assert suspects(view) == ((3, 1.0, "sure"),)
    # Once two seats have taken point cards, nobody can shoot any more.
    rng = random.Random(1)
    checked = 0
    while checked < 20:
        deal = Deal.shuffled(Rules(passing=False), random.Random(rng.getrandbits(32)))
        while deal.phase != "done":
            view = view_of(deal, deal.to_act)
            if len(point_takers(view)) >= 2:
                assert suspects(view) == ()
                checked += 1
                break
            deal.play(get_bot("intermediate").choose_play(view, rng))


def test_can_run_needs_the_top_heart_and_winners():
    hands = [_mask(h) for h in HANDS]
    assert can_run(hands, 3)
    assert not can_run(hands, 1)  # no winner, no top heart
    # Without the ace of hearts, seat 3 cannot take every heart...
    swapped = list(hands)
    swapped[3] ^= _mask("AH") | _mask("2H")
    swapped[0] ^= _mask("AH") | _mask("2H")
    assert not can_run(swapped, 3)
    # ... unless the seat searching holds it: it may still give it away.
    assert can_run(swapped, 3, me=0)


class _Watch:
    """A bot that remembers the mode of each of its searches."""

    def __init__(self, bot):  # type: ignore[no-untyped-def]
        self.bot = bot
        self.modes: list[str] = []

    def choose_pass(self, view, rng):  # type: ignore[no-untyped-def]
        return self.bot.choose_pass(view, rng)

    def choose_play(self, view, rng):  # type: ignore[no-untyped-def]
        card = self.bot.choose_play(view, rng)
        self.modes.append(self.bot.last_mode)
        return card


def _attempts(name: str, deals: int) -> tuple[int, int]:
    """Deals where seat 0 played a card in moon mode, and moons it made,
    against three intermediates (arena seeding)."""
    bot = get_bot(name)
    attempts = made = 0
    for d in range(deals):
        deal = Deal.shuffled(Rules(), random.Random(f"moon:{d}"), d)
        watch = _Watch(bot)
        inter = get_bot("intermediate")
        play_deal(deal, [watch, inter, inter, inter], [random.Random(f"moon:{d}:{s}") for s in range(4)])
        attempts += "shoot" in watch.modes
        made += deal.result().moon == 0
    return attempts, made


def test_the_shooter_attempts_more_moons_than_the_expert():
    """Same deals, same field: the shooter (its passes kept for a moon, a
    moon run considered with weaker hands) attempts and makes more moons.
    On these 12 deals it attempted 3 and made 2, the expert attempted 1 and
    made none (over 24 deals: 4 and 3 against 1 and 0); with no moon mode
    (broken on purpose) both attempt none and the test fails."""
    shooter = _attempts("shooter:playouts=150", 12)
    expert = _attempts("expert:playouts=150", 12)
    assert shooter[0] > expert[0] and shooter[0] >= 3, (shooter, expert)
    assert shooter[1] > expert[1], (shooter, expert)


def test_the_shooter_passes_to_set_a_moon_up():
    """With a hand that can shoot, the shooter keeps its top hearts and spades
    where the expert passes them (it judges the moon passes too)."""
    rng = random.Random(2)
    kept = 0
    tried = 0
    for k in range(200):
        deal = Deal.shuffled(Rules(), random.Random(rng.getrandbits(32)), 0)
        view = view_of(deal, 0)
        top = _mask("QH KH AH")
        if view.phase != PASS or (view.hand & top).bit_count() < 2 or not bold_could_shoot(view):
            continue
        tried += 1
        chosen = get_bot("shooter:playouts=200").choose_pass(view, random.Random(k))
        assert len(chosen) == 3
        if tuple(sorted(chosen)) in moon_passes(view):
            kept += 1
        if tried == 8:
            break
    assert tried == 8 and kept >= 2, (tried, kept)


def test_shooter_plays_whole_deals_of_every_size():
    for rules in (Rules(), Rules(players=3), Rules(players=5), Rules(black_maria=True)):
        deal = Deal.shuffled(rules, random.Random(1))
        bots = [get_bot("shooter:playouts=40")] + [get_bot("intermediate")] * (rules.players - 1)
        play_deal(deal, bots, [random.Random(s) for s in range(rules.players)])
        assert deal.phase == "done"


def test_the_watch_sees_the_moon_a_shooter_is_making():
    """A position from a deal against three shooters (benchmarks/bots_moon.py,
    seed 1, deal 26): seat 3 has taken all 9 points so far and leads the Q♣;
    the expert holds 3♣ 6♣ 7♣ K♣ and three diamonds. Drawing the worlds so
    that seat 3 could make its moon, the search sees the moon in about a
    quarter of them; without the watch (a uniform draw gives the stoppers to
    the others) in about a tenth."""
    import json
    from pathlib import Path

    from damepique.bots.montecarlo import evaluate_play

    raw = json.loads((Path(__file__).parent / "golden" / "watch_threat_deal.json").read_text())
    d = raw["deal"]
    rules = Rules()
    deal = Deal(rules, [_mask(" ".join(h)) for h in d["hands"]], 0, raw["number"])
    for seat, cards in enumerate(d["passes"]):
        deal.pass_cards(seat, parse_cards(cards))
    for card in d["plays"]:
        deal.play(parse_card(card))
    view = view_of(deal, 0)
    assert view.taken_points == (0, 0, 0, 9) and suspects(view) == ((3, 1.0, "sure"),)

    def conceded(watch: bool) -> float:
        stats, _groups, _mode = evaluate_play(view, random.Random(1), 1500, watch=watch, infer=True)
        return sum(s.conceded / len(s.utility) for s in stats.values()) / len(stats)

    watched, blind = conceded(True), conceded(False)
    assert watched > 0.18 and blind < 0.14 and watched > 1.8 * blind, (watched, blind)
