"""The public view of a deal: what every seat and a spectator may see, as JSON.

``public_json`` writes it whole, or carried forward from the last one while
a deal is played (the fields cards do not change kept as they were);
``played_changes`` says which keys the cards just played changed, built from
what a card changes, so that a server sends a card's update without building
the whole view and comparing it (``patches.Update``). Each seat's own fields
are ``patches.seat_json``.

>>> import random
>>> from damepique.engine import Deal, Rules
>>> deal = Deal.shuffled(Rules(), random.Random(2))
>>> public_json(deal)["hand"], public_json(deal)["phase"]
([], 'pass')
"""

from __future__ import annotations

from collections.abc import Sequence

from damepique.engine import CARD_NAMES, DONE, PLAY, Deal, cards_of, direction_name
from damepique.engine.cards import SUIT_MASKS

from .protocol import Json


def _names(mask: int) -> list[str]:
    return [CARD_NAMES[c] for c in cards_of(mask)]


def public_json(deal: Deal, totals: Sequence[int] = (), before: Json | None = None) -> Json:
    """``view_of(deal, seat, totals).to_json()`` without anything private: what a
    spectator may see (no seat, no hand, no legal cards, no passed or received
    cards; ``to_act`` only in the play phase). The same for every seat, so a
    server builds it once per update, without a ``View``.

    ``before``: what this function returned for the same deal at an earlier
    position of its play phase (the deal was ``before["deal"]`` and is still
    being played), or None. Then only the fields that change while cards are
    played are written again, the others and the tricks already finished are
    ``before``'s very objects (``totals`` is not read: a deal's totals do not
    change while it is played), which is cheaper, and cheaper still to
    compare with ``before``. Never change what it returns: it may be shared.
    """
    phase = deal.phase
    if before is not None and phase == PLAY and before["phase"] == PLAY and before["deal"] == deal.number:
        out = dict(before)
        out.update(_play_json(deal, before["tricks"]))
        if deal.tricks_played and not before["kitty"] and deal.kitty:
            out["kitty"] = _names(deal.kitty)  # taken with the first trick
        return out
    n = deal.players
    offset = deal.pass_offset % n
    result = deal.result() if phase == DONE else None
    play = _play_json(deal, [])
    return {  # in the order of View.to_json
        "seat": None,
        "deal": deal.number,
        "phase": phase,
        "to_act": play["to_act"],
        "decision": None,
        "hand": [],
        "legal": [],
        "claim": False,
        "pass_direction": direction_name(offset, n),
        "pass_to": None,
        "passed": None,
        "received": None,
        "passed_seats": [p is not None for p in deal.passes] if offset else [],
        "trick": play["trick"],
        "trick_leader": play["trick_leader"],
        "tricks": play["tricks"],
        "hearts_broken": play["hearts_broken"],
        "taken_points": play["taken_points"],
        "hand_sizes": play["hand_sizes"],
        "voids": play["voids"],
        "kitty": _names(deal.kitty if deal.tricks_played else 0),
        "totals": list(totals),
        "result": None if result is None else {"points": list(result.points), "moon": result.moon},
    }


def _play_json(deal: Deal, written: list[Json]) -> Json:
    """The public fields that change as cards are played. ``written``: the
    deal's first tricks as written before (a prefix of its tricks), kept as
    they are when no trick was finished since."""
    phase = deal.phase
    trick = deal.trick
    return {
        "to_act": deal.to_act if phase == PLAY else None,
        "trick": [CARD_NAMES[c] for c in trick],
        "trick_leader": deal.trick_leader if trick else (deal.to_act if phase == PLAY else -1),
        "tricks": _tricks_written(deal, written),
        "hearts_broken": deal.hearts_broken,
        "taken_points": list(deal.taken_points),
        "hand_sizes": _hand_sizes(deal),
        "voids": [[s for s in range(4) if v & SUIT_MASKS[s]] for v in deal.voids],
    }


def _tricks_written(deal: Deal, written: list[Json]) -> list[Json]:
    """The deal's finished tricks as JSON: ``written``, a prefix of them written
    before, kept as it is (the same list when no trick ended since)."""
    if len(written) == len(deal.tricks):
        return written
    return written + [
        {"leader": ld, "cards": [CARD_NAMES[c] for c in cs], "winner": w, "points": p}
        for ld, cs, w, p in deal.tricks[len(written) :]
    ]


def _hand_sizes(deal: Deal) -> list[int]:
    """Every seat plays one card to each trick: the hand sizes follow from the trick count."""
    n, trick, leader = deal.players, deal.trick, deal.trick_leader
    size = deal.rules.hand_size - deal.tricks_played
    return [size - (1 if (s - leader) % n < len(trick) else 0) for s in range(n)]


def played_changes(deal: Deal, before: Json, plays: Sequence[Json]) -> Json | None:
    """The keys of the public view that ``plays`` changed, with their new values,
    built from what a card changes rather than from a whole new view and a
    comparison: whose turn, the trick and the hand sizes; when a trick ends,
    the finished tricks, the points taken, its leader and the kitty; hearts
    broken; the void a player showed by not following (only its seat's).

    ``before``: ``public_json`` of the same deal in its play phase, just
    before ``plays`` (the play events just applied to ``deal``, in order; none:
    the view as it stands). What it returns is exactly ``{k: v for k, v in
    public_json(deal, before=before).items() if v != before[k]}``, so that
    ``{**before, **changes}`` is the new view. None when ``before`` is not at
    that position or the plays ended the deal (a new phase: build it whole)."""
    n = deal.players
    written = before["tricks"]
    if (
        deal.phase != PLAY
        or before["phase"] != PLAY
        or before["deal"] != deal.number
        or len(written) * n + len(before["trick"]) + len(plays) != deal.play_count
    ):
        return None
    out: Json = {}
    to_act = deal.to_act
    if to_act != before["to_act"]:
        out["to_act"] = to_act
    trick = deal.trick
    names = [CARD_NAMES[c] for c in trick]
    if names != before["trick"]:
        out["trick"] = names
    leader = deal.trick_leader if trick else to_act
    if leader != before["trick_leader"]:
        out["trick_leader"] = leader
    done = deal.tricks_played
    if done != len(written):  # a trick ended: what it changed
        out["tricks"] = _tricks_written(deal, written)
        taken = list(deal.taken_points)
        if taken != before["taken_points"]:
            out["taken_points"] = taken
        if not before["kitty"] and deal.kitty:
            out["kitty"] = _names(deal.kitty)  # taken with the first trick
    if deal.hearts_broken != before["hearts_broken"]:
        out["hearts_broken"] = deal.hearts_broken
    sizes = _hand_sizes(deal)
    if sizes != before["hand_sizes"]:
        out["hand_sizes"] = sizes
    # Only a seat that played can have shown a void.
    old_voids = before["voids"]
    voids = None
    for e in plays:
        seat = e["seat"]
        shown = [s for s in range(4) if deal.voids[seat] & SUIT_MASKS[s]]
        if shown != old_voids[seat]:
            if voids is None:
                voids = list(old_voids)
            voids[seat] = shown
    if voids is not None:
        out["voids"] = voids
    return out


PLAY_FIELDS = frozenset(
    (
        "to_act",
        "trick",
        "trick_leader",
        "tricks",
        "hearts_broken",
        "taken_points",
        "hand_sizes",
        "voids",
        "kitty",
    )
)
"""The keys of ``public_json`` that may change while a deal is played (the
others stay as they were when its play began)."""


__all__ = ["PLAY_FIELDS", "played_changes", "public_json"]
