"""The observation encoding (``damepique.observation``, standard library only):
its blocks hold what the view says, and docs/environments.md's table is its layout."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from damepique.bots import get_bot
from damepique.bots.arena import play_deal
from damepique.engine import PASS, PRESETS, Deal, view_of
from damepique.observation import Encoding

DOC = Path(__file__).resolve().parents[2] / "docs" / "environments.md"


def test_the_docs_table_is_the_layout() -> None:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## The observation") : text.index("## The OpenSpiel game")]
    rows = re.findall(r"^\| `(\w+)` \| ([^|]+) \|", section, re.M)
    enc = Encoding(PRESETS["five_players"])
    sizes = {"52": 52, "n × 52": 5 * 52, "n × 4": 20, "n": 5, "2": 2, "1": 1}
    assert [(name, sizes[size.strip()]) for name, size in rows] == [(f.name, f.size) for f in enc.fields]
    for n, size in ((3, 553), (4, 667), (5, 781)):
        assert Encoding(PRESETS["standard"].replace(players=n)).size == size == 211 + 114 * n


@pytest.mark.parametrize("preset", list(PRESETS))
def test_blocks_follow_the_view(preset: str) -> None:
    rules = PRESETS[preset]
    n = rules.players
    enc = Encoding(rules)
    deal = Deal.shuffled(rules, random.Random(preset), 1)
    bots = [get_bot("intermediate")] * n
    checked = 0

    def check(d: Deal) -> None:
        nonlocal checked
        for seat in range(n):
            view = view_of(d, seat, totals=[5 * s for s in range(n)])
            vec = enc.dense(view)
            assert len(vec) == enc.size
            assert all(lo <= x <= hi for x, lo, hi in zip(vec, enc.low, enc.high, strict=True))
            at = enc.start
            assert sum(vec[at("hand") : at("hand") + 52]) == view.hand.bit_count()
            played = vec[at("played") : at("played") + n * 52]
            for k in range(n):
                mine = sum(played[k * 52 : (k + 1) * 52])
                assert mine == view.played_by((seat + k) % n).bit_count()
            assert vec[at("points") + 0] == pytest.approx(view.taken_points[seat] / rules.moon_points)
            assert vec[at("totals") + 1] == pytest.approx(min(5 * ((seat + 1) % n) / rules.target, 2.0))
            assert vec[at("phase")] == (view.phase == PASS)
            checked += 1

    check(deal)
    play_deal(deal, bots, [random.Random(s) for s in range(n)], on_trick=check)
    assert checked >= n * rules.hand_size
