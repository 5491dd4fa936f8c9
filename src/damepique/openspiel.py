"""Every variant of damepique as an OpenSpiel game (the ``openspiel`` extra).

Importing this module registers ``python_damepique_hearts`` with
``pyspiel.register_game``; its parameters are our rules keys (and ``preset``)::

    import pyspiel
    import damepique.openspiel  # registers the game
    game = pyspiel.load_game("python_damepique_hearts", {"players": 3, "leftover": "kitty"})

so OpenSpiel's algorithms (MCTS, IS-MCTS in
``open_spiel.python.algorithms.ismcts``, outcome-sampling MCCFR, ...) play
3 to 5 players, the kitty, Black Maria, Omnibus and the 36-card deck, which
OpenSpiel's own ``hearts`` does not have. This module is the only one that
imports ``pyspiel`` for it (``bots/openspiel.py`` adapts OpenSpiel's C++
Hearts and its bots to our arena; this is the other direction).

One game is **one deal**:

1. a chance node draws the deal's number modulo the length of the pass cycle
   (and of the seats, which the first lead of ``first_lead="any"`` turns
   on): it sets the pass direction;
2. chance deals the cards one at a time (action = card, ``suit * 13 +
   rank``): card ``i`` to seat ``i % players``, then the kitty;
3. each seat in turn, seat 0 first, passes its cards one action at a time
   (as in OpenSpiel's Hearts), the cards changing hands once every seat
   has passed;
4. the play, one card per action, refereed by our ``Deal``.

The returns are the payoff: the mean of the others' points minus one's own
(zero-sum). Information states are perfect recall (the seat's dealt hand,
its pass, what it received, the kitty once shown, every card played and the
first leader); observations are the seat's view as ``damepique.observation``
encodes it (the PettingZoo environment's observation, in single deals).
``resample_from_infostate`` deals the cards a seat has not seen under what it
can infer (voids, passed cards, first-trick and heart-lead rules: see
``bots/knowledge.py``) and replays the history, so every sample is a deal
that could be the real one.

The arena seats OpenSpiel's Python IS-MCTS on any rules as ``ismcts-py:SIMS``
(``ismcts_bot``, a ``damepique.bots`` entry point): it searches from a state
built from its seat's view only.

>>> import pyspiel
>>> game = pyspiel.load_game("python_damepique_hearts", {"players": 3})
>>> game.num_players(), game.num_distinct_actions()
(3, 52)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

try:
    import numpy as np
    import pyspiel
except ImportError as e:  # pragma: no cover - depends on the install
    raise ImportError(f"damepique.openspiel needs OpenSpiel ({e}): pip install 'damepique[openspiel]'") from e

from damepique.engine import (
    CARD_NAMES,
    DONE,
    JD,
    PASS,
    PRESETS,
    Deal,
    Rules,
    View,
    cards_of,
    direction_name,
    view_of,
)
from damepique.engine.rules import EXTRA_KEYS, SPEC_KEYS
from damepique.observation import Encoding
from damepique.worlds import sample_world_history

SHORT_NAME = "python_damepique_hearts"
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)

_DEFAULTS = Rules().to_json()
_DEFAULTS.update({k: getattr(Rules(), k) for k in EXTRA_KEYS})
_PARAMETERS: dict[str, Any] = {"preset": "", **{k: _DEFAULTS[k] for k in (*SPEC_KEYS, *EXTRA_KEYS)}}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="damepique Hearts (every variant, one deal)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMETERS,
)


def rules_of(params: dict[str, Any]) -> Rules:
    """Our rules from the game's parameters. With a ``preset``, a key left at
    its default value keeps the preset's (OpenSpiel hands the game every
    parameter, given or not)."""
    params = dict(params)
    preset = params.pop("preset", "") or ""
    if not preset:
        return Rules.from_json(params)
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}; known: {', '.join(PRESETS)}")
    base = {**_DEFAULTS, **PRESETS[preset].to_json()}
    base.update({k: v for k, v in params.items() if v != _DEFAULTS.get(k)})
    return Rules.from_json(base)


def parameters_of(rules: Rules) -> dict[str, Any]:
    """The game's parameters for ``rules`` (every key)."""
    return {k: getattr(rules, k) for k in (*SPEC_KEYS, *EXTRA_KEYS)}


def cycle_length(rules: Rules) -> int:
    """How many deal numbers the chance node draws from: the pass cycle's
    length and the seats' (the leader of ``first_lead="any"``), least common multiple."""
    return math.lcm(len(rules.pass_offsets), rules.players)


def payoff_bounds(rules: Rules) -> tuple[float, float]:
    """Bounds of a seat's payoff (mean of the others' points minus its own):
    a seat's points lie in [lo, hi], so the payoff lies in [lo - hi, hi - lo]."""
    hi = float(rules.moon_points)
    lo = 0.0
    if rules.moon == "self":
        lo -= rules.moon_points
    if rules.jack_of_diamonds and rules.deck_cards >> JD & 1:
        lo -= 10
    return lo - hi, hi - lo


class DamepiqueGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no types
    """One deal under any of our rules (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_PARAMETERS, **(params or {})}
        self.rules = rules_of(params)
        rules = self.rules
        n = rules.players
        low, high = payoff_bounds(rules)
        passes = n * rules.pass_count if rules.passing else 0
        info = pyspiel.GameInfo(
            num_distinct_actions=52,
            max_chance_outcomes=52,
            num_players=n,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0,
            max_game_length=passes + n * rules.hand_size,
        )
        super().__init__(_GAME_TYPE, info, params)
        self.encoding = Encoding(rules)
        self.cycle = cycle_length(rules)

    def new_initial_state(self) -> DamepiqueState:
        return DamepiqueState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> InfoStateObserver | ViewObserver:
        if params:
            raise ValueError(f"observation parameters are not supported, not {params}")
        private = True
        if iig_obs_type is not None:
            kind = iig_obs_type.private_info
            if kind == pyspiel.PrivateInfoType.ALL_PLAYERS:
                raise ValueError("observations of every player's private cards are not offered")
            private = kind == pyspiel.PrivateInfoType.SINGLE_PLAYER
        if iig_obs_type is None or iig_obs_type.perfect_recall:
            return InfoStateObserver(self, private)
        return ViewObserver(self, private)


class _Core:
    """A state's fields in one object whose copy is cheap: pyspiel clones a
    Python state by deep-copying each attribute, and a deep copy of a Deal
    (and of its Rules) costs a hundred times ``Deal.copy``."""

    __slots__ = (
        "count",
        "cycle",
        "deal",
        "dealt",
        "kitty",
        "number",
        "pass_actions",
        "pending",
        "player",
        "rules",
    )

    def __init__(self, rules: Rules, cycle: int) -> None:
        self.rules = rules  # frozen: shared by every copy
        self.cycle = cycle
        self.number: int | None = None
        self.dealt: list[int] = [0] * rules.players
        self.kitty = 0
        self.count = 0
        self.deal: Deal | None = None
        self.pending = 0
        self.pass_actions = 0
        # pyspiel asks for the current player several times per action: kept, not recomputed.
        self.player = _CHANCE

    def set_player(self) -> None:
        deal = self.deal
        if deal is None:
            self.player = _CHANCE
        elif deal.phase == PASS:
            self.player = deal.passing_seats[0]
        elif deal.phase == DONE:
            self.player = _TERMINAL
        else:
            self.player = deal.to_act

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        other = _Core.__new__(_Core)
        other.rules = self.rules
        other.cycle = self.cycle
        other.number = self.number
        other.dealt = self.dealt[:]
        other.kitty = self.kitty
        other.count = self.count
        other.deal = None if self.deal is None else self.deal.copy()
        other.pending = self.pending
        other.pass_actions = self.pass_actions
        other.player = self.player
        return other


class DamepiqueState(pyspiel.State):  # type: ignore[misc]
    """A deal being dealt, passed and played."""

    def __init__(self, game: DamepiqueGame) -> None:
        super().__init__(game)
        # The only attribute: what clone() deep-copies (see _Core).
        self._core = _Core(game.rules, game.cycle)

    # -- reading ----------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self._core.rules

    @property
    def deal(self) -> Deal | None:
        """Our ``Deal`` once the cards are dealt (None before)."""
        return self._core.deal

    @property
    def pending(self) -> int:
        """The cards (a mask) the seat to pass has chosen so far."""
        return self._core.pending

    @property
    def pass_actions(self) -> int:
        """Pass actions taken so far (one per card)."""
        return self._core.pass_actions

    def current_player(self) -> int:
        return self._core.player

    def is_terminal(self) -> bool:
        deal = self._core.deal
        return deal is not None and deal.phase == DONE

    def _legal_actions(self, player: int) -> list[int]:
        core = self._core
        deal = core.deal
        if deal is None or player < 0 or player != core.player:
            return []
        if deal.phase == PASS:
            return list(cards_of(deal.hands[player] & ~core.pending))
        return list(cards_of(deal.legal_mask()))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        core = self._core
        if core.number is None:
            k = core.cycle
            return [(i, 1.0 / k) for i in range(k)]
        remaining = self.rules.deck_cards & ~(sum(core.dealt) | core.kitty)
        cards = cards_of(remaining)
        p = 1.0 / len(cards)
        return [(c, p) for c in cards]

    def _apply_action(self, action: int) -> None:
        core = self._core
        deal = core.deal
        rules = self.rules
        if deal is None:
            if core.number is None:
                if not 0 <= action < core.cycle:
                    raise ValueError(f"not a deal number: {action}")
                core.number = action
                return
            bit = 1 << action
            if not rules.deck_cards & bit or (sum(core.dealt) | core.kitty) & bit:
                raise ValueError(f"{CARD_NAMES[action]} cannot be dealt now")
            n = rules.players
            if core.count < n * rules.hand_size:
                core.dealt[core.count % n] |= bit
            else:
                core.kitty |= bit
            core.count += 1
            if core.count == rules.deck_cards.bit_count():
                core.deal = Deal(rules, core.dealt, core.kitty, core.number)
                core.set_player()
            return
        if deal.phase == PASS:
            seat = core.player
            bit = 1 << action
            if not deal.hands[seat] & ~core.pending & bit:
                raise ValueError(f"seat {seat} cannot give {CARD_NAMES[action]} now")
            core.pending |= bit
            core.pass_actions += 1
            if core.pending.bit_count() == rules.pass_count:
                deal.pass_cards(seat, core.pending)
                core.pending = 0
                core.set_player()
            return
        deal.play(action)  # refereed: an illegal card raises IllegalPlay with its reason
        core.player = deal.to_act if deal.phase != DONE else _TERMINAL

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE and self._core.number is None:
            offset = self.rules.pass_offset(action)
            return f"Deal {action} (pass {direction_name(offset, self.rules.players)})"
        if player == pyspiel.PlayerId.CHANCE:
            return f"Deal {CARD_NAMES[action]}"
        return CARD_NAMES[action]

    def returns(self) -> list[float]:
        deal = self._core.deal
        n = self.rules.players
        if deal is None or deal.phase != DONE:
            return [0.0] * n
        points = deal.result().points
        total = sum(points)
        return [(total - p) / (n - 1) - p for p in points]

    def __str__(self) -> str:
        core = self._core
        deal = core.deal
        if deal is None:
            hands = " | ".join(" ".join(CARD_NAMES[c] for c in cards_of(h)) for h in core.dealt)
            return f"dealing (deal {core.number}): {hands}"
        return repr(deal)

    # -- what one seat knows ----------------------------------------------------------

    def view(self, player: int) -> View | None:
        """``player``'s view once the cards are dealt (None while dealing)."""
        deal = self._core.deal
        return None if deal is None else view_of(deal, player)

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> Any:
        """A state of a deal ``player_id`` cannot tell from this one: the cards
        it has not seen dealt at random under what it knows, the history
        replayed. ``probability_sampler()`` (uniform in [0, 1)) seeds the draw."""
        rng = random.Random(int(probability_sampler() * 2**53))
        return resample(self, player_id, rng)


def resample(state: DamepiqueState, player: int, rng: random.Random) -> DamepiqueState:
    """``state.resample_from_infostate`` with our own generator (for a
    reproducible search: ``ISMCTSBot.set_resampler``)."""
    core = state._core
    deal = core.deal
    game: DamepiqueGame = state.get_game()
    if deal is None:
        return _replay(game, _dealing_history(game, core, player, rng))
    pending = _own_pending(state, player)
    return state_from_view(game, view_of(deal, player), rng, pending, core.pass_actions)


def _dealing_history(game: DamepiqueGame, core: _Core, player: int, rng: random.Random) -> list[int]:
    """While the cards are being dealt: the same number, ``player``'s cards
    at their places, the other cards dealt so far drawn from the rest."""
    if core.number is None:
        return []
    n = game.rules.players
    own = list(cards_of(core.dealt[player]))
    rest = list(cards_of(game.rules.deck_cards & ~core.dealt[player]))
    rng.shuffle(rest)
    out = [core.number]
    for i in range(core.count):
        out.append(own.pop(0) if i < n * game.rules.hand_size and i % n == player else rest.pop())
    return out


def state_from_view(
    game: DamepiqueGame,
    view: View,
    rng: random.Random,
    pending: int = 0,
    pass_actions: int | None = None,
) -> DamepiqueState:
    """A state of ``game`` that ``view.seat`` cannot tell from the deal it
    views: its own cards, pass and the public history as they are, every
    card it has not seen drawn under what it knows (``worlds``). In the pass
    phase ``pending`` holds the cards it has chosen so far, and
    ``pass_actions`` the pass actions taken so far (default: every seat
    before it has passed, which is how this game orders passes; a view from a
    table where seats pass in any order is placed in that order: the others'
    passes are hidden either way)."""
    world = sample_world_history(view, rng, pending, pass_actions)
    rules = view.rules
    n = rules.players
    history = [view.number % game.cycle]
    ordered = [cards_of(h) for h in world.dealt]
    for i in range(rules.hand_size):
        for s in range(n):
            history.append(ordered[s][i])
    history.extend(cards_of(world.kitty))
    for given in world.passes:
        if given is not None:
            history.extend(cards_of(given))
    history.extend(cards_of(world.pending))
    history.extend(world.plays)
    return _replay(game, history)


def _replay(game: DamepiqueGame, history: Sequence[int]) -> DamepiqueState:
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


# -- observers ---------------------------------------------------------------------------


class ViewObserver:
    """Observation string and tensor: the seat's view now (``damepique.observation``)."""

    def __init__(self, game: DamepiqueGame, private: bool) -> None:
        self.encoding = game.encoding
        self.private = private
        self.tensor = np.zeros(self.encoding.size, np.float32)
        self.dict = {f.name: self.tensor[f.start : f.start + f.size] for f in self.encoding.fields}
        self._private = [
            (f.start, f.start + f.size)
            for f in self.encoding.fields
            if f.name in ("hand", "passed", "received")
        ]

    def set_from(self, state: DamepiqueState, player: int) -> None:
        tensor = self.tensor
        tensor.fill(0.0)
        view = state.view(player)
        if view is None:
            if self.private:
                tensor[list(cards_of(state._core.dealt[player]))] = 1.0
            return
        ones, values = self.encoding.sparse(view, _own_pending(state, player))
        tensor[ones] = 1.0
        for i, v in values:
            tensor[i] = v
        if not self.private:
            for a, b in self._private:
                tensor[a:b] = 0.0

    def string_from(self, state: DamepiqueState, player: int) -> str:
        view = state.view(player)
        if view is None:
            own = _cards(state._core.dealt[player]) if self.private else "?"
            return f"p{player} dealing: {own}"
        n = view.rules.players
        pending = _own_pending(state, player)
        parts = [f"p{player} {view.phase}"]
        if self.private:
            parts.append(f"hand {_cards(view.hand & ~pending)}")
            if view.passed or pending:
                parts.append(f"gives {_cards((view.passed or 0) | pending)}")
            if view.received:
                parts.append(f"got {_cards(view.received)}")
        parts.append(f"pass {direction_name(view.pass_offset, n)}")
        if view.trick:
            parts.append(
                "trick "
                + " ".join(f"{(view.trick_leader + i) % n}:{CARD_NAMES[c]}" for i, c in enumerate(view.trick))
            )
        parts.append("points " + ",".join(str(p) for p in view.taken_points))
        voids = [",".join("CDHS"[s] for s in range(4) if v >> (13 * s) & 1) for v in view.voids]
        if any(voids):
            parts.append("voids " + "/".join(voids))
        if view.kitty:
            parts.append(f"kitty {_cards(view.kitty)}")
        if view.hearts_broken:
            parts.append("hearts broken")
        return " ".join(parts)


class InfoStateObserver:
    """Information state string and tensor (perfect recall): the deal
    number, the seat's dealt cards, its pass (chosen so far or given), what
    it received, the kitty once shown, the pass actions taken, and every card
    played with the position of the seat that played it.

    Tensor blocks, in order: ``deal`` (one-hot of the chance node's number),
    ``dealt`` (52), ``passed`` (52), ``received`` (52), ``kitty`` (52),
    ``pass_actions`` (one-hot, ``players * pass_count + 1``), ``plays``
    (``players * hand_size`` rows of 52 for the card and ``players`` for its
    player's position from this seat)."""

    def __init__(self, game: DamepiqueGame, private: bool) -> None:
        rules = game.rules
        n = rules.players
        self.private = private
        self.players = n
        self.plays = n * rules.hand_size
        shapes = [
            ("deal", (game.cycle,)),
            ("dealt", (52,)),
            ("passed", (52,)),
            ("received", (52,)),
            ("kitty", (52,)),
            ("pass_actions", (n * rules.pass_count + 1,)),
            ("plays", (self.plays, 52 + n)),
        ]
        size = sum(int(np.prod(s)) for _, s in shapes)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        start = 0
        for name, shape in shapes:
            k = int(np.prod(shape))
            self.dict[name] = self.tensor[start : start + k].reshape(shape)
            start += k

    def set_from(self, state: DamepiqueState, player: int) -> None:
        self.tensor.fill(0.0)
        d = self.dict
        core = state._core
        if core.number is not None:
            d["deal"][core.number] = 1.0
        if self.private:
            d["dealt"][list(cards_of(core.dealt[player]))] = 1.0
        deal = core.deal
        if deal is None:
            d["pass_actions"][0] = 1.0
            return
        d["pass_actions"][core.pass_actions] = 1.0
        if self.private:
            given = (deal.passes[player] or 0) | _own_pending(state, player)
            d["passed"][list(cards_of(given))] = 1.0
            if deal.phase != PASS and deal.pass_offset % self.players:
                d["received"][list(cards_of(deal.passes[deal.pass_source(player)] or 0))] = 1.0
        if deal.tricks_played and deal.kitty:
            d["kitty"][list(cards_of(deal.kitty))] = 1.0
        plays = d["plays"]
        n = self.players
        for i, (seat, c) in enumerate(zip(deal.seats, deal.plays, strict=True)):
            plays[i, c] = 1.0
            plays[i, 52 + (seat - player) % n] = 1.0

    def string_from(self, state: DamepiqueState, player: int) -> str:
        core = state._core
        own = _hex(core.dealt[player]) if self.private else "?"
        deal = core.deal
        if deal is None:
            return f"p{player} d{core.number} dealt {own} n{core.count}"
        given = received = "?"
        if self.private:
            given = _hex((deal.passes[player] or 0) | _own_pending(state, player))
            received = "-"
            if deal.phase != PASS and deal.pass_offset % self.players:
                received = _hex(deal.passes[deal.pass_source(player)] or 0)
        kitty = _hex(deal.kitty) if deal.tricks_played and deal.kitty else "-"
        plays = deal.plays
        lead = deal.seats[0] if plays else "-"
        cards = "".join(CARD_NAMES[c] for c in plays)
        return (
            f"p{player} d{core.number} dealt {own} gave {given} got {received} kitty {kitty} "
            f"passes {core.pass_actions} lead {lead} plays {cards}"
        )


def _own_pending(state: DamepiqueState, player: int) -> int:
    core = state._core
    if core.deal is not None and core.deal.phase == PASS and core.player == player:
        return core.pending
    return 0


def _cards(mask: int) -> str:
    return " ".join(CARD_NAMES[c] for c in cards_of(mask)) or "-"


def _hex(mask: int) -> str:
    return format(mask, "x")


# -- the arena's IS-MCTS --------------------------------------------------------------------

_GAMES: dict[Rules, DamepiqueGame] = {}


def game_for(rules: Rules) -> DamepiqueGame:
    """The registered game for ``rules`` (one per rules and process)."""
    game = _GAMES.get(rules)
    if game is None:
        game = _GAMES[rules] = pyspiel.load_game(SHORT_NAME, parameters_of(rules))
    return game


class ISMCTSSeat:
    """OpenSpiel's Python IS-MCTS (``open_spiel.python.algorithms.ismcts``:
    UCT c = 2, one random roll-out per leaf, final policy the most visited)
    as one of our bots: from the seat's view it builds a state of
    ``python_damepique_hearts`` (hidden cards drawn as
    ``resample_from_infostate`` does) and searches ``simulations`` times, the
    hidden cards drawn again for each. Its pass is three searches, one card
    at a time. Every draw comes from the generator it is given, so a seat
    plays the same for the same view and generator."""

    def __init__(self, simulations: int = 100, uct_c: float = 2.0) -> None:
        if simulations < 1:
            raise ValueError(f"IS-MCTS needs at least one simulation, not {simulations}")
        self.simulations = simulations
        self.uct_c = uct_c
        self.name = f"ismcts-py:{simulations}"

    def _search(self, state: DamepiqueState, rng: random.Random) -> int:
        from open_spiel.python.algorithms import ismcts, mcts

        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        seed = rng.getrandbits(31)
        np_rng = np.random.RandomState(seed)
        draws = random.Random(seed)
        bot = ismcts.ISMCTSBot(
            game=state.get_game(),
            evaluator=mcts.RandomRolloutEvaluator(1, np_rng),
            uct_c=self.uct_c,
            max_simulations=self.simulations,
            random_state=np_rng,
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        )
        bot.set_resampler(lambda s, player: resample(s, player, draws))
        return int(bot.step(state))

    def choose_pass(self, view: View, rng: random.Random) -> tuple[int, ...]:
        game = game_for(view.rules)
        state = state_from_view(game, view, rng)
        cards: list[int] = []
        for _ in range(view.rules.pass_count):
            card = self._search(state, rng)
            cards.append(card)
            state.apply_action(card)
        return tuple(cards)

    def choose_play(self, view: View, rng: random.Random) -> int:
        return self._search(state_from_view(game_for(view.rules), view, rng), rng)


def ismcts_bot(options: str = "") -> ISMCTSSeat:
    """The ``ismcts-py:SIMS`` entry point of ``damepique.bots``: SIMS
    simulations per decision (100 when left out).

    >>> ismcts_bot("40").name
    'ismcts-py:40'
    """
    if options and not (options.isdigit() and int(options) > 0):
        raise ValueError(f"ismcts-py:{options}: SIMS must be a positive whole number of simulations")
    return ISMCTSSeat(int(options or 100))


if SHORT_NAME not in pyspiel.registered_names():
    pyspiel.register_game(_GAME_TYPE, DamepiqueGame)
