"""Training mode on a phone (issue 25, player item 4): the advice for the
decision in front of the player is on screen together with the hand, without
scrolling (a sheet between the felt and the hand); at 1280 px it stays in the
side panel. A fixed position whose advice is answered by the test."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from .mends_harness import LOCALES, SIZES, FakeServer, open_solo, state, view

pytestmark = [pytest.mark.browser]

HAND = ["3C", "8C", "KC", "4D", "9D", "QD", "2H", "7H", "JH", "5S", "9S", "QS", "AS"]
LEGAL = ["3C", "8C", "KC"]
WORDS = {"en": {"advice": "Advice"}, "fr": {"advice": "Conseil"}}


def option(card: str, points: float, best: bool) -> dict:
    out = {
        "cards": [card], "expected_points": points, "score": points, "stderr": 0.2,
        "cost": 0.0 if best else 0.4,
        "reason": "follows_low" if best else "follows_high", "best": best, "mistake": False,
        "outcomes": {"queen": 0.1, "hearts": points / 2, "moon_by_self": 0.0, "moon_by_other": 0.01},
    }  # fmt: skip
    if not best:
        out["comparison"] = {
            "cards": [card],
            "other": ["3C"],
            "key": "expected_points",
            "value": points,
            "other_value": 2.1,
        }
    return out


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_the_advice_is_on_screen_with_the_hand(new_context, lang, size, artifacts) -> None:  # type: ignore[no-untyped-def]
    first = state(
        view=view(hand=HAND, legal=LEGAL, trick=["2C"], trick_leader=3, hand_sizes=[13, 12, 12, 12])
    )
    server = FakeServer(first)
    options = [option("3C", 2.1, True), option("8C", 2.6, False), option("KC", 3.9, False)]
    server.answers["advice"] = lambda msg: {
        "type": "advice",
        "deal": 0,
        "phase": "play",
        "play": 1,
        "options": options,
    }
    context = await new_context(locale=LOCALES[lang], **SIZES[size])
    page = await context.new_page()
    await open_solo(page, server, prefs={"training": True})
    best = page.locator(".advice li.best")
    await expect(best).to_have_count(1)
    await expect(best).to_contain_text("3")
    await page.clock.run_for(1000)
    await page.evaluate("Promise.all(document.getAnimations().map((a) => a.finished))")
    height = SIZES[size]["viewport"]["height"]
    assert await page.evaluate("scrollY") == 0
    on_screen = """(els) => els.map((el) => { const r = el.getBoundingClientRect();
        return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight
          && r.left >= 0 && r.right <= innerWidth; })"""
    assert all(await best.evaluate_all(on_screen)), await best.bounding_box()
    assert all(await page.locator("#hand [data-card]").evaluate_all(on_screen)), height
    assert all(await page.locator("#advice-why").evaluate_all(on_screen))
    await expect(page.get_by_role("heading", name=WORDS[lang]["advice"])).to_have_count(1)
    await page.screenshot(path=str(artifacts / f"mends-training-{lang}-{size}.png"))
    await context.close()
