"""The model of play, the worlds weighed by it, its training, and the
expert frozen before it (issue 31)."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from damepique.bots import montecarlo
from damepique.bots.expert_options import ExpertOptions
from damepique.bots.heuristic import intermediate_pass, intermediate_play
from damepique.bots.inference import FLOOR, Reader, sample_read_world
from damepique.bots.knowledge import Knowledge, sample_world
from damepique.bots.montecarlo import ExpertBot
from damepique.bots.moon import can_run, suspects
from damepique.bots.openspiel import logged_deal, openspiel_deal
from damepique.bots.reading import (
    PASS_FEATURES,
    PLAY_FEATURES,
    Model,
    card_probabilities,
    default_model,
    legal_in,
    pass_probabilities,
    play_probabilities,
    position_of,
)
from damepique.bots.registry import FROZEN, bot_names, get_bot
from damepique.bots.training import from_logs
from damepique.bots.training import main as train_main
from damepique.engine import PASS, PRESETS, Deal, Rules, cards_of, parse_card, view_of
from damepique.engine.deal import to_mask

from .conftest import positions

# A model with extreme weights: probabilities must still sum to one and
# stay above zero (scores are clipped).
EXTREME = Model(
    tuple(60.0 if i % 2 else -60.0 for i in range(len(PLAY_FEATURES))),
    tuple(-60.0 if i % 2 else 60.0 for i in range(len(PASS_FEATURES))),
)


def test_the_frozen_expert_is_todays_expert_on_fixed_seeds() -> None:
    frozen = get_bot("expert-2026-12")
    assert frozen.name == "expert-2026-12" and "expert-2026-12" in FROZEN
    assert "expert-2026-12" not in bot_names()  # not offered at tables
    assert frozen.options == ExpertOptions(reading=False)  # type: ignore[attr-defined]
    assert get_bot("expert").options.reading  # type: ignore[attr-defined]
    # Same cards, deal after deal, as the expert without reading (a small
    # budget over whole deals, then the default budget on a few decisions).
    for seed in (1, 2):
        plays = []
        for name in ("expert-2026-12:playouts=60", "expert:playouts=60,reading=0"):
            deal = Deal.shuffled(Rules(), random.Random(seed), seed)
            bot = get_bot(name)
            for s in range(4):
                deal.pass_cards(s, bot.choose_pass(view_of(deal, s), random.Random(f"{seed}:{s}")))
            while deal.phase != "done":
                view = view_of(deal, deal.to_act)
                deal.play(bot.choose_play(view, random.Random(f"{seed}:{len(view.plays)}")))
            plays.append(deal.plays)
        assert plays[0] == plays[1]
    today = ExpertBot(ExpertOptions(reading=False))
    for deal, seat in positions(Rules(), 7, 3):
        view = view_of(deal, seat)
        if view.phase == PASS:
            continue
        assert frozen.choose_play(view, random.Random(5)) == today.choose_play(view, random.Random(5))


def test_probabilities_sum_to_one_over_the_legal_cards_and_none_is_zero() -> None:
    for preset, rules in PRESETS.items():
        for deal, seat in positions(rules, 11, 12):
            view = view_of(deal, seat)
            if view.phase == PASS:
                for model in (default_model(), EXTREME, Model.uniform()):
                    probs = pass_probabilities(model, rules, view.hand)
                    assert set(probs) == set(cards_of(view.hand))
                    assert abs(sum(probs.values()) - 1.0) < 1e-9 and min(probs.values()) > 0, preset
                continue
            for model in (default_model(), EXTREME, Model.uniform()):
                probs = card_probabilities(view, model)
                assert set(probs) == set(cards_of(view.legal_mask())), preset
                assert abs(sum(probs.values()) - 1.0) < 1e-9 and min(probs.values()) > 0, preset
            if view.lead_card is None:
                probs = play_probabilities(EXTREME, rules, position_of(view), view.hand)
                assert set(probs) == set(cards_of(view.legal_mask()))


def test_the_readers_legal_cards_are_the_engines() -> None:
    for rules in PRESETS.values():
        for deal, seat in positions(rules, 13, 25):
            view = view_of(deal, seat)
            if view.phase == PASS or view.lead_card is not None:
                continue
            assert legal_in(rules, position_of(view), view.hand) == view.legal_mask()


def test_a_model_that_says_nothing_weighs_every_world_alike() -> None:
    rules = Rules()
    for deal, seat in positions(rules, 17, 10):
        view = view_of(deal, seat)
        if view.phase == PASS:
            continue
        reader = Reader(view, Model.uniform())
        know = Knowledge.of(view)
        rng = random.Random(1)
        for _ in range(5):
            hands, _ = sample_world(view, know, rng)
            assert abs(reader.weight(hands) - 1.0) < 1e-9


@settings(max_examples=40, deadline=None)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    seed=st.integers(0, 2**32 - 1),
    extreme=st.booleans(),
)
def test_reading_never_makes_a_world_the_rules_allow_impossible(
    preset: str, seed: int, extreme: bool
) -> None:
    rules = PRESETS[preset]
    n = rules.players
    (deal, seat), *_ = positions(rules, seed, 1)
    view = view_of(deal, seat)
    if view.phase == PASS:
        return
    reader = Reader(view, EXTREME if extreme else default_model())
    # The real deal is a world the rules allow: it keeps its weight, at least
    # the floor for each action read.
    actions = sum(1 for s, _ in view.plays if s != seat) + (view.received or 0).bit_count()
    assert reader.weight(deal.hands) >= FLOOR**actions > 0
    # And so is every world the uniform sampler draws; the reading sampler
    # draws only such worlds.
    know = Knowledge.of(view)
    rng = random.Random(seed)
    for _ in range(3):
        hands, _ = sample_world(view, know, rng)
        assert reader.weight(hands) > 0
        hands, kitty = sample_read_world(view, know, rng, reader)
        assert hands[seat] == view.hand
        hidden_kitty = know.sizes[n] > 0
        held = kitty if hidden_kitty else 0
        real = deal.kitty if hidden_kitty else 0
        for s in range(n):
            assert not hands[s] & held
            held |= hands[s]
            real |= deal.hands[s]
            if s != seat:
                assert hands[s].bit_count() == view.hand_sizes[s]
                assert not hands[s] & view.voids[s]
        assert held == real


def test_a_seat_that_ducked_under_the_king_of_spades_rarely_holds_the_queen() -> None:
    # Seat 0 leads the king of spades, seat 1 follows with the three: had it
    # held the queen, dropping it on the king was the obvious play.
    rules = Rules(passing=False, first_lead="any")
    hands = [
        to_mask("KS 2C 3C 4C 5C 6C 7C 2D 3D 4D 5D 6D 7D"),
        to_mask("3S 8C 9C 10C 8D 9D 10D 2H 3H 4H 5H 6H 7H"),
        to_mask("4S 5S JC QC KC AC JD QD KD AD 8H 9H 10H"),
        to_mask("QS 2S 6S 7S 8S 9S 10S JS AS JH QH KH AH"),
    ]
    deal = Deal(rules, hands, 0, 0)
    assert deal.to_act == 0
    deal.play(parse_card("KS"))
    deal.play(parse_card("3S"))
    view = view_of(deal, 2)
    queen = parse_card("QS")
    reader = Reader.of(view)
    know = Knowledge.of(view)
    rng = random.Random(4)
    uniform = read = total = 0.0
    for _ in range(3000):
        world, _ = sample_world(view, know, rng)
        w = reader.weight(world)
        holds = world[1] >> queen & 1
        uniform += holds
        read += w * holds
        total += w
    uniform /= 3000
    read /= total
    assert 0.25 < uniform < 0.45  # a third of the unseen cards are seat 1's
    assert read < uniform - 0.1, (uniform, read)


def test_the_training_script_runs_end_to_end_on_a_tiny_data_set(tmp_path) -> None:
    out = tmp_path / "reading.json"
    tiny = [
        "--deals",
        "2",
        "--seed",
        "3",
        "--seats",
        "intermediate",
        "--presets",
        "standard",
        "--epochs",
        "2",
    ]
    code = train_main([*tiny, "--out", str(out)])
    assert code == 0
    data = json.loads(out.read_text())
    model = Model.from_json(data)
    assert set(data["play"]) == set(PLAY_FEATURES) and set(data["pass"]) == set(PASS_FEATURES)
    assert any(w != 0 for w in model.play)
    trained = data["trained"]
    assert trained["deals"] == 2 and trained["play"]["loss"] < trained["play"]["uniform_loss"]
    # Deterministic from the seed.
    again = tmp_path / "again.json"
    train_main([*tiny, "--out", str(again)])
    assert again.read_text() == out.read_text()


def test_the_moon_watch_redraws_worlds_as_the_reading_weighs_them(monkeypatch) -> None:
    # Seat 0 took the only points (a clear moon threat): the watch redraws
    # worlds until seat 0's hand could make the moon. A reading that all but
    # rules out such hands must be heard in those redraws too: plain redraws
    # (before) gave seat 0 a running hand in about 70% of the worlds played out.
    deal = Deal.shuffled(Rules(passing=False), random.Random(0), 0)
    for _ in range(18):
        deal.play(intermediate_play(view_of(deal, deal.to_act)))
    view = view_of(deal, deal.to_act)
    me = view.seat
    assert suspects(view) == ((0, 1.0, "sure"),)

    class NoRunner(Reader):
        def weight(self, hands: Sequence[int]) -> float:
            return 1.0 if can_run(tuple(hands), 0, me) else 1e9

    seen: list[bool] = []
    real = montecarlo.playout

    def spy(d: Deal, *args: object, **kwargs: object) -> None:
        seen.append(can_run(d.hands, 0, me))
        real(d, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(montecarlo, "Reader", NoRunner)
    monkeypatch.setattr(montecarlo, "playout", spy)
    montecarlo.evaluate_play(view, random.Random(1), playouts=300, reading=True, watch=True)
    assert len(seen) > 40
    assert sum(seen) / len(seen) < 0.25


def test_sharpness_zero_reads_nothing() -> None:
    deal = Deal.shuffled(Rules(passing=False), random.Random(5), 0)
    for _ in range(20):
        deal.play(intermediate_play(view_of(deal, deal.to_act)))
    view = view_of(deal, deal.to_act)
    know = Knowledge.of(view)
    flat = Reader.of(view, sharpness=0.0)
    sharp = Reader.of(view, sharpness=2.0)
    rng = random.Random(2)
    worlds = [sample_world(view, know, rng)[0] for _ in range(30)]
    assert all(flat.weight(h) == pytest.approx(1.0) for h in worlds)
    assert len({round(sharp.weight(h), 9) for h in worlds}) > 1


def test_training_learns_from_logged_openspiel_deals(tmp_path) -> None:
    # A log as benchmarks/bots_arena_log.py --moves writes it (here played by
    # our intermediate rule, so no OpenSpiel is needed): every seat's choices
    # are learned, and the deal is refereed again.
    path = tmp_path / "moves.jsonl"
    lines = [json.dumps({"head": {"seed": 7}})]
    choices = 0
    for base in range(2):
        _direction, hands = openspiel_deal(7, base)
        deal, _ = logged_deal(7, base, {"hands": [sorted(h) for h in hands], "passes": [], "plays": []})
        passes = []
        if deal.phase == PASS:
            for s in range(4):
                cards = sorted(intermediate_pass(view_of(deal, s)))
                passes.append(cards)
                deal.pass_cards(s, cards)
        plays = []
        while deal.phase != "done":
            view = view_of(deal, deal.to_act)
            legal = view.legal_mask()
            choices += bool(legal & (legal - 1))
            card = intermediate_play(view)
            plays.append([deal.to_act, card])
            deal.play(card)
        moves = {"hands": [sorted(h) for h in hands], "passes": passes, "plays": plays, "fallbacks": 0}
        lines.append(json.dumps({"outcomes": [{"base": base}], "moves": moves}))
    path.write_text("\n".join(lines) + "\n")
    data = from_logs([str(path)])
    assert len(data.plays) == choices and not data.passes
    out = tmp_path / "reading.json"
    tiny = ["--deals", "0", "--logs", str(path), "--epochs", "2", "--out", str(out)]
    assert train_main(tiny) == 0
    trained = json.loads(out.read_text())["trained"]
    assert trained["play"]["decisions"] == choices and trained["logs"] == ["moves.jsonl"]
    # A log of another run's deals is refused, not read as other cards.
    path.write_text(path.read_text().replace('"seed": 7', '"seed": 8'))
    with pytest.raises(ValueError, match="not the deal logged"):
        from_logs([str(path)])
