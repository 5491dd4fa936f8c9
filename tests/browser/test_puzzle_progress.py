"""A guest's puzzle progress in a real Chromium (issue 26), in English on a
desktop and in French on a phone: a puzzle solved, the puzzles on the
statistics page, then an account made on that browser: the progress moves
to it and the statistics say so; the account's setting for puzzles from its
games is off until turned on. A pass puzzle: three cards pressed (not a
fourth), then the pass. Contract checks; screenshots go to
test-artifacts/."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.async_api import Locator, Page, expect

from damepique.bots import puzzles

from .test_play import WAIT

pytestmark = [pytest.mark.browser]

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
WORDS = {
    "en": {
        "locale": "en-GB",
        "hand": "Your hand",
        "go": "Pass these 3 cards",
        "right": "Right: that is the best pass.",
        "stats": "Your statistics",
        "line": "1 solved of 1",
        "theme": "Pass · 1 solved of 1",
        "duck": "Duck · 1 solved of 1",
        "solved": "1 solved of 1",
        "register": "Create an account",
        "consent": "Puzzles may be made from the games I finish",
    },
    "fr": {
        "locale": "fr-FR",
        "hand": "Votre main",
        "go": "Passer ces 3 cartes",
        "right": "Bravo\u00a0: c'est le meilleur échange.",
        "stats": "Vos statistiques",
        "line": "1 résolu sur 1",
        "theme": "L'échange · 1 résolu sur 1",
        "duck": "Passer sous · 1 résolu sur 1",
        "solved": "1 résolu sur 1",
        "register": "Créer un compte",
        "consent": "Des problèmes peuvent être tirés des parties que je termine",
    },
}
SHIPPED = {p["id"]: p for p in puzzles.load()["puzzles"]}


async def open_puzzles(new_context: Any, lang: str, size: str, theme: str) -> tuple[Page, Locator, list[str]]:
    """The puzzle page in ``lang`` at ``size``, on puzzles of ``theme``: the page,
    its hand, and the errors it throws (none expected)."""
    words = WORDS[lang]
    context = await new_context(locale=words["locale"], viewport=SIZES[size])
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    await page.goto("/")
    await page.evaluate("(l) => localStorage.setItem('damepique.lang', JSON.stringify(l))", lang)
    await page.evaluate("(t) => localStorage.setItem('damepique.puzzles', JSON.stringify({theme: t}))", theme)
    await page.goto("/#/puzzles")
    return page, page.get_by_role("group", name=words["hand"]), errors


@pytest.mark.parametrize(("lang", "size"), [("en", "desktop"), ("fr", "phone")])
async def test_a_guest_s_puzzles_show_in_the_statistics_and_move_to_the_account(  # type: ignore[no-untyped-def]
    new_context, artifacts, lang, size
) -> None:
    words = WORDS[lang]
    page, hand, errors = await open_puzzles(new_context, lang, size, "duck")
    await expect(hand.locator('[aria-disabled="false"]').first).to_be_visible(timeout=WAIT)
    p = SHIPPED[await page.locator("#pz-board").get_attribute("data-id") or ""]
    await hand.locator(f'[data-card="{p["answer"][0]}"]').click()
    await expect(page.locator(".pz-verdict")).to_have_class(re.compile("right"))

    # The statistics of this browser show it.
    await page.goto("/#/stats")
    await expect(page.locator("#stats-puzzles")).to_contain_text(words["line"])
    await expect(page.locator("#stats-puzzle-themes li")).to_have_text([words["duck"]])
    await page.screenshot(path=str(artifacts / f"stats-puzzles-guest-{lang}-{size}.png"), full_page=True)

    # An account made on this browser: the progress moves to it.
    nickname = f"Pz{lang}{size}"
    await page.goto("/#/account")
    await page.locator("#acc-nick").fill(nickname)
    await page.locator("#acc-pass").fill("a long password")
    await page.get_by_role("button", name=words["register"]).click()
    await expect(page.locator("#logout-btn")).to_be_visible()
    # Mining puzzles from the games this person finishes: off until they turn it on.
    consent = page.get_by_label(words["consent"])
    await expect(consent).not_to_be_checked()
    await page.screenshot(path=str(artifacts / f"account-consent-{lang}-{size}.png"), full_page=True)
    async with page.expect_response("**/api/me/puzzle-consent") as said:
        await consent.check()
    assert await (await said.value).json() == {"puzzle_consent": True}
    assert (await page.evaluate("fetch('/api/me').then((r) => r.json())"))["puzzle_consent"] is True
    await page.goto(f"/#/stats/{nickname}")
    await expect(page.get_by_role("heading", name=re.compile(nickname))).to_be_visible()
    await expect(page.locator("#stats-puzzles")).to_contain_text(words["line"])
    await page.screenshot(path=str(artifacts / f"stats-puzzles-account-{lang}-{size}.png"), full_page=True)
    me = await page.evaluate("fetch('/api/puzzles/me').then((r) => r.json())")
    assert me["tried"] == 1 and me["solved"] == 1 and me["by_theme"] == {"duck": {"tried": 1, "solved": 1}}
    # Back on the puzzle page, signed in: the account's figures.
    await page.goto("/#/puzzles")
    await expect(page.locator("#pz-status")).to_contain_text(words["solved"])
    assert errors == []


@pytest.mark.parametrize(("lang", "size"), [("en", "desktop"), ("fr", "phone")])
async def test_a_pass_puzzle_is_three_cards_pressed_then_passed(  # type: ignore[no-untyped-def]
    new_context, artifacts, lang, size
) -> None:
    words = WORDS[lang]
    page, hand, errors = await open_puzzles(new_context, lang, size, "pass")
    await expect(hand.locator('[aria-pressed="false"]').first).to_be_visible(timeout=WAIT)
    p = SHIPPED[await page.locator("#pz-board").get_attribute("data-id") or ""]
    assert p["theme"] == "pass"
    go = page.get_by_role("button", name=words["go"])
    await expect(go).to_be_disabled()
    # Three cards pressed (a fourth is not taken), then the pass.
    others = [c for c in p["view"]["hand"] if c not in p["answer"]]
    for card in [*p["answer"], others[0]]:
        await hand.locator(f'[data-card="{card}"]').click()
    await expect(hand.locator('[aria-pressed="true"]')).to_have_count(3)
    await expect(hand.locator(f'[data-card="{others[0]}"]')).to_have_attribute("aria-pressed", "false")
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES[size]["width"] + 1, width
    await page.screenshot(path=str(artifacts / f"puzzle-pass-{lang}-{size}.png"), full_page=True)
    await go.click()
    await expect(page.locator(".pz-verdict")).to_have_text(words["right"])
    await expect(hand.locator(".pz-right")).to_have_count(3)
    await page.screenshot(path=str(artifacts / f"puzzle-pass-right-{lang}-{size}.png"), full_page=True)
    await page.goto("/#/stats")
    await expect(page.locator("#stats-puzzle-themes li")).to_have_text([words["theme"]])
    assert errors == []
