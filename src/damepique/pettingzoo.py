"""Hearts as a PettingZoo environment (the ``rl`` extra: ``pip install
'damepique[rl]'``, which brings pettingzoo, gymnasium and numpy).

It follows PettingZoo's classic games (``pettingzoo.classic.tictactoe_v3``,
``chess_v6``): ``env(**options)`` is ``raw_env(**options)`` wrapped as they
wrap theirs (an illegal action ends the episode with ``illegal_reward`` for
the agent that made it; actions out of bounds raise; calls out of order
raise), the observation is ``{"observation": ..., "action_mask": ...}``, the
reward comes at the end, ``render_mode="ansi"`` renders text.

- **Rules**: every rules key as a keyword (``env(players=3,
  leftover="kitty")``), a preset by name (``env(preset="black_maria",
  target=50)``) or a ``Rules`` (``env(rules=Rules(players=5))``): 3 to 5
  seats, every option of ``docs/rules.md``.
- **Episodes**: ``episode="deal"`` (the default) plays one deal,
  ``episode="game"`` a whole game to the target (the totals are in the
  observation; ``max_deals`` truncates a game that runs longer).
- **Agents**: ``seat_0`` .. ``seat_{n-1}``, minus the seats given to our bots
  by ``opponents={1: "expert", 2: "intermediate", 3: "intermediate"}`` (any
  name of ``damepique.bots.get_bot``, or a bot): those play inside ``step``,
  from their own view, with generators drawn from the seed.
- **Actions**: ``Discrete(52)``, a card (our ``suit * 13 + rank``). In the
  pass phase the agent gives one card per step (``pass_count`` steps), the
  cards set aside until its pass is complete; seats pass in seat order.
- **Observations**: the seat's view only, as ``damepique.observation``
  encodes it (float32; ``docs/environments.md`` has the table), and an int8
  ``action_mask`` of the cards it may choose now (all zeros when it is not
  its turn).
- **Rewards**: 0 until the episode ends, then the payoff: the mean of the
  others' points minus one's own (of the deal, or the game's totals). They add
  up to 0 over the seats.
- **Seeds**: ``reset(seed=s)`` makes the deals and our bots' choices the same
  again; ``reset()`` goes on to new deals.

>>> e = env(opponents={1: "intermediate", 2: "intermediate", 3: "intermediate"})
>>> e.reset(seed=3)
>>> for agent in e.agent_iter():
...     observation, reward, termination, truncation, info = e.last()
...     e.step(None if termination else int(observation["action_mask"].argmax()))
>>> e.possible_agents, reward == e.unwrapped.payoffs[0]
(['seat_0'], True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from gymnasium.utils import EzPickle
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as e:  # pragma: no cover - depends on the install
    raise ImportError(f"damepique.pettingzoo needs PettingZoo ({e}): pip install 'damepique[rl]'") from e

from damepique.bots import Bot, get_bot
from damepique.engine import (
    CARD_NAMES,
    DONE,
    PASS,
    PRESETS,
    Deal,
    IllegalPass,
    Match,
    Rules,
    View,
    cards_of,
    direction_name,
    view_of,
)
from damepique.observation import Encoding

__all__ = ["env", "raw_env"]

EPISODES = ("deal", "game")

Observation = dict[str, np.ndarray]


def env(illegal_reward: float | None = None, **options: Any) -> AECEnv:
    """``raw_env(**options)`` wrapped as PettingZoo's classic games are.
    ``illegal_reward``: what an agent gets for an illegal action, which ends
    the episode (default: minus the points of a moon for a deal, minus the
    target and a moon for a game)."""
    inner = raw_env(**options)
    if illegal_reward is None:
        illegal_reward = inner.worst_reward
    wrapped: AECEnv = wrappers.TerminateIllegalWrapper(inner, illegal_reward=illegal_reward)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def _rules(preset: str | None, rules: Rules | None, options: Mapping[str, Any]) -> Rules:
    if rules is not None:
        if preset is not None or options:
            raise ValueError("give rules=Rules(...) or a preset and rules keys, not both")
        return rules
    if preset is not None and preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}; known: {', '.join(PRESETS)}")
    base = PRESETS[preset or "standard"].to_json()
    base.update(options)
    return Rules.from_json(base)


class raw_env(AECEnv, EzPickle):  # type: ignore[misc]  # PettingZoo ships no types
    """Hearts for agents taking turns (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "damepique_hearts_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        preset: str | None = None,
        *,
        rules: Rules | None = None,
        episode: str = "deal",
        opponents: Mapping[int, str | Bot] | None = None,
        max_deals: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        EzPickle.__init__(
            self,
            preset,
            rules=rules,
            episode=episode,
            opponents=opponents,
            max_deals=max_deals,
            render_mode=render_mode,
            **options,
        )
        super().__init__()
        self.rules = _rules(preset, rules, options)
        n = self.rules.players
        if episode not in EPISODES:
            raise ValueError(f"episode must be 'deal' or 'game', not {episode!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        if max_deals is not None and max_deals < 1:
            raise ValueError(f"max_deals must be at least 1, not {max_deals}")
        self.episode = episode
        self.render_mode = render_mode
        self.max_deals = max_deals
        self.bots: dict[int, Bot] = {}
        for seat, bot in (opponents or {}).items():
            if not isinstance(seat, int) or not 0 <= seat < n:
                raise ValueError(f"opponents: there is no seat {seat!r} with {n} players")
            self.bots[seat] = get_bot(bot) if isinstance(bot, str) else bot
        self.seats = [s for s in range(n) if s not in self.bots]
        if not self.seats:
            raise ValueError("every seat is given to a bot: leave at least one to an agent")
        self.possible_agents = [f"seat_{s}" for s in self.seats]
        self._seat_of = {a: s for a, s in zip(self.possible_agents, self.seats, strict=True)}
        self.encoding = Encoding(self.rules)
        box = spaces.Box(
            low=np.array(self.encoding.low, np.float32),
            high=np.array(self.encoding.high, np.float32),
            dtype=np.float32,
        )
        mask = spaces.Box(low=0, high=1, shape=(52,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": box, "action_mask": mask}) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(52) for a in self.possible_agents}
        if episode == "deal":
            self.worst_reward = -float(self.rules.moon_points)
        else:
            self.worst_reward = -float(self.rules.target + self.rules.moon_points)
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]
        self.payoffs: list[float] = [0.0] * n
        """Every seat's reward at the end of the last episode, bots' seats included."""
        self._rng: random.Random | None = None
        self._bot_rngs: dict[int, random.Random] = {}
        self._match = Match(self.rules)
        self._deal: Deal | None = None
        self._pending = 0

    # -- spaces -----------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the cycle --------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self._rng is None:
            # No seed at the first reset: the system's entropy, as gymnasium does.
            self._rng = random.Random(seed)
        rng = self._rng
        self._bot_rngs = {s: random.Random(rng.getrandbits(64)) for s in self.bots}
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.payoffs = [0.0] * self.rules.players
        self._match = Match(self.rules)
        self._new_deal()
        self._advance()

    def _new_deal(self) -> None:
        assert self._rng is not None
        deal = Deal.shuffled(self.rules, self._rng, len(self._match.deals))
        self._match.deals.append(deal)
        self._deal = deal
        self._pending = 0

    def _seat_to_act(self, deal: Deal) -> int:
        return deal.passing_seats[0] if deal.phase == PASS else deal.to_act

    def _advance(self) -> None:
        """Our bots play their turns; then the next agent is selected, or the
        episode ends."""
        deal = self._deal
        assert deal is not None
        while True:
            if deal.phase == DONE:
                if self.episode == "deal" or self._match.over:
                    self._finish(truncated=False)
                    return
                if self.max_deals is not None and len(self._match.deals) >= self.max_deals:
                    self._finish(truncated=True)
                    return
                self._new_deal()
                deal = self._deal
                assert deal is not None
                continue
            seat = self._seat_to_act(deal)
            bot = self.bots.get(seat)
            if bot is None:
                self.agent_selection = f"seat_{seat}"
                return
            view = view_of(deal, seat, self._totals())
            if deal.phase == PASS:
                deal.pass_cards(seat, bot.choose_pass(view, self._bot_rngs[seat]))
            else:
                deal.play(bot.choose_play(view, self._bot_rngs[seat]), seat)

    def _totals(self) -> list[int]:
        return self._match.totals if self.episode == "game" else []

    def _finish(self, truncated: bool) -> None:
        n = self.rules.players
        if self.episode == "game":
            points = self._match.totals
        else:
            assert self._deal is not None
            points = list(self._deal.result().points)
        total = sum(points)
        self.payoffs = [(total - p) / (n - 1) - p for p in points]
        info: dict[str, Any] = {"points": points}
        if self.episode == "game":
            info["winner"] = self._match.winner
        for agent in self.agents:
            self.rewards[agent] = self.payoffs[self._seat_of[agent]]
            self.infos[agent] = dict(info)
            if truncated:
                self.truncations[agent] = True
            else:
                self.terminations[agent] = True
        self._accumulate_rewards()
        self.agent_selection = self.agents[0]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: step(None) is only for an agent whose episode is over")
        deal = self._deal
        assert deal is not None
        seat = self._seat_of[agent]
        card = int(action)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if deal.phase == PASS:
            if not (0 <= card < 52 and self._mask(seat) >> card & 1):
                name = CARD_NAMES[card] if 0 <= card < 52 else repr(action)
                raise IllegalPass(f"seat {seat} cannot give {name} now", seat, card)
            self._pending |= 1 << card
            if self._pending.bit_count() == self.rules.pass_count:
                pending, self._pending = self._pending, 0
                deal.pass_cards(seat, pending)
        else:
            deal.play(card, seat)  # raises IllegalPlay with the reason for an illegal card
        self._advance()

    # -- what an agent sees -------------------------------------------------------------

    def _mask(self, seat: int) -> int:
        deal = self._deal
        assert deal is not None
        if deal.phase == PASS:
            if self._seat_to_act(deal) == seat:
                return deal.hands[seat] & ~self._pending
            return 0
        if deal.phase == DONE or deal.to_act != seat:
            return 0
        return deal.legal_mask()

    def view(self, agent: str) -> View:
        """The agent's ``View``, what our bots decide from (its pass, while
        being chosen card by card, is not in it: see ``pending``)."""
        assert self._deal is not None
        return view_of(self._deal, self._seat_of[agent], self._totals())

    @property
    def pending(self) -> int:
        """The cards (a mask) the seat to pass has chosen so far."""
        return self._pending

    def observe(self, agent: str) -> Observation:
        seat = self._seat_of[agent]
        deal = self._deal
        assert deal is not None
        pending = self._pending if deal.phase == PASS and self._seat_to_act(deal) == seat else 0
        ones, values = self.encoding.sparse(self.view(agent), pending)
        observation = np.zeros(self.encoding.size, np.float32)
        observation[ones] = 1.0
        for i, v in values:
            observation[i] = v
        action_mask = np.zeros(52, np.int8)
        action_mask[list(cards_of(self._mask(seat)))] = 1
        return {"observation": observation, "action_mask": action_mask}

    # -- rendering --------------------------------------------------------------------

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode: env(render_mode='ansi')")
            return None
        deal = self._deal
        if deal is None:
            return "no deal yet: call reset()"
        n = self.rules.players
        lines = [
            f"deal {deal.number}, {deal.phase}, passing {direction_name(deal.pass_offset, n)}"
            + (f", totals {self._match.totals}" if self.episode == "game" else "")
        ]
        for s in range(n):
            who = f"seat_{s}" if s in self.seats else f"seat {s} ({getattr(self.bots[s], 'name', 'bot')})"
            hand = " ".join(CARD_NAMES[c] for c in cards_of(deal.hands[s]))
            lines.append(f"  {who}: {hand}  [{deal.taken_points[s]} points]")
        if deal.trick:
            played = " ".join(
                f"{(deal.trick_leader + i) % n}:{CARD_NAMES[c]}" for i, c in enumerate(deal.trick)
            )
            lines.append(f"  trick: {played}")
        if deal.phase == DONE:
            lines.append(f"  points: {list(deal.result().points)}")
        return "\n".join(lines)

    def close(self) -> None:
        pass
