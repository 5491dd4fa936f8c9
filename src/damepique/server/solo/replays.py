"""A finished (or uploaded) game as data for the replay page: trick by trick."""

from __future__ import annotations

from damepique.engine import CARD_NAMES, DONE, Match, cards_of, direction_name

from ..protocol import Json


def replay_data(match: Match, players: list[str] | None = None) -> Json:
    """Every deal's hands, passes, tricks (who played what) and scores, with running totals."""
    n = match.rules.players
    totals = [0] * n
    deals = []
    for d in match.deals:
        tricks = []
        i = 0
        for leader, cards, winner, points in d.tricks:
            tricks.append(
                {
                    "leader": leader,
                    "plays": [{"seat": d.seats[i + k], "card": CARD_NAMES[c]} for k, c in enumerate(cards)],
                    "winner": winner,
                    "points": points,
                }
            )
            i += len(cards)
        if d.trick:
            tricks.append(
                {
                    "leader": d.trick_leader,
                    "plays": [{"seat": d.seats[i + k], "card": CARD_NAMES[c]} for k, c in enumerate(d.trick)],
                    "winner": None,
                    "points": 0,
                }
            )
        result = d.result()
        if d.phase == DONE:
            totals = [t + p for t, p in zip(totals, result.points, strict=True)]
        deals.append(
            {
                "number": d.number,
                "hands": [[CARD_NAMES[c] for c in cards_of(h)] for h in d.dealt],
                "kitty": [CARD_NAMES[c] for c in cards_of(d.kitty)],
                "direction": direction_name(d.pass_offset, n),
                "passes": [None if p is None else [CARD_NAMES[c] for c in cards_of(p)] for p in d.passes]
                if d.pass_offset % n
                else [],
                "tricks": tricks,
                "points": list(result.points),
                "moon": result.moon,
                "complete": d.phase == DONE,
                "totals": list(totals),
            }
        )
    return {
        "players": players or [f"Seat {s}" for s in range(n)],
        "rules": match.rules.to_json(),
        "deals": deals,
        "totals": match.totals,
        "over": match.over,
        "winner": match.winner,
        "winners": list(match.winners),
    }
