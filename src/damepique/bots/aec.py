"""A PettingZoo-style AEC environment for people who train agents.

It mimics PettingZoo's ``AECEnv`` API (``agents``, ``possible_agents``,
``agent_selection``, ``reset``, ``step``, ``observe``, ``last``, ``rewards``,
``terminations``, ``truncations``, ``infos``, ``action_space``,
``observation_space``) with no dependency on pettingzoo, gymnasium or numpy:
spaces are small objects with ``n`` / ``shape``, observations plain lists.

One episode is one deal under any ``Rules``. An action is a card (0..51, our
``suit * 13 + rank``); during the pass phase the acting agent gives one card
per step, ``rules.pass_count`` steps in a row. Illegal actions raise
``IllegalPlay``/``IllegalPass`` (use the ``action_mask``). The reward, given
when the deal ends, is the payoff: the mean of the others' points minus one's
own. ``opponents`` may seat our bots so that a single agent trains against
them: those seats then act inside ``step``.

>>> env = HeartsEnv(opponents={1: "intermediate", 2: "intermediate", 3: "intermediate"})
>>> env.reset(seed=3)
>>> while env.agents:
...     obs, reward, term, trunc, info = env.last()
...     env.step(None if term else info["legal"][0])
>>> sorted(env.rewards) == sorted(env.possible_agents)
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar

from damepique.engine import DONE, PASS, Deal, Rules, View, cards_of, view_of

from .registry import get_bot


@dataclass(frozen=True)
class Discrete:
    """Like ``gymnasium.spaces.Discrete``."""

    n: int

    def contains(self, x: object) -> bool:
        return isinstance(x, int) and 0 <= x < self.n


@dataclass(frozen=True)
class Box:
    """Like ``gymnasium.spaces.Box`` of 0/1 floats."""

    shape: tuple[int, ...]
    low: float = 0.0
    high: float = 1.0


def encode(view: View) -> list[float]:
    """A flat 0/1 vector of what the seat knows, rotated so the agent is seat 0:
    hand (52), current trick by position from the agent (n x 52), cards played
    by each seat (n x 52), cards passed (52) and received (52), voids (n x 4),
    points taken / 26 (n), phase pass/play (2), hearts broken (1)."""
    n = view.rules.players
    me = view.seat

    def bits(mask: int) -> list[float]:
        return [float(mask >> c & 1) for c in range(52)]

    out = bits(view.hand)
    for k in range(n):
        seat = (me + k) % n
        m = 0
        for i, c in enumerate(view.trick):
            if (view.trick_leader + i) % n == seat:
                m |= 1 << c
        out += bits(m)
    for k in range(n):
        out += bits(view.played_by((me + k) % n))
    out += bits(view.passed or 0)
    out += bits(view.received or 0)
    for k in range(n):
        v = view.voids[(me + k) % n]
        out += [float(bool(v & (0x1FFF << (13 * s)))) for s in range(4)]
    out += [p / 26.0 for p in (view.taken_points[(me + k) % n] for k in range(n))]
    out += [float(view.phase == PASS), float(view.phase != PASS)]
    out.append(float(view.hearts_broken))
    return out


class HeartsEnv:
    """One deal of Hearts as an agent-environment cycle (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"name": "damepique_hearts_v0", "is_parallelizable": False}

    def __init__(self, rules: Rules | None = None, opponents: dict[int, str] | None = None) -> None:
        self.rules = rules or Rules()
        n = self.rules.players
        self.possible_agents = [f"seat_{s}" for s in range(n)]
        self.opponents = {s: get_bot(name) for s, name in (opponents or {}).items()}
        self._obs_size = len(encode(view_of(Deal.shuffled(self.rules, random.Random(0)), 0)))
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]
        self.deal: Deal | None = None
        self._pending: list[int] = []
        self._rng = random.Random(0)

    # -- spaces ---------------------------------------------------------------------

    def action_space(self, agent: str) -> Discrete:
        return Discrete(52)

    def observation_space(self, agent: str) -> Box:
        return Box((self._obs_size,))

    # -- the cycle ------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._rng = random.Random(seed)
        number = int((options or {}).get("deal_number", 0))
        self.deal = Deal.shuffled(self.rules, self._rng, number)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._pending = []
        self._advance()

    def _seat_to_act(self) -> int:
        deal = self.deal
        assert deal is not None
        if deal.phase == PASS:
            return deal.passing_seats[0]
        return deal.to_act

    def _advance(self) -> None:
        """Let our bots act for their seats, then select the next agent."""
        deal = self.deal
        assert deal is not None
        while deal.phase != DONE:
            seat = self._seat_to_act()
            bot = self.opponents.get(seat)
            if bot is None:
                break
            view = view_of(deal, seat)
            if deal.phase == PASS:
                deal.pass_cards(seat, bot.choose_pass(view, self._rng))
            else:
                deal.play(bot.choose_play(view, self._rng), seat)
        if deal.phase == DONE:
            points = deal.result().points
            n = len(points)
            for s, a in enumerate(self.possible_agents):
                r = (sum(points) - points[s]) / (n - 1) - points[s]
                self.rewards[a] = r
                self._cumulative_rewards[a] += r
                self.terminations[a] = True
            # Every agent sees its final reward through last() once, then leaves.
            self.agent_selection = self.agents[0] if self.agents else self.agent_selection
        else:
            self.agent_selection = self.possible_agents[self._seat_to_act()]
        for a in self.agents:
            self.infos[a] = self._info(a)

    def _info(self, agent: str) -> dict[str, Any]:
        deal = self.deal
        assert deal is not None
        seat = self.possible_agents.index(agent)
        view = view_of(deal, seat)
        return {"legal": list(cards_of(self._mask(seat))), "view": view}

    def _mask(self, seat: int) -> int:
        deal = self.deal
        assert deal is not None
        if deal.phase == PASS:
            if deal.passes[seat] is None and self._seat_to_act() == seat:
                pending = 0
                for c in self._pending:
                    pending |= 1 << c
                return deal.hands[seat] & ~pending
            return 0
        if deal.phase == DONE or deal.to_act != seat:
            return 0
        return deal.legal_mask()

    def action_mask(self, agent: str) -> list[int]:
        """1 for each card the agent may choose now."""
        mask = self._mask(self.possible_agents.index(agent))
        return [mask >> c & 1 for c in range(52)]

    def observe(self, agent: str) -> dict[str, Any]:
        deal = self.deal
        assert deal is not None
        seat = self.possible_agents.index(agent)
        return {"observation": encode(view_of(deal, seat)), "action_mask": self.action_mask(agent)}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        a = self.agent_selection
        obs = self.observe(a) if observe else None
        return obs, self._cumulative_rewards[a], self.terminations[a], self.truncations[a], self.infos[a]

    def step(self, action: int | None) -> None:
        deal = self.deal
        assert deal is not None
        agent = self.agent_selection
        if self.terminations.get(agent):
            # A finished agent steps with None to leave, as in PettingZoo.
            self.agents.remove(agent)
            self._cumulative_rewards[agent] = 0.0
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        assert action is not None
        seat = self.possible_agents.index(agent)
        for a in self.agents:
            self._cumulative_rewards[a] = 0.0
        if deal.phase == PASS:
            if not self._mask(seat) >> action & 1:
                from damepique.engine import IllegalPass

                raise IllegalPass(f"seat {seat} may not give card {action} now", seat, action)
            self._pending.append(action)
            if len(self._pending) == self.rules.pass_count:
                cards, self._pending = self._pending, []
                deal.pass_cards(seat, cards)
        else:
            deal.play(action, seat)
        self._advance()

    def render(self) -> str:
        return repr(self.deal)

    def close(self) -> None:
        pass
