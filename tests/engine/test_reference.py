"""A second, naive implementation of the rules, written from the spec's text
with card names and lists (no masks, nothing shared with the engine but the
``Rules`` values read as plain options), compared with the engine on random
deals of every preset and of many more combinations: the legal cards at every
decision, who is to act, and the final points and moon agree."""

from __future__ import annotations

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
