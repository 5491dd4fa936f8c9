"""The bot API end to end: a real server process, and programs connecting from
other processes (``damepique bot``) or threads (raw sockets, ``botapi.play``).

A bot account gets a token over HTTP; ``damepique bot`` seats a registered
bot with it and plays a whole game, within the table's timer, and every frame
it received is checked against what its seat may know. A program that sends
garbage, plays out of turn or floods gets the page's refusals and keeps its
connection, and another table is not slowed. A revoked or replaced token is
refused at the ``/ws`` upgrade and over HTTP. The arena seats a remote
program; a ``RemoteBot`` of one's own plays through ``botapi.play``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from damepique.botapi import Refused, RemoteBot, play
from damepique.engine import Rules, View, cards_of
from damepique.engine.cards import rank_of

from ..clocks import WITHIN
from ..conftest import ROOT, bot_token, free_port, held_port, person, real_server, start_server, stop_server
from .mp_helpers import Player, Socket, check_frames, recv, recv_type


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_table(owner: httpx.Client, **body: Any) -> dict[str, Any]:
    body = {"speed": "fast", "level": "beginner", "name": "Host", **body}
    r = owner.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def ws_url(base: str) -> str:
    return base.replace("http://", "ws://") + "/ws"


def host_socket(base: str, table: dict[str, Any], log: list[dict[str, Any]] | None = None) -> Socket:
    sock = Socket(ws_url(base))
    sock.send_text(json.dumps({"type": "hello", "table": table["code"], "token": table["token"]}))
    recv_type(sock, "table", log)
    return sock


def start_when_ready(host: Socket, log: list[dict[str, Any]]) -> None:
    """Wait for a second person (the program) at the table, then start it."""
    while True:
        msg = recv(host, log)
        if msg["type"] == "table" and msg["table"]["can_start"]:
            break
    host.send_text(json.dumps({"type": "start"}))


def bot_cli(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "damepique", "bot", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )


def test_damepique_bot_plays_a_whole_game_within_the_timer_and_sees_only_its_seat(
    server: str, tmp_path: Path
) -> None:
    ann = person(server, "ann_botapi")
    token = bot_token(ann, "ann_robot")
    listed = ann.get("/api/bots").json()["bots"]
    assert [(b["nickname"], b["active"]) for b in listed] == [("ann_robot", True)]
    rules = Rules(target=50)
    table = new_table(ann, rules=rules.to_json(), timer=30)
    host_log: list[dict[str, Any]] = []
    host = host_socket(server, table, host_log)
    transcript = tmp_path / "transcript.jsonl"
    link = f"{server}/#/t/{table['display']}"
    bot = bot_cli("--url", link, "--token", token, "--bot", "intermediate", "--transcript", str(transcript))
    try:
        start_when_ready(host, host_log)
        seats = [m for m in host_log if m["type"] == "table"][-1]["table"]["seats"]
        assert seats[1]["name"] == "ann_robot" and seats[1]["program"] is True
        player = Player(host, seed=3, log=host_log)
        player.run()
        assert player.failure is None and player.final is not None, player.failure
        out, err = bot.communicate(timeout=60)
    finally:
        if bot.poll() is None:
            bot.kill()
        host.close()
    assert bot.returncode == 0, err
    lines = out.splitlines()
    assert len(lines) == 1, out
    result = json.loads(lines[0])
    final = player.final
    assert result["game"] == final["game"] and result["seat"] == 1
    assert result["totals"] == final["totals"] and result["points"] == final["totals"][1]
    record = httpx.get(f"{server}/api/games/{final['game']}/record").json()
    assert record["players"][1] == "ann_robot"
    frames = [json.loads(line) for line in transcript.read_text().splitlines()]
    states = [m for m in frames if m["type"] == "state"]
    assert states[-1]["over"] and states[-1]["totals"] == final["totals"]
    # It played every card of its seat itself: no move was made for it on a timeout.
    plays = [e for m in states for e in m.get("events") or [] if e["type"] == "play" and e["seat"] == 1]
    assert plays and all("auto" not in e for e in plays)
    assert not [m for m in frames if m["type"] == "error"]
    assert check_frames(record, rules, 1, frames) > 300


def refusal(sock: Socket, text: str | bytes, frames: list[dict[str, Any]]) -> dict[str, Any]:
    """Send ``text``; the error it gets, after checking that no state came with
    it (nothing changed) and that the connection still answers a ping."""
    if isinstance(text, bytes):
        sock.send_bytes(text)
    else:
        sock.send_text(text)
    err = recv(sock, frames)
    assert err["type"] == "error" and err["reason"], err
    sock.send_text(json.dumps({"type": "ping", "id": "still-open"}))
    pong = recv(sock, frames)
    assert pong == {"v": 2, "type": "pong", "ref": "still-open"}, pong
    return err


def state_now(sock: Socket, code: str, token: str) -> dict[str, Any]:
    sock.send_text(json.dumps({"type": "hello", "table": code, "token": token, "id": "now"}))
    msg = recv_type(sock, "state")
    assert msg.get("ack") == "now" or "n" not in msg, msg
    return msg


def test_a_program_sending_garbage_or_playing_out_of_turn_gets_the_pages_refusals(server: str) -> None:
    bea = person(server, "bea_botapi")
    token = bot_token(bea, "bea_garbage")
    table = new_table(bea, rules=Rules(passing=False, target=50).to_json())
    sat = httpx.post(f"{server}/api/tables/{table['code']}/seats", json={}, headers=bearer(token))
    assert sat.status_code == 201, sat.text
    seat = sat.json()["seat"]
    assert seat == 1
    frames: list[dict[str, Any]] = []
    prog = Socket(ws_url(server), bearer(token))
    prog.send_text(json.dumps({"type": "hello", "table": table["code"], "token": sat.json()["token"]}))
    assert recv_type(prog, "table", frames)["you"] == seat
    host = host_socket(server, table)
    host.send_text(json.dumps({"type": "start"}))
    # The program plays when asked until the host (who does not play yet) is to act.
    # (At speed fast the state that takes its card also carries the bots' replies.)
    state = recv_type(prog, "state", frames)
    while True:
        view = state["view"]
        if view["phase"] == "play" and view["to_act"] == 0:
            break
        if view["phase"] == "play" and view["to_act"] == seat:
            prog.send_text(json.dumps({"type": "play", "card": view["legal"][0], "id": "p"}))
            while (state := recv_type(prog, "state", frames)).get("ack") != "p":
                pass
        else:
            state = recv_type(prog, "state", frames)
    hand = view["hand"]
    not_held = next(c for c in ("2C", "3C", "AS", "KH", "QS") if c not in hand)
    page_refusals = [
        ("{oops", "bad_json"),
        (b"\xff\xfe", "bad_json"),
        ("[1, 2]", "bad_message"),
        ('{"card": "QS"}', "bad_message"),
        ('{"type": "shuffle"}', "unknown_type"),
        ('{"type": "play", "v": 7}', "bad_version"),
        (json.dumps({"type": "play", "card": "x" * 100_000}), "too_large"),
        (json.dumps({"type": "play", "card": "ZZ"}), "bad_card"),
        (json.dumps({"type": "play", "card": hand[0]}), "not_your_turn"),
        (json.dumps({"type": "play", "card": not_held}), "not_your_turn"),
        (json.dumps({"type": "pass", "cards": hand[:3]}), "not_passing"),
        (json.dumps({"type": "start"}), "not_host"),
        (json.dumps({"type": "sit", "name": "again"}), "already_seated"),
    ]
    for text, code in page_refusals:
        assert refusal(prog, text, frames)["code"] == code, text[:60]
    assert state_now(prog, table["code"], sat.json()["token"])["view"] == view
    # Its turn now: a card it does not hold, and one the rules forbid, are refused with a reason.
    host_view = recv_type(host, "state")["view"]
    while host_view["to_act"] != 0:
        host_view = recv_type(host, "state")["view"]
    while True:  # the host plays until the program is to act (a trick the host takes: again)
        host.send_text(json.dumps({"type": "play", "card": host_view["legal"][0], "id": "h"}))
        while (hs := recv_type(host, "state")).get("ack") != "h":
            pass
        while hs["view"]["to_act"] not in (0, seat):
            hs = recv_type(host, "state")
        if hs["view"]["to_act"] == seat:
            break
        host_view = hs["view"]
    mine = recv_type(prog, "state", frames)
    while mine["view"]["to_act"] != seat:
        mine = recv_type(prog, "state", frames)
    hand, legal = mine["view"]["hand"], mine["view"]["legal"]
    held_not = next(c for c in ("2C", "3C", "4C", "AS", "KH", "QS", "JD") if c not in hand)
    err = refusal(prog, json.dumps({"type": "play", "card": held_not, "id": 9}), frames)
    assert (err["code"], err["card"], err["seat"], err["ref"]) == ("illegal_play", held_not, seat, 9)
    forbidden = [c for c in hand if c not in legal]
    if forbidden:
        err = refusal(prog, json.dumps({"type": "play", "card": forbidden[0]}), frames)
        assert err["code"] == "illegal_play" and err["card"] == forbidden[0], err
    assert state_now(prog, table["code"], sat.json()["token"])["view"] == mine["view"]
    # And a legal card is taken.
    prog.send_text(json.dumps({"type": "play", "card": legal[0], "id": "ok"}))
    taken = recv_type(prog, "state", frames)
    while taken.get("ack") != "ok":
        assert taken["type"] != "error", taken
        taken = recv_type(prog, "state", frames)
    assert legal[0] not in taken["view"]["hand"]
    prog.close()
    host.close()


@pytest.fixture
def still_server(tmp_path: Path) -> Iterator[str]:
    """A real server whose clock moves only when the test moves it: a message
    allowance that refills by the app's clock, not by how busy the machine is."""
    with real_server(tmp_path, clock="manual") as url:
        yield url


def test_a_flooding_program_is_rate_limited_and_another_table_keeps_its_pace(still_server: str) -> None:
    server = still_server
    cy = person(server, "cy_botapi")
    token = bot_token(cy, "cy_flood")
    flooded = new_table(cy)
    sat = httpx.post(f"{server}/api/tables/{flooded['code']}/seats", json={}, headers=bearer(token)).json()
    prog = Socket(ws_url(server), bearer(token))
    prog.send_text(json.dumps({"type": "hello", "table": flooded["code"], "token": sat["token"]}))
    recv_type(prog, "table")
    # Another table plays a whole game meanwhile; a visitor there measures ping round trips.
    dee = person(server, "dee_botapi")
    other = new_table(dee, rules=Rules(target=50).to_json())
    dee_bot = bot_token(dee, "dee_robot")
    other_host = host_socket(server, other)
    watcher = Socket(ws_url(server))
    watcher.send_text(json.dumps({"type": "hello", "table": other["code"]}))
    recv_type(watcher, "table")
    other_bot = threading.Thread(
        target=play, args=(RemoteLowest(),), kwargs={"url": f"{server}/#/t/{other['code']}", "token": dee_bot}
    )
    other_bot.start()
    start_when_ready(other_host, [])
    other_player = Player(other_host, seed=5)
    other_player.start()

    codes: dict[str, int] = {}
    stop, flooding = threading.Event(), threading.Event()
    sent = [0]

    def flood() -> None:
        # Bursts of 1000 pings, as fast as the socket takes them, each burst's
        # answers read before the next (a connection that never reads what it
        # is sent is closed, a rule of its own), until told to stop.
        while not stop.is_set():
            for _ in range(1000):
                prog.send_text(json.dumps({"type": "ping", "id": sent[0]}))
                sent[0] += 1
            for _ in range(1000):
                m = recv(prog)
                key = m.get("code", m["type"])
                codes[key] = codes.get(key, 0) + 1
            flooding.set()

    flooder = threading.Thread(target=flood)
    flooder.start()
    assert flooding.wait(WITHIN)  # a whole burst answered: the flood is on
    # During the flood, the other table: its visitor's pings all answered, in order,
    # between the game's updates. (How quickly: benchmarks/server_stalls.py.)
    for n in range(40):
        watcher.send_text(json.dumps({"type": "ping", "id": f"w{n}"}))
        while (m := recv(watcher)) != {"v": 2, "type": "pong", "ref": f"w{n}"}:
            assert m["type"] not in ("error", "pong"), m
    stop.set()
    flooder.join(WITHIN)
    other_player.join(WITHIN)
    other_bot.join(WITHIN)
    assert not any(t.is_alive() for t in (flooder, other_player, other_bot))
    # The app's clock stood still: the allowance's burst (200 messages, the hello
    # one of them) was answered, every message after it refused.
    assert codes == {"pong": 199, "rate_limited": sent[0] - 199}, codes
    assert other_player.failure is None and other_player.final is not None  # its game went on to the end
    # The flooding program is still connected, refused while its allowance is spent,
    # and answered again once the clock gives some back (50 messages a second).
    prog.send_text(json.dumps({"type": "ping", "id": "still"}))
    assert recv(prog)["code"] == "rate_limited"
    moved = httpx.post(f"{server}/api/test/clock", json={"advance": 1})
    assert moved.status_code == 200, moved.text
    for n in range(50):
        prog.send_text(json.dumps({"type": "ping", "id": f"after{n}"}))
        assert recv(prog) == {"v": 2, "type": "pong", "ref": f"after{n}"}
    prog.send_text(json.dumps({"type": "ping", "id": "spent"}))
    assert recv(prog)["code"] == "rate_limited"
    for sock in (prog, watcher, other_host):
        sock.close()


def test_a_revoked_or_replaced_token_is_refused_at_the_upgrade_and_over_http(server: str) -> None:
    eve = person(server, "eve_botapi")
    old = bot_token(eve, "eve_robot")
    table = new_table(eve)
    me = httpx.get(f"{server}/api/me", headers=bearer(old)).json()
    assert me["nickname"] == "eve_robot" and me["bot"] is True
    # A bot makes no bots.
    r = httpx.post(f"{server}/api/bots", json={"nickname": "eve_robot2"}, headers=bearer(old))
    assert r.status_code == 403 and r.json()["code"] == "person_needed"
    renewed = eve.post("/api/bots/eve_robot/token")
    assert renewed.status_code == 200, renewed.text
    new = renewed.json()["token"]
    assert new != old

    def refused_everywhere(token: str) -> None:
        r = httpx.post(f"{server}/api/tables/{table['code']}/seats", json={}, headers=bearer(token))
        assert r.status_code == 401 and r.json()["code"] == "bad_bot_token", r.text
        assert httpx.get(f"{server}/api/me", headers=bearer(token)).json()["code"] == "bad_bot_token"
        with connect(ws_url(server), additional_headers=bearer(token)) as ws:
            err = json.loads(ws.recv(timeout=60))
            assert err["type"] == "error" and err["code"] == "bad_bot_token", err
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=60)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008

    refused_everywhere(old)
    assert httpx.get(f"{server}/api/me", headers=bearer(new)).json()["nickname"] == "eve_robot"
    gone = eve.delete("/api/bots/eve_robot")
    assert gone.json() == {"nickname": "eve_robot", "active": False}
    refused_everywhere(new)
    # A header that is not a bearer token is refused too, never taken for a stranger.
    r = httpx.get(f"{server}/api/me", headers={"Authorization": "Basic dXNlcjpwYXNz"})
    assert r.json()["code"] == "bad_bot_token"
    # The command line says so and exits 2.
    cli = bot_cli("--url", f"{server}/#/t/{table['code']}", "--token", new, "--quiet")
    out, err = cli.communicate(timeout=30)
    assert cli.returncode == 2 and out == "" and "bad_bot_token" in err, err
    assert [b["active"] for b in eve.get("/api/bots").json()["bots"]] == [False]


def test_the_arena_seats_a_remote_program(tmp_path: Path) -> None:
    port = free_port()
    arena = subprocess.Popen(
        [sys.executable, "-m", "damepique", "arena", "--seats", "remote,beginner,intermediate,intermediate",
         "--deals", "4", "--seed", "7", "--listen", f"127.0.0.1:{port}", "--wait", "30"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip
    try:
        assert arena.stderr is not None
        waiting = arena.stderr.readline()
        assert f"ws://127.0.0.1:{port}" in waiting, waiting
        transcript = tmp_path / "arena.jsonl"
        bot = bot_cli(
            "--url", f"ws://127.0.0.1:{port}", "--bot", "expert:playouts=20", "--transcript", str(transcript)
        )
        bot_out, bot_err = bot.communicate(timeout=60)
        out, err = arena.communicate(timeout=60)
    finally:
        for proc in (arena,):
            if proc.poll() is None:
                proc.kill()
    assert arena.returncode == 0, err
    assert bot.returncode == 0, bot_err
    rows = [line for line in out.splitlines() if line.split() and line.split()[0] == "remote"]
    assert len(rows) == 1, out
    frames = [json.loads(line) for line in transcript.read_text().splitlines()]
    asked = [m for m in frames if m["type"] == "state" and not m["over"]]
    # Four deals, 13 cards each, and a pass in the three deals that pass: every decision was asked.
    assert len(asked) == 4 * 13 + 3, len(asked)
    assert json.loads(bot_out.splitlines()[-1])["seat"] == 0


class RemoteLowest(RemoteBot):
    """A bot of one's own: passes its highest cards, plays its lowest legal one."""

    name = "lowest"

    def __init__(self) -> None:
        self.states = 0
        self.over: list[dict[str, Any]] = []

    def choose_pass(self, view: View, rng: Any) -> tuple[int, ...]:
        return tuple(sorted(cards_of(view.hand), key=rank_of)[-view.rules.pass_count :])

    def choose_play(self, view: View, rng: Any) -> int:
        return min(view.legal_cards(), key=rank_of)

    def on_state(self, state: dict[str, Any]) -> None:
        self.states += 1

    def on_game_over(self, state: dict[str, Any]) -> None:
        self.over.append(state)


def test_a_remote_bot_of_ones_own_plays_through_botapi_play(server: str) -> None:
    flo = person(server, "flo_botapi")
    token = bot_token(flo, "flo_lowest")
    table = new_table(flo, rules=Rules(target=50).to_json())
    host = host_socket(server, table)
    bot = RemoteLowest()
    results: list[Any] = []
    thread = threading.Thread(
        target=lambda: results.extend(play(bot, url=f"{server}/#/t/{table['code']}", token=token, seed=1))
    )
    thread.start()
    start_when_ready(host, [])
    player = Player(host, seed=9)
    player.run()
    thread.join(60)
    host.close()
    assert not thread.is_alive() and player.failure is None and player.final is not None
    assert len(results) == 1 and results[0]["totals"] == player.final["totals"]
    assert bot.states > 50 and len(bot.over) == 1 and bot.over[0]["over"]


def test_damepique_bot_comes_back_after_the_server_restarts_and_finishes_the_game(tmp_path: Path) -> None:
    """The server restarts in the middle of a deal: the program reconnects by
    itself (docs/bot-api.md, "Close codes and reconnecting"), takes its seat
    again with the same token, and the game, kept by the server, ends."""
    db = tmp_path / "restart.sqlite3"
    # The app's clock stands still: however long a loaded machine takes to restart
    # the server, and the program to come back, its turn timer never plays for it.
    env = {**os.environ, "DAMEPIQUE_CREATIONS": "0", "DAMEPIQUE_CLOCK": "manual"}
    # The port held from the first start to the end: nobody takes it meanwhile, and
    # the program's reconnection waits in its queue for the new server.
    with held_port() as (listener, port):
        proc = start_server(db, port, tmp_path / "first.log", env, listener)
        base = f"http://127.0.0.1:{port}"
        bot = None
        try:
            ann = person(base, "ann_restart")
            token = bot_token(ann, "ann_comeback")
            rules = Rules(target=50)
            table = new_table(ann, rules=rules.to_json(), timer=30)
            log: list[dict[str, Any]] = []
            host = host_socket(base, table, log)
            transcript = tmp_path / "transcript.jsonl"
            bot = bot_cli(
                "--url",
                f"{base}/#/t/{table['code']}",
                "--token",
                token,
                "--bot",
                "beginner",
                "--transcript",
                str(transcript),
            )
            start_when_ready(host, log)
            # The host plays a few cards, so that the program has played some of its own.
            Player(host, seed=5, log=log, actions=6).run()
            played_before = sum(
                1
                for m in log
                if m["type"] == "state"
                for e in m.get("events") or []
                if e["type"] == "play" and e["seat"] == 1
            )
            assert played_before >= 1
            host.close()
            stop_server(proc)  # the program's socket drops here
            proc = start_server(db, port, tmp_path / "second.log", env, listener)
            after: list[dict[str, Any]] = []
            host = host_socket(base, table, after)
            player = Player(host, seed=6, log=after)
            player.run()
            assert player.failure is None and player.final is not None, player.failure
            out, err = bot.communicate(timeout=60)
            host.close()
        finally:
            if bot is not None and bot.poll() is None:
                bot.kill()
            stop_server(proc)
        assert bot.returncode == 0, err
        result = json.loads(out.splitlines()[-1])
        assert result["game"] == player.final["game"] and result["totals"] == player.final["totals"]
        frames = [json.loads(line) for line in transcript.read_text().splitlines()]
        # It saw the game from both servers: states before the restart and the last one after it.
        states = [m for m in frames if m["type"] == "state"]
        assert states[-1]["over"] and any(not m["over"] for m in states)
        plays = [e for m in states for e in m.get("events") or [] if e["type"] == "play" and e["seat"] == 1]
        assert len({e["card"] for e in plays}) > played_before  # it went on playing after the restart
        assert all("auto" not in e for e in plays)  # itself, not the timer for it


def test_programs_get_their_own_games_by_challenges(server: str) -> None:
    """Issue 29: ``botapi.events.serve`` and ``damepique bot --challenges`` keep
    the account's event stream open, answer challenges, and play the games
    they start: a person's 5-seat challenge is declined with the bot's reason,
    then one program challenges the other and both play the game to its end."""
    from damepique.botapi.events import events, serve

    gil = person(server, "gil_botapi")
    r_token, s_token = bot_token(gil, "gil_r"), bot_token(gil, "gil_s")
    # The person's own stream (her session's cookie), read in a thread.
    told: list[dict[str, Any]] = []
    subscribed = threading.Event()

    def person_stream() -> None:
        with httpx.stream("GET", f"{server}/api/stream/event", cookies=gil.cookies, timeout=None) as r:
            for line in r.iter_lines():
                subscribed.set()  # the stream's first line (empty): no event missed from here
                if line.strip():
                    told.append(json.loads(line))
                    if told[-1]["type"] == "challengeDeclined":
                        return

    listener = threading.Thread(target=person_stream, daemon=True)
    listener.start()
    assert subscribed.wait(30)
    s_results: list[dict[str, Any]] = []
    s_bot = threading.Thread(
        target=lambda: s_results.extend(
            serve(
                RemoteLowest(),
                url=server,
                token=s_token,
                answer=lambda c: "later" if c["rules"]["players"] == 5 else True,
                games=1,
                log=lambda line: None,
            )
        )
    )
    s_bot.start()
    r_bot = bot_cli("--url", server, "--token", r_token, "--bot", "random", "--challenges", "--games", "1")
    try:
        r = gil.post("/api/challenges", json={"to": ["gil_s"], "rules": {"players": 5}, "fill": True})
        assert r.status_code == 201, r.text
        listener.join(60)
        declined = [e for e in told if e["type"] == "challengeDeclined"]
        assert declined and declined[0]["challenge"]["to"][0]["reason"] == "later", told

        made = httpx.post(
            f"{server}/api/challenges",
            json={"to": ["gil_s"], "rules": {"players": 3, "target": 1}, "fill": True, "speed": "fast"},
            headers=bearer(r_token),
        )
        assert made.status_code == 201, made.text
        out, err = r_bot.communicate(timeout=180)
        s_bot.join(180)
    finally:
        if r_bot.poll() is None:
            r_bot.kill()
    assert r_bot.returncode == 0, err
    r_result = json.loads(out.strip().splitlines()[-1])
    assert not s_bot.is_alive() and len(s_results) == 1
    assert r_result["totals"] == s_results[0]["totals"] and len(r_result["totals"]) == 3
    assert r_result["seat"] != s_results[0]["seat"]
    # A bad token gets the server's word, not a stream.
    with pytest.raises(Refused) as refused:
        next(events(server, "dpb_nobody"))
    assert refused.value.code == "bad_bot_token"


def test_programs_first_reconnections_after_a_restart_are_spread_over_a_second() -> None:
    """After a restart every program's first try falls due together: each one
    waits a random point of the first second (none waited at all before), and
    later tries back off to 30 s at most."""
    import random

    from damepique.botapi.client import backoff

    rng = random.Random(7)
    first = [backoff(1, rng) for _ in range(1000)]
    assert all(0.0 <= w < 1.0 for w in first)
    tenths = [sum(1 for w in first if k / 10 <= w < (k + 1) / 10) for k in range(10)]
    assert min(tenths) >= 60, tenths  # about 100 in each tenth of a second
    assert all(0.5 <= backoff(2, rng) <= 1.0 for _ in range(100))
    assert max(backoff(30, rng) for _ in range(100)) <= 30.0
