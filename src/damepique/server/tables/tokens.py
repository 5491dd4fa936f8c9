"""The seat tokens of the tables this process runs, remembered.

Every ``hello`` names a seat token, and a page reconnects often (a reload,
a phone waking up, a restart's storm): looking each one up in the database
cost two queries a hello (the relay's route, then the session's). A table's
tokens change only where the table runs (a seat taken, left, renumbered),
and only through its registry, so that process may remember them while the
table is in its memory: ``forget`` when it leaves, and a token not found
here is looked up in the store.

>>> tokens = SeatTokens()
>>> tokens.add("tok-1", "K7QM4XPA", 2); tokens.get("tok-1")
('K7QM4XPA', 2)
>>> tokens.move("K7QM4XPA", {2: 0}); tokens.get("tok-1")
('K7QM4XPA', 0)
>>> tokens.drop("K7QM4XPA", 0); tokens.get("tok-1") is None
True
"""

from __future__ import annotations

from collections.abc import Mapping


class SeatTokens:
    def __init__(self) -> None:
        self._seats: dict[str, tuple[str, int]] = {}
        self._of: dict[str, set[str]] = {}
        """Each table's tokens (by code), to forget them together."""

    def get(self, token: str) -> tuple[str, int] | None:
        """(code, seat) of a token remembered here; None: ask the store."""
        return self._seats.get(token)

    def add(self, token: str, code: str, seat: int) -> None:
        self._seats[token] = (code, seat)
        self._of.setdefault(code, set()).add(token)

    def drop(self, code: str, seat: int) -> None:
        """The seat's tokens go (its person left)."""
        for token in [t for t in self._of.get(code, ()) if self._seats[t][1] == seat]:
            del self._seats[token]
            self._of[code].discard(token)

    def move(self, code: str, moves: Mapping[int, int]) -> None:
        """Seats renumbered (old -> new); the tokens of seats not in ``moves`` go."""
        for token in list(self._of.get(code, ())):
            seat = self._seats[token][1]
            if seat in moves:
                self._seats[token] = (code, moves[seat])
            else:
                del self._seats[token]
                self._of[code].discard(token)

    def forget(self, code: str) -> None:
        """The table left this process's memory: its tokens are the store's word again."""
        for token in self._of.pop(code, ()):
            self._seats.pop(token, None)

    def __len__(self) -> int:
        return len(self._seats)


__all__ = ["SeatTokens"]
