"""Game analysis in a real Chromium (issue 26), in both languages at 390×844
and 1280×800: "Analyse" from the game-over screen opens the analysis of the
player's seat (progress, then the accuracy, the verdict counts, the deal's
graph with a point per decision); clicking a point shows that position, the
arrow keys step through the decisions; an uploaded record is analysed for
the seat chosen; a game not over is refused. Contract checks from short
positions (the server's test hook plays the game to its last trick), with a
server of its own that rates at a few play-outs. Screenshots go to
test-artifacts/."""

from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.async_api import Page, Route, expect

from damepique.bots import get_bot
from damepique.bots.analysis import play_game
from damepique.engine import Rules, dump_match

from ..conftest import free_port, start_server, stop_server
from .test_play import WAIT

pytestmark = [pytest.mark.browser]

PLAYER = "player-analysis-browser"
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
WORDS = {
    "en": {
        "locale": "en-GB",
        "over": "Game over",
        "analyse": "Analyse",
        "heading": "Game analysis",
        "accuracy": "Accuracy",
        "slider": "Decisions of the game",
        "where": re.compile(r"^(The pass|Trick \d+) "),
        "pass": "The pass",
        "not_over": "a game is analysed once it is over",
        "seat": "Seat to analyse",
        "upload": "Replay a record file (damepique-game/1)",
        "outdated": "An earlier version of the expert made this analysis: open it again in a moment"
        " to get the current expert's.",
    },
    "fr": {
        "locale": "fr-FR",
        "over": "Partie terminée",
        "analyse": "Analyser",
        "heading": "Analyse de la partie",
        "accuracy": "Précision",
        "slider": "Décisions de la partie",
        "where": re.compile(r"^(L'échange|Pli \d+) "),
        "pass": "L'échange",
        "not_over": "Une partie s'analyse une fois terminée.",
        "seat": "Place à analyser",
        "upload": "Revoir un fichier de partie (damepique-game/1)",
        "outdated": "Une version précédente de l'expert a fait cette analyse\u00a0: rouvrez-la dans un moment"
        " pour avoir celle de l'expert actuel.",
    },
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of its own whose analyses rate at 16 play-outs a decision (fast; numbers unchecked)."""
    folder = tmp_path_factory.mktemp("analysis-server")
    port = free_port()
    env = os.environ | {
        "DAMEPIQUE_CREATIONS": "0",
        "DAMEPIQUE_TEST_HOOKS": "1",
        "DAMEPIQUE_ANALYSIS_PLAYOUTS": "16",
    }
    proc = start_server(folder / "damepique.sqlite3", port, folder / "server.log", env)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_server(proc)


async def open_page(new_context, server: str, lang: str, size: str) -> Page:  # type: ignore[no-untyped-def]
    context = await new_context(locale=WORDS[lang]["locale"], viewport=SIZES[size])
    page: Page = await context.new_page()
    await page.goto(server + "/")
    await page.evaluate(
        "([lang, player]) => { localStorage.setItem('damepique.lang', JSON.stringify(lang));"
        " localStorage.setItem('damepique.player', JSON.stringify(player)); }",
        [lang, PLAYER],
    )
    return page


def new_game(server: str) -> dict[str, str]:
    body = {"rules": {"target": 1}, "level": "random", "speed": "fast", "player": PLAYER}
    r = httpx.post(server + "/api/games", json=body, timeout=WAIT / 1000)
    assert r.status_code == 200, r.text
    return dict(r.json())


async def finish_in_page(page: Page, server: str, lang: str) -> dict[str, str]:
    """A solo game of one deal played by the server's hook to its last trick, then its last card here."""
    g = new_game(server)
    r = httpx.post(
        f"{server}/api/test/tables/{g['code']}/forward", json={"until": "game_end"}, timeout=WAIT / 1000
    )
    assert r.status_code == 200, r.text
    current = {"game": g["game"], "token": g["token"], "code": g["code"], "over": False}
    await page.evaluate("(cur) => localStorage.setItem('damepique.current', JSON.stringify(cur))", current)
    await page.goto(server + "/#/play")
    over = page.get_by_role("heading", name=WORDS[lang]["over"])
    card = page.locator('#hand [data-card][aria-disabled="false"]')
    await expect(card.first.or_(over)).to_be_visible(timeout=WAIT)
    if not await over.count():
        await card.first.click()
    await expect(over).to_be_visible(timeout=WAIT)
    return g


@pytest.mark.parametrize(
    ("lang", "size"), [("en", "desktop"), ("fr", "phone"), ("en", "phone"), ("fr", "desktop")]
)
async def test_analyse_from_the_game_over(new_context, artifacts, server, lang, size) -> None:  # type: ignore[no-untyped-def]
    words = WORDS[lang]
    page = await open_page(new_context, server, lang, size)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    await finish_in_page(page, server, lang)
    # A solo game's record is shown at its end (its secret told): its download is offered.
    download = {"en": "Download the record", "fr": "Télécharger la partie"}[lang]
    await expect(page.get_by_role("link", name=download)).to_be_visible()
    await page.get_by_role("link", name=words["analyse"], exact=True).click()
    await expect(page.get_by_role("heading", name=words["heading"])).to_be_visible()
    accuracy = page.locator("#an-accuracy")
    await expect(accuracy).to_be_visible(timeout=4 * WAIT)
    value = float((await accuracy.inner_text()).replace(",", "."))
    assert 0 <= value <= 100
    slider = page.get_by_role("slider", name=words["slider"])
    total = int(await slider.get_attribute("aria-valuemax") or 0)
    # The game's counts add up to its decisions; the deal's graph has a point per decision of the deal.
    assert total >= 13
    counts = [int(x) for x in await page.locator(".an-counts").first.locator("td").all_inner_texts()]
    assert sum(counts) == total
    in_deal = sum(int(x) for x in await page.locator(".an-counts").nth(1).locator("td").all_inner_texts())
    points = page.locator(".an-point")
    await expect(points).to_have_count(in_deal)
    # From its first decision (a click below puts the game's first deal on the graph).
    await page.locator(".an-deals button").first.click()
    in_deal = sum(int(x) for x in await page.locator(".an-counts").nth(1).locator("td").all_inner_texts())
    await expect(points).to_have_count(in_deal)
    # A click on a point shows that position.
    await points.nth(4).click(force=True)
    await expect(slider).to_have_attribute("aria-valuenow", "5")
    heading = page.locator("#an-pos-h")
    await expect(heading).to_have_text(words["where"])
    await expect(page.locator(".an-position .an-hand")).to_be_visible()
    # The arrow keys step through the decisions.
    await slider.focus()
    await page.keyboard.press("ArrowRight")
    await expect(slider).to_have_attribute("aria-valuenow", "6")
    await page.keyboard.press("Home")
    await expect(slider).to_have_attribute("aria-valuenow", "1")
    await expect(heading).to_have_text(re.compile("^" + re.escape(words["pass"])))
    # A screen reader hears the cards chosen by their names ("Four of clubs"), never a code ("4C").
    told = await slider.get_attribute("aria-valuetext") or ""
    assert words["pass"] in told and not re.search(r"\b[2-9TJQKA][CDHS]\b", told), told
    await page.keyboard.press("End")
    await expect(slider).to_have_attribute("aria-valuenow", str(total))
    await page.keyboard.press("Home")
    # The page fits the screen: nothing wider than the viewport.
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES[size]["width"] + 1, width
    await points.nth(1).click(force=True)
    await page.screenshot(path=str(artifacts / f"analysis-{lang}-{size}.png"), full_page=True)
    # An analysis an earlier expert made, served as it is (the server had no room for a new
    # one: docs/protocol.md): the page says so above it.
    await expect(page.get_by_role("note")).to_have_count(0)

    async def outdated(route: Route) -> None:
        response = await route.fetch()
        await route.fulfill(response=response, json=await response.json() | {"outdated": True})

    await page.route("**/api/games/*/analysis*", outdated)
    await page.reload()
    await expect(page.get_by_role("note")).to_have_text(words["outdated"], timeout=WAIT)
    await expect(page.locator("#an-accuracy")).to_be_visible()
    await page.screenshot(path=str(artifacts / f"analysis-outdated-{lang}-{size}.png"))
    assert errors == []


async def test_an_uploaded_record_for_the_seat_chosen_and_a_game_not_over(  # type: ignore[no-untyped-def]
    new_context, artifacts, server, tmp_path: Path
) -> None:
    words = WORDS["fr"]
    page = await open_page(new_context, server, "fr", "desktop")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    match = play_game(Rules(target=1), [get_bot("random")] * 4, random.Random(6))
    record = dump_match(match, ["Léa", "Tom", "Zoé", "Max"])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    await page.goto(server + "/#/history")
    await page.get_by_label(words["upload"]).set_input_files(str(path))
    await page.get_by_label(words["seat"]).select_option("2")
    await page.get_by_role("button", name=words["analyse"], exact=True).click()
    await expect(page).to_have_url(re.compile(r"#/analysis/u-[0-9a-f]{40}\?seat=2$"))
    await expect(page.locator("#an-accuracy")).to_be_visible(timeout=4 * WAIT)
    await expect(page.locator(".an-who")).to_contain_text("Zoé")
    await page.screenshot(path=str(artifacts / "analysis-upload-fr.png"), full_page=True)
    # A game not over: refused, in the page's words.
    g = new_game(server)
    await page.goto(f"{server}/#/analysis/{g['game']}")
    await expect(page.get_by_role("alert")).to_have_text(words["not_over"], timeout=WAIT)
    assert errors == []
