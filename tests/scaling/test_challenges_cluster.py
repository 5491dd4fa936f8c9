"""Challenges across two real server processes on one PostgreSQL and one
Redis (issue 29, ``docs/bot-api.md``): a challenge made at one process is
listed, accepted or declined at the other, starts one game, and every event
reaches the account's stream at whichever process holds it; a stream opened
late at one process lists what was made at the other. Every wait is bounded."""

from __future__ import annotations

import httpx

from ..conftest import person
from ..outside.outside_bot import EventStream
from .cluster_helpers import Cluster


def test_a_challenge_made_at_one_process_is_answered_at_the_other(cluster: Cluster) -> None:
    a, b = cluster.processes["a"].base, cluster.processes["b"].base
    ann = person(a, "ann_cluster")
    ann_at_b = httpx.Client(base_url=b, cookies=ann.cookies, timeout=30)
    bob = person(b, "bob_cluster")
    made_bot = bob.post("/api/bots", json={"nickname": "bob_bot"})
    assert made_bot.status_code == 201, made_bot.text
    bot = {"Authorization": f"Bearer {made_bot.json()['token']}"}
    bot_events = EventStream(b, headers=bot)
    ann_events = EventStream(a, cookies=ann.cookies)
    streams = [bot_events, ann_events]
    try:
        # Made at a, heard at b, listed at both, accepted at b: one game, both told where.
        r = ann.post("/api/challenges", json={"to": ["bob_bot"], "fill": True, "speed": "fast"})
        assert r.status_code == 201, r.text
        cid = r.json()["id"]
        assert bot_events.next("challenge")["challenge"]["id"] == cid
        for client in (ann, ann_at_b):
            assert [c["id"] for c in client.get("/api/challenges").json()["out"]] == [cid]
        assert [c["id"] for c in httpx.get(b + "/api/challenges", headers=bot).json()["in"]] == [cid]
        accepted = httpx.post(f"{b}/api/challenges/{cid}/accept", headers=bot, timeout=30)
        assert accepted.status_code == 200 and accepted.json()["status"] == "started", accepted.text
        mine, hers = bot_events.next("gameStart")["game"], ann_events.next("gameStart")["game"]
        assert mine["table"] == hers["table"] and {mine["seat"], hers["seat"]} == {0, 1}
        # Answered: listed nowhere, and a second answer at a is refused.
        assert ann_at_b.get("/api/challenges").json() == {"in": [], "out": []}
        again = httpx.post(f"{a}/api/challenges/{cid}/accept", headers=bot, timeout=30)
        assert again.json()["code"] == "no_challenge"
        # A stream opened again at a tells the game still being played.
        late = EventStream(a, headers=bot)
        streams.append(late)
        assert late.next("gameStart")["game"]["table"] == mine["table"]

        # Made at a, declined at b with a reason: the challenger's stream at a hears why.
        r = ann.post("/api/challenges", json={"to": ["bob_bot"], "fill": True})
        cid = r.json()["id"]
        declined = httpx.post(f"{b}/api/challenges/{cid}/decline", headers=bot, json={"reason": "later"})
        assert declined.status_code == 200, declined.text
        told = ann_events.next("challengeDeclined")["challenge"]
        assert told["id"] == cid and told["to"][0] == {
            "nickname": "bob_bot",
            "answer": "decline",
            "reason": "later",
        }

        # Made at b for Ann: her stream opened afterwards at a lists it; she declines at a.
        r = bob.post("/api/challenges", json={"to": ["ann_cluster"], "fill": True})
        cid = r.json()["id"]
        ann_late = EventStream(a, cookies=ann.cookies)
        streams.append(ann_late)
        assert ann_late.next("challenge")["challenge"]["id"] == cid
        assert ann.post(f"/api/challenges/{cid}/decline", json={}).json()["status"] == "declined"
        assert bob.get("/api/challenges").json()["out"] == []
    finally:
        for stream in streams:
            stream.close()
