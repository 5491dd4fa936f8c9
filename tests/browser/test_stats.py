"""The statistics page in a real Chromium, for a guest: a short solo game played
by this browser (its id set before the page loads), brought to its last trick
by the test hook and finished over the socket, then ``#/stats`` in English on
a desktop and in French on a phone."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.async_api import expect
from websockets.asyncio.client import connect

pytestmark = [pytest.mark.browser]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
BROWSER_ID = "browser-test-stats-0001"


async def finish_a_solo_game(base_url: str) -> dict[str, Any]:
    """A short solo game of this browser's, played to its end; its last state."""
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as http:
        r = await http.post(
            "/api/games",
            json={"preset": "short", "level": "random", "speed": "fast", "player": BROWSER_ID, "name": "Zoé"},
        )
        assert r.status_code == 200, r.text
        game = r.json()
        r = await http.post(f"/api/test/tables/{game['code']}/forward", json={"until": "game_end"})
        assert r.status_code == 200, r.text
    async with asyncio.timeout(60), connect(base_url.replace("http", "ws") + "/ws") as ws:
        await ws.send(json.dumps({"type": "hello", "token": game["token"]}))
        played = False
        while True:
            msg = json.loads(await ws.recv())
            if msg["type"] != "state":
                continue
            if msg["over"]:
                return dict(msg)
            view = msg["view"]
            if not played and view["phase"] == "play" and view["to_act"] == msg["seat"] and view["legal"]:
                await ws.send(json.dumps({"type": "play", "card": view["legal"][0]}))
                played = True


@pytest.fixture(scope="module")
async def finished(base_url: str) -> dict[str, Any]:
    return await finish_a_solo_game(base_url)


@pytest.mark.parametrize(("lang", "size"), [("en", "desktop"), ("fr", "phone")])
async def test_a_guest_sees_their_statistics(  # type: ignore[no-untyped-def]
    new_context, base_url: str, artifacts: Path, finished: dict[str, Any], lang: str, size: str
) -> None:
    assert finished["over"]
    words = {
        "en": ("Your statistics", "Games", "Replay", "First places", "Zoé, West, North, East"),
        "fr": ("Vos statistiques", "Parties", "Revoir", "Premières places", "Zoé, Ouest, Nord, Est"),
    }[lang]
    context = await new_context(
        locale="en-GB" if lang == "en" else "fr-FR", **(PHONE if size == "phone" else DESKTOP)
    )
    await context.add_init_script(f"localStorage.setItem('damepique.player', '{BROWSER_ID}')")
    page = await context.new_page()
    await page.goto("/#/account")
    await page.get_by_role("link", name=words[0]).click()
    await expect(page.get_by_role("heading", name=words[0])).to_be_visible()
    figures = page.locator("#stats-figures")
    await expect(figures.locator("div", has_text=words[1]).first.locator("dd")).to_have_text("1")
    await expect(figures).to_contain_text(words[3])
    last = page.locator("#stats-last li")
    await expect(last).to_have_count(1)
    await expect(last).to_contain_text(words[4])  # the computer players by their names in the page's language
    await expect(last.get_by_role("link", name=words[2])).to_have_attribute("href", re.compile(r"^#/replay/"))
    analyse = "Analyse" if lang == "en" else "Analyser"
    await expect(last.get_by_role("link", name=analyse)).to_have_attribute(
        "href", re.compile(r"^#/analysis/")
    )
    await expect(page.locator("#stats-modes")).to_contain_text("Solo")
    width = await page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert width, "the page scrolls sideways"
    await page.screenshot(path=str(artifacts / f"stats-{lang}-{size}.png"), full_page=True)
    await context.close()
