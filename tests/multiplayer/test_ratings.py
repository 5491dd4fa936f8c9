"""Elo arithmetic against hand-worked examples."""

from __future__ import annotations

import pytest

from damepique.server.accounts.leavers import barred_until
from damepique.server.accounts.ratings import expected_score, pair_score, update_ratings


def test_two_equal_players_plain_elo() -> None:
    # expected 0.5 each; K = 32, one opponent: 32 * (1 - 0.5) = 16.
    new = update_ratings({"lea": 1500, "tom": 1500}, {"lea": 40, "tom": 90})
    assert new == {"lea": 1516.0, "tom": 1484.0}


def test_four_humans_with_a_tie_for_second() -> None:
    # K/(n-1) = 32/3 per pair. A beats B, C, D: 3 * 0.5 * 32/3 = +16.
    # B: loses to A (-0.5), draws C (0), beats D (+0.5): no change. D: -16.
    new = update_ratings({"a": 1500, "b": 1500, "c": 1500, "d": 1500}, {"a": 10, "b": 20, "c": 20, "d": 30})
    assert new["a"] == pytest.approx(1516.0)
    assert new["b"] == pytest.approx(1500.0)
    assert new["c"] == pytest.approx(1500.0)
    assert new["d"] == pytest.approx(1484.0)


def test_underdog_wins() -> None:
    # E(A) = 1 / (1 + 10^((1400-1600)/400)) = 0.759747; A loses: 32 * -0.759747 = -24.312.
    assert expected_score(1600, 1400) == pytest.approx(0.759747, abs=1e-6)
    new = update_ratings({"a": 1600, "b": 1400}, {"a": 80, "b": 60})
    assert new["a"] == pytest.approx(1575.688, abs=1e-3)
    assert new["b"] == pytest.approx(1424.312, abs=1e-3)


def test_a_player_who_left_loses_even_with_the_lowest_total() -> None:
    new = update_ratings({"a": 1500, "b": 1500}, {"a": 10, "b": 50}, left={"a"})
    assert new == {"a": 1484.0, "b": 1516.0}


def test_two_who_left_draw_with_each_other() -> None:
    assert pair_score(10, 50, a_left=True, b_left=True) == 0.5
    new = update_ratings({"a": 1500, "b": 1500, "c": 1500}, {"a": 0, "b": 5, "c": 90}, left={"a", "b"})
    # a and b draw each other, both lose to c: each -0.5 * 16 = -8, c +16.
    assert new["a"] == pytest.approx(1492.0)
    assert new["b"] == pytest.approx(1492.0)
    assert new["c"] == pytest.approx(1516.0)


def test_alone_with_bots_is_not_rated() -> None:
    assert update_ratings({"a": 1620}, {"a": 30}) == {"a": 1620.0}


def test_ratings_are_conserved_and_new_players_start_at_1500() -> None:
    new = update_ratings({}, {"x": 70, "y": 20, "z": 45})
    assert sum(new.values()) == pytest.approx(4500.0)
    assert new["y"] > new["z"] > new["x"]


def test_a_leaver_takes_last_place_for_the_rating_whatever_their_total() -> None:
    # Three at 1500 (E = 0.5 each pair), K/(n-1) = 16 a pair. Ann left with the
    # lowest total (10): she loses to both, 2 * 16 * (0 - 0.5) = -16. Ben (50)
    # beats Ann (+8) and Cid (+8): +16. Cid (60) beats Ann (+8), loses to Ben (-8): 0.
    new = update_ratings(
        {"ann": 1500, "ben": 1500, "cid": 1500}, {"ann": 10, "ben": 50, "cid": 60}, left={"ann"}
    )
    assert new == {"ann": 1484.0, "ben": 1516.0, "cid": 1500.0}
    # Had she stayed, her 10 would have won: +16, and Ben and Cid each lose 8 more.
    stayed = update_ratings({"ann": 1500, "ben": 1500, "cid": 1500}, {"ann": 10, "ben": 50, "cid": 60})
    assert stayed == {"ann": 1516.0, "ben": 1500.0, "cid": 1484.0}


def test_leaving_three_ranked_games_in_a_day_bars_quick_ranked_play_for_an_hour() -> None:
    day, hour = 24 * 3600.0, 3600.0
    assert barred_until([], 0.0) is None
    assert barred_until([10.0, 20.0], 30.0) is None
    assert barred_until([10.0, 20.0, 30.0], 30.0) == 30.0 + hour
    assert barred_until([10.0, 20.0, 30.0], 30.0 + hour) is None
    # A leave a whole day old no longer counts.
    assert barred_until([0.0, 20.0, 30.0], day) is None
    assert barred_until([1.0, 20.0, day - 10], day - 10) == day - 10 + hour
