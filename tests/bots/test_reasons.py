"""Every reason code the advice gives is true of the position.

Each definition of docs/bots.md is written here a second time, as a check
on the real deal (the test sees every hand, the bots never do), and every
code given for every legal card (or for candidate and random passes) in
thousands of random positions of every preset must pass its check. Claims
that a trick is won "for sure" are checked against every way the seats still
to play could complete the trick with the cards they really hold.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from damepique.bots.montecarlo import candidate_passes
from damepique.bots.playout import Policy, choose
from damepique.bots.reasons import REASONS, reason_for_pass, reason_for_play, reason_words
from damepique.bots.registry import get_bot
from damepique.bots.tactics import big_cards, moon_threat
from damepique.engine import DONE, HEARTS_MASK, PASS, PRESETS, SUIT_MASKS, SUIT_NAMES, Deal, cards_of, view_of

DOCS = Path(__file__).resolve().parents[2] / "docs" / "bots.md"
SUIT_OF = {name: i for i, name in enumerate(SUIT_NAMES)}


def _positions(rules, seed, count):
    """Positions (deal, seat to act) of deals cut at random points, played by
    a mix of random and intermediate seats, and in a third of them one seat
    running for the moon with the play-out policy's shooter (so that moons
    in the making, and the reasons about them, come up)."""
    rng = random.Random(seed)
    rnd = get_bot("random")
    inter = get_bot("intermediate")
    pol = Policy.of(rules)
    out = []
    while len(out) < count:
        deal = Deal.shuffled(rules, random.Random(rng.getrandbits(32)), rng.randrange(4))
        n = rules.players
        kinds = [rng.choice((rnd, inter)) for _ in range(n)]
        shooter = rng.randrange(n) if rng.random() < 0.33 else -1
        if deal.phase == PASS:
            if rng.random() < 0.2:
                out.append((deal.copy(), rng.randrange(n)))
                continue
            for s in range(n):
                deal.pass_cards(s, kinds[s].choose_pass(view_of(deal, s), rng))
        stop = rng.randrange(rules.deck // n * n)
        for _ in range(stop):
            if deal.phase == DONE:
                break
            s = deal.to_act
            legal = deal.legal_mask()
            if s == shooter and legal & (legal - 1):
                card = choose(deal, legal, pol, shooter)
            else:
                card = kinds[s].choose_play(view_of(deal, s), rng)
            deal.play_unchecked(card)
        if deal.phase != DONE:
            out.append((deal, deal.to_act))
    return out


def _completions(deal: Deal, card: int):
    """Every finished trick after ``card``: (winner, cards) for each way the
    seats still to play could follow with the cards they hold."""
    d = deal.copy()
    d.play_unchecked(card)
    if not d.trick:  # the card ended the trick
        _leader, cards, winner, _pts = d.tricks[-1]
        yield winner, cards
        return
    left = deal.players - len(d.trick)

    def rec(x: Deal, k: int):
        if k == 0:
            yield x.tricks[-1][2], x.tricks[-1][1]
            return
        for c in cards_of(x.legal_mask()):
            y = x.copy()
            y.play_unchecked(c)
            yield from rec(y, k - 1)

    yield from rec(d, left)


class _Context:
    """What a failed check shows: the code, the seat's view (as JSON) and the
    card or pass; the view is written out only then (every check builds one)."""

    def __init__(self, code, view, cards):
        self.code, self.view, self.cards = code, view, cards

    def __repr__(self) -> str:
        return repr((self.code, self.view.to_json(), self.cards))


def _check_play(deal: Deal, seat: int, card: int, code: str, view=None) -> None:
    """``view``: the seat's view of ``deal`` when the caller has it already."""
    view = view or view_of(deal, seat)
    rules = view.rules
    pts = rules.card_points
    big = big_cards(rules)
    hand = view.hand
    legal = view.legal_mask()
    trick = list(view.trick)
    suit = SUIT_MASKS[card // 13]
    lead = not trick
    led = SUIT_MASKS[trick[0] // 13] if trick else suit
    follows = bool(trick) and bool(led >> card & 1)
    discard = bool(trick) and not follows
    win = max((c for c in trick if led >> c & 1), default=-1)
    unseen = view.unseen & suit
    if not unseen:  # nothing unseen in its suit: measured against the seat's own cards of it
        unseen = hand & suit & ~(1 << card)
    below = (unseen & ((1 << card) - 1)).bit_count()
    above = (unseen >> (card + 1)).bit_count()
    ctx = _Context(code, view, card)
    if code == "only_card":
        assert legal.bit_count() == 1, ctx
        return
    assert legal.bit_count() > 1, ctx
    if code == "stops_moon":
        threat = moon_threat(view)
        assert threat is not None and threat != seat, ctx
        for winner, cards in _completions(deal, card):
            assert winner != threat and any(pts[c] > 0 for c in cards), ctx
    elif code == "dumps_queen":
        assert big >> card & 1 and (discard or (follows and card < win)), ctx
    elif code == "gives_points":
        assert discard and pts[card] > 0 and not big >> card & 1, ctx
    elif code in ("takes_jack", "takes_points"):
        assert follows and card > win, ctx
        for winner, cards in _completions(deal, card):
            assert winner == seat, ctx
            if code == "takes_jack":
                assert any(pts[c] < 0 for c in cards), ctx
            else:
                assert any(pts[c] > 0 for c in cards), ctx
    elif code == "wins_trick":
        assert follows and card > win and len(trick) == rules.players - 1, ctx
        assert not any(pts[c] for c in (*trick, card)), ctx
    elif code == "follows_high":
        assert follows and card > win and len(trick) < rules.players - 1, ctx
    elif code == "smokes_queen":
        out = view.unseen & big & suit
        assert lead and out and card < (out & -out).bit_length() - 1, ctx
        assert not hand & suit & ~((1 << ((out & -out).bit_length() - 1)) - 1), ctx
    elif code == "unguards_queen":
        assert hand & big & suit and not big >> card & 1, ctx
        assert (hand & suit & ~big).bit_count() - 1 <= 1, ctx
        assert lead or (follows and card < win), ctx
    elif code in ("ducks", "follows_low", "follows_under"):
        assert follows and card < win, ctx
        mine = hand & led
        between = mine & ((1 << win) - 1) & ~((1 << (card + 1)) - 1)
        lower = mine & ((1 << card) - 1)
        if code == "ducks":
            assert not between, ctx
        elif code == "follows_low":
            assert not lower, ctx
        else:
            assert between and lower, ctx
    elif code == "leads_hearts":
        assert lead and HEARTS_MASK >> card & 1, ctx
    elif code.startswith("voids_"):
        assert card // 13 == SUIT_OF[code[6:]], ctx
        assert not hand & suit & ~(1 << card), ctx
        assert lead or discard, ctx
    elif code == "leads_low":
        assert lead and above > below, ctx
    elif code == "leads_high":
        assert lead and below >= above, ctx
    elif code == "discards_high":
        assert discard and pts[card] <= 0 and below >= above, ctx
    elif code == "discards_low":
        assert discard and pts[card] <= 0 and above > below, ctx
    else:
        raise AssertionError(f"{code} is not a reason for a play: {ctx}")


def _check_pass(view, cards, code):
    rules = view.rules
    big = big_cards(rules)
    hand = view.hand
    mask = sum(1 << c for c in cards)
    kept = hand & ~mask
    ctx = _Context(code, view, cards)
    if code == "passes_queen":
        assert mask & big, ctx
    elif code.startswith("voids_"):
        suit = SUIT_MASKS[SUIT_OF[code[6:]]]
        assert hand & suit and not kept & suit, ctx
    elif code == "passes_high_spades":
        spades_big = big & SUIT_MASKS[3]
        low = (spades_big & -spades_big).bit_length() - 1
        assert any(SUIT_MASKS[3] >> c & 1 and c > low for c in cards), ctx
    elif code == "keeps_queen_guarded":
        assert any(
            kept & big & SUIT_MASKS[s] and (kept & SUIT_MASKS[s] & ~big).bit_count() >= 3 for s in range(4)
        ), ctx
    elif code == "passes_high_hearts":
        assert any(HEARTS_MASK >> c & 1 and c % 13 >= 8 for c in cards), ctx
    elif code == "passes_high_cards":
        assert sum(c % 13 for c in cards) / len(cards) >= 8, ctx
    elif code == "passes_low_cards":
        assert sum(c % 13 for c in cards) / len(cards) < 8, ctx
    else:
        raise AssertionError(f"{code} is not a reason for a pass: {ctx}")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_reason_given_holds_in_random_positions(preset):
    rules = PRESETS[preset]
    seen: set[str] = set()
    rng = random.Random(5)
    positions = _positions(rules, sum(map(ord, preset)), 1500)
    for deal, seat in positions:
        view = view_of(deal, seat)
        if view.phase == PASS:
            hand = list(cards_of(view.hand))
            passes = candidate_passes(view) + [tuple(rng.sample(hand, rules.pass_count)) for _ in range(4)]
            for cs in passes:
                code = reason_for_pass(view, cs)
                _check_pass(view, cs, code)
                seen.add(code)
            continue
        for card in cards_of(view.legal_mask()):
            code = reason_for_play(view, card)
            assert code in REASONS
            _check_play(deal, seat, card, code, view)
            seen.add(code)
    # The positions reach the codes the rules allow (a sanity check of the
    # test: most of the codes come up in every preset).
    assert len(seen) >= 20, sorted(set(REASONS) - seen)
    if preset == "standard":
        assert {"stops_moon", "ducks", "follows_under", "discards_low", "smokes_queen"} <= seen


def test_every_code_has_a_definition_and_words():
    text = DOCS.read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `([a-z_]+)` \| (.+?) \|", text, re.M))
    assert set(rows) >= set(REASONS), sorted(set(REASONS) - set(rows))
    for lang in ("en", "fr"):
        # The words are the page's (web/strings), said by reason_words: the docs' table shows them.
        for code in REASONS:
            assert reason_words(code, lang) in text, (lang, code)


def test_completions_cover_every_way_to_finish_a_trick():
    """The helper itself: after a lead on the second trick, the completions
    are the product of the three other seats' legal cards (each seat's
    choice depends on the led suit only)."""
    deal = Deal.shuffled(PRESETS["standard"], random.Random(3), 3)  # deal 3: no passing
    assert deal.phase != PASS
    for _ in range(4):
        deal.play_unchecked((deal.legal_mask() & -deal.legal_mask()).bit_length() - 1)
    lead = (deal.legal_mask() & -deal.legal_mask()).bit_length() - 1
    d = deal.copy()
    d.play_unchecked(lead)
    product = 1
    for _ in range(3):
        product *= d.legal_mask().bit_count()
        d.play_unchecked((d.legal_mask() & -d.legal_mask()).bit_length() - 1)
    assert sum(1 for _ in _completions(deal, lead)) == product > 1
