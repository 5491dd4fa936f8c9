"""Seventeen cards in a hand (three players, or "auto" with two people) on a
390 px phone (issue 25, player item 6): every card offers a tap target of at
least 32x32 CSS px of its own (two rows where one would leave a 20 px strip),
and a tap there chooses that card. At 1280 px the hand stays on one row."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from .mends_harness import LOCALES, SIZES, FakeServer, open_solo, state, view

pytestmark = [pytest.mark.browser]

HAND = (
    [r + "C" for r in "2345"]
    + [r + "D" for r in "6789T"]
    + [r + "H" for r in "JQKA"]
    + [r + "S" for r in "2QKA"]
)

# For each card of the hand: whether the 32x32 square at its top left corner is its own
# (each corner of the square finds this card under it), and its top.
OWN_SQUARE = """() => [...document.querySelectorAll('#hand [data-card]')].map((b) => {
  const r = b.getBoundingClientRect();
  const mine = (x, y) => document.elementFromPoint(x, y)?.closest('[data-card]') === b;
  const own = [[2, 2], [31, 2], [2, 31], [31, 31]].every(([dx, dy]) => mine(r.left + dx, r.top + dy));
  return [b.dataset.card, own, Math.round(r.top), r.right <= innerWidth && r.left >= 0];
})"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_seventeen_cards_each_offer_32_px(new_context, lang, size, artifacts) -> None:  # type: ignore[no-untyped-def]
    assert len(HAND) == 17
    first = state(
        n=3,
        view=view(
            n=3, phase="pass", hand=HAND, legal=[], pass_direction="left", pass_to=1,
            passed_seats=[False, True, True], hand_sizes=[17, 17, 17],
        ),
    )  # fmt: skip
    server = FakeServer(first)
    context = await new_context(locale=LOCALES[lang], **SIZES[size])
    page = await context.new_page()
    await open_solo(page, server)
    await expect(page.locator("#hand [data-card]")).to_have_count(17)
    await page.clock.run_for(1000)  # the frame that sends the cards from the deck
    await page.evaluate("Promise.all(document.getAnimations().map((a) => a.finished))")
    cards = await page.evaluate(OWN_SQUARE)
    assert [c for c, own, _, inside in cards if not (own and inside)] == [], cards
    rows = len({top for _, _, top, _ in cards})
    assert rows == (2 if size == "phone" else 1), " ".join(f"{c}@{top}" for c, _, top, _ in cards)
    # A tap on that square chooses the card (the pass phase).
    target = page.locator('#hand [data-card="9D"]')
    box = await target.bounding_box()
    assert box is not None
    if size == "phone":
        await page.touchscreen.tap(box["x"] + 16, box["y"] + 16)
    else:
        await page.mouse.click(box["x"] + 16, box["y"] + 16)
    await expect(target).to_have_attribute("aria-pressed", "true")
    await page.screenshot(path=str(artifacts / f"mends-hand17-{lang}-{size}.png"))
    await context.close()
