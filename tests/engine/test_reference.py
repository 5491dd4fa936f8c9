"""A second, naive implementation of the rules, written from the spec's text
with card names and lists (no masks, nothing shared with the engine but the
``Rules`` values read as plain options), compared with the engine on random
deals of every preset and of many more combinations: the legal cards at every
decision, who is to act, and the final points and moon agree."""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field

import pytest

from damepique.engine import CARD_NAMES, PRESETS, Deal, Rules, cards_of, mask_of

RANKS = "23456789TJQKA"


def rank(card: str) -> int:
    return RANKS.index(card[0])


def suit(card: str) -> str:
    return card[1]


@dataclass
class Reference:
    rules: Rules
    number: int
    hands: list[list[str]]
    kitty: list[str]
    n: int = field(init=False)

    def __post_init__(self) -> None:
        self.n = self.rules.players

    # -- the options, read from the spec's words ---------------------------------

    def direction(self) -> int:
        r = self.rules
        if not r.passing:
            return 0
        names = {"left": 1, "right": -1, "across": 2}
        if r.pass_cycle != "standard":
            return names[r.pass_cycle]
        cycle = [1, -1, 2, 0] if self.n == 4 else [1, -1, 0]
        return cycle[self.number % len(cycle)]

    def points_of(self, card: str) -> int:
        r = self.rules
        if suit(card) == "H":
            return 1
        if card == "QS":
            return r.queen_points
        if r.black_maria and card == "KS":
            return 10
        if r.black_maria and card == "AS":
            return 7
        return 0

    def barred_first_trick(self, card: str) -> bool:
        return suit(card) == "H" or card == "QS" or (self.rules.black_maria and card in ("KS", "AS"))

    # -- the deal -------------------------------------------------------------------

    def exchange(self, passes: list[list[str]]) -> None:
        d = self.direction()
        new = [[c for c in h if c not in passes[s]] for s, h in enumerate(self.hands)]
        for s in range(self.n):
            new[(s + d) % self.n] += passes[s]
        self.hands = new

    def start(self) -> None:
        if self.rules.first_lead == "two_of_clubs":
            clubs = [c for h in self.hands for c in h if suit(c) == "C"]
            self.lead = min(clubs, key=rank)
            self.to_act = next(s for s in range(self.n) if self.lead in self.hands[s])
        else:
            self.lead = None
            self.to_act = self.number % self.n
        self.trick: list[tuple[int, str]] = []
        self.tricks_done = 0
        self.broken = False
        self.taken: list[list[str]] = [[] for _ in range(self.n)]
        self.last_winner = -1

    def legal(self) -> list[str]:
        hand = self.hands[self.to_act]
        r = self.rules
        first = self.tricks_done == 0
        if self.trick:
            led = suit(self.trick[0][1])
            follow = [c for c in hand if suit(c) == led]
            if follow:
                return follow
            if first and r.no_points_first_trick:
                safe = [c for c in hand if not self.barred_first_trick(c)]
                if safe:
                    return safe
                # Nothing but point cards: "heart" makes it discard a heart.
                hearts = [c for c in hand if suit(c) == "H"]
                if r.first_trick_discard == "heart" and hearts:
                    return hearts
            return hand
        if first and self.lead is not None:
            return [self.lead]
        candidates = hand
        if first and r.no_points_first_trick:
            safe = [c for c in hand if not self.barred_first_trick(c)]
            if safe:
                candidates = safe
        if r.must_break_hearts and not self.broken:
            plain = [c for c in candidates if suit(c) != "H"]
            if plain:
                candidates = plain
        return candidates

    def play(self, card: str) -> None:
        self.hands[self.to_act].remove(card)
        self.trick.append((self.to_act, card))
        # "discard": only a heart on a trick led in another suit breaks hearts.
        led_in_hearts = suit(self.trick[0][1]) == "H"
        if suit(card) == "H" and (self.rules.hearts_broken_by == "any" or not led_in_hearts):
            self.broken = True
        if card == "QS" and self.rules.queen_breaks_hearts:
            self.broken = True
        if len(self.trick) < self.n:
            self.to_act = (self.to_act + 1) % self.n
            return
        led = suit(self.trick[0][1])
        winner = max((s for s in self.trick if suit(s[1]) == led), key=lambda s: rank(s[1]))[0]
        self.taken[winner] += [c for _, c in self.trick]
        if self.tricks_done == 0:
            self.taken[winner] += self.kitty
        self.tricks_done += 1
        self.trick = []
        self.to_act = winner
        self.last_winner = winner

    def score(self) -> tuple[list[int], int | None]:
        r = self.rules
        taken = [sum(self.points_of(c) for c in cards) for cards in self.taken]
        taken[self.last_winner] += r.last_trick_points
        everything = sum(taken)
        shooter = None
        if r.moon != "off":
            for s in range(self.n):
                if taken[s] == everything and everything > 0:
                    shooter = s
        if shooter is None:
            points = taken
        elif r.moon == "others":
            points = [0 if s == shooter else everything for s in range(self.n)]
        else:
            points = [-everything if s == shooter else 0 for s in range(self.n)]
        if r.jack_of_diamonds:
            for s in range(self.n):
                if "JD" in self.taken[s]:
                    points[s] -= 10
        return points, shooter


RULES = {
    **PRESETS,
    "moon_self_jack": Rules(moon="self", jack_of_diamonds=True),
    "moon_off_jack": Rules(moon="off", jack_of_diamonds=True),
    "first_lead_any_kitty_5": Rules(players=5, leftover="kitty", first_lead="any"),
    "first_lead_any_3": Rules(players=3, first_lead="any"),
    "queen_breaks_hearts_3": Rules(players=3, queen_breaks_hearts=True),
    "pass_left_5": Rules(players=5, pass_cycle="left"),
    "pass_right": Rules(pass_cycle="right"),
    "pass_across": Rules(pass_cycle="across"),
    "no_rules_at_all": Rules(no_points_first_trick=False, must_break_hearts=False),
    "deck_36_five_kitty": Rules(deck=36, players=5, leftover="kitty", queen_points=5, last_trick_points=1),
    "deck_36_three": Rules(deck=36, players=3, queen_points=5, last_trick_points=1, pass_count=2),
    "black_maria_three_kitty": Rules(players=3, leftover="kitty", black_maria=True),
    "queen_zero": Rules(queen_points=0),
    "pass_one": Rules(pass_count=1, jack_of_diamonds=True),
    "hearts_broken_by_discard": Rules(hearts_broken_by="discard"),
    "hearts_broken_by_discard_queen_3": Rules(
        players=3, hearts_broken_by="discard", queen_breaks_hearts=True
    ),
    "hearts_broken_by_discard_first_lead_any": Rules(hearts_broken_by="discard", first_lead="any"),
    "first_trick_discard_heart": Rules(first_trick_discard="heart"),
    "first_trick_discard_heart_black_maria_5": Rules(
        players=5, black_maria=True, first_trick_discard="heart"
    ),
    "first_trick_discard_heart_kitty_3": Rules(players=3, leftover="kitty", first_trick_discard="heart"),
    "all_new_options": Rules(hearts_broken_by="discard", first_trick_discard="heart", tie="share"),
}


def agree(rules: Rules, deal: Deal, rng: random.Random) -> None:
    """Play ``deal`` with random passes and legal cards, the reference beside
    it: the same legal cards at every decision, the same points at the end."""
    k = deal.number
    ref = Reference(rules, k, [[CARD_NAMES[c] for c in cards_of(h)] for h in deal.hands], [])
    ref.kitty = [CARD_NAMES[c] for c in cards_of(deal.kitty)]
    assert deal.pass_offset % rules.players == ref.direction() % rules.players
    passes: list[list[str]] = []
    for seat in range(rules.players):
        passes.append(rng.sample(ref.hands[seat], rules.pass_count) if ref.direction() else [])
    if deal.phase == "pass":
        for seat in range(rules.players):
            deal.pass_cards(seat, passes[seat])
        ref.exchange(passes)
    ref.start()
    assert [sorted(h, key=CARD_NAMES.index) for h in ref.hands] == [
        [CARD_NAMES[c] for c in cards_of(h)] for h in deal.hands
    ]
    while deal.phase == "play":
        assert deal.to_act == ref.to_act
        assert deal.hearts_broken == (ref.broken or not rules.must_break_hearts)
        legal = ref.legal()
        assert sorted(legal, key=CARD_NAMES.index) == [CARD_NAMES[c] for c in deal.legal_cards()]
        card = rng.choice(legal)
        ref.play(card)
        deal.play(card)
    result = deal.result()
    points, moon = ref.score()
    assert (list(result.points), result.moon) == (points, moon)


@pytest.mark.parametrize("name", sorted(RULES))
def test_the_engine_agrees_with_a_naive_reference(name: str) -> None:
    rules = RULES[name]
    rng = random.Random(name)
    for k in range(150):
        agree(rules, Deal.shuffled(rules, rng, k), rng)


def hand_of_points(rules: Rules, rng: random.Random, number: int) -> Deal:
    """A deal in which one seat holds nothing but cards barred from the first
    trick (hearts and QS, and KS, AS with black_maria) where there are enough
    of them: the corners of the first-trick discard and of hearts led from a
    hand of only hearts, which random deals nearly never reach."""
    n = rules.players
    barred = [c for c in rules.deck_list if rules.first_trick_mask >> c & 1 or CARD_NAMES[c][1] == "H"]
    seat = rng.randrange(n)
    mine = rng.sample(barred, min(rules.hand_size, len(barred)))
    rest = [c for c in rules.deck_list if c not in mine]
    rng.shuffle(rest)
    fill = rules.hand_size - len(mine)
    mine += rest[:fill]
    rest = rest[fill:]
    hands = []
    for s in range(n):
        if s == seat:
            hands.append(mask_of(mine))
        else:
            hands.append(mask_of(rest[: rules.hand_size]))
            rest = rest[rules.hand_size :]
    return Deal(rules, hands, mask_of(rest), number)


@pytest.mark.parametrize(
    "name",
    ["standard", "black_maria", "five_players_kitty", "deck_36", "old_rules"]
    + [name for name in sorted(RULES) if "discard" in name or name == "all_new_options"],
)
def test_the_engine_agrees_on_hands_of_points(name: str) -> None:
    rules = RULES[name]
    rng = random.Random(name)
    for k in range(100):
        agree(rules, hand_of_points(rules, rng, k), rng)


# -- perft: the number of legal play sequences from fixed positions ----------------
#
# As chess engines count the move sequences from fixed positions (perft), the
# counts below were computed once with the naive reference above (a brute
# force: every legal card, recursively, on copies of its lists) and written
# here; the engine must find exactly them, and so must the reference still.
# The first positions are small enough to count by hand (see their comments).


def ref_copy(ref: Reference) -> Reference:
    other = copy.copy(ref)
    other.hands = [list(h) for h in ref.hands]
    other.trick = list(ref.trick)
    other.taken = [list(t) for t in ref.taken]
    return other


def ref_perft(ref: Reference, depth: int) -> int:
    if depth == 0 or not any(ref.hands):
        return 1
    total = 0
    for card in ref.legal():
        child = ref_copy(ref)
        child.play(card)
        total += ref_perft(child, depth - 1)
    return total


def engine_perft(deal: Deal, depth: int) -> int:
    if depth == 0 or deal.phase != "play":
        return 1
    total = 0
    for card in cards_of(deal.legal_mask()):
        child = deal.copy()
        child.play_unchecked(card)
        total += engine_perft(child, depth - 1)
    return total


def reference_at(rules: Rules, hands: list[int], kitty: int, plays: list[str], number: int = 0) -> Reference:
    ref = Reference(rules, number, [[CARD_NAMES[c] for c in cards_of(h)] for h in hands], [])
    ref.kitty = [CARD_NAMES[c] for c in cards_of(kitty)]
    ref.start()
    for card in plays:
        assert card in ref.legal()
        ref.play(card)
    return ref


def hand_masks(text: list[str]) -> list[int]:
    return [mask_of(CARD_NAMES.index(c) for c in h.split()) for h in text]


# Seat 1 wins the first two tricks with AC, KC, holds only hearts and leads 2H;
# seat 3 takes that trick with KH and is to lead, holding AH and nine spades
# (6S..AS); seat 0 holds eight clubs and 2S 3S.
HEARTS_LED = hand_masks(
    [
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC 2S 3S",
        "AC KC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "AH KH 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    ]
)
HEARTS_LED_PLAYS = ["2C", "AC", "2D", "4S", "KC", "3D", "5S", "3C", "2H", "4D", "KH", "4C"]
# Seat 3, void in clubs on the first trick, holds QS and twelve hearts; the
# trick is 2C 2D 2S, so seat 0 (2C) takes it and then holds twelve clubs.
ONLY_POINTS = hand_masks(
    [
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS 2H",
        "QS 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    ]
)
ONLY_POINTS_PLAYS = ["2C", "2D", "2S"]

HAND_COUNTED = [
    # Hearts broken by 2H and KH (any): seat 3 may lead AH or a spade: 10.
    # Then after a spade seat 0 follows with 2S or 3S (9 x 2), after AH it is
    # void and free (10 cards): 18 + 10 = 28.
    ("hearts led, any", Rules(passing=False), HEARTS_LED, HEARTS_LED_PLAYS, [10, 28]),
    # hearts_broken_by "discard": trick 3 was led and followed in hearts, so
    # hearts are not broken: only the nine spades, then 2S or 3S: 9, 18.
    (
        "hearts led, discard",
        Rules(passing=False, hearts_broken_by="discard"),
        HEARTS_LED,
        HEARTS_LED_PLAYS,
        [9, 18],
    ),
    # Seat 3 may drop any of its 13 cards; seat 0 takes the trick and leads
    # any of its 12 clubs: 13, 13 x 12 = 156.
    ("only points, any", Rules(passing=False), ONLY_POINTS, ONLY_POINTS_PLAYS, [13, 156]),
    # first_trick_discard "heart": one of the 12 hearts, not QS: 12, 144.
    (
        "only points, heart",
        Rules(passing=False, first_trick_discard="heart"),
        ONLY_POINTS,
        ONLY_POINTS_PLAYS,
        [12, 144],
    ),
]


@pytest.mark.parametrize(
    ("name", "rules", "hands", "plays", "counts"), HAND_COUNTED, ids=[h[0] for h in HAND_COUNTED]
)
def test_perft_counted_by_hand(
    name: str, rules: Rules, hands: list[int], plays: list[str], counts: list[int]
) -> None:
    deal = Deal(rules, hands, plays=plays)
    ref = reference_at(rules, hands, 0, plays)
    for depth, count in enumerate(counts, 1):
        assert engine_perft(deal, depth) == count
        assert ref_perft(ref, depth) == count


PERFT_RULES = {
    **{name: PRESETS[name] for name in sorted(PRESETS)},
    "hearts_broken_by_discard": Rules(hearts_broken_by="discard"),
    "first_trick_discard_heart": Rules(first_trick_discard="heart"),
    "all_new_options": Rules(hearts_broken_by="discard", first_trick_discard="heart", tie="share"),
}


def perft_start(name: str) -> tuple[Rules, list[int], int]:
    """Fixed hands (a shuffle of the deck by Python's own generator, seeded by
    the name) for a deal played without passing: its first lead."""
    rules = PERFT_RULES[name]
    cards = list(rules.deck_list)
    random.Random(f"perft:{name}").shuffle(cards)
    size = rules.hand_size
    hands = [mask_of(cards[s * size : (s + 1) * size]) for s in range(rules.players)]
    return rules, hands, mask_of(cards[rules.players * size :])


PERFT_MIDDLE = 5
"""Tricks played (by ``lowest_line``) before the middle position."""
PERFT_END = 3
"""Tricks left at the end position, counted to the end of the deal."""


def lowest_line(ref: Reference, tricks: int) -> list[str]:
    """The plays of the lowest legal card (in card order) for ``tricks`` tricks."""
    plays: list[str] = []
    while len(plays) < tricks * ref.n:
        card = min(ref.legal(), key=CARD_NAMES.index)
        ref.play(card)
        plays.append(card)
    return plays


PERFT = {
    "black_maria": (546, 5358, 96),
    "deck_36": (1224, 756, 336),
    "five_players": (276, 768, 960),
    "five_players_kitty": (362, 1710, 5184),
    "hearts_any_time": (1044, 3387, 1296),
    "old_rules": (13408, 3794, 864),
    "omnibus": (684, 24354, 112),
    "queen_12": (516, 8103, 216),
    "short": (579, 1766, 600),
    "standard": (484, 10011, 528),
    "three_players": (520, 1912, 216),
    "three_players_kitty": (812, 1937, 216),
    "three_players_black_maria": (974, 6580, 48),
    "hearts_broken_by_discard": (324, 1176, 128),
    "first_trick_discard_heart": (1338, 1423, 432),
    "all_new_options": (5058, 17620, 1296),
}
"""Per rules: the play sequences of ``n + 2`` cards from the first lead, of
``n + 2`` cards after ``PERFT_MIDDLE`` tricks of ``lowest_line``, and of the
whole rest of the deal from ``PERFT_END`` tricks before its end."""


def perft_positions(name: str) -> list[tuple[list[str], int]]:
    rules, hands, kitty = perft_start(name)
    n = rules.players
    out = []
    for tricks, depth in ((0, n + 2), (PERFT_MIDDLE, n + 2), (rules.hand_size - PERFT_END, 99)):
        ref = reference_at(rules, hands, kitty, [])
        out.append((lowest_line(ref, tricks), depth))
    return out


def test_perft_covers_every_preset() -> None:
    assert set(PRESETS) <= set(PERFT) == set(PERFT_RULES)


@pytest.mark.parametrize("name", sorted(PERFT))
def test_perft_engine_and_reference_count_the_same_sequences(name: str) -> None:
    rules, hands, kitty = perft_start(name)
    for (plays, depth), count in zip(perft_positions(name), PERFT[name], strict=True):
        deal = Deal(rules, hands, kitty, skip_pass=True, plays=plays)
        assert engine_perft(deal, depth) == count
        assert ref_perft(reference_at(rules, hands, kitty, plays), depth) == count
