"""The PettingZoo environment (``damepique.pettingzoo``): PettingZoo's own
checks, every preset and option, hidden cards hidden, our bots in their
seats, whole games, the docs' example. Skipped without the ``rl`` extra."""

from __future__ import annotations

import pickle
import random
import warnings

import pytest

pytest.importorskip("pettingzoo", reason="the rl extra is not installed: pip install 'damepique[rl]'")

import numpy as np
from pettingzoo.test import api_test, seed_test

from damepique.engine import DONE, PASS, PRESETS, IllegalPass, IllegalPlay, Rules, cards_of, view_of
from damepique.pettingzoo import env, raw_env
from damepique.worlds import sample_world_history


@pytest.fixture(autouse=True)
def _quiet() -> None:
    # PettingZoo's checks warn about all-zero action masks of agents whose turn it is not.
    warnings.filterwarnings("ignore", module="pettingzoo")


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"players": 3},
        {"players": 5},
        {"preset": "three_players_kitty"},
        {"episode": "game", "target": 40},
    ],
    ids=["4 players", "3 players", "5 players", "kitty", "game"],
)
def test_pettingzoo_api_test(options: dict) -> None:  # type: ignore[type-arg]
    api_test(env(**options), num_cycles=1000)


@pytest.mark.parametrize("players", [4, 3, 5])
def test_pettingzoo_seed_test(players: int) -> None:
    seed_test(lambda: env(players=players), num_cycles=500)
    seed_test(lambda: env(players=players, opponents={1: "intermediate", 2: "beginner"}), num_cycles=500)


def _random_episode(e, seed: int) -> tuple[int, dict[str, float]]:  # type: ignore[no-untyped-def]
    """Plays one episode with random legal actions; returns the agents' steps
    and final rewards."""
    e.reset(seed=seed)
    rng = random.Random(seed)
    steps = 0
    rewards: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, _info = e.last()
        if term or trunc:
            rewards[agent] = reward
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) and obs["action_mask"].dtype == np.int8
        assert e.observation_space(agent)["observation"].contains(obs["observation"])
        e.step(int(rng.choice(legal)))
        steps += 1
    return steps, rewards


OPTIONS = [
    {"pass_cycle": "left"},
    {"pass_count": 2, "players": 3},
    {"passing": False},
    {"moon": "self", "jack_of_diamonds": True},
    {"moon": "off", "queen_points": 0},
    {"first_lead": "any", "must_break_hearts": False},
    {"queen_breaks_hearts": True, "no_points_first_trick": False},
    {"last_trick_points": 5, "players": 5, "leftover": "kitty"},
    {"deck": 36, "players": 3},
]


@pytest.mark.parametrize("options", [{"preset": p} for p in PRESETS] + OPTIONS, ids=str)
def test_every_preset_and_option_plays_out(options: dict) -> None:  # type: ignore[type-arg]
    e = env(**options)
    rules = e.unwrapped.rules
    n = rules.players
    assert e.possible_agents == [f"seat_{s}" for s in range(n)]
    steps, rewards = _random_episode(e, 7)
    deal = e.unwrapped._deal
    passes = rules.pass_count * n if deal.pass_offset % n else 0
    assert steps == rules.hand_size * n + passes
    assert sorted(rewards) == e.possible_agents
    assert abs(sum(rewards.values())) < 1e-9
    points = deal.result().points
    assert rewards["seat_0"] == pytest.approx((sum(points) - points[0]) / (n - 1) - points[0])


def test_rules_by_keyword_preset_or_value() -> None:
    assert raw_env(players=3, leftover="kitty").rules == PRESETS["three_players_kitty"]
    assert raw_env(preset="black_maria", target=50).rules == Rules(black_maria=True, target=50)
    assert raw_env(rules=Rules(players=5)).rules.players == 5
    with pytest.raises(ValueError, match="unknown rules key"):
        raw_env(colour="red")
    with pytest.raises(ValueError, match="unknown preset"):
        raw_env(preset="nope")
    with pytest.raises(ValueError, match="at least one"):
        raw_env(players=3, opponents={0: "random", 1: "random", 2: "random"})
    # EzPickle, as the classic games: vectorising wrappers pickle environments.
    again = pickle.loads(pickle.dumps(raw_env(players=3, opponents={1: "intermediate"}, episode="game")))
    assert again.rules.players == 3 and again.episode == "game"
    assert again.possible_agents == ["seat_0", "seat_2"]


def test_the_observation_is_the_seats_view_only() -> None:
    """At every decision of random episodes, a deal that differs only in cards
    the agent cannot see (a world drawn by damepique.worlds, checked to give
    the same view) gives the same observation."""
    rng = random.Random(3)
    checked = 0
    for preset in ("standard", "three_players_kitty", "five_players", "black_maria"):
        e = raw_env(preset=preset)
        e.reset(seed=11)
        while e.agents:
            agent = e.agent_selection
            if e.terminations[agent]:
                e.step(None)
                continue
            obs = e.observe(agent)
            deal = e._deal
            seat = int(agent.split("_")[1])
            view = view_of(deal, seat)
            count = deal.rules.pass_count
            done = seat * count + e.pending.bit_count() if deal.phase == PASS else None
            world = sample_world_history(view, rng, e.pending, done)
            other = world.replay(deal.rules, deal.number)
            assert view_of(other, seat) == view
            if other.hands != deal.hands:
                real = e._deal
                e._deal = other
                try:
                    again = e.observe(agent)
                finally:
                    e._deal = real
                assert np.array_equal(again["observation"], obs["observation"])
                assert np.array_equal(again["action_mask"], obs["action_mask"])
                checked += 1
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(rng.choice(legal)))
    assert checked > 100


def test_observation_blocks() -> None:
    e = raw_env(opponents={1: "intermediate", 2: "intermediate", 3: "intermediate"})
    e.reset(seed=4)
    enc = e.encoding
    at = enc.start
    while e.agents and not e.terminations["seat_0"]:
        obs = e.observe("seat_0")
        vec = obs["observation"]
        view = e.view("seat_0")
        pending = e.pending if view.phase == PASS else 0
        hand = {c for c in range(52) if vec[at("hand") + c]}
        assert hand == set(cards_of(view.hand & ~pending))
        chosen = {c for c in range(52) if vec[at("passed") + c]}
        assert chosen == set(cards_of((view.passed or 0) | pending))
        mask = set(np.flatnonzero(obs["action_mask"]))
        legal = view.hand & ~pending if view.phase == PASS else view.legal_mask()
        assert mask == set(cards_of(legal))
        trick = [c for c in range(52) for k in range(4) if vec[at("trick") + k * 52 + c]]
        assert sorted(trick) == sorted(view.trick)
        assert vec[at("to_act")] == 1.0  # it is this agent's turn
        e.step(int(min(mask)))


def test_illegal_actions() -> None:
    passing = raw_env()
    passing.reset(seed=1)
    for bad in (60, -1):
        with pytest.raises(IllegalPass):
            passing.step(bad)
    held = int(np.flatnonzero(passing.observe("seat_0")["action_mask"])[0])
    passing.step(held)
    with pytest.raises(IllegalPass):
        passing.step(held)  # already set aside for the pass
    raw = raw_env(passing=False)
    raw.reset(seed=1)
    mask = raw.observe(raw.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalPlay):
        raw.step(illegal)
    wrapped = env(passing=False)
    wrapped.reset(seed=1)
    agent = wrapped.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wrapped.step(illegal)
    assert all(wrapped.terminations.values())
    assert wrapped.rewards[agent] == -26.0


def test_our_bots_play_in_their_seats() -> None:
    from damepique.bots import get_bot

    e = env(opponents={1: "intermediate", 2: "expert:playouts=40", 3: "beginner"})
    assert e.possible_agents == ["seat_0"]
    ours = get_bot("intermediate")
    e.reset(seed=5)
    rng = random.Random(0)
    for agent in e.agent_iter():
        assert agent == "seat_0"
        _obs, _reward, term, _trunc, info = e.last()
        if term:
            assert info["points"] == list(e.unwrapped._deal.result().points)
            e.step(None)
            continue
        view = e.unwrapped.view(agent)
        if view.phase == PASS:
            card = sorted(set(ours.choose_pass(view, rng)) - set(cards_of(e.unwrapped.pending)))[0]
        else:
            card = ours.choose_play(view, rng)
        e.step(card)
    assert e.unwrapped._deal.phase == DONE
    assert sum(e.unwrapped.payoffs) == pytest.approx(0)


def test_same_seed_same_episode() -> None:
    def trace(seed: int) -> list[int]:
        e = raw_env(opponents={2: "intermediate"})
        e.reset(seed=seed)
        e.reset(seed=seed)  # a second reset with the seed starts again from it
        rng = random.Random(1)
        out = []
        while e.agents:
            if e.terminations[e.agent_selection]:
                e.step(None)
                continue
            card = int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])))
            out.append(card)
            e.step(card)
        out += [c for t in e._deal.tricks for c in t[1]]
        return out

    assert trace(9) == trace(9)
    assert trace(9) != trace(10)


def test_whole_games() -> None:
    e = raw_env(
        episode="game", target=30, opponents={1: "intermediate", 2: "intermediate", 3: "intermediate"}
    )
    e.reset(seed=2)
    rng = random.Random(2)
    deals_seen = set()
    totals_seen = False
    while e.agents:
        agent = e.agent_selection
        if e.terminations[agent]:
            assert e.infos[agent]["winner"] == e._match.winner
            assert e._cumulative_rewards[agent] == e.payoffs[0]
            e.step(None)
            continue
        obs = e.observe(agent)
        deals_seen.add(e._deal.number)
        totals_seen |= bool(obs["observation"][e.encoding.start("totals") :].any())
        assert e.rewards[agent] == 0.0
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert len(deals_seen) >= 2 and totals_seen and e._match.over
    totals = e._match.totals
    assert e.payoffs[0] == pytest.approx((sum(totals) - totals[0]) / 3 - totals[0])


def test_a_game_cut_short_is_truncated() -> None:
    e = raw_env(episode="game", max_deals=1)
    e.reset(seed=1)
    _random_episode(e, 1)
    e.reset(seed=1)
    rng = random.Random(1)
    while not any(e.truncations.values()):
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    assert not any(e.terminations.values())


def test_render_ansi() -> None:
    e = env(render_mode="ansi", players=3, opponents={2: "random"})
    e.reset(seed=1)
    text = e.render()
    assert text.startswith("deal 0, pass, passing left") and "seat 2 (random)" in text
    with pytest.warns(UserWarning, match="render_mode"):
        assert raw_env().render() is None
