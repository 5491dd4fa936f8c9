"""Bot accounts: a program plays with an account of its own, proved by a token.

A signed-in person makes a bot (``Bots.create``): an account in the same
namespace of nicknames as people, with a rating and statistics like anyone's,
marked as a bot and as that person's. Its secret is a token shown once
(``dpb_`` and 43 random characters: 256 bits); the database keeps only its
SHA-256, which is enough for a secret that cannot be guessed (a password
needs Argon2 because people choose weak ones). A program sends it as
``Authorization: Bearer <token>`` on every request and on the ``/ws``
upgrade (``bearer``); replacing the token stops the old one at once, and
revoking leaves the bot with none until its owner makes a new one. A bot
never signs in with a password and never makes bots.

>>> token_hash("dpb_example") == token_hash("dpb_example") != token_hash("dpb_other")
True
>>> bearer("Bearer dpb_abc"), bearer(None)
('dpb_abc', None)
>>> bearer("Basic dXNlcjpwYXNz")
Traceback (most recent call last):
...
damepique.server.errors.Refusal: send a bot's token as Authorization: Bearer <token>
"""

from __future__ import annotations

import hashlib
import secrets

from ..errors import Refusal
from ..protocol import Json
from ..storage.accounts import AccountStore
from .nicknames import nickname_key
from .ratings import DEFAULT_RATING

TOKEN_PREFIX = "dpb_"
"""What a bot token begins with: a secret that says what it is when it turns up in a log."""
BOTS_PER_PERSON = 10
"""Bots one person may have (revoked ones count: their nicknames and results stay)."""


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What the database keeps of a token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header; None when there
    is no such header. Any other header is refused: a program that meant to
    authenticate must never be taken silently for a stranger."""
    if authorization is None:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise Refusal("bad_bot_token", "send a bot's token as Authorization: Bearer <token>")
    return token


class Bots:
    """The bots people make, and who a token proves."""

    def __init__(self, store: AccountStore, limit: int = BOTS_PER_PERSON) -> None:
        self.store = store
        self.limit = limit

    async def account_of_token(self, token: str) -> str:
        """The bot's account key; ``Refusal`` (401) when no bot has this token (any more)."""
        key = None
        if token.startswith(TOKEN_PREFIX) and len(token) <= 128:
            key = await self.store.bot_of_token(token_hash(token))
        if key is None:
            raise Refusal(
                "bad_bot_token", "this bot token is not valid (any more): its owner can make a new one"
            )
        return key

    async def _person(self, account: str | None) -> str:
        """``account`` when it is a person's; a bot, or nobody, makes no bots."""
        if account is None:
            raise Refusal("account_needed", "sign in first: bots are made by people with an account")
        acc = await self.store.get_account(account)
        if acc is None or acc["kind"] != "person":
            raise Refusal("person_needed", "a bot cannot make or manage bots: sign in as a person")
        return account

    async def create(self, account: str | None, nickname: object) -> Json:
        """A new bot of ``account``'s: ``{"nickname", "token"}``, the token shown this once."""
        owner = await self._person(account)
        key = nickname_key(nickname)
        if key is None:
            raise Refusal("bad_nickname", "a nickname has 3 to 24 letters, digits, - or _")
        assert isinstance(nickname, str)
        token = new_token()
        made = await self.store.create_bot(
            key, nickname.strip(), owner, token_hash(token), DEFAULT_RATING, self.limit
        )
        if made == "taken":
            raise Refusal("nickname_taken", "this nickname is taken")
        if made == "limit":
            raise Refusal(
                "too_many_bots", f"a person may have {self.limit} bots", params={"limit": self.limit}
            )
        return {"nickname": nickname.strip(), "token": token}

    async def list(self, account: str | None) -> list[Json]:
        return await self.store.bots_of(await self._person(account))

    async def new_token(self, account: str | None, nickname: str) -> Json:
        """A new token for one of ``account``'s bots; the old one stops working now."""
        owner = await self._person(account)
        token = new_token()
        await self._set(owner, nickname, token_hash(token))
        return {"nickname": await self._nickname(nickname), "token": token}

    async def revoke(self, account: str | None, nickname: str) -> Json:
        """The bot keeps its nickname, rating and games, and no token works for it."""
        owner = await self._person(account)
        await self._set(owner, nickname, None)
        return {"nickname": await self._nickname(nickname), "active": False}

    async def allow_quick(self, account: str | None, nickname: str, allowed: object) -> Json:
        """Whether one of ``account``'s bots may join quick matches (casual ones only)."""
        owner = await self._person(account)
        if not isinstance(allowed, bool):
            raise Refusal("bad_request", "'allowed' is true or false")
        key = nickname_key(nickname)
        if key is None or not await self.store.set_bot_quick(owner, key, allowed):
            raise Refusal("not_found", "you have no bot with this nickname")
        return {"nickname": await self._nickname(nickname), "quick": allowed}

    async def _set(self, owner: str, nickname: str, hashed: str | None) -> None:
        key = nickname_key(nickname)
        if key is None or not await self.store.set_bot_token(owner, key, hashed):
            raise Refusal("not_found", "you have no bot with this nickname")

    async def _nickname(self, nickname: str) -> str:
        key = nickname_key(nickname)
        acc = await self.store.get_account(key) if key else None
        return nickname.strip() if acc is None else str(acc["nickname"])


__all__ = ["BOTS_PER_PERSON", "TOKEN_PREFIX", "Bots", "bearer", "new_token", "token_hash"]
