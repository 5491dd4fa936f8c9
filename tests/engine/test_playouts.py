"""Random play-outs over every preset with invariants, and random-play
statistics as a sanity check of the whole (points per seat, moon rate)."""

from __future__ import annotations

import random

import pytest

from damepique.engine import PRESETS, Deal, Match, Rules, cards_of

# Every preset, and the house rules of issue 17 with and around them.
RULE_SETS = {
    **PRESETS,
    "hearts_broken_by_discard": Rules(hearts_broken_by="discard"),
    "hearts_broken_by_discard_kitty_5": Rules(players=5, leftover="kitty", hearts_broken_by="discard"),
    "first_trick_discard_heart_black_maria": Rules(black_maria=True, first_trick_discard="heart"),
    "first_trick_discard_heart_3": Rules(players=3, first_trick_discard="heart", queen_breaks_hearts=True),
    "house_rules_36": Rules(
        deck=36, queen_points=5, last_trick_points=1, hearts_broken_by="discard", first_trick_discard="heart"
    ),
    "tie_share_omnibus": Rules(jack_of_diamonds=True, tie="share"),
}


def check_invariants(deal: Deal) -> None:
    rules = deal.rules
    n = rules.players
    # Cards are conserved: hands, cards on the table, cards taken, the kitty
    # (until the first trick takes it) and the removed cards make the deck,
    # each card in exactly one place.
    places = [*deal.hands, sum(1 << c for c in deal.trick), *deal.taken]
    if not deal.tricks_played:
        places.append(deal.kitty)
    seen = 0
    for mask in places:
        assert not seen & mask
        seen |= mask
    assert seen == rules.deck_cards
    sizes = [h.bit_count() for h in deal.hands]
    if deal.phase == "play":
        played = [0] * n
        for s in deal.seats:
            played[s] += 1
        assert sizes == [rules.hand_size - p for p in played]
    assert len(deal.plays) == len(deal.seats) == deal.play_count
    assert sum(deal.taken_points) == sum(t[3] for t in deal.tricks)


def play_at_random(deal: Deal, rng: random.Random) -> None:
    """Random passes, then random legal cards, to the end of the deal."""
    for seat in deal.passing_seats:
        deal.pass_cards(seat, rng.sample(list(cards_of(deal.hands[seat])), deal.rules.pass_count))
    while deal.phase == "play":
        deal.play_unchecked(rng.choice(deal.legal_cards()))


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_random_playouts_keep_the_invariants(name: str) -> None:
    rules = RULE_SETS[name]
    rng = random.Random(name)
    moons = 0
    for k in range(150):
        deal = Deal.shuffled(rules, rng, k)
        check_invariants(deal)
        for seat in deal.passing_seats:
            deal.pass_cards(seat, rng.sample(list(cards_of(deal.hands[seat])), rules.pass_count))
            check_invariants(deal)
        while deal.phase == "play":
            legal = deal.legal_cards()
            assert legal, "a seat to act always has a legal card"
            deal.play(rng.choice(legal))
            check_invariants(deal)
        assert len(deal.tricks) == rules.hand_size
        result = deal.result()
        # Before the moon and J♦ rules, the points add up to the deal's points.
        assert sum(result.taken) == rules.moon_points
        jack = deal.jack_seat if rules.jack_of_diamonds else None
        assert (jack is not None) == (rules.jack_of_diamonds and bool(rules.deck_cards >> 23 & 1))
        if result.moon is None:
            assert sum(result.points) == rules.deal_total
        else:
            moons += 1
            assert result.taken[result.moon] == rules.moon_points
            bonus = -10 if jack is not None else 0
            if rules.moon == "others":
                assert sum(result.points) == (rules.players - 1) * rules.moon_points + bonus
            else:
                assert sum(result.points) == -rules.moon_points + bonus
        assert deal.taken[deal.tricks[-1][2]] & sum(1 << c for c in deal.tricks[-1][1])
        # Hearts are broken at the end exactly when the rules say a card broke them.
        broken = not rules.must_break_hearts
        for _, cards, _, _ in deal.tricks:
            for c in cards:
                discarded = c // 13 != cards[0] // 13
                broken |= bool(
                    rules.breaks_mask >> c & 1 or (discarded and rules.discard_breaks_mask >> c & 1)
                )
        assert deal.hearts_broken == broken


@pytest.mark.parametrize("name", ["standard", "short", "three_players_kitty", "omnibus"])
def test_random_matches_end_with_one_lowest(name: str) -> None:
    rules = PRESETS[name].replace(target=40)
    for seed in range(5):
        rng = random.Random(seed)
        match = Match(rules, rng)
        while not match.over:
            deal = match.next_deal()
            assert match.dealer(deal.number) == (deal.number - 1) % rules.players
            assert deal.pass_offset % rules.players == rules.pass_offset(deal.number) % rules.players
            play_at_random(deal, rng)
        totals = match.totals
        assert max(totals) >= rules.target
        assert totals.count(min(totals)) == 1 and match.winner == totals.index(min(totals))
        # Before the last deal the game was not over.
        before = [t - p for t, p in zip(totals, match.deals[-1].result().points, strict=True)]
        assert max(before) < rules.target or before.count(min(before)) > 1


@pytest.mark.parametrize("name", ["standard", "three_players_kitty", "omnibus", "black_maria"])
def test_random_matches_with_tie_share_end_at_the_target(name: str) -> None:
    # tie "share": the game ends after the first deal in which someone reaches
    # the target, tied or not, and every seat with the lowest total wins.
    rules = PRESETS[name].replace(target=40, tie="share")
    for seed in range(12):
        rng = random.Random(seed)
        match = Match(rules, rng)
        while not match.over:
            deal = match.next_deal()
            play_at_random(deal, rng)
        totals = match.totals
        assert max(totals) >= rules.target
        before = [t - p for t, p in zip(totals, match.deals[-1].result().points, strict=True)]
        assert max(before) < rules.target
        assert match.winners == tuple(s for s, t in enumerate(totals) if t == min(totals))


def test_random_play_statistics() -> None:
    """20,000 random deals (random passes, random legal plays): about 6.64
    points per seat and a moon in about 1.0% of deals. The bounds are wide
    (over five standard errors) and the seed fixed: this never flakes, and
    a rule bug that moves either figure shows."""
    rules = Rules()
    rng = random.Random(2024)
    rnd = rng.random
    deals = 20_000
    total = 0
    moons = 0
    for k in range(deals):
        deal = Deal.shuffled(rules, rng, k)
        for seat in deal.passing_seats:
            hand = list(cards_of(deal.hands[seat]))
            deal.pass_cards(seat, rng.sample(hand, 3))
        legal_mask = deal.legal_mask
        play = deal.play_unchecked
        for _ in range(52):
            legal = cards_of(legal_mask())
            play(legal[int(rnd() * len(legal))])
        result = deal.result()
        total += sum(result.points)
        moons += result.moon is not None
    per_seat = total / deals / 4
    moon_rate = moons / deals
    # Standard errors: moon rate about 0.0007, points per seat about 0.009 + moons.
    assert 0.006 < moon_rate < 0.014, moon_rate
    assert 6.55 < per_seat < 6.72, per_seat
    # Points per seat follow from the moon rate: 26 a deal, 52 more per moon.
    assert per_seat == pytest.approx((26 + 52 * moon_rate) / 4)
