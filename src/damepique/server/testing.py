"""Test hooks: routes that let a test put a real server where its test begins.

Off unless ``Settings.test_hooks`` (``DAMEPIQUE_TEST_HOOKS=1``): a server
people play on never has them. The browser tests use them to check the page's
contracts from a short position instead of playing whole games to reach it
(``docs/protocol.md``, "Test hooks"):

- ``POST /api/test/clock`` ``{"advance": seconds}`` moves the app's clock when
  it is a ``ManualClock`` (``DAMEPIQUE_CLOCK=manual``), firing what fell due.
- ``POST /api/test/tables/{code}/forward`` ``{"until": goal}`` has a computer
  player play for every seat of the table's game, people's too, until
  ``goal``: ``"last_trick"`` (the deal in progress down to its last trick,
  every hand one card), ``"game_end"`` (the last trick of the deal that ends
  the game: its one card each is forced, so the game ends there), or
  ``"claim"`` (a person to play whose cards take every trick left, two at
  least: the position where the page offers "Claim the rest"), or
  ``"claim_none"`` (the same with cards that take no trick left and no
  points left to take: the page offers it too); a claim goal is a claim
  whose deal does not end the game, so its page shows the deal's summary.

The moves are found on a copy of the game first (``Game.replay`` of its log),
then applied to the real one under its lock, stored and sent as usual, one
update per deal: a goal the game never reaches changes nothing (``no_claim``).

>>> from damepique.server.play.game import Seat
>>> seats = [Seat("human", "You")] + [Seat("bot", "B", "random")] * 3
>>> from damepique.engine import Rules
>>> g = Game(Rules(target=50), seats, secret=bytes(32))
>>> _ = g.deal_next()
>>> moves = plan(g, "last_trick")
>>> copy = Game.replay(g.rules, g.seats, g.secret, g.log + (moves or []))
>>> [len(CardSet(h)) for h in copy.deal.hands], copy.deal.trick, len(g.log)
([1, 1, 1, 1], [], 1)
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from damepique.engine import PASS, PLAY, CardSet, Deal, parse_card

from .clock import ManualClock
from .errors import Refusal
from .http import json_body
from .play.game import Game
from .play.thinking import decide
from .protocol import Json
from .settings import Settings
from .tables.codes import normalize_code
from .tables.registry import Tables

GOALS = ("last_trick", "game_end", "claim", "claim_none")
CLAIMS = {"claim": "all", "claim_none": "none"}
"""The claim each claim goal stops at: every trick left, or none."""
LEVEL = "random"
"""The computer player that plays every seat forward: the cheapest, and its
seed varied, one line of play after another until a goal is reached."""
LINES = 40
"""Lines of play tried for a claim with every seat played by ``LEVEL``."""
STEERED = 120
"""Lines tried next, for a claim, where the people play their highest card
each time (they keep their low cards, which take no trick): random lines
missed a claim of none at about 2 % of tables (4 of 200 secrets), so the
claim test failed on the table's random cards; these found one at each of
1,200 secrets, within 38 lines (3.8 on average). Then the answer is that
none comes."""


def _in_last_trick(deal: Deal) -> bool:
    """Every hand holds one card at most: the deal's last trick (begun or not)."""
    return deal.phase == PLAY and all(len(CardSet(h)) <= 1 for h in deal.hands)


def _claimable(game: Game, tricks: str) -> bool:
    """A person is to play, with two cards at least, and its view proves a
    claim of ``tricks`` (``"all"`` or ``"none"``)."""
    deal = game.deal
    if deal is None or game.over or deal.phase != PLAY:
        return False
    seat = deal.to_act
    if game.seats[seat].kind != "human" or len(CardSet(deal.hands[seat])) < 2:
        return False
    plan = game.view(seat).claim_plan()
    if plan is None or plan.tricks != tricks:
        return False
    # The claim must leave the game going on: a test of the claim expects the
    # deal's summary, and whether a deal ends the game depends on the random
    # cards of the table (the game over dialog instead made the test flaky).
    after = Game.replay(game.rules, game.seats, game.secret, game.log, game.sealed)
    after.claim(seat)
    return not after.over


def _line(game: Game, goal: str, line: int, steered: bool = False) -> list[Json] | None:
    """The events of one line of play from ``game`` to ``goal``, or None when
    the game ends first (``game`` is a copy: it is played on); ``steered``:
    each person plays their highest legal card (``STEERED``)."""
    moves: list[Json] = []
    start = None
    while True:
        if game.over:
            # The deal that ended the game, less its last trick (one card each: forced).
            return moves[: max(0, len(moves) - game.rules.players)] if goal == "game_end" else None
        if game.needs_deal():
            moves += game.deal_next()
            continue
        deal = game.deal
        assert deal is not None
        start = start or deal
        if goal in CLAIMS and _claimable(game, CLAIMS[goal]):
            return moves
        if goal == "last_trick" and _in_last_trick(deal):
            return moves if deal is start else None
        seat = game.waiting_on()[0]
        seed = (line * 1_000_003 + len(game.log) * 7 + seat) & 0xFFFFFFFF
        kind, choice = decide(LEVEL, game.view(seat), seed)
        if kind == "pass":
            assert isinstance(choice, tuple)
            moves.append(game.pass_cards(seat, choice))
        else:
            assert isinstance(choice, int)
            if steered and game.seats[seat].kind == "human":
                choice = max(deal.legal_cards(), key=lambda c: (c % 13, c))  # its rank, then its suit
            moves.append(game.play(seat, choice))


def plan(game: Game, goal: str) -> list[Json] | None:
    """The events that take ``game`` to ``goal`` (found on copies: ``game`` is
    left as it is), or None when no line of play tried reaches it.

    A table whose random lines reach no claim of none (``STEERED``):

    >>> from damepique.engine.rules import PRESETS
    >>> from damepique.server.play.game import Seat
    >>> people = [Seat("human", "Bob"), Seat("human", "Ann")]
    >>> g = Game(PRESETS["short"], people + [Seat("bot", "B", "beginner")] * 2, (23).to_bytes(32, "big"))
    >>> _ = g.deal_next()
    >>> plan(g, "claim_none") is not None
    True
    """
    tries = [(line, False) for line in range(LINES if goal in CLAIMS else 1)]
    if goal in CLAIMS:
        tries += [(line, True) for line in range(STEERED)]
    for line, steered in tries:
        copy = Game.replay(game.rules, game.seats, game.secret, game.log, game.sealed)
        moves = _line(copy, goal, line, steered)
        if moves is not None:
            return moves
    return None


def install(app: FastAPI, tables: Tables, settings: Settings) -> None:
    """The test hooks' routes, when ``settings.test_hooks`` is on."""
    if not settings.test_hooks:
        return

    @app.post("/api/test/clock")
    async def advance(request: Request) -> JSONResponse:
        body = await json_body(request, 1024)
        seconds = body.get("advance")
        if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or not 0 <= seconds <= 86_400:
            raise Refusal("bad_request", "advance must be a number of seconds from 0 to 86400")
        clock = settings.clock
        if not isinstance(clock, ManualClock):
            raise Refusal("bad_request", "the app's clock is real time (DAMEPIQUE_CLOCK=manual moves)")
        await clock.advance(float(seconds))
        return JSONResponse({"time": clock.time(), "monotonic": clock.monotonic()})

    @app.post("/api/test/tables/{code}/forward")
    async def forward(code: str, request: Request) -> JSONResponse:
        body = await json_body(request, 1024)
        goal = body.get("until")
        if goal not in GOALS:
            raise Refusal("bad_request", f"until must be one of {', '.join(GOALS)}")
        normal = normalize_code(code)
        table = None if normal is None else await tables.get(normal)
        runner = None if table is None else table.runner
        if runner is None:
            raise Refusal("no_table", "no game is played at a table with this code")
        async with runner.lock:
            game = runner.game
            if game.over:
                raise Refusal("no_game", "the game is over")
            moves = plan(game, str(goal))
            if moves is None:
                raise Refusal("no_claim", f"no line of play reaches {goal} in this game")
            applied: list[Json] = []
            for event in moves:
                if event["type"] == "deal":
                    continue  # the runner deals on by itself once a deal is stored
                applied.append(_apply(game, event))
                deal = game.deal
                if deal is not None and deal.phase not in (PASS, PLAY):
                    await runner._commit(applied)  # one update per deal, the next dealt
                    applied = []
            if applied:
                await runner._commit(applied)
        runner.kick()
        deal = runner.game.deal
        return JSONResponse(
            {
                "events": len(moves),
                "deal": None if deal is None else deal.number,
                "to_act": runner.game.waiting_on(),
            }
        )


def _apply(game: Game, event: Json) -> Json:
    if event["type"] == "pass":
        return game.pass_cards(event["seat"], [parse_card(c) for c in event["cards"]])
    return game.play(event["seat"], parse_card(event["card"]))


__all__ = ["GOALS", "install", "plan"]
