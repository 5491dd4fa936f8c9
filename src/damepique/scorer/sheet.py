"""A score sheet: the players, the rules, the deals entered, the running totals.

Every change (a deal added, edited or deleted) is checked first and written
to a short history, so the last change can be undone. The game is over after
a deal in which someone reaches the target, once one player alone has the
lowest total; a tie for the lowest total means another deal (with ``tie:
"share"`` the game is over all the same, and the tied players share the win).

>>> from damepique.scorer import MoonEntry, PointsEntry
>>> sheet = Sheet(["Ann", "Bob", "Cy", "Dee"], SheetRules(target=50))
>>> _ = sheet.add(PointsEntry((5, 8, 13, 0)))
>>> _ = sheet.add(MoonEntry(3))
>>> sheet.totals, sheet.leaders, sheet.next_pass
([31, 34, 39, 0], [3], 'across')
>>> _ = sheet.add(PointsEntry((0, 20, 6, 0)))
>>> sheet.outcome.over, sheet.outcome.winner
(True, 3)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from damepique.engine import winners_of

from .deal import Entry, PointsEntry, ScoredDeal, entry_from_json, entry_to_json, score_entry
from .errors import AMBIGUOUS, BAD_SHEET, GAME_OVER, NO_SUCH_DEAL, NOTHING_TO_UNDO, ScoreError
from .passing import MAX_PLAYERS, MIN_PLAYERS, pass_direction
from .rules import SheetRules

NAME_LIMIT = 30
HISTORY_LIMIT = 100
ADD, EDIT, DELETE = "add", "edit", "delete"


@dataclass(frozen=True)
class Outcome:
    """Where the game stands after the last deal."""

    over: bool
    winner: int | None  # the seat with the single lowest total, once over
    tied: tuple[int, ...]  # the seats tied for the lowest total when a tie holds up the end
    code: str  # "playing", "winner", "shared" or "tie": the sentence in ``messages``
    params: dict[str, Any]
    winners: tuple[int, ...] = ()  # once over: the winner, or the seats sharing the win


@dataclass(frozen=True)
class Change:
    """One change, kept so it can be undone: ``before`` is the deal it replaced or removed."""

    action: str
    number: int
    before: ScoredDeal | None


def check_names(names: Sequence[object]) -> list[str]:
    """The players' names, trimmed; 3 to 6 of them, none empty, none twice.

    >>> check_names([" Ann", "Bob", "Cy"])
    ['Ann', 'Bob', 'Cy']
    >>> check_names(["Ann", "Bob"])
    Traceback (most recent call last):
    ...
    damepique.scorer.errors.ScoreError: a sheet needs 3 to 6 players, not 2
    """
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise ScoreError(BAD_SHEET, "players_count", {"count": len(names)})
    clean: list[str] = []
    seen: set[str] = set()
    for seat, raw in enumerate(names):
        text = raw if isinstance(raw, str) else ""
        name = " ".join(unicodedata.normalize("NFC", text).split())
        name = "".join(ch for ch in name if unicodedata.category(ch)[0] != "C")
        if not name:
            raise ScoreError(BAD_SHEET, "player_name_empty", {"position": seat + 1}, seat)
        if len(name) > NAME_LIMIT:
            params = {"name": name[:NAME_LIMIT] + "…", "length": len(name), "limit": NAME_LIMIT}
            raise ScoreError(BAD_SHEET, "player_name_long", params, seat)
        if name.casefold() in seen:
            raise ScoreError(BAD_SHEET, "player_name_twice", {"name": name}, seat)
        seen.add(name.casefold())
        clean.append(name)
    return clean


class Sheet:
    """The score sheet of one game (3 to 6 players)."""

    def __init__(self, names: Sequence[object], rules: SheetRules | None = None) -> None:
        self.names = check_names(names)
        self.rules = rules or SheetRules()
        self.deals: list[ScoredDeal] = []
        self.history: list[Change] = []

    @property
    def players(self) -> int:
        return len(self.names)

    # -- changes -------------------------------------------------------------

    def add(self, entry: Entry) -> ScoredDeal:
        """Check and append the next deal; refused once the game is over."""
        outcome = self.outcome
        if outcome.over:
            winners = [self.names[s] for s in outcome.winners]
            raise ScoreError(GAME_OVER, "game_over", {"winner": winners[0], "winners": winners})
        deal = score_entry(entry, self.rules, self.names)
        self.deals.append(deal)
        self._remember(Change(ADD, len(self.deals), None))
        return deal

    def edit(self, number: int, entry: Entry) -> ScoredDeal:
        """Replace deal ``number`` (the first deal is 1) with a new, checked entry."""
        index = self._index(number)
        deal = score_entry(entry, self.rules, self.names)
        before = self.deals[index]
        self.deals[index] = deal
        self._remember(Change(EDIT, number, before))
        return deal

    def delete(self, number: int) -> ScoredDeal:
        """Remove deal ``number``; the deals after it move up one."""
        index = self._index(number)
        before = self.deals.pop(index)
        self._remember(Change(DELETE, number, before))
        return before

    def undo(self) -> Change:
        """Take back the last change (an entry, an edit or a delete)."""
        if not self.history:
            raise ScoreError(NOTHING_TO_UNDO, "nothing_to_undo")
        change = self.history.pop()
        if change.action == ADD:
            self.deals.pop(change.number - 1)
        elif change.action == EDIT:
            assert change.before is not None
            self.deals[change.number - 1] = change.before
        else:
            assert change.before is not None
            self.deals.insert(change.number - 1, change.before)
        return change

    def _remember(self, change: Change) -> None:
        self.history.append(change)
        del self.history[:-HISTORY_LIMIT]

    def _index(self, number: object) -> int:
        count = len(self.deals)
        if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= count:
            raise ScoreError(NO_SUCH_DEAL, "no_such_deal", {"number": number, "count": count})
        return number - 1

    # -- arithmetic ------------------------------------------------------------

    @property
    def running_totals(self) -> list[list[int]]:
        """The totals after each deal, deal by deal."""
        rows: list[list[int]] = []
        totals = [0] * self.players
        for deal in self.deals:
            totals = [t + p for t, p in zip(totals, deal.points, strict=True)]
            rows.append(totals)
        return rows

    @property
    def totals(self) -> list[int]:
        rows = self.running_totals
        return rows[-1] if rows else [0] * self.players

    @property
    def leaders(self) -> list[int]:
        """The seats with the lowest total (several when tied)."""
        totals = self.totals
        low = min(totals)
        return [seat for seat, t in enumerate(totals) if t == low]

    @property
    def next_pass(self) -> str:
        return pass_direction(self.players, len(self.deals) + 1)

    @property
    def outcome(self) -> Outcome:
        totals = self.totals
        leaders = self.leaders
        low = totals[leaders[0]]
        if self.deals:
            winners = winners_of(totals, self.rules.target, self.rules.tie)
            if len(winners) == 1:
                params = {"player": self.names[winners[0]], "total": low}
                return Outcome(True, winners[0], (), "winner", params, winners)
            if winners:
                params = {"players": [self.names[s] for s in winners], "total": low}
                return Outcome(True, None, (), "shared", params, winners)
            if max(totals) >= self.rules.target:
                params = {"players": [self.names[s] for s in leaders], "total": low}
                return Outcome(False, None, tuple(leaders), "tie", params)
        return Outcome(False, None, (), "playing", {"players": [self.names[s] for s in leaders]})

    # -- JSON --------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """What is stored: players, rules, entries and the undo history."""
        return {
            "players": list(self.names),
            "rules": self.rules.to_json(),
            "deals": [entry_to_json(d.entry) for d in self.deals],
            "history": [
                {
                    "action": c.action,
                    "number": c.number,
                    "before": None if c.before is None else entry_to_json(c.before.entry),
                }
                for c in self.history
            ],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Sheet:
        """A sheet from ``to_json``'s object; every entry is checked again."""
        sheet = cls(data["players"], SheetRules.from_json(data.get("rules")))
        for item in data.get("deals", []):
            sheet.deals.append(sheet._stored(entry_from_json(item, sheet.names)))
        for item in data.get("history", []):
            before = item.get("before")
            deal = None
            if before is not None:
                deal = sheet._stored(entry_from_json(before, sheet.names))
            sheet.history.append(Change(item["action"], int(item["number"]), deal))
        return sheet

    def _stored(self, entry: Entry) -> ScoredDeal:
        try:
            return score_entry(entry, self.rules, self.names)
        except ScoreError as e:
            if e.kind != AMBIGUOUS or not isinstance(entry, PointsEntry):
                raise
            # Saved before the sheet asked (moon with the J♦, or not?): it was
            # saved as an ordinary deal, and stays one.
            return score_entry(PointsEntry(entry.points, ordinary=True), self.rules, self.names)

    def view(self) -> dict[str, Any]:
        """Everything a page shows: deals with pass, points and totals; leaders; the outcome."""
        outcome = self.outcome
        deals = []
        for number, (deal, totals) in enumerate(zip(self.deals, self.running_totals, strict=True), 1):
            deals.append(
                {
                    "number": number,
                    "pass": pass_direction(self.players, number),
                    "entry": entry_to_json(deal.entry),
                    "points": list(deal.points),
                    "moon": deal.shooter,
                    "jack": deal.jack,
                    "totals": totals,
                }
            )
        return {
            "players": list(self.names),
            "rules": self.rules.to_json(),
            "deal_total": self.rules.deal_total,
            "moon_points": self.rules.moon_points,
            "deals": deals,
            "totals": self.totals,
            "leaders": self.leaders,
            "leader": self.leaders[0] if len(self.leaders) == 1 else None,
            # Once the game is over there is no next deal to announce.
            "next_deal": None if outcome.over else {"number": len(self.deals) + 1, "pass": self.next_pass},
            "over": outcome.over,
            "winner": outcome.winner,
            "winners": list(outcome.winners),
            "tied": list(outcome.tied),
            # The page says it from code and params (scm_CODE): no sentence here.
            "status": {"code": outcome.code, "params": outcome.params},
            "can_undo": bool(self.history),
        }
