"""The waiting room on a phone (issue 25, player item 2): a friend who opens
the invitation reaches "Take a seat" without scrolling (the empty seats no
longer take the page-level `.empty` padding)."""

from __future__ import annotations

import httpx
import pytest
from playwright.async_api import expect

from .mends_harness import LOCALES, SIZES

pytestmark = [pytest.mark.browser]

WORDS = {
    "en": {"sit": "Take a seat", "empty": "Empty seat"},
    "fr": {"sit": "Prendre une place", "empty": "Place libre"},
}


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_the_invited_friend_sees_take_a_seat_without_scrolling(
    new_context, base_url, lang, size, artifacts
) -> None:  # type: ignore[no-untyped-def]
    made = httpx.post(
        f"{base_url}/api/tables", json={"name": "Ann", "rules": {"players": 5}}, headers={"Origin": base_url}
    )
    assert made.status_code in (200, 201), made.text
    code = made.json()["code"]
    context = await new_context(locale=LOCALES[lang], **SIZES[size])
    page = await context.new_page()
    await page.goto(f"/#/t/{code}")
    sit = page.get_by_role("button", name=WORDS[lang]["sit"])
    await expect(sit).to_be_visible()
    box = await sit.bounding_box()
    height = SIZES[size]["viewport"]["height"]
    assert box is not None and box["y"] + box["height"] <= height, (box, height)
    assert await page.evaluate("scrollY") == 0
    await page.screenshot(path=str(artifacts / f"mends-waiting-{lang}-{size}.png"))
    await context.close()
