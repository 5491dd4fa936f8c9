"""The review's replay links while the game goes on (issue 25), in a real
Chromium, in both languages, at 390x844 and 1280x800: as soon as a deal is
finished its review links to a replay of that deal, which its player opens
while the game goes on (that deal alone, with the expert's view at the card
reviewed, and a way back to the game); the page never receives a card of the
deal being played from it, and the deal being played is refused. Screenshots
go to test-artifacts/."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.async_api import Page, Response, expect

from .test_play import MOVES, WAIT, forward, start_game
from .test_training import WORDS, act

pytestmark = [pytest.mark.browser]

REPLAY = {
    "en": {
        "heading": "Replay — Deal 1",
        "live": "Your game goes on: this deal alone can be replayed until it is over.",
        "resume": "Resume your game",
        "expert": "The expert's view",
    },
    "fr": {
        "heading": "Revoir — Donne 1",
        "live": "Votre partie continue\u00a0: seule cette donne peut être revue jusqu'à la fin de la partie.",
        "resume": "Reprendre votre partie",
        "expert": "L'avis de l'expert",
    },
}

PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 800}


async def shots(page: Page, name: str, artifacts: Any) -> None:
    """The page at both sizes (the desk's first: the test's own)."""
    await page.screenshot(path=str(artifacts / f"{name}-1280.png"), full_page=True)
    await page.set_viewport_size(PHONE)
    await page.screenshot(path=str(artifacts / f"{name}-390.png"), full_page=True)
    await page.set_viewport_size(DESK)


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_finished_deal_is_replayed_from_its_review_while_the_game_goes_on(  # type: ignore[no-untyped-def]
    new_context, lang: str, artifacts
) -> None:
    words = WORDS[lang] | REPLAY[lang]
    context = await new_context(locale=words["locale"], viewport=DESK)
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    await start_game(page, words)
    await page.get_by_role("switch", name=words["training"]).check()
    await forward(page, "last_trick")
    for _ in range(MOVES):
        if await act(page, words) == "summary":
            break
    # The review of deal 1, its links drawn at once: the game goes on.
    items = page.locator(".review li")
    await expect(items.first).to_be_visible(timeout=60_000)
    links = page.get_by_role("link", name=words["replay_link"])
    await expect(links).to_have_count(await items.count())
    await shots(page, f"review-links-{lang}", artifacts)
    current = await page.evaluate("JSON.parse(localStorage.getItem('damepique.current'))")
    assert not current["over"]

    # What the page receives from here on.
    bodies: list[Any] = []

    async def kept(response: Response) -> None:
        if "/api/games/" in response.url:
            bodies.append(json.loads(await response.text()))

    page.on("response", kept)
    hrefs = [await links.nth(i).get_attribute("href") for i in range(await links.count())]
    chosen = next((i for i, h in enumerate(hrefs) if h and "&play=" in h), 0)
    await links.nth(chosen).click()
    await expect(page.get_by_role("heading", name=words["heading"], exact=True)).to_be_visible(timeout=WAIT)
    await expect(page.get_by_text(words["live"])).to_be_visible()
    if "&play=" in (hrefs[chosen] or ""):
        await expect(page.get_by_role("heading", name=words["expert"])).to_be_visible()
        await expect(page.locator(".expert .advice li").first).to_be_visible(timeout=60_000)
    # One deal: no other deal to go to, no record or analysis of a game not over.
    await expect(page.locator('[data-go="pd"], [data-go="nd"]')).to_have_count(0)
    await expect(page.locator('a[href$="/record"]')).to_have_count(0)
    await shots(page, f"replay-live-{lang}", artifacts)

    # The deal being played is refused, even to its player.
    status = await page.evaluate(
        """async ({game, token}) => (await fetch(`/api/games/${game}/deals/1/replay`,
             {headers: {"X-Seat-Token": token}})).status""",
        {"game": current["game"], "token": current["token"]},
    )
    assert status == 400

    # Back to the game, which goes on; then to its end.
    await page.get_by_role("link", name=words["resume"]).click()
    await expect(page.get_by_role("group", name=words["hand"])).to_be_visible(timeout=WAIT)
    page.remove_listener("response", kept)
    await forward(page, "game_end")  # its last trick: each plays its one card
    over = page.get_by_role("heading", name=words["over"])
    for _ in range(MOVES):
        if await over.count():
            break
        await act(page, words)
    await expect(over).to_be_visible(timeout=WAIT)
    finished = await (await page.request.get(f"/api/games/{current['game']}/replay")).json()
    # What the replay received was deal 1 alone: no hand of any later deal.
    later = [hand for deal in finished["deals"][1:] for hand in deal["hands"]]
    received = [deal for body in bodies for deal in body.get("deals", [])]
    assert received and all(deal == finished["deals"][0] for deal in received)
    assert not [hand for deal in received for hand in deal["hands"] if hand in later]
    assert all(body.get("deal", 0) == 0 for body in bodies), bodies
    assert not errors
    await context.close()
