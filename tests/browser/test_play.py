"""A new user plays in a real Chromium, by clicking, as people do: the words
and helpers of the browser tests, and a game that survives a reload. The
whole games in both languages, at both sizes, are in test_table.py."""

from __future__ import annotations

import contextlib
import re
import time

import pytest
from playwright.async_api import Page, expect

pytestmark = [pytest.mark.browser]

TEXT = {
    "en": {
        "locale": "en-GB",
        "level": "Computer level",
        "speed": "Speed",
        "rules": "Rules",
        "play": "Play now",
        "hand": "Your hand",
        "pass": "Pass",
        "over": "Game over",
        "queen": "Queen of spades",
        "ten": "Ten of hearts",
        "sealed": "Deals sealed: ",
        "verified": "Deals verified",
        "continue": "Continue",
    },
    "fr": {
        "locale": "fr-FR",
        "level": "Niveau des ordinateurs",
        "speed": "Vitesse",
        "rules": "Règles",
        "play": "Jouer maintenant",
        "hand": "Votre main",
        "pass": "Passer",
        "over": "Partie terminée",
        "queen": "Dame de pique",
        "ten": "Dix de cœur",
        "sealed": "Donnes scellées\u00a0: ",  # French typography: a no-break space before ":"
        "verified": "Donnes vérifiées",
        "continue": "Continuer",
    },
}

CARD_NAME = re.compile(
    r"^(Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Jack|Queen|King|Ace) of (clubs|diamonds|hearts|spades)$"
    r"|^(Deux|Trois|Quatre|Cinq|Six|Sept|Huit|Neuf|Dix|Valet|Dame|Roi|As) de (trèfle|carreau|cœur|pique)$"
)


async def start_game(page: Page, words: dict[str, str]) -> None:
    await page.goto("/")
    await page.get_by_label(words["level"]).select_option("beginner")
    await page.get_by_label(words["speed"]).select_option("fast")
    await page.get_by_label(words["rules"], exact=True).select_option("short")
    await page.get_by_role("button", name=words["play"]).click()
    await expect(page.get_by_role("group", name=words["hand"])).to_be_visible()


async def play_until(page: Page, words: dict[str, str], stop=None, limit: float = 150) -> None:  # type: ignore[no-untyped-def]
    """Click legal cards (and pass three when asked) until the game is over or ``stop()``."""
    hand = page.get_by_role("group", name=words["hand"])
    over = page.get_by_role("heading", name=words["over"])
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if await over.count():
            return
        if stop is not None and await stop():
            return
        # Each deal ends on its summary: the next hand comes once "Continue" is pressed.
        go_on = page.get_by_role("button", name=words["continue"])
        # (It may close by itself meanwhile: the others read it, or its time ran out.)
        if await go_on.count() and await enabled_now(go_on):
            with contextlib.suppress(Exception):
                await go_on.click(timeout=2000)
            continue
        pass_button = page.get_by_role("button", name=words["pass"], exact=True)
        if await pass_button.count():
            pressed = await hand.locator("[aria-pressed=true]").count()
            cards = hand.locator("[aria-pressed=false]")
            names = [await cards.nth(i).get_attribute("aria-label") for i in range(3 - pressed)]
            for name in names:
                card = hand.get_by_role("button", name=name, exact=True)
                await card.click()
                await expect(card).to_have_attribute("aria-pressed", "true")
            await pass_button.click()
            await expect(pass_button).to_have_count(0)
            continue
        enabled = hand.get_by_role("button", disabled=False)
        if await enabled.count():
            name = await enabled.first.get_attribute("aria-label")
            if name is None:
                continue
            assert CARD_NAME.match(name), name
            size = await hand.get_by_role("button").count()
            try:
                await hand.get_by_role("button", name=name, exact=True).click(timeout=2000)
            except Exception:
                continue  # the hand changed under the click: look again
            # Played (the hand shrank, or a new deal came), or chosen for a pass that had just begun.
            await page.wait_for_function(
                """([size, name]) => {
                    const hand = document.querySelectorAll('#hand button');
                    const card = document.querySelector(`#hand [aria-label="${name}"]`);
                    return hand.length !== size || (card && card.getAttribute('aria-pressed') === 'true');
                }""",
                arg=[size, name],
                timeout=5000,
            )
            continue
        await page.wait_for_timeout(30)
    raise AssertionError("the game did not finish in time")


async def test_reload_mid_deal_resumes(new_context) -> None:  # type: ignore[no-untyped-def]
    words = TEXT["en"]
    context = await new_context(locale="en-US")
    page = await context.new_page()
    await start_game(page, words)
    hand = page.get_by_role("group", name=words["hand"])

    async def mid_deal() -> bool:
        return await hand.get_by_role("button").count() == 7

    await play_until(page, words, stop=mid_deal)
    before = await hand.get_by_role("button").evaluate_all("bs => bs.map(b => b.getAttribute('aria-label'))")
    await page.reload()
    await expect(hand).to_be_visible()
    await expect(hand.get_by_role("button")).to_have_count(7)
    after = await hand.get_by_role("button").evaluate_all("bs => bs.map(b => b.getAttribute('aria-label'))")
    assert after == before
    # Coming back later to the home address goes back to the game as well.
    await page.goto("/")
    await expect(hand.get_by_role("button")).to_have_count(7)
    await play_until(page, words)
    await expect(page.get_by_role("heading", name=words["over"])).to_be_visible()


async def enabled_now(button) -> bool:  # type: ignore[no-untyped-def]
    """Whether ``button`` is there and enabled, without waiting for it."""
    try:
        return bool(await button.is_enabled(timeout=500))
    except Exception:
        return False
