"""The hub: which connections watch which table, and what each of them is sent.

It knows nothing of the rules: the runner hands it an ``Update`` (the state
messages of one broadcast, ``patches``), and the hub gives each connection
its own seat's text, or a spectator's, or, to a connection that asked for
patches and holds the previous update, only what changed. Sends never wait
(``Connection.post``): a connection that does not read never holds up a
table or the others watching it.

>>> hub = Hub()
>>> hub.seats("T1")
()
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

from ..asgi import Connection
from ..protocol import dumps


class Broadcast(Protocol):
    """What the hub needs of an update (``patches.Update`` is one)."""

    n: int
    base: int | None

    def text(self, seat: int) -> str: ...
    def patch(self, seat: int) -> str | None: ...


Bases = dict[Connection, tuple[int, int]]
"""For each connection, the update (number, seat) it was sent last: the base a
patch to it may build on."""


class Room:
    """The connections of one table: each with its seat (None: a visitor)."""

    __slots__ = ("bases", "conns", "shown", "spectators")

    def __init__(self) -> None:
        self.conns: dict[Connection, int | None] = {}
        self.bases: Bases = {}
        self.shown: dict[Connection, str] = {}
        """The last message each connection was sent that replaces the last of its kind (``Hub.tell``)."""
        self.spectators = True
        """Whether visitors get the game's states (a table may refuse spectators)."""


class Hub:
    def __init__(self) -> None:
        self._rooms: dict[str, Room] = {}

    def _room(self, key: str) -> Room:
        room = self._rooms.get(key)
        if room is None:
            room = self._rooms[key] = Room()
        return room

    # -- who is there --------------------------------------------------------------

    def attach(self, key: str, conn: Connection, seat: int | None) -> None:
        """Add a connection, or give it another seat (it is sent a whole state next)."""
        room = self._room(key)
        room.conns[conn] = seat
        room.bases.pop(conn, None)

    def reseat(self, key: str, moves: Mapping[int, int | None]) -> None:
        """Move the connections of each seat in ``moves`` to its new seat (None:
        watching); each moved one is sent a whole state next."""
        for conn in self.connections(key):
            seat = self.seat_of(key, conn)
            if seat is not None and seat in moves:
                self.attach(key, conn, moves[seat])

    def detach(self, key: str, conn: Connection) -> bool:
        """Forget a connection; True when it was there."""
        room = self._rooms.get(key)
        if room is None or conn not in room.conns:
            return False
        del room.conns[conn]
        room.bases.pop(conn, None)
        room.shown.pop(conn, None)
        if not room.conns:
            del self._rooms[key]
        return True

    def allow_spectators(self, key: str, allowed: bool) -> None:
        self._room(key).spectators = allowed

    def seat_of(self, key: str, conn: Connection) -> int | None:
        room = self._rooms.get(key)
        return None if room is None else room.conns.get(conn)

    def seats(self, key: str) -> tuple[int | None, ...]:
        """The seat of each connection (None: a visitor), in the order they came."""
        room = self._rooms.get(key)
        return () if room is None else tuple(room.conns.values())

    def connections(self, key: str) -> list[Connection]:
        room = self._rooms.get(key)
        return [] if room is None else list(room.conns)

    def take_plays(self, key: str) -> bool:
        """Every seated connection that gets patches here lays play patches too
        (``Connection.plays``; a visitor always gets whole states)."""
        room = self._rooms.get(key)
        return room is not None and all(
            c.plays for c, seat in room.conns.items() if c.patches and seat is not None
        )

    def count(self, key: str) -> int:
        room = self._rooms.get(key)
        return 0 if room is None else len(room.conns)

    # -- what they are sent ------------------------------------------------------------

    def broadcast(self, key: str, update: Broadcast) -> None:
        """Every connection its seat's state (a visitor a spectator's, if the
        table allows them), each text built once per seat; a patch to a
        connection that asked for patches and was sent update ``base`` for the
        same seat. Connections that missed an update get a whole state next."""
        room = self._rooms.get(key)
        if room is None:
            return
        whole: dict[int, str] = {}
        patches: dict[int, str | None] = {}
        base = update.base
        bases = room.bases
        after: Bases = {}
        n = update.n
        for conn, seat in list(room.conns.items()):
            if seat is None:
                if not room.spectators:
                    continue
                seat = -1
            text = None
            if base is not None and conn.patches and bases.get(conn) == (base, seat):
                if seat not in patches:
                    patches[seat] = update.patch(seat)
                text = patches[seat]
            if text is None:
                if seat not in whole:
                    whole[seat] = update.text(seat)
                text = whole[seat]
            after[conn] = (n, seat)
            conn.post(text)
        room.bases = after

    def send(self, conn: Connection, message: object, key: str | None = None) -> None:
        """One message to one connection. With ``key``: a state sent outside a
        broadcast, so that its next update is a whole state."""
        self.send_text(conn, dumps(message), key)

    def send_text(self, conn: Connection, text: str, key: str | None = None) -> None:
        """``send`` of a message already written as text."""
        if key is not None:
            room = self._rooms.get(key)
            if room is not None:
                room.bases.pop(conn, None)
        conn.post(text)

    def tell(
        self,
        key: str,
        text_for: Callable[[int | None], str | None],
        skip: Connection | None = None,
        replaces: bool = False,
    ) -> None:
        """Every connection of the table a message of its own (``text_for(seat)``;
        None: nothing for that one), outside the game's updates. ``replaces``: a
        message that replaces the last of its kind (the ``table``: a client keeps
        the last it got), sent only to the connections whose last one says
        something else (a seat's second connection coming or going, or a socket
        replaced before the old one is found dead, changes nothing the others see)."""
        room = self._rooms.get(key)
        if room is None:
            return
        shown = room.shown
        texts: dict[int | None, str | None] = {}
        for conn, seat in list(room.conns.items()):
            if conn is skip:
                continue
            if seat not in texts:
                texts[seat] = text_for(seat)
            text = texts[seat]
            if text is None:
                continue
            if replaces:
                if shown.get(conn) == text:
                    continue
                shown[conn] = text
            conn.post(text)

    def tell_one(self, key: str, conn: Connection, text: str) -> None:
        """One connection a message that replaces the last of its kind (``tell``'s
        ``replaces``), sent whatever it got before (a hello's answer)."""
        room = self._rooms.get(key)
        if room is not None and conn in room.conns:
            room.shown[conn] = text
        conn.post(text)


__all__ = ["Broadcast", "Hub"]
