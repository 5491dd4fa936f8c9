"""Table codes: readable aloud, no look-alikes, not guessable in practice."""

from __future__ import annotations

from damepique.server.tables.codes import (
    ALPHABET,
    CODE_LENGTH,
    display_code,
    new_code,
    new_token,
    normalize_code,
)


def test_alphabet_has_no_look_alikes() -> None:
    for bad in "0O1IL":
        assert bad not in ALPHABET
    assert len(set(ALPHABET)) == len(ALPHABET) == 31


def test_codes_are_random_and_well_formed() -> None:
    codes = {new_code() for _ in range(2000)}
    assert len(codes) == 2000
    for code in codes:
        assert len(code) == CODE_LENGTH and set(code) <= set(ALPHABET)


def test_normalize_accepts_what_people_type_and_refuses_look_alikes() -> None:
    code = "K7QM4XPA"
    assert normalize_code("k7qm-4xpa") == code
    assert normalize_code(" K7QM 4XPA ") == code
    assert normalize_code(display_code(code)) == code
    assert normalize_code("K7QM4XP0") is None  # zero is never in a code
    assert normalize_code("K7QM4XP") is None
    assert normalize_code("") is None


def test_tokens_are_long_and_distinct() -> None:
    tokens = {new_token() for _ in range(100)}
    assert len(tokens) == 100
    assert all(len(t) >= 40 for t in tokens)
