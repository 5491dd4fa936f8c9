"""OpenSpiel interop (skipped without open-spiel) and the AEC environment."""

from __future__ import annotations

import random

import pytest

from damepique.bots.aec import HeartsEnv
from damepique.engine import PRESETS, QS


def test_aec_cycle_with_random_agents():
    for preset in ("standard", "three_players_kitty", "five_players"):
        rules = PRESETS[preset]
        env = HeartsEnv(rules)
        env.reset(seed=1)
        rng = random.Random(2)
        steps = 0
        rewards = {}
        while env.agents:
            obs, reward, term, _trunc, info = env.last()
            if term:
                rewards[env.agent_selection] = reward
                env.step(None)
                continue
            mask = obs["action_mask"]
            assert len(obs["observation"]) == env.observation_space(env.agent_selection).shape[0]
            legal = [c for c, m in enumerate(mask) if m]
            assert legal == info["legal"]
            env.step(rng.choice(legal))
            steps += 1
        n = rules.players
        passing = rules.pass_count * n if env.deal.pass_offset % n else 0
        assert steps == rules.deck // n * n + passing
        assert abs(sum(rewards.values())) < 1e-9


def test_aec_against_our_bots():
    env = HeartsEnv(opponents={1: "intermediate", 2: "beginner", 3: "random"})
    env.reset(seed=5)
    while env.agents:
        _obs, _reward, term, _trunc, info = env.last()
        assert env.agent_selection == "seat_0" or term
        env.step(None if term else info["legal"][-1])


pyspiel = pytest.importorskip("pyspiel")

from damepique.bots.openspiel import (  # noqa: E402
    deal_from_spiel_state,
    from_spiel,
    play_openspiel_deal,
    spiel_bot,
    spiel_game,
    to_spiel,
)


def test_card_mapping():
    assert to_spiel(QS) == 43
    assert all(from_spiel(to_spiel(c)) == c for c in range(52))
    assert spiel_game().new_initial_state().action_to_string(1) == "Left"


def test_openspiel_bots_in_the_arena():
    points, _moon = play_openspiel_deal(
        ["intermediate", "openspiel-ismcts:20", "openspiel-mcts:20", "expert:playouts=30"], 1, 0
    )
    assert sum(points) in (26, 78)


def test_our_bots_as_openspiel_bots():
    game = spiel_game()
    bots = [
        spiel_bot("intermediate"),
        spiel_bot("expert:playouts=30"),
        spiel_bot("beginner"),
        spiel_bot("random"),
    ]
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
            continue
        deal = deal_from_spiel_state(state)
        if deal.phase == "play":
            assert deal.to_act == state.current_player()
            assert sorted(to_spiel(c) for c in deal.legal_cards()) == sorted(state.legal_actions())
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    final = deal_from_spiel_state(state)
    assert final.phase == "done"
