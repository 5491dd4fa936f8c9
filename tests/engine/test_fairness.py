"""Sealed deals (``engine.fairness``): unpredictable from one's own hands,
checkable afterwards, and exactly the scheme ``docs/fairness.md`` writes out."""

from __future__ import annotations

import hashlib
import hmac
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from damepique.cli import main, random_game, referee_data
from damepique.engine import CARD_NAMES, PRESETS, Rules, cards_of, parse_card
from damepique.engine import fairness as fairness_module
from damepique.engine.fairness import (
    SCHEME,
    SECRET_BYTES,
    commitment,
    deal_cards,
    derived_seed,
    new_secret,
    sealed_deal,
    shuffled_deck,
)

ROOT = Path(__file__).resolve().parents[2]
VECTOR_SECRET = bytes(range(32))
# Deal 0 of the standard rules for the secret 00 01 02 ... 1f, as docs/fairness.md gives it.
VECTOR_DECK = (
    "5H 7H 9S 9C KS QC 2C 2S KH 5S JD QD 8S AS AH KD JS AD AC QH QS TH 7C 6S 4C 9D 3C "
    "7S TD TC 8C 6C 9H 4D JH 5C 2H 2D JC 6D 6H 7D 3H 3D 3S 5D 8H 8D TS 4S KC 4H"
)


def reference_deck(rules: Rules, secret: bytes, number: int) -> list[str]:
    """The scheme as a re-implementer reads it in docs/fairness.md, written
    apart from the engine: HMAC-SHA256 blocks, 32-bit words, rejection, Fisher-Yates."""
    stream = b""
    block = 0
    position = 0

    def word() -> int:
        nonlocal stream, block, position
        while len(stream) < position + 4:
            msg = f"damepique-deal:{number}:{block}".encode()
            stream += hmac.new(secret, msg, hashlib.sha256).digest()
            block += 1
        value = int.from_bytes(stream[position : position + 4], "big")
        position += 4
        return value

    deck = [CARD_NAMES[c] for c in cards_of(rules.deck_cards)]
    for i in range(len(deck) - 1, 0, -1):
        bound = i + 1
        limit = 2**32 - 2**32 % bound
        while (w := word()) >= limit:
            pass
        j = w % bound
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def test_the_published_vector() -> None:
    assert commitment(VECTOR_SECRET) == hashlib.sha256(VECTOR_SECRET).hexdigest()
    deck = [CARD_NAMES[c] for c in shuffled_deck(Rules(), VECTOR_SECRET, 0)]
    assert " ".join(deck) == VECTOR_DECK
    assert VECTOR_DECK in (ROOT / "docs" / "fairness.md").read_text()


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_deals_what_the_written_scheme_says(preset: str) -> None:
    rules = PRESETS[preset]
    rng = random.Random(preset)
    for number in range(6):
        secret = rng.randbytes(SECRET_BYTES)
        deck = [CARD_NAMES[c] for c in shuffled_deck(rules, secret, number)]
        assert deck == reference_deck(rules, secret, number)
        hands, kitty = deal_cards(rules, secret, number)
        size = rules.hand_size
        assert [[CARD_NAMES[c] for c in h] for h in hands] == [
            deck[s * size : (s + 1) * size] for s in range(rules.players)
        ]
        assert [CARD_NAMES[c] for c in kitty] == deck[rules.players * size :]
        deal = sealed_deal(rules, secret, number)  # a valid deal of these rules
        assert deal.number == number and deal.kitty == sum(1 << c for c in kitty)


def test_the_secret_is_256_bits_from_the_operating_system(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []
    real = fairness_module.secrets.token_bytes

    def spy(n: int) -> bytes:
        asked.append(n)
        return real(n)

    monkeypatch.setattr(fairness_module.secrets, "token_bytes", spy)
    secret = new_secret()
    assert asked == [32] and len(secret) == SECRET_BYTES == 32
    with pytest.raises(ValueError, match="32 bytes"):
        shuffled_deck(Rules(), secret[:4], 0)  # a short secret would be guessable: refused


def test_deals_use_no_mersenne_twister(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing a player could reconstruct from their hands feeds the shuffle."""

    def refuse(*_: Any, **__: Any) -> None:
        raise AssertionError("a deal used the random module")

    monkeypatch.setattr(random.Random, "getrandbits", refuse)
    monkeypatch.setattr(random.Random, "random", refuse)
    monkeypatch.setattr(random.Random, "seed", refuse)
    deal_cards(Rules(), bytes(32), 0)


def test_deals_are_independent_streams() -> None:
    """Two deals of one game, two games, and two secrets a bit apart share nothing
    that shows: each pair of hands dealt agrees no more than chance would."""
    secret = bytes(range(32))
    flipped = bytes([secret[0] ^ 1]) + secret[1:]
    decks = {
        "deal 0": shuffled_deck(Rules(), secret, 0),
        "deal 1": shuffled_deck(Rules(), secret, 1),
        "one bit off": shuffled_deck(Rules(), flipped, 0),
        "another game": shuffled_deck(Rules(), new_secret(), 0),
    }
    items = list(decks.items())
    for i, (a, x) in enumerate(items):
        for b, y in items[i + 1 :]:
            same_place = sum(p == q for p, q in zip(x, y, strict=True))
            assert same_place <= 8, (a, b, same_place)  # 1 expected; 8 has odds below 1e-5
    # The bots' seeds come from their own stream, not from the deals'.
    assert derived_seed(secret, "bot:0:1") != derived_seed(secret, "bot:0:2")


def test_a_card_goes_to_each_seat_and_place_equally_often() -> None:
    """Exactly uniform in principle; here, no seat favoured beyond chance
    (2,000 deals: each count is 500 +- 19.4; the bound is 6 sigma)."""
    rng = random.Random(1)
    seats: Counter[tuple[int, int]] = Counter()
    for _ in range(2000):
        hands, _ = deal_cards(Rules(), rng.randbytes(32), 0)
        for seat, hand in enumerate(hands):
            for card in hand:
                seats[card, seat] += 1
    assert all(abs(seats[c, s] - 500) < 6 * 19.4 for c in range(52) for s in range(4))


def test_the_rejection_step_is_exact() -> None:
    """A word past the last whole multiple of the bound is thrown away, never folded."""
    words = [0xFFFFFFFF, 7]  # 2**32 - 1 is past 3's last multiple: rejected
    stream = iter(b"".join(w.to_bytes(4, "big") for w in words))
    assert fairness_module._uniform(stream, 3) == 7 % 3
    stream = iter(b"".join(w.to_bytes(4, "big") for w in [0xFFFFFFFF - 1]))
    assert fairness_module._uniform(stream, 3) == (0xFFFFFFFF - 1) % 3  # the last multiple's last word


# -- verify --------------------------------------------------------------------------


def _verify(record: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    return referee_data(json.dumps(record).encode(), "verify")


@pytest.mark.parametrize(
    "preset", ["standard", "three_players_kitty", "five_players", "black_maria", "deck_36"]
)
def test_honest_records_verify(preset: str) -> None:
    record = random_game(PRESETS[preset].replace(target=50), seed=3)
    assert record["fairness"]["scheme"] == SCHEME
    status, answer = _verify(record)
    assert (status, answer) == (0, {"verified": True, "deals": len(record["deals"])})


def test_two_cards_swapped_are_found_at_their_deal() -> None:
    record = random_game(Rules(target=50), seed=4)
    hands = record["deals"][2]["hands"]
    hands[1][0], hands[3][5] = hands[3][5], hands[1][0]
    status, answer = _verify(record)
    assert status == 2
    assert answer["error"] == "unverified" and answer["deal"] == 2 and answer["seat"] == 1
    assert "deal 2" in answer["reason"]


def test_a_changed_secret_or_commitment_is_refused() -> None:
    record = random_game(Rules(target=50), seed=5)
    other = json.loads(json.dumps(record))
    other["fairness"]["secret"] = new_secret().hex()
    status, answer = _verify(other)
    assert status == 2 and answer["error"] == "unverified" and "commitment" in answer["reason"]
    other = json.loads(json.dumps(record))
    other["fairness"]["commitment"] = commitment(new_secret())
    status, answer = _verify(other)
    assert status == 2 and answer["error"] == "unverified" and "commitment" in answer["reason"]
    # A secret and commitment that agree, but are not the game's: the first deal differs.
    other = json.loads(json.dumps(record))
    secret = new_secret()
    other["fairness"] = {"scheme": SCHEME, "commitment": commitment(secret), "secret": secret.hex()}
    status, answer = _verify(other)
    assert (status, answer["error"], answer["deal"]) == (2, "unverified", 0)


def test_hands_are_checked_before_plays() -> None:
    """A record whose hands differ is unverified even when its plays are illegal too;
    one whose hands are the sealed ones but whose plays are not legal gets the referee's error."""
    record = random_game(Rules(target=50), seed=6)
    cheat = json.loads(json.dumps(record))
    cheat["deals"][0]["plays"][0] = "QS"
    assert _verify(cheat)[1]["error"] == "illegal_play"
    hands = cheat["deals"][0]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    assert _verify(cheat)[1]["error"] == "unverified"


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda r: r.pop("fairness"), "no fairness object"),
        (lambda r: r["fairness"].pop("secret"), "not revealed"),
        (lambda r: r["fairness"].update(secret="zz"), "hex"),
        (lambda r: r["fairness"].update(scheme="md5/1"), "unknown fairness scheme"),
        (lambda r: r["deals"][0].update(hands=[["2C"]]), "4 hands"),
        (lambda r: r["deals"][1]["hands"][0].__setitem__(0, "XX"), "hand 0 of deal 1"),
    ],
)
def test_what_cannot_be_verified_says_why(change: Any, words: str) -> None:
    record = random_game(Rules(target=50), seed=7)
    change(record)
    status, answer = _verify(record)
    assert status == 2 and answer["error"] == "unverified" and words in answer["reason"]


def test_records_written_in_other_card_forms_still_verify() -> None:
    record = random_game(Rules(target=50), seed=8)
    record["deals"][0]["hands"] = [
        [c[0] + "♣♦♥♠"["CDHS".index(c[1])] for c in h] for h in record["deals"][0]["hands"]
    ]
    assert all(parse_card(c) >= 0 for c in record["deals"][0]["hands"][0])
    assert _verify(record)[0] == 0


def test_verify_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(random_game(Rules(target=50), seed=9)))
    assert main(["verify", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["verified"] is True
    record = json.loads(path.read_text())
    record["fairness"]["secret"] = "0" * 64
    path.write_text(json.dumps(record))
    assert main(["verify", str(path)]) == 2
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and json.loads(out)["error"] == "unverified"
    path.write_text("{not json")
    assert main(["verify", str(path)]) == 2
    assert json.loads(capsys.readouterr().out)["error"] == "bad_json"


def test_random_game_seeds_are_reproducible_and_unseeded_games_are_not() -> None:
    assert random_game(Rules(target=50), seed=10) == random_game(Rules(target=50), seed=10)
    a, b = random_game(Rules(target=50)), random_game(Rules(target=50))
    assert a["fairness"]["secret"] != b["fairness"]["secret"]
    assert _verify(a)[0] == 0 and _verify(b)[0] == 0


@pytest.mark.parametrize("name", ["sealed_game.json", "sealed_game_36.json"])
def test_the_records_the_browser_check_is_tested_on_verify_here(name: str) -> None:
    """tests/web/fairness.test.mjs checks web/fairness.js on these same files."""
    status, answer = referee_data((ROOT / "tests" / "web" / name).read_bytes(), "verify")
    assert status == 0 and answer["verified"] is True
