"""A finished (or uploaded) game as data for the replay page: trick by trick,
and the position at any of its cards."""

from __future__ import annotations

from damepique.engine import CARD_NAMES, DONE, PASS, Deal, Match, View, cards_of, direction_name, view_of

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


def position_at(match: Match, deal: int, play: int) -> tuple[View, int] | None:
    """The view of the seat to play card ``play`` of finished deal ``deal``
    of ``match``, and that seat; None when there is no such card."""
    if not 0 <= deal < len(match.deals) or not 0 <= play < len(match.deals[deal].plays):
        return None
    done = match.deals[deal]
    position = Deal(match.rules, done.dealt, done.kitty, done.number)
    if position.phase == PASS:
        for s, p in enumerate(done.passes):
            assert p is not None
            position.pass_cards(s, p)
    for card in done.plays[:play]:
        position.play_unchecked(card)
    seat = position.to_act
    totals = [sum(d.result().points[s] for d in match.deals[:deal]) for s in range(match.rules.players)]
    return view_of(position, seat, totals), seat
