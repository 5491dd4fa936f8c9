"""The expert's search: racing drops only clearly worse candidates and never
plays one, the options parse, and the moon-defence model lets a would-be
shooter run in the play-outs."""

from __future__ import annotations

import random
import re

import pytest

from damepique.bots import montecarlo
from damepique.bots.montecarlo import ExpertBot, candidate_passes, evaluate_pass, evaluate_play
from damepique.bots.registry import get_bot
from damepique.bots.tactics import moon_threat
from damepique.engine import PASS, Rules, view_of


def _play_views(make_positions, seed, count):
    out = []
    for deal, seat in make_positions(Rules(), seed, count):
        view = view_of(deal, seat)
        if view.phase != PASS and view.legal_mask().bit_count() >= 3:
            out.append(view)
    return out


def test_without_racing_every_candidate_gets_every_world(make_positions):
    for view in _play_views(make_positions, 61, 20)[:8]:
        stats, groups, _mode = evaluate_play(view, random.Random(1), playouts=80)
        counts = {len(st.utility) for st in stats.values()}
        assert len(counts) == 1
        assert not any(st.dropped for st in stats.values())
        assert len(stats) == len(groups)


def test_racing_drops_only_worse_candidates_and_never_chooses_one(make_positions):
    dropped_somewhere = False
    for view in _play_views(make_positions, 62, 30)[:12]:
        stats, _groups, _mode = evaluate_play(view, random.Random(2), playouts=300, race=True)
        live = [st for st in stats.values() if not st.dropped]
        assert live, "the leader is never dropped"
        full = max(len(st.utility) for st in stats.values())
        # The candidates still racing saw every world; a dropped one fewer
        # (or as many, when the check that dropped it was the last).
        assert all(len(st.utility) == full for st in live)
        for st in stats.values():
            if st.dropped:
                dropped_somewhere = True
                assert montecarlo.RACE_START <= len(st.utility) <= full
                assert st.mean > min(x.mean for x in live)
        card = montecarlo.choose_from(stats, _groups)
        assert not stats[card].dropped
    assert dropped_somewhere, "racing should drop some hopeless card in a dozen positions"


def test_racing_passes(make_positions):
    rules = Rules()
    for deal, seat in make_positions(rules, 63, 40):
        view = view_of(deal, seat)
        if view.phase != PASS or deal.passes[seat] is not None:
            continue
        cands = candidate_passes(view)
        stats = evaluate_pass(view, random.Random(3), cands, playouts=300, race=True)
        assert any(not st.dropped for st in stats.values())
        chosen = ExpertBot(playouts=300).choose_pass(view, random.Random(3))
        assert len(chosen) == rules.pass_count
        assert all(view.hand >> c & 1 for c in chosen)


def test_expert_options():
    bot = get_bot("expert:playouts=50,race=0,defend=0,infer=0")
    assert isinstance(bot, ExpertBot)
    assert (bot.playouts, bot.race, bot.defend, bot.infer) == (50, False, False, False)
    default = get_bot("expert")
    assert (default.race, default.defend, default.infer) == (True, True, True)
    with pytest.raises(ValueError, match=re.escape("race takes 0 or 1, not 'yes'")):
        get_bot("expert:race=yes")
    with pytest.raises(ValueError, match=re.escape("unknown expert option 'defence'")):
        get_bot("expert:defence=1")


def _threat_views(make_positions, count):
    out = []
    for deal, seat in make_positions(Rules(), 64, 600):
        view = view_of(deal, seat)
        if view.phase == PASS:
            continue
        threat = moon_threat(view)
        if threat is not None and threat != seat and view.legal_mask().bit_count() >= 2:
            out.append(view)
        if len(out) >= count:
            break
    return out


def test_moon_defence_model_lets_the_rival_run(make_positions):
    """With ``defend`` the seat that took every point keeps running for the
    moon in the play-outs, so the search sees moons it could concede; without
    it the play-out policy has that seat duck like everyone else."""
    views = _threat_views(make_positions, 6)
    assert views, "random deals often leave one seat with every point"
    on = off = 0
    for view in views:
        for defend, _ in ((True, 0), (False, 1)):
            stats, _g, _m = evaluate_play(view, random.Random(5), playouts=120, defend=defend)
            conceded = sum(st.conceded for st in stats.values())
            if defend:
                on += conceded
            else:
                off += conceded
    assert on > off
