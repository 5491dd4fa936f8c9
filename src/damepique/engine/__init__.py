"""damepique's rules engine: standard library only, typed.

>>> import random
>>> from damepique.engine import Deal, Rules
>>> deal = Deal.shuffled(Rules(passing=False), random.Random(0))
>>> event = deal.play("2C")
>>> event.card == parse_card("2C")
True
"""

from .cards import (
    ALL_CARDS,
    CARD_NAMES,
    HEARTS_MASK,
    JD,
    QS,
    SUIT_MASKS,
    SUIT_NAMES,
    TWO_OF_CLUBS,
    CardSet,
    cards_of,
    format_card,
    mask_of,
    parse_card,
    parse_cards,
)
from .claims import ClaimPlan, claim_moves, claim_plan_of
from .deal import DONE, PASS, PLAY, Deal, Phase, legal_mask_for
from .errors import (
    CardError,
    ClaimError,
    DealError,
    HeartsError,
    IllegalAction,
    IllegalPass,
    IllegalPlay,
    RulesError,
)
from .events import DealResult, Dealt, Passed, Played
from .match import Match, winner_of, winners_of
from .record import FORMAT, RecordError, dump_match, referee_legal, referee_replay, replay
from .rules import PRESET_NAMES, PRESETS, Rules, preset_of
from .views import View, decision_id, direction_name, event_for, view_of

__all__ = [
    "ALL_CARDS",
    "CARD_NAMES",
    "DONE",
    "FORMAT",
    "HEARTS_MASK",
    "JD",
    "PASS",
    "PLAY",
    "PRESETS",
    "PRESET_NAMES",
    "QS",
    "SUIT_MASKS",
    "SUIT_NAMES",
    "TWO_OF_CLUBS",
    "CardError",
    "CardSet",
    "ClaimError",
    "ClaimPlan",
    "Deal",
    "DealError",
    "DealResult",
    "Dealt",
    "HeartsError",
    "IllegalAction",
    "IllegalPass",
    "IllegalPlay",
    "Match",
    "Passed",
    "Phase",
    "Played",
    "RecordError",
    "Rules",
    "RulesError",
    "View",
    "cards_of",
    "claim_moves",
    "claim_plan_of",
    "decision_id",
    "direction_name",
    "dump_match",
    "event_for",
    "format_card",
    "legal_mask_for",
    "mask_of",
    "parse_card",
    "parse_cards",
    "preset_of",
    "referee_legal",
    "referee_replay",
    "replay",
    "view_of",
    "winner_of",
    "winners_of",
]
