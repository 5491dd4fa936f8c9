"""Accounts for ranked games: a nickname and a password, sessions on the server.

Passwords are hashed with Argon2id (argon2-cffi) in two threads of their own,
never on the event loop; logins and registrations wait for them in a queue
shared fairly by addresses (``FairQueue``: each address at most
``PER_ADDRESS`` waiting, taking turns with the others), so a spray from many
addresses cannot keep one person from being checked. Guessing is limited by
``Attempts``.

Signing in (or registering) makes a session: a row of the database with a
random id, and a cookie holding the account's key and that id signed with
itsdangerous (HMAC, with a time stamp checked on read), ``HttpOnly``,
``SameSite=Lax``, and ``Secure`` whenever the page came over HTTPS (or
``DAMEPIQUE_SECURE_COOKIES=1`` says so behind a proxy). A cookie counts only
while its row exists: signing out deletes the row, so a copy of the cookie
(another device, a stolen one) signs nobody in afterwards. Sessions last 30
days. A cookie made before sessions had rows (no id in it) is refused: its
player signs in again, once.

A program plays with a bot account (``bots``): it proves itself with a token
on every request instead of a cookie, and never signs in with a password.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from itsdangerous import BadSignature, URLSafeTimedSerializer

from ..errors import Refusal
from ..fair import FairQueue
from ..storage.accounts import AccountStore
from .attempts import PAIR, Attempts
from .bots import Bots, bearer
from .nicknames import nickname_key
from .ratings import DEFAULT_RATING

T = TypeVar("T")

COOKIE = "damepique_session"
SESSION_AGE = 60 * 60 * 24 * 30
_hasher = PasswordHasher()
HASHING = 1024
"""Logins and registrations that may wait for the hashing threads at once, all
addresses together (a bound on memory: each address waits for at most
``PER_ADDRESS``, and takes turns with the others)."""
PER_ADDRESS = PAIR
"""Sign-ins one address may have waiting: as many as it may try a nickname."""


class Sessions:
    """Signs and reads session cookies: ``{"k": account key, "s": session id}``.

    >>> sessions = Sessions("not a real secret")
    >>> sessions.read(sessions.make("léa_42", "abc"))
    ('léa_42', 'abc')
    >>> sessions.read(sessions.serializer.dumps({"k": "léa_42"})) is None  # from before session ids
    True
    """

    def __init__(self, secret: str) -> None:
        self.serializer = URLSafeTimedSerializer(secret, salt="damepique-session")

    def make(self, key: str, sid: str) -> str:
        return self.serializer.dumps({"k": key, "s": sid})

    def read(self, cookie: str | None) -> tuple[str, str] | None:
        """(account key, session id) of a well-signed cookie younger than 30 days, or None.
        The session may still be over: ``Accounts.account_of`` asks the database."""
        if not cookie or len(cookie) > 512:
            return None
        try:
            data = self.serializer.loads(cookie, max_age=SESSION_AGE)
        except BadSignature:
            return None
        if not isinstance(data, dict):
            return None
        key, sid = data.get("k"), data.get("s")
        if not isinstance(key, str) or not isinstance(sid, str) or not sid:
            return None
        return key, sid


class Accounts:
    def __init__(self, store: AccountStore) -> None:
        self.store = store
        self.clock = store.db.clock
        """The app's clock (the database's): the slow-down of wrong passwords."""
        self.sessions: Sessions | None = None
        self.attempts = Attempts(self.clock)
        self.bots = Bots(store)
        self._hashing = ThreadPoolExecutor(max_workers=2, thread_name_prefix="argon2")
        self.queue = FairQueue(workers=2, per_client=PER_ADDRESS, waiting=HASHING, what="sign-ins")

    async def _hash(self, address: str, work: Callable[..., T], *args: str) -> T:
        """``work(*args)`` in the hashing threads, at ``address``'s turn; ``busy``
        when that address (or everybody) already waits for too many."""
        async with self.queue.turn(address):
            return await asyncio.get_running_loop().run_in_executor(self._hashing, work, *args)

    def close(self) -> None:
        self._hashing.shutdown(wait=False, cancel_futures=True)

    async def start(self) -> None:
        self.sessions = Sessions(os.environ.get("DAMEPIQUE_SECRET") or await self.store.secret())

    async def open_session(self, key: str) -> str:
        """A new session for the account ``key``: its cookie's value."""
        assert self.sessions is not None
        sid = secrets.token_urlsafe(32)
        await self.store.create_session(sid, key, SESSION_AGE)
        return self.sessions.make(key, sid)

    async def account_of(self, cookies: Mapping[str, str], authorization: str | None = None) -> str | None:
        """The account of a request: a bot's, by the token of its ``Authorization:
        Bearer`` header (``Refusal`` ``bad_bot_token`` when it proves nobody: a
        program is never taken for a stranger), else the person signed in by
        these cookies (a good signature, younger than 30 days, and a session the
        player has not signed out of), else None."""
        token = bearer(authorization)
        if token is not None:
            return await self.bots.account_of_token(token)
        found = self.sessions.read(cookies.get(COOKIE)) if self.sessions is not None else None
        if found is None:
            return None
        key, sid = found
        return key if await self.store.session_alive(sid, key, SESSION_AGE) else None

    async def close_session(self, cookies: Mapping[str, str]) -> None:
        """Sign out: the session of these cookies is over, wherever a copy of them went."""
        found = self.sessions.read(cookies.get(COOKIE)) if self.sessions is not None else None
        if found is not None:
            key, sid = found
            await self.store.drop_session(sid, key)

    async def register(self, address: str, nickname: object, password: object) -> tuple[str | None, str, str]:
        """(key, code, reason): key is None on refusal (``Refusal``: too many at once)."""
        key = nickname_key(nickname)
        if key is None:
            return None, "bad_nickname", "a nickname has 3 to 24 letters, digits, - or _"
        if not isinstance(password, str) or not 8 <= len(password) <= 200:
            return None, "bad_password", "a password has 8 to 200 characters"
        hashed = await self._hash(address, _hasher.hash, password)
        assert isinstance(nickname, str)
        if not await self.store.create_account(key, nickname.strip(), hashed, DEFAULT_RATING):
            return None, "nickname_taken", "this nickname is taken"
        self.attempts.known(address, key)
        return key, "", ""

    async def login(self, address: str, nickname: object, password: object) -> str | None:
        """The account signed in to, or None (a wrong nickname or password);
        ``Refusal`` when this address may not try now (``Attempts``) or too many
        people are signing in. A nickname nobody has costs the same time."""
        key = nickname_key(nickname)
        if key is None or not isinstance(password, str) or len(password) > 200:
            return None
        attempt = self.attempts.begin(address, key)
        if attempt.delay:
            await self.clock.sleep(attempt.delay)
        acc = await self.store.get_account(key)
        try:
            right = await self._hash(address, _verify, acc["password"] if acc else _DUMMY, password)
        except Refusal:
            self.attempts.withdrawn(attempt)
            raise
        if not right or acc is None or acc["kind"] != "person":
            return None  # a bot has no password (its token is its proof)
        self.attempts.succeeded(attempt)
        if _hasher.check_needs_rehash(acc["password"]):
            await self.store.set_password(key, await self._hash(address, _hasher.hash, password))
        return key


def _verify(hashed: str, password: str) -> bool:
    try:
        return _hasher.verify(hashed, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


_DUMMY = _hasher.hash("not a real password")


__all__ = ["COOKIE", "SESSION_AGE", "Accounts", "Sessions", "nickname_key"]
