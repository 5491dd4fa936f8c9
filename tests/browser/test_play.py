"""A new user plays in a real Chromium, by clicking, as people do: the words
and helpers of the browser tests, and a game that survives a reload. The
games in both languages, at both sizes, are in test_table.py.

No test here waits on time: each waits on what the page shows (Playwright's
expect), and a loop of moves is bounded by a count of moves, never a clock.
Where a test is about the end of a deal or of a game, the server's test hook
plays the moves before it (``forward``: docs/protocol.md, "Test hooks")."""

from __future__ import annotations

import contextlib
import re
from typing import Any

import pytest
from playwright.async_api import Error as PlaywrightError
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
        "level": "Niveau des joueurs virtuels",
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


MOVES = 400
"""The most looks a loop of moves takes (a short game is some 80 moves): a
bound for a page that stopped answering, not a clock."""
WAIT = 30_000
"""Milliseconds a wait for the server's next state may take: generous, since a
loaded machine is slow, and never what a test is about."""


async def forward(page: Page, until: str, code: str | None = None) -> dict[str, Any]:
    """The server's test hook: a computer player plays every seat of the game at
    table ``code`` (default: this page's solo game), the person's too, until
    ``until``: "last_trick", "game_end", "claim" or "claim_none" (docs/protocol.md, "Test hooks")."""
    if code is None:
        code = await page.evaluate("JSON.parse(localStorage.getItem('damepique.current')).code")
    r = await page.request.post(f"/api/test/tables/{code}/forward", data={"until": until}, timeout=WAIT)
    assert r.ok, await r.text()
    return dict(await r.json())


def actionable(page: Page, words: dict[str, Any]):  # type: ignore[no-untyped-def]
    """Whatever a person may do next: the game over, a summary to close, a pass, a card to play."""
    return (
        page.get_by_role("heading", name=words["over"])
        .or_(page.locator("#continue-btn:enabled"))
        .or_(page.get_by_role("button", name=words["pass"], exact=True))
        .or_(page.locator('#hand [data-card][aria-disabled="false"]'))
    )


async def wait_actionable(page: Page, words: dict[str, Any]) -> None:
    """Until the page offers something to do (the server's next state drawn)."""
    await expect(actionable(page, words).first).to_be_visible(timeout=WAIT)


async def start_game(page: Page, words: dict[str, str]) -> None:
    await page.goto("/")
    await page.get_by_label(words["level"]).select_option("beginner")
    await page.get_by_label(words["speed"]).select_option("fast")
    await page.get_by_label(words["rules"], exact=True).select_option("short")
    await page.get_by_role("button", name=words["play"]).click()
    await expect(page.get_by_role("group", name=words["hand"])).to_be_visible()


async def pass_three(page: Page, words: dict[str, str]) -> bool:
    """Choose three cards and press "Pass"; False when the passing ended under
    the clicks: the other seats or a timer, or the server's test hook, moved
    the game on while the page still showed the pass it had drawn before.
    The caller looks again instead of waiting for a button gone for good."""
    hand = page.get_by_role("group", name=words["hand"])
    pass_button = page.get_by_role("button", name=words["pass"], exact=True)
    try:
        pressed = await hand.locator("[aria-pressed=true]").count()
        cards = hand.locator("[aria-pressed=false]")
        missing = range(max(0, 3 - pressed))
        names = [await cards.nth(i).get_attribute("aria-label", timeout=2000) for i in missing]
        for name in names:
            card = hand.get_by_role("button", name=name, exact=True)
            await card.click(timeout=2000)
            await expect(card).to_have_attribute("aria-pressed", "true", timeout=2000)
        await pass_button.click(timeout=2000)
    except (PlaywrightError, AssertionError):
        return False
    await expect(pass_button).to_have_count(0)
    return True


async def play_until(page: Page, words: dict[str, str], stop=None) -> None:  # type: ignore[no-untyped-def]
    """Click legal cards (and pass three when asked) until the game is over or ``stop()``."""
    hand = page.get_by_role("group", name=words["hand"])
    over = page.get_by_role("heading", name=words["over"])
    for _ in range(MOVES):
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
        if await page.get_by_role("button", name=words["pass"], exact=True).count():
            await pass_three(page, words)
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
                timeout=WAIT,
            )
            continue
        await wait_actionable(page, words)
    raise AssertionError(f"the game did not finish in {MOVES} looks")


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
    # On to the end: the deals between are the server's (its test hook), the last card is ours.
    await forward(page, "game_end")
    await play_until(page, words)
    await expect(page.get_by_role("heading", name=words["over"])).to_be_visible()


async def enabled_now(button) -> bool:  # type: ignore[no-untyped-def]
    """Whether ``button`` is there and enabled, without waiting for it."""
    try:
        return bool(await button.is_enabled(timeout=500))
    except Exception:
        return False
