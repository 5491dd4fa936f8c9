"""OpenSpiel interop (optional extra ``open-spiel``): its bots in our arena,
our bots as OpenSpiel bots.

OpenSpiel's Hearts (``pyspiel.load_game("hearts", {"qs_breaks_hearts": False})``)
plays the rules of our ``Rules()`` default: four players, pass left, right,
across, none; no points on the first trick; hearts broken by a heart only; a
moon gives the others 26. OpenSpiel's pass direction is a chance event
rather than a cycle; a card is ``rank * 4 + suit`` there and ``suit * 13 + rank``
here; its seats N, E, S, W are our seats 0..3 and both play to ``seat + 1``.

The arena runs each deal on an OpenSpiel state and mirrors every action into
our ``Deal`` (which referees every card again), so our bots still receive only
a ``View`` while OpenSpiel's receive OpenSpiel states.

**The IS-MCTS pass-phase crash.** OpenSpiel's ``ISMCTSBot`` resamples the
hidden hands through ``ResampleFromInfostate``, which during the pass phase
can return hands that break the deal (its C++ code then aborts the whole
process, which no ``try`` can catch). So IS-MCTS seats never search the pass
phase: their three cards are chosen by our ``intermediate`` passing rule,
then IS-MCTS plays every card of the deal itself. Any error OpenSpiel raises
as a Python exception during play is caught: that one card is then played by
our ``intermediate`` rule and counted in ``FALLBACKS``.

The import of ``pyspiel`` happens here only; without it these functions raise
ImportError with an explanation.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from typing import Any

from damepique.engine import DONE, PASS, Deal, Rules, cards_of, view_of

from .heuristic import intermediate_pass, intermediate_play
from .registry import get_bot

FALLBACKS = {"ismcts_play_errors": 0}
"""Cards played by our rule after an OpenSpiel exception (should stay 0)."""

# OpenSpiel's pass-direction chance outcomes and our deal numbers with the same offset
# (Rules() cycles left, right, across, none over deal numbers 0, 1, 2, 3).
_DIRECTION_TO_NUMBER = {0: 3, 1: 0, 2: 2, 3: 1}
_NUMBER_TO_DIRECTION = {v: k for k, v in _DIRECTION_TO_NUMBER.items()}


def _pyspiel() -> Any:
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]
    except ImportError as e:  # pragma: no cover - depends on the install
        raise ImportError(
            "OpenSpiel is not installed: pip install 'damepique[openspiel]' (package open-spiel)"
        ) from e
    return pyspiel


def openspiel_rules() -> Rules:
    """Our rules equal to OpenSpiel's Hearts with ``qs_breaks_hearts=false``."""
    return Rules()


def to_spiel(card: int) -> int:
    """Our card to OpenSpiel's action: ``QS`` is 50 here and 43 there."""
    return (card % 13) * 4 + card // 13


def from_spiel(action: int) -> int:
    return (action % 4) * 13 + action // 4


_GAME: Any = None


def spiel_game() -> Any:
    global _GAME
    if _GAME is None:
        _GAME = _pyspiel().load_game("hearts", {"qs_breaks_hearts": False})
    return _GAME


def spiel_seat(name: str) -> tuple[str, int]:
    """The kind and simulations of ``openspiel-ismcts:SIMS`` or
    ``openspiel-mcts:SIMS`` (SIMS a positive whole number, 1000 when left out);
    ValueError with a reason otherwise. Needs no OpenSpiel, so the arena checks
    its seats before anything runs.

    >>> spiel_seat("openspiel-mcts:50"), spiel_seat("openspiel-ismcts")
    (('openspiel-mcts', 50), ('openspiel-ismcts', 1000))
    >>> spiel_seat("openspiel-uct:50")
    Traceback (most recent call last):
    ...
    ValueError: unknown OpenSpiel bot 'openspiel-uct:50' (openspiel-ismcts:SIMS, openspiel-mcts:SIMS)
    """
    kind, _, sims = name.partition(":")
    if kind not in ("openspiel-ismcts", "openspiel-mcts"):
        raise ValueError(f"unknown OpenSpiel bot {name!r} (openspiel-ismcts:SIMS, openspiel-mcts:SIMS)")
    if sims and not (sims.isdigit() and int(sims) > 0):
        raise ValueError(f"{name!r}: SIMS must be a positive whole number of simulations")
    return kind, int(sims or 1000)


def make_spiel_bot(name: str, seed: int) -> Any:
    """``openspiel-ismcts:SIMS`` or ``openspiel-mcts:SIMS`` as a pyspiel bot
    (ValueError for any other name, see ``spiel_seat``)."""
    kind, sims = spiel_seat(name)
    pyspiel = _pyspiel()
    game = spiel_game()
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    if kind == "openspiel-ismcts":
        return pyspiel.ISMCTSBot(
            seed, evaluator, 2.0, sims, -1, pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False
        )
    return pyspiel.MCTSBot(game, evaluator, 2.0, sims, 1000, False, seed, False)


def openspiel_deal(seed: int, base: int) -> tuple[int, list[list[int]]]:
    """Deal ``base`` of a run seeded ``seed``: OpenSpiel's pass direction
    (0 none, 1 left, 2 across, 3 right) and each seat's thirteen cards (ours)."""
    rng = random.Random(f"{seed}:{base}")
    direction = rng.randrange(4)
    deck = list(cards_of(openspiel_rules().deck_cards))
    rng.shuffle(deck)
    return direction, [deck[i * 13 : (i + 1) * 13] for i in range(4)]


def play_openspiel_deal(
    names: Sequence[str], seed: int, base: int, log: dict[str, Any] | None = None
) -> tuple[tuple[int, ...], int | None]:
    """One deal on an OpenSpiel state, seat ``s`` played by ``names[s]``
    (ours or ``openspiel-*``); returns (points per seat, moon shooter).

    ``log``, when given, receives what happened as it is played (OpenSpiel's
    IS-MCTS does not replay a deal the same way twice, so this is the only
    record of it): ``hands`` (each seat's dealt cards), ``passes`` (the cards
    each seat gave), ``plays`` (``[seat, card]`` in order), ``fallbacks``
    (cards our rule played after an OpenSpiel error); cards in our numbering."""
    direction, hands = openspiel_deal(seed, base)
    deal = Deal(openspiel_rules(), hands, 0, _DIRECTION_TO_NUMBER[direction])
    if log is not None:
        log.update(hands=[sorted(h) for h in hands], passes=[], plays=[], fallbacks=0)
    state = spiel_game().new_initial_state()
    state.apply_action(direction)
    for i in range(13):
        for p in range(4):
            state.apply_action(to_spiel(hands[p][i]))
    ours: dict[int, Any] = {}
    spiel: dict[int, Any] = {}
    for s, name in enumerate(names):
        if name.startswith("openspiel-"):
            spiel[s] = make_spiel_bot(name, (seed * 7919 + base * 104729 + s) % (2**31 - 1))
        else:
            ours[s] = get_bot(name)
    rngs = [random.Random(f"{seed}:{base}:{s}:bot") for s in range(4)]
    if deal.phase == PASS:
        for s in range(4):
            view = view_of(deal, s)
            cards = ours[s].choose_pass(view, rngs[s]) if s in ours else intermediate_pass(view)
            deal.pass_cards(s, cards)
            if log is not None:
                log["passes"].append(sorted(cards))
            for c in sorted(cards):
                assert state.current_player() == s
                state.apply_action(to_spiel(c))
    while deal.phase != DONE:
        s = deal.to_act
        assert state.current_player() == s
        if s in ours:
            card = ours[s].choose_play(view_of(deal, s), rngs[s])
        else:
            try:
                card = from_spiel(spiel[s].step(state))
            except Exception:  # OpenSpiel raises SpielError subclasses of RuntimeError
                FALLBACKS["ismcts_play_errors"] += 1
                if log is not None:
                    log["fallbacks"] += 1
                card = intermediate_play(view_of(deal, s))
        deal.play(card, s)  # our referee checks OpenSpiel's bots too
        if log is not None:
            log["plays"].append([s, card])
        state.apply_action(to_spiel(card))
    assert state.is_terminal()
    res = deal.result()
    return res.points, res.moon


def logged_deal(seed: int, base: int, log: dict[str, Any]) -> tuple[Deal, list[tuple[int, int]]]:
    """The deal ``play_openspiel_deal(names, seed, base, log)`` played, rebuilt
    from its ``log`` with the pass made (ready for its first card), and its
    plays ``(seat, card)`` in order: our bots' views of an OpenSpiel deal
    after the fact (for reading and training on IS-MCTS play). Every card goes
    through our referee again.

    >>> hands = openspiel_deal(1, 2)[1]  # a deal without a pass
    >>> log = {"hands": [sorted(h) for h in hands], "passes": [], "plays": [[0, 0]]}
    >>> deal, plays = logged_deal(1, 2, log)
    >>> deal.phase, deal.to_act, plays
    ('play', 0, [(0, 0)])
    >>> logged_deal(2, 2, log)
    Traceback (most recent call last):
    ValueError: deal 2 of seed 2 is not the deal logged (another seed?)
    """
    direction, hands = openspiel_deal(seed, base)
    if [sorted(h) for h in hands] != log["hands"]:
        raise ValueError(f"deal {base} of seed {seed} is not the deal logged (another seed?)")
    deal = Deal(openspiel_rules(), hands, 0, _DIRECTION_TO_NUMBER[direction])
    for s, cards in enumerate(log["passes"]):
        deal.pass_cards(s, cards)
    return deal, [(s, c) for s, c in log["plays"]]


def logged_deals(path: str) -> Iterator[tuple[Deal, list[tuple[int, int]]]]:
    """Every deal of a log written with ``--moves`` (``benchmarks/bots_arena_log.py
    run --moves``: a head with the run's seed, then a line per deal with its
    ``moves``), as ``logged_deal`` rebuilds it, in the log's order."""
    seed = 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            if "head" in rec:
                seed = rec["head"]["seed"]
                continue
            if "moves" not in rec:
                raise ValueError(f"{path}: a deal without its moves (log it with --moves)")
            yield logged_deal(seed, rec["outcomes"][0]["base"], rec["moves"])


def deal_from_spiel_state(state: Any) -> Deal:
    """Our ``Deal`` at the point of an OpenSpiel Hearts state (from its history)."""
    history = list(state.history())
    if not history:
        raise ValueError("the deal has not started: no pass direction yet")
    direction = history[0]
    hands: list[list[int]] = [[] for _ in range(4)]
    k = 0
    i = 1
    while i < len(history) and k < 52:
        hands[k % 4].append(from_spiel(history[i]))
        k += 1
        i += 1
    if k < 52:
        raise ValueError("the cards are still being dealt")
    deal = Deal(openspiel_rules(), hands, 0, _DIRECTION_TO_NUMBER[direction])
    rest = [from_spiel(a) for a in history[i:]]
    j = 0
    if deal.phase == PASS:
        count = deal.rules.pass_count
        for s in range(4):
            if len(rest) - j < count:
                break
            deal.pass_cards(s, rest[j : j + count])
            j += count
    for c in rest[j:]:
        if deal.phase == PASS:
            break
        deal.play_unchecked(c)
    return deal


def _partial_pass(state: Any, deal: Deal) -> list[int]:
    """Cards already given by the passing seat in an unfinished OpenSpiel pass."""
    history = list(state.history())
    passes = history[53:]
    done = sum(1 for p in deal.passes if p is not None) * deal.rules.pass_count
    return [from_spiel(a) for a in passes[done:]]


def spiel_bot(level: str = "expert", seed: int = 0) -> Any:
    """One of our levels as a ``pyspiel.Bot`` for OpenSpiel's tools:

    >>> bot = spiel_bot("intermediate")  # doctest: +SKIP
    >>> pyspiel.evaluate_bots(state, [bot, *others], seed)  # doctest: +SKIP
    """
    pyspiel = _pyspiel()
    inner = get_bot(level)

    class DamepiqueSpielBot(pyspiel.Bot):  # type: ignore[misc, name-defined]
        """Our bot behind OpenSpiel's ``Bot`` interface: it rebuilds our deal
        from the state's history and decides from the acting seat's view."""

        def __init__(self) -> None:
            pyspiel.Bot.__init__(self)
            self.level = level
            self.seed = seed

        def restart_at(self, state: Any) -> None:
            pass

        def inform_action(self, state: Any, player_id: int, action: int) -> None:
            pass

        def step(self, state: Any) -> int:
            deal = deal_from_spiel_state(state)
            seat = state.current_player()
            rng = random.Random(f"{self.seed}:{len(state.history())}:{seat}")
            view = view_of(deal, seat)
            if deal.phase == PASS:
                given = _partial_pass(state, deal)
                chosen = [c for c in inner.choose_pass(view, rng) if c not in given]
                legal = [from_spiel(a) for a in state.legal_actions()]
                for c in sorted(chosen):
                    if c in legal:
                        return to_spiel(c)
                return int(state.legal_actions()[0])
            return to_spiel(inner.choose_play(view, rng))

    return DamepiqueSpielBot()
