"""A bot that gets its own games: its account's event stream and challenges.

``serve`` keeps the bot account's event stream open (``GET /api/stream/event``,
``docs/bot-api.md``), answers every challenge (accept, or decline with a
reason), and plays each game the stream says has started, one after the
other, with the seat token the ``gameStart`` event carries. ``damepique bot
--url http://HOST:PORT --challenges`` is the same from the command line.

>>> server_address("http://127.0.0.1:8000/#/t/K7QM4XPA")
'http://127.0.0.1:8000'
"""

from __future__ import annotations

import json
import random
import sys
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from urllib.parse import urlsplit, urlunsplit

from damepique import __version__
from damepique.bots.base import Bot

from .client import Client, Refused
from .links import LinkError, Target
from .wire import Message

READ_TIMEOUT = 75.0
"""Seconds without a line before the stream counts as lost (the server sends one every 20)."""

Answer = Callable[[Message], "bool | str"]
"""What to say to a challenge: True accepts, a string declines with that reason
(``generic``, ``later``, ``rules``, ``timer``, ``too_many``, ``no_bots``, ``only_bots``)."""


def server_address(url: str) -> str:
    """The server's HTTP address from any link to it (a table's link, its page)."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise LinkError(f"{url!r} is not an http(s):// address of a server")
    return urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", ""))


def _request(base: str, token: str, path: str, body: Message | None = None) -> urllib.request.Request:
    headers = {"User-Agent": f"damepique-bot/{__version__}", "Authorization": f"Bearer {token}"}
    if body is None:
        return urllib.request.Request(base + path, headers={**headers, "Accept": "application/x-ndjson"})
    data = json.dumps(body).encode()
    return urllib.request.Request(
        base + path, data=data, method="POST", headers={**headers, "Content-Type": "application/json"}
    )


def events(base: str, token: str) -> Iterator[Message]:
    """The account's events as they come (the empty keep-alive lines skipped);
    ``Refused`` when the server says no (a bad token) or cannot be reached."""
    try:
        with urllib.request.urlopen(_request(base, token, "/api/stream/event"), timeout=READ_TIMEOUT) as r:
            for raw in r:
                line = raw.strip()
                if line:
                    yield json.loads(line)
    except urllib.error.HTTPError as e:
        try:
            refusal = json.loads(e.read() or b"{}")
        except ValueError:
            refusal = {}
        raise Refused(
            str(refusal.get("code") or f"http_{e.code}"), str(refusal.get("reason")), e.code
        ) from None
    except (urllib.error.URLError, OSError) as e:
        raise Refused("unreachable", f"cannot reach {base}: {getattr(e, 'reason', e)}") from None


def answer_challenge(base: str, token: str, challenge: Message, said: bool | str) -> None:
    """Accept (``said`` True) or decline (``said``: the reason) a challenge."""
    cid = challenge["id"]
    if said is True:
        path, body = f"/api/challenges/{cid}/accept", {}
    else:
        path, body = f"/api/challenges/{cid}/decline", {"reason": said or "generic"}
    try:
        with urllib.request.urlopen(_request(base, token, path, body), timeout=15):
            pass
    except urllib.error.HTTPError as e:  # answered elsewhere, canceled meanwhile: nothing to do
        if e.code not in (404, 409):
            raise Refused(f"http_{e.code}", f"the challenge {cid} could not be answered") from None


def serve(
    bot: Bot,
    *,
    url: str,
    token: str,
    answer: Answer = lambda challenge: True,
    games: int | None = None,
    seed: int | None = None,
    log: Callable[[str], None] | None = None,
    on_result: Callable[[Message], None] | None = None,
) -> list[Message]:
    """Answer challenges and play the games they start until ``games`` were
    played (None: until the stream ends); each game's result."""
    base = server_address(url)
    say = log or (lambda line: print(f"damepique bot: {line}", file=sys.stderr, flush=True))
    rng = random.Random(seed)
    results: list[Message] = []
    seen: set[str] = set()
    for event in events(base, token):
        kind = event.get("type")
        if "id" in event:  # told again (a stream reopened, a server restarted): acted on once
            if event["id"] in seen:
                continue
            seen.add(event["id"])
        if kind == "challenge":
            challenge = event["challenge"]
            said = answer(challenge)
            word = "accepted" if said is True else f"declined ({said})"
            say(f"challenge {challenge['id']} from {challenge['from']}: {word}")
            answer_challenge(base, token, challenge, said)
        elif kind == "gameStart":
            game = event["game"]
            say(f"game at table {game['table']}, seat {game['seat']}")
            target = Target.parse(base, game["table"])
            client = Client(
                bot,
                target,
                token=token,
                seed=rng.randrange(2**32),
                log=log,
                on_result=on_result,
                seat_token=game["token"],
            )
            results += client.run()
            if games is not None and len(results) >= games:
                return results
    return results


__all__ = ["READ_TIMEOUT", "answer_challenge", "events", "serve", "server_address"]
