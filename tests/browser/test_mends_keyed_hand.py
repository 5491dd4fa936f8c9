"""The hand is drawn keyed by card (issue 25, the reviewer's table.js item): a
redraw that changes the cards' markup (here the state that makes it the
player's turn, arriving between the press and the release of a tap) changes
each button in place, so the pressed button is still the one released on and
the card is played. On the old page the whole hand was written again and the
tap was lost."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from .mends_harness import LOCALES, SIZES, FakeServer, open_solo, state, view

pytestmark = [pytest.mark.browser]

HAND = ["2C", "9D", "KD", "4S"]


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_card_pressed_as_the_turn_comes_is_played(new_context, lang, size) -> None:  # type: ignore[no-untyped-def]
    waiting = view(hand=HAND, legal=[], to_act=1, trick_leader=1, hand_sizes=[4, 4, 4, 4])
    server = FakeServer(state(view=waiting))
    context = await new_context(locale=LOCALES[lang], **SIZES[size])
    page = await context.new_page()
    await open_solo(page, server)
    card = page.locator('#hand [data-card="9D"]')
    await expect(card).to_have_attribute("aria-disabled", "true")
    await page.clock.run_for(1000)
    await page.evaluate("Promise.all(document.getAnimations().map((a) => a.finished))")
    box = await card.bounding_box()
    assert box is not None
    await page.mouse.move(box["x"] + 8, box["y"] + 20)
    await page.mouse.down()
    await page.evaluate("window.__pressed = document.querySelector('#hand [data-card=\"9D\"]')")
    # West leads a diamond: the player's turn, 9♦ and K♦ playable (the hand's markup changes).
    turn = view(hand=HAND, legal=["9D", "KD"], trick=["3D"], trick_leader=1, hand_sizes=[4, 3, 4, 4])
    turn["to_act"] = 0
    server.send(state(view=turn, events=[{"type": "play", "seat": 1, "card": "3D"}]))
    await expect(card).to_have_attribute("aria-disabled", "false")
    assert (
        await page.evaluate("window.__pressed.isConnected && window.__pressed.getAttribute('aria-disabled')")
        == "false"
    )
    await page.mouse.up()
    await expect(page.locator('#hand [data-card="9D"]')).to_have_count(1)
    assert [m["card"] for m in await server.wait_for("play")] == ["9D"]
    await context.close()
