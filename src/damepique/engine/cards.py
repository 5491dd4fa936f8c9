"""Cards as small ints, sets of cards as 52-bit masks.

A card is ``suit * 13 + rank`` with suits clubs, diamonds, hearts, spades
(0..3) and ranks two..ace (0..12), so the cards of one suit are 13 adjacent
bits ordered by rank: following suit is ``hand & SUIT_MASKS[suit]`` and the
highest card of a suit in a mask is its highest bit.

>>> parse_card("Q♠") == QS
True
>>> format_card(parse_card("10h"))
'TH'
>>> CardSet.parse("2C QS AH")
CardSet.parse('2C AH QS')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .errors import CardError

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3

FULL_SUIT = (1 << 13) - 1
SUIT_MASKS: tuple[int, int, int, int] = (
    FULL_SUIT,
    FULL_SUIT << 13,
    FULL_SUIT << 26,
    FULL_SUIT << 39,
)
ALL_CARDS = (1 << 52) - 1
HEARTS_MASK = SUIT_MASKS[HEARTS]


def card(rank: str, suit: str) -> int:
    """The card of a rank character and a suit character: ``card("Q", "S")``."""
    return SUITS.index(suit) * 13 + RANKS.index(rank)


TWO_OF_CLUBS = 0
JD = card("J", "D")
QS = card("Q", "S")
KS = card("K", "S")
AS = card("A", "S")


def suit_of(c: int) -> int:
    return c // 13


def rank_of(c: int) -> int:
    return c % 13


_RANK_IN = {r: i for i, r in enumerate(RANKS)}
_RANK_IN["10"] = 8
_SUIT_IN = {s: i for i, s in enumerate(SUITS)}
_SUIT_IN.update({s: i for i, s in enumerate(SUIT_SYMBOLS)})
# Text presentation variants of the symbols (with U+FE0F) and the white suits
# that some keyboards produce.
_SUIT_IN.update({s + "\ufe0f": i for i, s in enumerate(SUIT_SYMBOLS)})
_SUIT_IN.update({"♧": 0, "♢": 1, "♡": 2, "♤": 3})


def parse_card(text: str) -> int:
    """Parse ``QS``, ``qs``, ``Q♠``, ``10♥`` or ``TH``; raise CardError naming the text."""
    if not isinstance(text, str):
        raise CardError(repr(text), "a card is a string such as 'QS'")
    t = text
    upper = t.upper()
    for rank_len in (2, 1):
        rank_text, suit_text = upper[:rank_len], t[rank_len:]
        if rank_text in _RANK_IN:
            suit = _SUIT_IN.get(suit_text.upper()) if suit_text else None
            if suit is not None and (rank_len == 1 or rank_text == "10"):
                return suit * 13 + _RANK_IN[rank_text]
    raise CardError(text, f"not a card: {text!r} (write a card as rank then suit, e.g. 'QS' or '10♥')")


def format_card(c: int) -> str:
    """``QS``: rank character then suit character, the record's form."""
    return RANKS[c % 13] + SUITS[c // 13]


CARD_NAMES = tuple(format_card(c) for c in range(52))


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _suit_table(suit: int) -> tuple[tuple[int, ...], ...]:
    base = suit * 13
    return tuple(tuple(base + r for r in range(13) if bits >> r & 1) for bits in range(1 << 13))


# Cards of a mask, one lookup per suit: this is the hot path of random
# play-outs, far cheaper than testing 52 bits one by one.
_SUIT_TABLES = tuple(_suit_table(s) for s in range(4))
_T0, _T1, _T2, _T3 = _SUIT_TABLES


def cards_of(mask: int) -> tuple[int, ...]:
    """The cards of a mask, in ascending order (clubs first, by rank)."""
    return (
        _T0[mask & FULL_SUIT]
        + _T1[mask >> 13 & FULL_SUIT]
        + _T2[mask >> 26 & FULL_SUIT]
        + _T3[mask >> 39 & FULL_SUIT]
    )


def suit_cards(mask: int, suit: int) -> tuple[int, ...]:
    """The cards of one suit in a mask, ascending."""
    return _SUIT_TABLES[suit][mask >> (13 * suit) & FULL_SUIT]


def highest(mask: int) -> int:
    """The highest card of a non-empty mask (highest suit, then rank)."""
    return mask.bit_length() - 1


def lowest(mask: int) -> int:
    """The lowest card of a non-empty mask."""
    return (mask & -mask).bit_length() - 1


def parse_cards(texts: Iterable[str]) -> list[int]:
    if isinstance(texts, str):
        texts = texts.replace(",", " ").split()
    return [parse_card(t) for t in texts]


class CardSet:
    """An immutable, readable set of cards over a mask.

    >>> hand = CardSet.parse("QS 2C AH")
    >>> str(hand), len(hand), "QS" in hand
    ('2C AH QS', 3, True)
    >>> hand.suit(3)
    CardSet.parse('QS')
    """

    __slots__ = ("mask",)

    mask: int

    def __init__(self, mask: int | Iterable[int] = 0) -> None:
        object.__setattr__(self, "mask", mask if isinstance(mask, int) else mask_of(mask))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> CardSet:
        return cls(mask_of(parse_cards(text)))

    def __iter__(self) -> Iterator[int]:
        return iter(cards_of(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __contains__(self, item: object) -> bool:
        if isinstance(item, str):
            item = parse_card(item)
        return isinstance(item, int) and 0 <= item < 52 and bool(self.mask >> item & 1)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def suit(self, suit: int) -> CardSet:
        return CardSet(self.mask & SUIT_MASKS[suit])

    def names(self) -> list[str]:
        return [CARD_NAMES[c] for c in cards_of(self.mask)]

    def __str__(self) -> str:
        return " ".join(self.names())

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"
