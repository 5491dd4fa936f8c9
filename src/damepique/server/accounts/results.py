"""A finished game's results for the accounts at its table: statistics, and Elo when ranked.

Recorded once per game (``AccountStore.record_result`` refuses a second
time), when its end is stored and before anyone hears of it.
"""

from __future__ import annotations

from collections.abc import Mapping

from damepique.engine import QS, Match

from ..storage.accounts import AccountStore
from .ratings import DEFAULT_RATING, update_ratings


async def record_result(
    store: AccountStore,
    game_id: str,
    code: str,
    ranked: bool,
    players: Mapping[int, tuple[str, bool]],
    match: Match,
    ladder: bool = False,
) -> None:
    """``players``: the seats of signed-in people, each with their account and
    whether a bot finished the game for them (they left for good, or were
    still away past the grace period at the end): a loss for Elo, never a win.
    ``ladder``: a ranked game of bots only, rated on the bots' own ladder
    (``AccountStore.ladder``), never on the people's ratings."""
    if not players or await store.result_of(game_id) is not None:
        return
    totals = match.totals
    stats: dict[str, dict[str, int]] = {}
    for seat, (account, gone) in players.items():
        stats[account] = {
            "games": 1,
            "ranked": 1 if ranked else 0,
            "wins": int(seat in match.winners and not gone),  # a shared win is a win
            "deals": len(match.deals),
            "points": totals[seat],
            "moons": sum(1 for d in match.deals if d.result().moon == seat),
            "queens": sum(
                1 for d in match.deals for (_, cards, w, _) in d.tricks if w == seat and QS in cards
            ),
        }
    ratings: dict[str, float] = {}
    if ranked and len(players) >= 2:
        before = {}
        for account, _ in players.values():
            acc = await store.get_account(account)
            before[account] = acc["rating"] if acc else DEFAULT_RATING
        ratings = update_ratings(
            before,
            {account: totals[seat] for seat, (account, _) in players.items()},
            left=[account for account, gone in players.values() if gone],
        )
    on_ladder: dict[str, tuple[float, bool]] = {}
    if ladder and len(players) >= 2:
        accounts = [account for account, _ in players.values()]
        after = update_ratings(
            await store.ladder_ratings(accounts),
            {account: totals[seat] for seat, (account, _) in players.items()},
            left=[account for account, gone in players.values() if gone],
        )
        on_ladder = {a: (after[a], bool(stats[a]["wins"])) for a in accounts}
    data = {"code": code, "ranked": ranked, "ladder": ladder, "totals": totals, "ratings": ratings}
    if on_ladder:
        data["ladder_ratings"] = {a: r for a, (r, _) in on_ladder.items()}
    await store.record_result(game_id, data, ratings, stats, on_ladder)


__all__ = ["record_result"]
