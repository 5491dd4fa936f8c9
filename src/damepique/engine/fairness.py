"""Sealed deals: every deal of a game comes from one secret, committed to first.

A game draws a 256-bit secret from ``secrets`` before its first deal and
tells every seat the secret's SHA-256, the *commitment*. Deal *k* is then an
exactly uniform Fisher-Yates shuffle fed by HMAC-SHA256 of the secret in
counter mode, so that a player's own hands say nothing of anybody else's, nor
of later deals: without the secret the stream cannot be predicted, and the
secret cannot be recovered from what it dealt. When the game ends the secret
is revealed; anyone can then check that the commitment was to it and that
every deal is what it gives (``verify_record``, ``damepique verify``). The
scheme is written out in ``docs/fairness.md`` for other implementations.

>>> from damepique.engine import Rules
>>> secret = bytes(range(32))
>>> commitment(secret)[:16]
'630dcd2966c43366'
>>> hands, kitty = deal_cards(Rules(), secret, 0)
>>> [len(h) for h in hands], kitty
([13, 13, 13, 13], [])
>>> sorted(hands[0]) == sorted(deal_cards(Rules(), secret, 0)[0][0])
True
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from .cards import cards_of, mask_of, parse_card
from .deal import Deal
from .errors import CardError, RulesError
from .record import FORMAT, RecordError, replay
from .rules import Rules

SCHEME = "damepique-hmac-sha256/1"
SECRET_BYTES = 32
"""256 bits: far past any search, and the size of one SHA-256 block of key."""

_HEX64 = re.compile(r"[0-9a-f]{64}")


def new_secret() -> bytes:
    """A fresh game secret from the operating system's generator (``secrets``)."""
    return secrets.token_bytes(SECRET_BYTES)


def commitment(secret: bytes) -> str:
    """What the seats hear before the first deal: the secret's SHA-256, in hex."""
    return hashlib.sha256(secret).hexdigest()


def _stream(secret: bytes, number: int, label: str = "deal") -> Iterator[int]:
    """The bytes of HMAC-SHA256(secret, "damepique-<label>:<number>:<block>")
    for block 0, 1, 2, ...: an endless stream, one per deal."""
    block = 0
    while True:
        message = f"damepique-{label}:{number}:{block}".encode("ascii")
        yield from hmac.new(secret, message, hashlib.sha256).digest()
        block += 1


def _uniform(stream: Iterator[int], bound: int) -> int:
    """An exactly uniform integer in ``[0, bound)``: 32-bit big-endian words
    from the stream, rejecting those past the last whole multiple of ``bound``."""
    limit = (1 << 32) - (1 << 32) % bound
    while True:
        word = (next(stream) << 24) | (next(stream) << 16) | (next(stream) << 8) | next(stream)
        if word < limit:
            return word % bound


def shuffled_deck(rules: Rules, secret: bytes, number: int) -> list[int]:
    """The cards of deal ``number`` in dealt order: the rules' deck in card order
    (2C 3C ... AC 2D ... AS, without the cards the rules remove), shuffled by
    Fisher-Yates from the last position down, each swap partner drawn by
    ``_uniform`` from the deal's stream."""
    if len(secret) != SECRET_BYTES:
        raise ValueError(f"a game secret is {SECRET_BYTES} bytes, not {len(secret)}")
    deck = list(cards_of(rules.deck_cards))
    stream = _stream(secret, number)
    for i in range(len(deck) - 1, 0, -1):
        j = _uniform(stream, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal_cards(rules: Rules, secret: bytes, number: int) -> tuple[list[list[int]], list[int]]:
    """The hands (seat 0 first, each the next ``hand_size`` cards of the
    shuffled deck) and the kitty (the rest) of deal ``number``."""
    deck = shuffled_deck(rules, secret, number)
    size = rules.hand_size
    hands = [deck[s * size : (s + 1) * size] for s in range(rules.players)]
    return hands, deck[rules.players * size :]


def sealed_deal(rules: Rules, secret: bytes, number: int) -> Deal:
    """Deal ``number`` of the game whose secret is ``secret``."""
    hands, kitty = deal_cards(rules, secret, number)
    return Deal(rules, hands, kitty, number)


def derived_seed(secret: bytes, label: str) -> int:
    """A 64-bit seed for something other than the deals (a bot's generator),
    from its own HMAC stream: it tells nothing of the deals' streams."""
    digest = hmac.new(secret, f"damepique-seed:{label}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def fairness_json(secret: bytes, revealed: bool) -> dict[str, str]:
    """The record's ``fairness`` object; the secret only once ``revealed``."""
    out = {"scheme": SCHEME, "commitment": commitment(secret)}
    if revealed:
        out["secret"] = secret.hex()
    return out


class Unverified(Exception):
    """A record whose deals are not the ones its fairness object promises."""

    def __init__(self, reason: str, deal: int | None = None, seat: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.deal = deal
        self.seat = seat

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"error": "unverified"}
        if self.deal is not None:
            out["deal"] = self.deal
        if self.seat is not None:
            out["seat"] = self.seat
        out["reason"] = self.reason
        return out


def parse_fairness(value: object) -> tuple[str, bytes]:
    """The commitment and the secret of a revealed ``fairness`` object; raises
    ``Unverified`` naming what is missing or malformed."""
    if not isinstance(value, Mapping):
        raise Unverified("the record has no fairness object to check its deals against")
    if value.get("scheme") != SCHEME:
        raise Unverified(f"unknown fairness scheme {str(value.get('scheme'))[:40]!r}; this checks {SCHEME}")
    promised = value.get("commitment")
    if not isinstance(promised, str) or not _HEX64.fullmatch(promised):
        raise Unverified("the commitment is not 64 lower-case hex digits")
    text = value.get("secret")
    if text is None:
        raise Unverified("the secret is not revealed yet (it is, once the game is over)")
    if not isinstance(text, str) or not _HEX64.fullmatch(text):
        raise Unverified("the secret is not 64 lower-case hex digits")
    return promised, bytes.fromhex(text)


def verify_deals(rules: Rules, fairness: object, deals: Sequence[object]) -> int:
    """Check the commitment, then each deal's hands and kitty against the
    scheme; return the number of deals. ``deals`` are the record's deal
    objects (only their cards are read: legality is the referee's job).
    Raises ``Unverified`` at the commitment or the first deal that differs."""
    promised, secret = parse_fairness(fairness)
    if commitment(secret) != promised:
        raise Unverified("the secret does not match the commitment announced before the first deal")
    for k, raw in enumerate(deals):
        hands, kitty = deal_cards(rules, secret, k)
        got = raw.get("hands") if isinstance(raw, Mapping) else None
        if not isinstance(got, list) or len(got) != rules.players:
            raise Unverified(f"deal {k} does not hold {rules.players} hands", deal=k)
        for seat, (theirs, ours) in enumerate(zip(got, hands, strict=True)):
            if _mask(theirs) != mask_of(ours):
                raise Unverified(
                    f"hand {seat} of deal {k} is not the one the secret deals", deal=k, seat=seat
                )
        got_kitty = raw.get("kitty") if isinstance(raw, Mapping) else None
        if _mask([] if got_kitty is None else got_kitty) != mask_of(kitty):
            raise Unverified(f"the kitty of deal {k} is not the one the secret deals", deal=k)
    return len(deals)


def _mask(cards: object) -> int | None:
    """The set of cards a record lists (None when it is not a list of distinct cards)."""
    if not isinstance(cards, list):
        return None
    try:
        parsed = [parse_card(c) for c in cards]
    except CardError:
        return None
    mask = mask_of(parsed)
    return mask if len(parsed) == mask.bit_count() else None


def referee_verify(record: Mapping[str, Any]) -> dict[str, Any]:
    """What ``damepique verify`` prints: ``{"verified": true, "deals": N}``.

    The deals are checked against the scheme before their plays, so a record
    whose hands differ is ``unverified`` (``Unverified``) even when its plays
    are illegal too; a record whose deals are the sealed ones but whose plays
    break the rules gets the referee's error (``RecordError``)."""
    if not isinstance(record, Mapping):
        raise RecordError("bad_json", "a game record is a JSON object")
    if record.get("format") != FORMAT:
        replay(record)  # raises the referee's bad_json, naming the format found
    try:
        rules = Rules.from_json(record.get("rules"))
    except RulesError as e:
        raise RecordError("bad_rules", e.reason) from None
    deals = record.get("deals", [])
    if not isinstance(deals, list):
        raise RecordError("bad_json", "deals must be a list")
    count = verify_deals(rules, record.get("fairness"), deals)
    replay(record)
    return {"verified": True, "deals": count}


__all__ = [
    "SCHEME",
    "SECRET_BYTES",
    "Unverified",
    "commitment",
    "deal_cards",
    "derived_seed",
    "fairness_json",
    "new_secret",
    "parse_fairness",
    "referee_verify",
    "sealed_deal",
    "shuffled_deck",
    "verify_deals",
]
