"""The daily deal's page (issue 27) in a real Chromium, in both languages, on
a phone and at a desk: a player who finished today's deal sees their result
against the field and the par, the field deal by deal, the leaderboard (the
signed-in players by nickname) and the day's commitment; a newcomer plays the
same cards at the one table view, with no hint offered, and a reload offers
to resume, not to start again. Screenshots go to test-artifacts/."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.async_api import expect
from websockets.sync.client import connect

from ..conftest import free_port, start_server, stop_server
from .test_table import DESKTOP, PHONE, columns_cut

pytestmark = [pytest.mark.browser]

WORDS = {
    "en": {
        "heading": "The daily deal",
        "result": "Your result",
        "board": "Leaderboard",
        "by_deal": "Deal by deal",
        "play": "Play today's deal",
        "resume": "Resume today's deal",
        "commitment": "The day's commitment:",
        "hand": "Your hand",
    },
    "fr": {
        "heading": "La donne du jour",
        "result": "Votre résultat",
        "board": "Classement",
        "by_deal": "Donne par donne",
        "play": "Jouer la donne du jour",
        "resume": "Reprendre la donne du jour",
        "commitment": "L'engagement du jour :",
        "hand": "Votre main",
    },
}


@pytest.fixture(scope="module")
def daily_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of its own whose daily experts are the cheap ones (a whole
    game takes a moment), with three players' tries of today already played."""
    folder = tmp_path_factory.mktemp("daily")
    port = free_port()
    env = os.environ | {"DAMEPIQUE_CREATIONS": "0", "DAMEPIQUE_DAILY_LEVEL": "intermediate"}
    proc = start_server(folder / "d.sqlite3", port, folder / "server.log", env)
    url = f"http://127.0.0.1:{port}"
    try:
        for pick, (player, nickname) in enumerate(
            (("browser-ann-0001", "Ann"), ("browser-bob-0001", "Bob_the_builder"), ("browser-me-00001", None))
        ):
            play_today(url, player, nickname, pick - 1)
        yield url
    finally:
        stop_server(proc)


FIRST_HANDS: dict[str, list[str]] = {}
"""Each seeded player's hand as dealt in deal 1."""


def play_today(url: str, player: str, nickname: str | None, pick: int) -> None:
    """One player's whole try, over the WebSocket: the first cards to pass, the
    legal card ``pick`` (modulo how many there are) to play."""
    with httpx.Client(base_url=url, headers={"X-Player": player}) as http:
        if nickname is not None:
            r = http.post("/api/accounts", json={"nickname": nickname, "password": "a long password"})
            assert r.status_code in (200, 201), r.text
        started = http.post("/api/daily", json={"speed": "fast", "name": nickname or "Me"})
        assert started.status_code == 200, started.text
    with connect(url.replace("http", "ws") + "/ws") as ws:
        ws.send(json.dumps({"type": "hello", "token": started.json()["token"]}))
        n, pending = 0, None
        while True:
            msg = json.loads(ws.recv(timeout=30))
            assert msg["type"] != "error", msg
            if msg["type"] != "state" or (pending is not None and msg.get("ack") != pending):
                continue  # states on their way before the answer to our move
            pending = None
            view = msg["view"]
            FIRST_HANDS.setdefault(player, sorted(view["hand"]))
            if msg["over"]:
                return
            if view["to_act"] != msg["seat"] or view["phase"] == "done":
                continue
            n += 1
            if view["phase"] == "pass":
                ws.send(json.dumps({"type": "pass", "cards": view["hand"][:3], "id": n}))
            else:
                legal = view["legal"]
                ws.send(json.dumps({"type": "play", "card": legal[pick % len(legal)], "id": n}))
            pending = n


async def as_player(new_context, player: str, lang: str, size: dict[str, Any]):  # type: ignore[no-untyped-def]
    context = await new_context(locale="fr-FR" if lang == "fr" else "en-GB", **size)
    await context.add_init_script(
        f"localStorage.setItem('damepique.player', '{player}');"
        f"localStorage.setItem('damepique.lang', '{lang}')"
    )
    return context


NO_SIDEWAYS = "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
async def test_a_finished_player_sees_the_field_the_par_and_the_board(  # type: ignore[no-untyped-def]
    new_context, daily_server: str, lang: str, size: str, artifacts: Path
) -> None:
    words = WORDS[lang]
    context = await as_player(new_context, "browser-me-00001", lang, PHONE if size == "phone" else DESKTOP)
    page = await context.new_page()
    await page.goto(daily_server + "/#/daily")
    await expect(page.get_by_role("heading", name=words["heading"], exact=True)).to_be_visible()
    await expect(page.get_by_role("heading", name=words["result"])).to_be_visible()
    deals = page.locator("#daily-deals tbody tr")
    await expect(deals).to_have_count(4)
    board = page.locator("#daily-board tbody tr")
    await expect(board).to_have_count(2)  # Ann and Bob signed in; this browser did not
    assert {await board.nth(i).locator("td.name").inner_text() for i in range(2)} == {
        "Ann",
        "Bob_the_builder",
    }
    rank_of = await page.locator("#daily-you dd").nth(3).inner_text()
    assert rank_of.endswith(" 3"), rank_of  # "N of 3" / "N sur 3"
    await expect(page.get_by_text(words["commitment"])).to_be_visible()
    # Their own game may be analysed now (their seat's view); its replay, every hand shown, waits.
    await expect(page.locator("#daily-analyse")).to_be_visible()
    assert await page.locator("#daily-replay").count() == 0
    # The commitment alone: the secret waits for the end of the day.
    await expect(page.locator("code.hash")).to_have_count(1)
    assert await page.get_by_role("button", name=words["play"]).count() == 0
    assert await page.evaluate(NO_SIDEWAYS)
    # Every column in sight, the spread of the field's points and the board's "against the field" too.
    assert await columns_cut(page, ".daily table") == []
    await page.screenshot(path=str(artifacts / f"daily-results-{lang}-{size}.png"), full_page=True)
    await context.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_newcomer_plays_the_same_cards_without_hints_and_a_reload_resumes(  # type: ignore[no-untyped-def]
    new_context, daily_server: str, lang: str, artifacts: Path
) -> None:
    words = WORDS[lang]
    context = await as_player(new_context, f"browser-new-{lang}-01", lang, PHONE)
    page = await context.new_page()
    await page.goto(daily_server + "/#/daily")
    await page.get_by_role("button", name=words["play"]).click()
    hand = page.get_by_role("group", name=words["hand"])
    await expect(hand).to_be_visible()
    await expect(page.locator(".table-page")).to_be_visible()
    assert await page.locator("#hint-btn, button.hint").count() == 0
    await page.screenshot(path=str(artifacts / f"daily-table-{lang}-phone.png"))
    # The same cards as everybody's: the hand the seeded players were dealt.
    shown = await hand.locator("[data-card]").evaluate_all("els => els.map((e) => e.dataset.card)")
    assert sorted(shown) == FIRST_HANDS["browser-ann-0001"] == FIRST_HANDS["browser-me-00001"]
    await page.goto(daily_server + "/#/")
    await page.goto(daily_server + "/#/daily")
    await expect(page.get_by_role("button", name=words["resume"])).to_be_visible()
    await page.get_by_role("button", name=words["resume"]).click()
    await expect(hand).to_be_visible()
    await context.close()
