"""Quick match: one queue for the whole server, whatever process a page talks to.

A page asks for a game with people (``/ws/match``, ``docs/multiplayer.md``):
the process holding its socket (its *front*) keeps the socket and tells the
queue's *owner*, the one process holding the ``quickmatch`` lease (the tables'
leases: ``cluster.leases``), who waits for what. The owner alone groups people
(``queue.Queue``), each time someone comes and each second of the app's clock,
makes each group's table, seats them and starts the game, and tells each
person's front where they sit. So two processes never seat one person twice:
one queue holds one entry per person (a second wait replaces the first).

Before seating a group the owner asks the fronts who is still there (a page
closed meanwhile is never seated); those it asked are *claimed* by it. When
the owner goes (it stopped, or died and its lease ran out) another process
takes the lease at its next second and every front tells it who waits there,
those the old owner had claimed included (it may have died before seating
them): the queue is rebuilt from the people still connected. Each wait is
kept in the database as the owner takes it in (``storage.quick``): its start
and end, and once seated, where. So a new owner puts a person back at their
place with their countdown, and a ticket that was seated hears where instead
of being seated again, whoever owns the queue, and after a restart of a lone
server too (its waiting pages are told ``restarting``, reconnect and join
again with their ticket). A page that reconnects sends its ticket again: it
keeps its place, or hears where it was seated.

A wait sits once: the seat token a table gives it names its ticket, a
unique column (``TableStore.add_token``). An owner that dies between seating
a group and keeping where (``quick_tickets``) leaves that word in the seat
tokens: the new owner finds the seat there and tells the page, instead of
seating it again; and of two owners at once (one that lost its lease and
does not know it yet), the second to seat a wait is refused and tells the
page where the first seated it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from damepique.engine import Rules
from damepique.wire import QuickSeat, quick_message

from ..clock import Clock
from ..cluster.node import Node
from ..errors import Refusal
from ..http import client_id
from ..protocol import Json, dumps
from ..storage.quick import QuickStore
from ..tables.registry import Tables
from ..tables.seats import Sitter, TableOptions, TableSeat
from .queue import Choice, Entry, Queue, wait_from

log = logging.getLogger("damepique.server")

LEASE = "quickmatch"
"""The lease of the queue's owner."""
UPKEEP_S = 1.0
"""How often (on the app's clock) the owner seats the groups that are due, and
every process checks who owns the queue."""
QUICK_TIMER = 30
"""Seconds per turn at a quick match's table (strangers: nobody holds the others up)."""
RECENT_S = 600.0
"""How long a wait and where it was seated are kept (a page that reconnects
with its ticket hears again, and is never queued twice)."""


class Listener(Protocol):
    """A waiting page's connection (``asgi.Connection``)."""

    closed: bool

    def post(self, text: str) -> None: ...


SeatGroup = Callable[[Choice, list[Entry]], Awaitable[list[QuickSeat | None]]]
"""Make a table for these people, seat them, start: ``{code, token, seat}`` each, in
order; None for a person whose wait already sits at a table (a wait sits once:
``TableStore.add_token``), seated by an owner that went before saying so."""


@dataclass
class Waiting:
    conn: Listener
    entry: Entry
    claimed: str | None = None
    """The owner that asked for this person to seat them: never offered to
    another while it owns the queue."""


async def _always() -> bool:
    return True


class QuickMatch:
    """This process's part of quick match: front for its pages, owner when it holds the lease."""

    def __init__(self, node: Node, clock: Clock, seat_group: SeatGroup, store: QuickStore) -> None:
        self.node = node
        self.clock = clock
        self.seat_group = seat_group
        self.store = store
        self.local: dict[str, Waiting] = {}
        """The people waiting whose page is connected here, by ticket."""
        self.queue = Queue()
        """Everyone waiting, when this process owns the queue (else empty)."""
        self.recent: dict[str, tuple[Json, float]] = {}
        """Where the owner seated each ticket lately, and when (the database keeps it too)."""
        self._swept = 0.0
        self.owner: str | None = None
        self._synced_to: str | None = None
        self._matching = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._work: set[asyncio.Task[None]] = set()
        self._owner_calls: dict[str, Callable[..., Awaitable[Any]]] = {
            "quick_join": self._owner_join,
            "quick_leave": self._owner_leave,
        }
        for name, handler in self._owner_calls.items():
            node.on_call(name, handler)
        node.on_call("quick_claim", self._claim)
        node.on_op("quick_seated", self._seated_op)
        node.on_op("quick_replaced", self._replaced_op)
        node.on_op("quick_update", self._update_op)
        node.on_op("quick_unclaim", self._unclaim_op)
        node.on_lost(self._lost)

    # -- start and stop --------------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop; the pages waiting here hear ``restarting`` (they join again, with
        their ticket, wherever they reconnect: their wait is kept)."""
        for ticket, waiting in list(self.local.items()):
            waiting.conn.post(dumps(quick_message("restarting", ticket)))
        tasks = [t for t in (self._task, *self._work) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task

    async def _run(self) -> None:
        while True:
            await self.clock.sleep(UPKEEP_S)
            try:
                await self.upkeep()
            except Exception:
                log.exception("quick match upkeep failed; trying again")

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._work.add(task)
        task.add_done_callback(self._work.discard)

    # -- the front: this process's pages ----------------------------------------------------------

    def entry(self, body: Json, sitter: Json, name: str, rating: float | None) -> Entry:
        """A page's ``join`` as a queue entry (``Refusal``: what is wrong with it)."""
        choice = Choice.from_json(body)
        wait = wait_from(body)
        account = sitter.get("account")
        if choice.ranked and account is None:
            raise Refusal("account_needed", "ranked games need an account: sign in first")
        ticket = client_id(body.get("ticket")) or secrets.token_urlsafe(12)
        device = client_id(body.get("player"))
        if choice.ranked:
            person = f"o:{sitter.get('owner') or account}"  # a person and their bots wait once
        elif account is not None:
            person = f"a:{account}"
        else:
            person = f"g:{device}" if device else f"t:{ticket}"
        return Entry(ticket, person, choice, self.clock.time(), wait, rating, name, sitter, self.node.pid)

    async def join(self, conn: Listener, entry: Entry) -> None:
        """Queue a person whose page is ``conn`` (the same ticket again: the same
        place, or where it was seated)."""
        entry.pid = self.node.pid
        self.local[entry.ticket] = Waiting(conn, entry)
        try:
            reply = await self._to_owner("quick_join", entry=entry.to_json())
        except Refusal:
            self.local.pop(entry.ticket, None)  # not queued: the page hears why, and waits nowhere
            raise
        self._answer(entry.ticket, reply)

    async def leave(self, ticket: str, conn: Listener | None = None, keep: bool = False) -> bool:
        """The person stops waiting (their page said so, or closed). False when
        they were not waiting here (seated meanwhile, or another page took over).
        ``keep``: the server closed the page's socket as it restarts: the page
        is gone from here but its wait is kept, for it to take back with its
        ticket (meanwhile nobody can seat it: no front claims it)."""
        waiting = self.local.get(ticket)
        if waiting is None or (conn is not None and waiting.conn is not conn):
            return False
        del self.local[ticket]
        if not keep and waiting.claimed is None:
            with contextlib.suppress(Refusal):
                await self._to_owner("quick_leave", ticket=ticket)
        return True

    def _answer(self, ticket: str, reply: Json) -> None:
        waiting = self.local.get(ticket)
        if waiting is None:
            return
        if reply.get("status") == "matched":
            del self.local[ticket]
        waiting.conn.post(dumps(reply))

    async def _claim(self, tickets: list[str], owner: str) -> list[str]:
        """The owner is about to seat these: those still here, claimed for it."""
        here = []
        for ticket in tickets:
            waiting = self.local.get(ticket)
            if waiting is not None and not waiting.conn.closed and waiting.claimed is None:
                waiting.claimed = owner
                here.append(ticket)
        return here

    def _seated(self, ticket: str, reply: Json) -> None:
        waiting = self.local.pop(ticket, None)
        if waiting is not None:
            waiting.conn.post(dumps(reply))
        # (A page gone meanwhile finds its seat again with its ticket, or a bot
        # stands in after the grace period, as for anyone who drops.)

    async def _seated_op(self, m: Json) -> None:
        self._seated(str(m["ticket"]), m["message"])

    def _update(self, ticket: str, update: Json) -> None:
        waiting = self.local.get(ticket)
        if waiting is not None:
            waiting.conn.post(dumps(update))

    async def _update_op(self, m: Json) -> None:
        self._update(str(m["ticket"]), m["message"])

    async def _replaced_op(self, m: Json) -> None:
        self._replaced(str(m["ticket"]))

    async def _unclaim_op(self, m: Json) -> None:
        waiting = self.local.get(str(m["ticket"]))
        if waiting is not None:
            waiting.claimed = None

    def _replaced(self, ticket: str) -> None:
        waiting = self.local.pop(ticket, None)
        if waiting is not None:
            waiting.conn.post(dumps(quick_message("replaced", ticket)))

    # -- who owns the queue ---------------------------------------------------------------------

    async def _owner_pid(self) -> str:
        self.owner = await self.node.owner_for(LEASE, _always)
        return self.owner

    async def _to_owner(self, name: str, **args: Any) -> Any:
        owner = self.owner or await self._owner_pid()
        if owner == self.node.pid:
            return await self._owner_calls[name](**args)
        try:
            return await self.node.call(owner, name, **args)
        except Refusal:
            self.owner = None  # ask again next time (it may have died)
            raise

    async def _lost(self, name: str) -> None:
        if name == LEASE:
            self.queue = Queue()
            self.owner = None

    async def upkeep(self) -> None:
        """Each second: find the owner (taking the lease if nobody holds it); a
        new owner hears of everyone waiting here; the owner seats who is due."""
        owner = await self._owner_pid()
        if owner != self._synced_to:
            if owner != self.node.pid:
                self.queue = Queue()
            self._synced_to = owner
            for ticket, waiting in list(self.local.items()):
                # Those the old owner claimed too: it may have gone before seating
                # them, and the new owner hears from the database if it did not.
                if waiting.claimed is not None and waiting.claimed != owner:
                    waiting.claimed = None
                elif waiting.claimed is not None:
                    continue
                try:
                    reply = await self._to_owner("quick_join", entry=waiting.entry.to_json())
                    if reply.get("status") != "queued":  # (queued, the page knew)
                        self._answer(ticket, reply)
                except Refusal:
                    self._synced_to = None  # try again next second
                    break
        if owner == self.node.pid:
            await self.match()
            now = self.clock.time()
            for ticket, (_, at) in list(self.recent.items()):
                if now - at > RECENT_S:
                    del self.recent[ticket]
            if now - self._swept > RECENT_S / 10:
                self._swept = now
                # Apart: this second's round must not wait on a write (the next
                # one is due on the app's clock, a test's moved by hand).
                self._spawn(self.store.forget_before(now - RECENT_S))

    # -- the owner ------------------------------------------------------------------------------

    async def _owner_join(self, entry: Json) -> Json:
        e = Entry.from_json(entry)
        seated = self.recent.get(e.ticket)
        if seated is not None:
            return seated[0]
        if e.ticket not in self.queue.entries:
            # The wait as it was taken in first (by this owner or one before it):
            # its place and its countdown, or where it was seated.
            kept = await self.store.waits(e.ticket, e.since, e.due)
            if kept.seated is not None:
                self.recent[e.ticket] = (kept.seated, self.clock.time())
                return kept.seated
            where = await self.store.seat_taken(e.ticket)
            if where is not None:  # seated by an owner that went before keeping where
                return await self._matched(e.ticket, where, self.clock.time())
            e.since, e.wait = kept.since, kept.due - kept.since
        new = e.ticket not in self.queue.entries
        replaced = self.queue.add(e)
        if replaced is not None:
            self._tell(replaced.pid, {"op": "quick_replaced", "ticket": replaced.ticket})
        if new:
            self._count(e.choice, skip=e.ticket)
        self._spawn(self.match())
        now = self.clock.time()
        return dict(  # Json, as the kept ``matched`` answer above is
            quick_message(
                "queued",
                e.ticket,
                choice=e.choice.to_json(),
                seconds=max(0, round(e.due - now)),
                waiting=self.queue.waiting(e.choice),
            )
        )

    async def _owner_leave(self, ticket: str) -> bool:
        gone = self.queue.remove(ticket)
        if gone is not None:
            self._count(gone.choice)
        # Apart: a page's socket closing may cancel its handler at this await.
        self._spawn(self.store.forget(ticket))
        return gone is not None

    def _count(self, choice: Choice, skip: str | None = None) -> None:
        """Everyone waiting for ``choice`` hears how many do now (``waiting``)."""
        n = self.queue.waiting(choice)
        for e in list(self.queue.entries.values()):
            if e.choice == choice and e.ticket != skip:
                update = quick_message("waiting", e.ticket, waiting=n)
                self._tell(e.pid, {"op": "quick_update", "ticket": e.ticket, "message": update})

    def _tell(self, pid: str, m: Json) -> None:
        if pid != self.node.pid:
            self.node.send(pid, m)
        elif m["op"] == "quick_seated":
            self._seated(m["ticket"], m["message"])
        elif m["op"] == "quick_update":
            self._update(m["ticket"], m["message"])
        else:
            self._replaced(m["ticket"])

    async def match(self) -> None:
        """Seat every group that is due (the owner only)."""
        async with self._matching:
            if LEASE not in self.node.owned:
                return
            now = self.clock.time()
            groups = self.queue.groups(now)
            for group in groups:
                await self._seat(group, now)
            for choice in {g[0].choice for g in groups}:
                self._count(choice)  # those still waiting for it: fewer now

    async def _claim_at(self, pid: str, tickets: list[str]) -> list[str]:
        if pid == self.node.pid:
            return await self._claim(tickets, pid)
        try:
            return list(await self.node.call(pid, "quick_claim", tickets=tickets, owner=self.node.pid))
        except Refusal:
            return []

    async def _seat(self, group: list[Entry], now: float) -> None:
        by_pid: dict[str, list[str]] = {}
        for e in group:
            by_pid.setdefault(e.pid, []).append(e.ticket)
        here: set[str] = set()
        for pid, tickets in by_pid.items():
            here.update(await self._claim_at(pid, tickets))
        people = [e for e in group if e.ticket in here]
        if not people:
            return
        if len(people) < len(group) and not any(now >= e.due for e in people):
            # Someone left as the group formed, and nobody's wait is over: the
            # others wait on (released at their fronts, to be offered again).
            for e in people:
                self._unclaim_later(e)
                self.queue.add(e)
            return
        try:
            seats = await self.seat_group(people[0].choice, people)
        except Exception:
            log.exception("quick match: seating %d people failed", len(people))
            for e in people:
                self._tell_failed(e)
            return
        for e, where in zip(people, seats, strict=True):
            if where is None:  # it sits already: another owner seated it
                where = await self.store.seat_taken(e.ticket)
                if where is None:  # (and it left that table since)
                    self._tell_failed(e)
                    continue
            reply = await self._matched(e.ticket, where, now)
            self._tell(e.pid, {"op": "quick_seated", "ticket": e.ticket, "message": reply})

    async def _matched(self, ticket: str, where: QuickSeat, now: float) -> Json:
        """The ``matched`` message of ``ticket`` seated ``where``, kept (here and
        in the database) for a page that asks again."""
        reply = dict(quick_message("matched", ticket, **where, link=f"/#/t/{where['code']}"))
        self.recent[ticket] = (reply, now)
        await self.store.seated(ticket, reply, now)
        return reply

    def _unclaim_later(self, e: Entry) -> None:
        if e.pid == self.node.pid:
            waiting = self.local.get(e.ticket)
            if waiting is not None:
                waiting.claimed = None
        else:
            self.node.send(e.pid, {"op": "quick_unclaim", "ticket": e.ticket})

    def _tell_failed(self, e: Entry) -> None:
        reply = quick_message("failed", e.ticket)
        self._tell(e.pid, {"op": "quick_seated", "ticket": e.ticket, "message": reply})


def table_seater(tables: Tables) -> SeatGroup:
    """Seat a group at a new table of ``tables`` and start its game, bots filling."""

    async def seat_group(choice: Choice, people: list[Entry]) -> list[QuickSeat | None]:
        low, high = choice.seats
        players = max(low, min(high, len(people)))
        options = TableOptions(
            Rules(players=players, target=choice.target).to_json(),
            timer=QUICK_TIMER,
            ranked=choice.ranked,
        )
        table = await tables.create("table", options, [TableSeat() for _ in range(players)])
        seats: list[QuickSeat | None] = []
        for e in people:
            try:
                sitter = replace(Sitter.from_json(e.sitter), ticket=e.ticket)
                token, seat = await table.sit(e.name, sitter, announce=False)
            except Refusal as refused:
                if refused.code != "already_seated":
                    raise
                seats.append(None)  # seated by another owner: its seat here goes to a bot
                continue
            seats.append({"code": table.code, "token": token, "seat": seat})
        if any(seats):
            await table.start(None, now=True)
        else:
            await table.expire()  # nobody left to seat: no game of bots alone
        return seats

    return seat_group


__all__ = [
    "LEASE",
    "RECENT_S",
    "UPKEEP_S",
    "Listener",
    "QuickMatch",
    "SeatGroup",
    "Waiting",
    "table_seater",
]
