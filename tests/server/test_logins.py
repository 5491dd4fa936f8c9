"""Guessing passwords (issue 20): the limit holds under concurrency, a
stranger cannot lock an account (limits per address and nickname, a slow-down
for the owner's address), nicknames nobody has are limited the same way and
cost the same, and password hashing waits in a bounded queue, off the loop."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from damepique.server.accounts import accounts as accounts_module
from damepique.server.accounts.accounts import Accounts
from damepique.server.accounts.attempts import ACCOUNT, ADDRESS, PAIR, PAIR_UNDER_ATTACK, WINDOW, Attempts
from damepique.server.app import create_app
from damepique.server.clock import ManualClock
from damepique.server.errors import Refusal
from damepique.server.storage.accounts import AccountStore
from damepique.server.storage.database import Database

from ..clocks import until

PASSWORD = "correct horse"


def client(app: FastAPI, address: str) -> httpx.AsyncClient:
    """A client of ``app`` (in this process, on its own event loop) coming from ``address``."""
    transport = httpx.ASGITransport(app=app, client=(address, 40000))
    return httpx.AsyncClient(transport=transport, base_url="http://testserver", timeout=120)


async def test_sixty_guesses_at_once_are_held_to_the_limit_and_lock_out_nobody_else(tmp_path: Path) -> None:
    """All at once on the app's one event loop, as a server process takes them:
    the count holds under that concurrency (each guess waits for the hashing
    threads between its look at the count and the answer)."""
    app = create_app(str(tmp_path / "sixty.sqlite3"))
    async with app.router.lifespan_context(app):
        async with client(app, "127.0.0.1") as home:
            r = await home.post("/api/accounts", json={"nickname": "Owner", "password": PASSWORD})
            assert r.status_code == 201
        for nickname in ("Owner", "nobody_has_this"):  # an account, and a nickname nobody has: the same
            async with client(app, "127.0.0.2") as attacker:
                answers = await asyncio.gather(
                    *(
                        attacker.post("/api/login", json={"nickname": nickname, "password": f"guess {i}"})
                        for i in range(60)
                    )
                )
            statuses = [r.status_code for r in answers]
            assert statuses.count(401) == PAIR and statuses.count(429) == 60 - PAIR, statuses
            refused = next(r for r in answers if r.status_code == 429)
            assert refused.json()["code"] == "too_many_attempts" and int(refused.headers["Retry-After"]) > 0
        # The owner, from where they registered, signs in at once; so does anybody else from elsewhere.
        for address, nickname in (("127.0.0.1", "owner"), ("127.0.0.3", "Owner")):
            async with client(app, address) as someone:
                r = await someone.post("/api/login", json={"nickname": nickname, "password": PASSWORD})
                assert r.status_code == 200, (address, r.text)


async def test_the_owner_s_address_is_slowed_down_never_locked(tmp_path: Path) -> None:
    clock = ManualClock()
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'owner.sqlite3'}", clock)
    await db.open()
    accounts = Accounts(AccountStore(db))
    await accounts.start()
    owner = "203.0.113.5"
    try:
        assert (await accounts.register(owner, "Lea", PASSWORD))[0] == "lea"
        for _ in range(PAIR):
            assert await accounts.login(owner, "lea", "wrong") is None  # at once, and never locked
        for delay, password, signed_in in ((1.0, "wrong", None), (2.0, PASSWORD, "lea")):
            login = asyncio.create_task(accounts.login(owner, "lea", password))
            await until(lambda: clock.pending > 0)  # it waits on the clock before the password is checked
            await clock.advance(delay - 0.1)
            assert not login.done(), f"answered before {delay} s"
            await clock.advance(0.1)
            await until(login.done)
            assert login.result() == signed_in
    finally:
        accounts.close()
        await db.close()


def test_a_nickname_nobody_has_costs_a_password_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checked: list[str] = []
    real = accounts_module._verify

    def counting(hashed: str, password: str) -> bool:
        checked.append(hashed)
        return real(hashed, password)

    monkeypatch.setattr(accounts_module, "_verify", counting)
    with TestClient(create_app(str(tmp_path / "n.sqlite3"))) as client:
        client.post("/api/accounts", json={"nickname": "Lea", "password": PASSWORD})
        for nickname in ("lea", "tom"):
            r = client.post("/api/login", json={"nickname": nickname, "password": "wrong"})
            assert r.status_code == 401 and r.json()["code"] == "bad_login"
    assert len(checked) == 2 and checked[0] != checked[1]  # the account's hash, then the stand-in's


def test_hashing_waits_in_a_bounded_queue(tmp_path: Path) -> None:
    app = create_app(str(tmp_path / "q.sqlite3"))
    with TestClient(app) as client:
        accounts = app.state.accounts
        full = accounts.queue.waiting
        accounts.queue.waiting = 0  # the queue is full
        accounts.queue.running = accounts.queue.workers
        r = client.post("/api/login", json={"nickname": "lea", "password": "whatever"})
        assert r.status_code == 429 and r.json()["code"] == "busy" and r.headers["Retry-After"]
        r = client.post("/api/accounts", json={"nickname": "Lea", "password": PASSWORD})
        assert r.status_code == 429 and r.json()["code"] == "busy"
        accounts.queue.waiting, accounts.queue.running = full, 0
        # The refused login was not counted as a wrong password.
        assert not any(accounts.attempts.pairs.values())


async def test_the_owner_signs_in_from_a_new_address_while_120_addresses_spray(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 25: 120 wrong passwords from 120 addresses filled the one queue of
    32 places (the owner got 429 busy) and spent the account's allowance (the
    owner, from a new address, got 429 too_many_attempts). The hashing threads
    are held (a gate) until every stranger and the owner wait for them: the
    queue at its fullest, whatever the machine's speed."""
    gate = threading.Event()

    def gated(hashed: str, password: str) -> bool:
        gate.wait(60)
        return password == PASSWORD  # the queue is tested here, not Argon2

    app = create_app(str(tmp_path / "spray.sqlite3"))
    async with app.router.lifespan_context(app):
        accounts = app.state.accounts

        async with client(app, "203.0.113.1") as home:
            r = await home.post("/api/accounts", json={"nickname": "Owner", "password": PASSWORD})
            assert r.status_code == 201
        monkeypatch.setattr(accounts_module, "_verify", gated)
        # Every login looks its account up, then at once waits for the hashing threads (or is refused).
        looked_up = 0
        arrived = {120: asyncio.Event(), 121: asyncio.Event()}
        real_get = accounts.store.get_account

        async def get_account(key: str) -> object:
            nonlocal looked_up
            found = await real_get(key)
            looked_up += 1
            if looked_up in arrived:
                arrived[looked_up].set()
            return found

        monkeypatch.setattr(accounts.store, "get_account", get_account)
        strangers = [client(app, f"198.51.{i // 200}.{1 + i % 200}") for i in range(120)]
        owner = client(app, "192.0.2.77")  # never seen before
        try:
            spray = [
                asyncio.ensure_future(
                    c.post("/api/login", json={"nickname": "owner", "password": f"guess {i}"})
                )
                for i, c in enumerate(strangers)
            ]
            await asyncio.wait(
                [asyncio.ensure_future(arrived[120].wait()), *spray], return_when="FIRST_COMPLETED"
            )
            refused_at_once = [t.result().json() for t in spray if t.done()]
            mine = asyncio.ensure_future(
                owner.post("/api/login", json={"nickname": "Owner", "password": PASSWORD})
            )
            await asyncio.wait(
                [asyncio.ensure_future(arrived[121].wait()), mine], return_when="FIRST_COMPLETED"
            )
            gate.set()
            answer = await mine
            statuses = [r.status_code for r in await asyncio.gather(*spray)]
        finally:
            gate.set()
            for c in [*strangers, owner]:
                await c.aclose()
        assert not refused_at_once, refused_at_once[:3]
        assert answer.status_code == 200, answer.text
        assert statuses.count(401) == 120, statuses  # each stranger's guess was checked, none refused


# -- the limits themselves, on a clock of their own --------------------------------------


def test_guesses_from_many_addresses_are_bounded_and_the_owner_still_gets_in() -> None:
    a = Attempts()
    a.known("198.51.100.1", "lea", now=0.0)
    for i in range(ACCOUNT):
        a.begin(f"192.0.2.{i // PAIR}", "lea", now=1.0)  # PAIR guesses each from several addresses
    # Under attack: each new address has PAIR_UNDER_ATTACK tries, its own, that nobody else can spend.
    for _ in range(PAIR_UNDER_ATTACK):
        a.begin("192.0.2.200", "lea", now=2.0)
    with pytest.raises(Refusal) as e:
        a.begin("192.0.2.200", "lea", now=2.0)
    assert e.value.code == "too_many_attempts" and e.value.retry_after == WINDOW
    assert a.begin("198.51.100.1", "lea", now=3.0).delay == 0.0  # the owner: not even slowed
    assert a.begin("203.0.113.77", "lea", now=3.0).delay == 0.0  # the owner at a new address: may try
    # The window passes: strangers may try again.
    assert a.begin("192.0.2.200", "lea", now=2.0 + WINDOW).delay == 0.0


def test_one_address_trying_every_nickname_is_bounded() -> None:
    a = Attempts()
    for i in range(ADDRESS):
        a.begin("192.0.2.9", f"player{i}", now=0.0)
    with pytest.raises(Refusal):
        a.begin("192.0.2.9", "someone_else", now=1.0)
    a.begin("192.0.2.10", "someone_else", now=1.0)  # another address is not concerned


def test_a_success_is_no_failure() -> None:
    a = Attempts()
    for _ in range(10):
        attempt = a.begin("192.0.2.1", "lea", now=0.0)
        a.succeeded(attempt, now=0.0)
    assert not a.pairs.get(("192.0.2.1", "lea")) and not a.accounts.get("lea")
