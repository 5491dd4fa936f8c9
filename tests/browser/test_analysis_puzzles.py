"""The puzzle page (#/puzzles, issue 26) in a real Chromium, in both languages
at 390×844 and 1280×800: a position drawn like the table (the felt, the
trick, the hand, what has fallen), the right card says so with the numbers
of the card and of the best one, the rating and the streak are kept on the
device, a wrong card says which was best; the keyboard plays as at the
table. Contract checks; screenshots go to test-artifacts/."""

from __future__ import annotations

import json
import re

import pytest
from playwright.async_api import expect

from damepique.bots import puzzles

from .test_play import WAIT

pytestmark = [pytest.mark.browser]

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
WORDS = {
    "en": {
        "locale": "en-GB",
        "heading": "Puzzles",
        "hand": "Your hand",
        "right": "Right: that is the best card.",
        "wrong": "Not the best card.",
        "next": "Next puzzle",
        "rating": re.compile(r"Your puzzle rating: \d+"),
    },
    "fr": {
        "locale": "fr-FR",
        "heading": "Problèmes",
        "hand": "Votre main",
        "right": "Bravo\u00a0: c'est la meilleure carte.",
        "wrong": "Ce n'est pas la meilleure carte.",
        "next": "Problème suivant",
        "rating": re.compile(r"Votre classement aux problèmes\u00a0: \d+"),
    },
}
SHIPPED = {p["id"]: p for p in puzzles.load()["puzzles"]}


@pytest.mark.parametrize(
    ("lang", "size"), [("en", "desktop"), ("fr", "phone"), ("en", "phone"), ("fr", "desktop")]
)
async def test_a_puzzle_right_then_wrong(new_context, artifacts, lang, size) -> None:  # type: ignore[no-untyped-def]
    words = WORDS[lang]
    context = await new_context(locale=words["locale"], viewport=SIZES[size])
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    await page.goto("/")
    await page.evaluate("(l) => localStorage.setItem('damepique.lang', JSON.stringify(l))", lang)
    # Puzzles of one card (pass puzzles, of three, are tested in test_puzzle_progress.py).
    await page.evaluate("localStorage.setItem('damepique.puzzles', JSON.stringify({theme: 'duck'}))")
    await page.goto("/#/puzzles")
    await expect(page.get_by_role("heading", name=words["heading"], exact=True)).to_be_visible()
    hand = page.get_by_role("group", name=words["hand"])
    await expect(hand.locator('[aria-disabled="false"]').first).to_be_visible(timeout=WAIT)
    board = page.locator("#pz-board")
    p = SHIPPED[await board.get_attribute("data-id") or ""]
    # Drawn like the table: the trick's cards on the felt, the hand as buttons, what has fallen.
    await expect(page.locator(".puzzle-felt .trick .card")).to_have_count(len(p["view"]["trick"]))
    await expect(hand.get_by_role("button")).to_have_count(len(p["view"]["hand"]))
    await expect(page.get_by_role("button", name=words["next"])).to_be_hidden()  # not before an answer
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES[size]["width"] + 1, width
    await page.screenshot(path=str(artifacts / f"puzzle-{lang}-{size}.png"), full_page=True)
    # The right card, with the keyboard: the focus is on the hand, the arrows move along it.
    await page.keyboard.press("ArrowLeft")  # the focus stays in the hand
    answer = p["answer"][0]
    await hand.locator(f'[data-card="{answer}"]').focus()
    await page.keyboard.press("Enter")
    await expect(page.locator(".pz-verdict")).to_have_text(words["right"])
    await expect(page.locator("#pz-status")).to_contain_text(words["rating"])
    kept = json.loads(await page.evaluate("localStorage.getItem('damepique.puzzles')"))
    assert (
        kept["streak"] == 1
        and kept["solved"] == 1
        and kept["rating"]["rating"] > 1500
        and p["id"] in kept["seen"]
    )
    await page.screenshot(path=str(artifacts / f"puzzle-right-{lang}-{size}.png"), full_page=True)
    # The next one, and a wrong card: the best is shown.
    await page.get_by_role("button", name=words["next"]).click()
    await expect(board).not_to_have_attribute("data-id", p["id"], timeout=WAIT)
    q = SHIPPED[await board.get_attribute("data-id") or ""]
    wrong = next(o["cards"][0] for o in q["options"] if not o["best"])
    await hand.locator(f'[data-card="{wrong}"]').click()
    await expect(page.locator(".pz-verdict")).to_have_text(words["wrong"])
    await expect(hand.locator(".pz-best")).to_have_count(len(q["answer"]))
    kept = json.loads(await page.evaluate("localStorage.getItem('damepique.puzzles')"))
    assert kept["streak"] == 0 and kept["best"] == 1 and kept["tried"] == 2
    assert errors == []
