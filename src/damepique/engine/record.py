"""The ``damepique-game/1`` record: load, dump, replay, and the referee's answers.

Every fault maps to one error kind of ``docs/record-format.md`` with the deal,
play and seat it concerns. ``referee_replay`` and ``referee_legal`` return
the exact JSON objects the command-line referee prints.

>>> import random
>>> match = Match(Rules(target=50), random.Random(3))
>>> _ = match.next_deal()
>>> record = dump_match(match)
>>> replay(record).deals[0].phase
'pass'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .cards import CARD_NAMES, cards_of, parse_card
from .deal import DONE, PASS, PLAY, Deal
from .errors import CardError, DealError, HeartsError, IllegalAction, RulesError, short_repr
from .match import Match
from .rules import Rules

FORMAT = "damepique-game/1"


class RecordError(HeartsError):
    """A record that is malformed or breaks the rules, located in the record."""

    def __init__(
        self,
        kind: str,
        reason: str,
        *,
        deal: int | None = None,
        play: int | None = None,
        seat: int | None = None,
        card: int | str | None = None,
    ) -> None:
        super().__init__(reason)
        self.kind = kind
        self.deal = deal
        self.play = play
        self.seat = seat
        self.card = card

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"error": self.kind}
        for key in ("deal", "play", "seat"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.card is not None:
            out["card"] = CARD_NAMES[self.card] if isinstance(self.card, int) else self.card
        out["reason"] = self.reason
        return out


def _describe(value: object, limit: int = 40) -> str:
    """A short JSON-like description of a value from the record, for reasons."""
    if isinstance(value, (list, dict)):
        return "a list" if isinstance(value, list) else "an object"
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (ValueError, TypeError, RecursionError):
        text = short_repr(value, limit)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _card(value: object, deal: int, *, play: int | None = None, seat: int | None = None) -> int:
    if not isinstance(value, str):
        raise RecordError(
            "bad_card",
            f"a card is a string such as 'QS', not {_describe(value)}",
            deal=deal,
            play=play,
            seat=seat,
        )
    try:
        return parse_card(value)
    except CardError:
        text = value if len(value) <= 20 else value[:17] + "..."
        reason = f"not a card: {_describe(text)} (write a card as rank then suit, e.g. 'QS' or '10♥')"
        raise RecordError("bad_card", reason, deal=deal, play=play, seat=seat, card=text) from None


def _card_list(value: object, what: str, deal: int, seat: int | None = None) -> list[int]:
    if not isinstance(value, list):
        raise RecordError("bad_deal", f"{what} must be a list of cards", deal=deal, seat=seat)
    return [_card(v, deal, seat=seat) for v in value]


def load(text: str | bytes) -> dict[str, Any]:
    """Parse a record's JSON; raise RecordError(bad_json) when it is not one."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise RecordError("bad_json", f"not valid JSON: {e}") from None
    if not isinstance(data, dict):
        raise RecordError("bad_json", "a game record is a JSON object")
    return data


def replay(record: Mapping[str, Any]) -> Match:
    """Replay a record through the engine, checking every pass and play."""
    if not isinstance(record, Mapping):
        raise RecordError("bad_json", "a game record is a JSON object")
    if record.get("format") != FORMAT:
        found = _describe(record.get("format")) if "format" in record else "missing"
        raise RecordError("bad_json", f"format must be {FORMAT!r}, not {found}")
    try:
        rules = Rules.from_json(record.get("rules"))
    except RulesError as e:
        raise RecordError("bad_rules", e.reason) from None
    except TypeError as e:  # pragma: no cover - from_json checks keys first
        raise RecordError("bad_rules", str(e)) from None
    players = record.get("players")
    if players is not None:
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RecordError("bad_json", "players must be a list of names")
        if len(players) != rules.players:
            raise RecordError("bad_json", f"{len(players)} names for {rules.players} seats")
    deals = record.get("deals", [])
    if not isinstance(deals, list):
        raise RecordError("bad_json", "deals must be a list")
    match = Match(rules)
    for k, raw in enumerate(deals):
        _replay_deal(match, k, raw)
    return match


def _replay_deal(match: Match, k: int, raw: object) -> None:
    rules = match.rules
    if not isinstance(raw, dict):
        raise RecordError("bad_deal", "a deal is a JSON object", deal=k)
    hands_raw = raw.get("hands")
    if not isinstance(hands_raw, list):
        raise RecordError("bad_deal", "hands must be a list of hands", deal=k)
    hands = [_card_list(h, f"hand {s}", k, s) for s, h in enumerate(hands_raw)]
    kitty_raw = raw.get("kitty", [])
    kitty = _card_list([] if kitty_raw is None else kitty_raw, "kitty", k)
    for seat, cards in enumerate(hands):
        if len(set(cards)) != len(cards):
            dup = next(c for c in cards if cards.count(c) > 1)
            raise RecordError("bad_deal", f"{CARD_NAMES[dup]} is dealt twice", deal=k, seat=seat, card=dup)
    if len(set(kitty)) != len(kitty):
        dup = next(c for c in kitty if kitty.count(c) > 1)
        raise RecordError("bad_deal", f"{CARD_NAMES[dup]} is dealt twice", deal=k, card=dup)
    try:
        deal = match.next_deal(hands, kitty)
    except DealError as e:
        raise RecordError("bad_deal", e.reason, deal=k, seat=e.seat, card=e.card) from None
    passes = raw.get("passes")
    if passes is None:
        passes = []
    if not isinstance(passes, list):
        raise RecordError("illegal_pass", "passes must be a list of passes", deal=k)
    if len(passes) > rules.players:
        raise RecordError("illegal_pass", f"{len(passes)} passes for {rules.players} seats", deal=k)
    for seat, p in enumerate(passes):
        if not isinstance(p, list):
            raise RecordError("illegal_pass", "a pass is a list of cards", deal=k, seat=seat)
        cards = [_card(c, k, seat=seat) for c in p]
        if deal.phase == PLAY and not deal.play_count and deal.pass_offset % rules.players == 0:
            if cards:
                raise RecordError("illegal_pass", "there is no passing in this deal", deal=k, seat=seat)
            continue
        try:
            deal.pass_cards(seat, cards)
        except IllegalAction as e:
            raise RecordError("illegal_pass", e.reason, deal=k, seat=seat, card=e.card) from None
    plays = raw.get("plays")
    if plays is None:
        plays = []
    if not isinstance(plays, list):
        raise RecordError("illegal_play", "plays must be a list of cards", deal=k)
    for i, p in enumerate(plays):
        actor = deal.to_act if deal.phase == PLAY else None
        card = _card(p, k, play=i, seat=actor)
        try:
            deal.play(card)
        except IllegalAction as e:
            raise RecordError("illegal_play", e.reason, deal=k, play=i, seat=actor, card=card) from None


def referee_replay(record: Mapping[str, Any]) -> dict[str, Any]:
    """The object ``damepique replay`` prints on success."""
    match = replay(record)
    deals = []
    for deal in match.deals:
        result = deal.result()
        deals.append({"points": list(result.points), "moon": result.moon, "complete": result.complete})
    winners = match.winners
    out: dict[str, Any] = {
        "deals": deals,
        "totals": match.totals,
        "over": bool(winners),
        "winner": winners[0] if len(winners) == 1 else None,
    }
    if winners and match.rules.tie == "share":
        out["winners"] = list(winners)
    return out


def referee_legal(record: Mapping[str, Any]) -> dict[str, Any]:
    """The object ``damepique legal`` prints: what the seat to act may do."""
    match = replay(record)
    deal = match.deal
    if deal is None or deal.phase == DONE:
        phase = "over" if match.over else "deal"
        return {"seat": None, "phase": phase, "legal": []}
    if deal.phase == PASS:
        seat = deal.passing_seats[0]
        legal = [CARD_NAMES[c] for c in cards_of(deal.hands[seat])]
        return {"seat": seat, "phase": "pass", "legal": legal, "count": match.rules.pass_count}
    return {"seat": deal.to_act, "phase": "play", "legal": [CARD_NAMES[c] for c in deal.legal_cards()]}


def dump_deal(deal: Deal) -> dict[str, Any]:
    """One deal as the record writes it."""
    out: dict[str, Any] = {
        "hands": [[CARD_NAMES[c] for c in cards_of(h)] for h in deal.dealt],
        "kitty": [CARD_NAMES[c] for c in cards_of(deal.kitty)],
    }
    passes = []
    for p in deal.passes:
        if p is None:
            break  # the record lists passes seat by seat: a prefix
        passes.append([CARD_NAMES[c] for c in cards_of(p)])
    out["passes"] = passes
    out["plays"] = [CARD_NAMES[c] for c in deal.plays]
    return out


def dump_match(match: Match, players: list[str] | None = None) -> dict[str, Any]:
    """The whole match as a ``damepique-game/1`` record (a JSON-ready dict)."""
    record: dict[str, Any] = {"format": FORMAT, "rules": match.rules.to_json()}
    if players is not None:
        record["players"] = list(players)
    record["deals"] = [dump_deal(d) for d in match.deals]
    return record


__all__ = [
    "FORMAT",
    "RecordError",
    "dump_deal",
    "dump_match",
    "load",
    "referee_legal",
    "referee_replay",
    "replay",
]
