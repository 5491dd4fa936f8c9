"""Cards: parsing and formatting in pairs, masks, the readable CardSet."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from damepique.engine import CARD_NAMES, CardError, CardSet, cards_of, format_card, mask_of, parse_card
from damepique.engine.cards import RANKS, SUIT_MASKS, SUIT_SYMBOLS, SUITS

cards = st.integers(min_value=0, max_value=51)
masks = st.integers(min_value=0, max_value=(1 << 52) - 1)


@given(cards)
def test_format_then_parse_is_the_card(card: int) -> None:
    assert parse_card(format_card(card)) == card


@given(cards, st.booleans(), st.booleans(), st.booleans())
def test_every_accepted_spelling_parses(card: int, lower: bool, ten: bool, symbol: bool) -> None:
    rank, suit = RANKS[card % 13], SUITS[card // 13]
    text_rank = "10" if ten and rank == "T" else rank
    text_suit = SUIT_SYMBOLS[card // 13] if symbol else suit
    text = text_rank + text_suit
    assert parse_card(text.lower() if lower else text) == card


def test_the_spec_examples() -> None:
    assert format_card(parse_card("Q♠")) == "QS"
    assert format_card(parse_card("10♥")) == "TH"
    assert format_card(parse_card("qs")) == "QS"
    assert parse_card("2C") == 0
    assert CARD_NAMES[parse_card("AS")] == "AS"


@pytest.mark.parametrize(
    "text", ["", "Q", "QQ", "1C", "11H", "Q S", " QS", "QS ", "XS", "QX", "0C", "10", "AS♠", "T"]
)
def test_anything_else_is_an_error_naming_the_text(text: str) -> None:
    with pytest.raises(CardError) as e:
        parse_card(text)
    assert e.value.text == text
    assert repr(text) in e.value.reason


@given(st.text(max_size=4))
def test_parse_either_answers_or_raises_card_error(text: str) -> None:
    try:
        card = parse_card(text)
    except CardError:
        return
    assert 0 <= card < 52
    # Whatever parsed is one of the accepted spellings of its card.
    assert text.upper().replace("10", "T")[0] == RANKS[card % 13]


@given(masks)
def test_cards_of_and_mask_of_are_inverse(mask: int) -> None:
    listed = cards_of(mask)
    assert list(listed) == sorted(listed)
    assert len(listed) == mask.bit_count()
    assert mask_of(listed) == mask


@given(masks)
def test_cardset_repr_pastes_back(mask: int) -> None:
    cs = CardSet(mask)
    assert eval(repr(cs), {"CardSet": CardSet}) == cs
    assert len(cs) == mask.bit_count()
    assert [CARD_NAMES[c] for c in cs] == cs.names()
    for suit in range(4):
        assert cs.suit(suit).mask == mask & SUIT_MASKS[suit]


def test_cardset_is_immutable_and_readable() -> None:
    hand = CardSet.parse("QS 2C AH")
    assert str(hand) == "2C AH QS"
    assert "Q♠" in hand and "2D" not in hand and 51 not in hand
    with pytest.raises(AttributeError):
        hand.mask = 0  # type: ignore[misc]
