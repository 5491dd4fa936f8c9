"""Challenges and the event stream, from outside (issue 29): an outside bot
(``outside_bot.py``, no damepique module) keeps its event stream open, is
challenged by a person and by another bot, accepts, and plays each game to its
end; a challenge declined with a reason reaches the challenger; a stream
opened late first lists the challenges waiting for an answer."""

from __future__ import annotations

import json
import signal
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from ..clocks import WITHIN
from ..conftest import bot_token, free_port, person
from .outside_bot import EventStream, OutsideBot


def leave_seat(base: str, game: dict[str, Any]) -> None:
    """A person who accepted but lets the server's bot play: hello, then leave."""
    ws = connect(base.replace("http://", "ws://") + "/ws", open_timeout=15)
    ws.send(json.dumps({"type": "hello", "table": game["table"], "token": game["token"]}))
    ws.send(json.dumps({"type": "leave"}))
    while json.loads(ws.recv(timeout=30))["type"] != "state":
        pass
    ws.close()


def play_game(bot: OutsideBot, game: dict[str, Any]) -> dict[str, Any]:
    bot.join(game)
    bot.connect()
    final = bot.play_until(lambda m: m["type"] == "state" and m["over"])
    bot.close()
    return final


def test_a_bot_challenged_by_a_person_and_by_a_bot_plays_both_games(server: str) -> None:
    ann = person(server, "ann_challenges")
    b1_token = bot_token(ann, "ann_b1")
    bob = person(server, "bob_challenges")
    b2_token = bot_token(bob, "bob_b2")
    b1 = OutsideBot(server, b1_token)
    b1_events = EventStream(server, headers=b1.headers)
    ann_events = EventStream(server, cookies=ann.cookies)

    # A person challenges the bot: four seats, two of them the server's bots.
    r = ann.post(
        "/api/challenges", json={"to": ["ann_b1"], "rules": {"target": 1}, "fill": True, "speed": "fast"}
    )
    assert r.status_code == 201, r.text
    made = r.json()
    assert made["from"] == "ann_challenges" and made["status"] == "pending"
    assert made["to"] == [{"nickname": "ann_b1", "answer": None, "reason": None}]
    told = b1_events.next("challenge")["challenge"]
    assert told["id"] == made["id"] and told["rules"]["pass_count"] == 3  # every rules key
    r = httpx.post(f"{server}/api/challenges/{made['id']}/accept", headers=b1.headers)
    assert r.status_code == 200 and r.json()["status"] == "started", r.text
    mine = b1_events.next("gameStart")["game"]
    hers = ann_events.next("gameStart")["game"]
    assert mine["table"] == hers["table"] and mine["seat"] != hers["seat"]
    leave_seat(server, hers)
    final = play_game(b1, mine)
    finished = b1_events.next("gameFinish")["game"]
    assert finished["table"] == mine["table"] and finished["seat"] == mine["seat"]
    assert finished["totals"] == final["totals"] and finished["winner"] == final["winner"]

    # A bot challenges the bot: three seats, the third the server's.
    b2 = OutsideBot(server, b2_token)
    b2_events = EventStream(server, headers=b2.headers)
    r = httpx.post(
        f"{server}/api/challenges",
        json={"to": ["ann_b1"], "rules": {"players": 3, "target": 1}, "fill": True, "speed": "fast"},
        headers=b2.headers,
    )
    assert r.status_code == 201, r.text
    cid = r.json()["id"]
    assert b1_events.next("challenge")["challenge"]["from"] == "bob_b2"
    assert httpx.post(f"{server}/api/challenges/{cid}/accept", headers=b1.headers).status_code == 200
    games = {"b1": b1_events.next("gameStart")["game"], "b2": b2_events.next("gameStart")["game"]}
    results: dict[str, dict[str, Any]] = {}
    other = threading.Thread(target=lambda: results.update(b2=play_game(b2, games["b2"])))
    other.start()
    results["b1"] = play_game(b1, games["b1"])
    other.join(120)
    assert not other.is_alive()
    assert results["b1"]["totals"] == results["b2"]["totals"] and len(results["b1"]["totals"]) == 3
    assert results["b1"]["seats"][games["b2"]["seat"]]["name"] == "bob_b2"
    for stream in (b1_events, b2_events, ann_events):
        stream.close()


def test_a_declined_challenge_tells_the_challenger_why_and_a_late_stream_lists_what_waits(
    server: str,
) -> None:
    cy = person(server, "cy_challenges")
    bot = OutsideBot(server, bot_token(cy, "cy_b1"))
    cy_events = EventStream(server, cookies=cy.cookies)
    r = cy.post("/api/challenges", json={"to": ["cy_b1"], "fill": True})
    assert r.status_code == 201, r.text
    cid = r.json()["id"]

    late = EventStream(server, headers=bot.headers)  # opened after the challenge was made
    assert late.next("challenge")["challenge"]["id"] == cid
    assert httpx.get(f"{server}/api/challenges", headers=bot.headers).json()["in"][0]["id"] == cid

    # Refusals change nothing: a reason that is not one, a stranger's answer, a bad id.
    bad = httpx.post(f"{server}/api/challenges/{cid}/decline", json={"reason": "boring"}, headers=bot.headers)
    assert (bad.status_code, bad.json()["code"]) == (400, "bad_reason")
    stranger = cy.post(f"/api/challenges/{cid}/accept")
    assert (stranger.status_code, stranger.json()["code"]) == (403, "not_challenged")
    nobody = httpx.post(f"{server}/api/challenges/nope/accept", headers=bot.headers)
    assert (nobody.status_code, nobody.json()["code"]) == (404, "no_challenge")
    anonymous = httpx.post(f"{server}/api/challenges", json={"to": ["cy_b1"]})
    assert (anonymous.status_code, anonymous.json()["code"]) == (401, "account_needed")
    unknown = cy.post("/api/challenges", json={"to": ["nobody_here"], "fill": True})
    assert (unknown.status_code, unknown.json()["code"]) == (404, "not_found")
    short = cy.post("/api/challenges", json={"to": ["cy_b1"]})  # three empty seats, no fill
    assert (short.status_code, short.json()["code"]) == (400, "bad_challenge")

    r = httpx.post(f"{server}/api/challenges/{cid}/decline", json={"reason": "later"}, headers=bot.headers)
    assert r.status_code == 200 and r.json()["status"] == "declined", r.text
    declined = cy_events.next("challengeDeclined")["challenge"]
    assert declined["id"] == cid and declined["to"] == [
        {"nickname": "cy_b1", "answer": "decline", "reason": "later"}
    ]
    again = httpx.post(f"{server}/api/challenges/{cid}/accept", headers=bot.headers)
    assert (again.status_code, again.json()["code"]) == (404, "no_challenge")

    # A challenge canceled by its challenger is told to the challenged.
    r = cy.post("/api/challenges", json={"to": ["cy_b1"], "fill": True})
    cid = r.json()["id"]
    assert late.next("challenge")["challenge"]["id"] == cid
    assert cy.delete(f"/api/challenges/{cid}").json()["status"] == "canceled"
    assert late.next("challengeCanceled")["challenge"]["id"] == cid
    for stream in (late, cy_events):
        stream.close()


def test_ranked_challenges_between_bots_rate_them_on_the_bots_ladder_only(server: str) -> None:
    dee = person(server, "dee_ladder")
    eli = person(server, "eli_ladder")
    bots = {
        "dee_l1": OutsideBot(server, bot_token(dee, "dee_l1")),
        "eli_l2": OutsideBot(server, bot_token(eli, "eli_l2")),
        "eli_l3": OutsideBot(server, bot_token(eli, "eli_l3")),
    }
    streams = {name: EventStream(server, headers=b.headers) for name, b in bots.items()}
    ranked = {"rules": {"players": 3, "target": 1}, "ranked": True, "speed": "fast"}

    # The ladder is for bots only, every seat a challenged bot.
    person_asks = dee.post("/api/challenges", json={"to": ["dee_l1", "eli_l2"], **ranked})
    assert (person_asks.status_code, person_asks.json()["code"]) == (400, "bad_challenge")
    empty_seat = httpx.post(
        f"{server}/api/challenges",
        json={"to": ["eli_l2"], **ranked, "fill": True},
        headers=bots["dee_l1"].headers,
    )
    assert (empty_seat.status_code, empty_seat.json()["code"]) == (400, "bad_challenge")

    r = httpx.post(
        f"{server}/api/challenges",
        json={"to": ["eli_l2", "eli_l3"], **ranked},
        headers=bots["dee_l1"].headers,
    )
    assert r.status_code == 201 and r.json()["options"]["ranked"] is True, r.text
    cid = r.json()["id"]
    for name in ("eli_l2", "eli_l3"):
        assert streams[name].next("challenge")["challenge"]["id"] == cid
        assert (
            httpx.post(f"{server}/api/challenges/{cid}/accept", headers=bots[name].headers).status_code == 200
        )
    games = {name: streams[name].next("gameStart")["game"] for name in bots}
    finals: dict[str, dict[str, Any]] = {}
    threads = [
        threading.Thread(target=lambda n=name: finals.update({n: play_game(bots[n], games[n])}))
        for name in bots
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(180)
    assert sorted(finals) == sorted(bots)
    totals = finals["dee_l1"]["totals"]
    for name in bots:
        streams[name].next("gameFinish")
        streams[name].close()

    ladder = httpx.get(f"{server}/api/ladder").json()["bots"]
    assert {b["nickname"] for b in ladder} == set(bots)
    assert all(b["games"] == 1 for b in ladder)
    assert sum(b["rating"] for b in ladder) in range(4499, 4502)  # Elo moves points, rounded
    by_total = sorted(bots, key=lambda n: totals[games[n]["seat"]])
    best = next(b for b in ladder if b["nickname"] == by_total[0])
    assert ladder[0]["nickname"] == by_total[0] and best["rating"] > 1500 and best["wins"] == 1
    assert {b["nickname"]: b["owner"] for b in ladder} == {
        "dee_l1": "dee_ladder",
        "eli_l2": "eli_ladder",
        "eli_l3": "eli_ladder",
    }
    # The people's ratings are not touched: each bot still has the rating it started with.
    for name in bots:
        profile = httpx.get(f"{server}/api/players/{name}").json()
        assert profile["rating"] == 1500 and profile["stats"]["ranked"] == 0
    assert not [p for p in httpx.get(f"{server}/api/leaderboard").json()["players"] if p["nickname"] in bots]


def test_a_server_with_a_challenge_pending_and_its_streams_open_stops_on_its_signal(
    tmp_path: Path, server_process: Callable[..., subprocess.Popen[bytes]]
) -> None:
    """An event stream lasts as long as its client reads (a bot's, for ever);
    uvicorn waits for every open response to end before it stops: the server
    ends its streams when it is told to stop, and stops (it did not, before:
    the test fixtures killed it after 10 s)."""
    port = free_port()
    proc = server_process(tmp_path / "stops.sqlite3", port)
    base = f"http://127.0.0.1:{port}"
    ann = person(base, "ann_stops")
    bot = OutsideBot(base, bot_token(ann, "ann_stops_b1"))
    streams = [EventStream(base, headers=bot.headers), EventStream(base, cookies=ann.cookies)]
    r = ann.post("/api/challenges", json={"to": ["ann_stops_b1"], "fill": True})
    assert r.status_code == 201, r.text
    assert streams[0].next("challenge")["challenge"]["id"] == r.json()["id"]  # pending, both streams open
    proc.send_signal(signal.SIGTERM)
    # Once stopped, uvicorn says why (it raises the signal again); a hang raises TimeoutExpired.
    assert proc.wait(WITHIN) == -signal.SIGTERM
    assert all(stream.ended() for stream in streams)
