"""The score keeper's totals sit under their players' names (issue 25, player
item 1): on a phone the Pass column is hidden, and the Total row must lose
that column too, in the editable sheet and in the shared read-only view."""

from __future__ import annotations

import httpx
import pytest
from playwright.async_api import Page, expect

from .mends_harness import LOCALES, SIZES

pytestmark = [pytest.mark.browser]

NAMES = ["Ann", "Bob", "Cy", "Dee"]


# Each player's column (its header's left and right) and the middle of its total, read at once
# (the shared view draws the sheet again when its live socket speaks).
PLACES = """(names) => names.map((name, seat) => {
  const head = document.querySelector(`.sheet-table thead th[title="${name}"]`)?.getBoundingClientRect();
  const total = document.querySelector(`[data-testid="total-${seat}"]`)?.getBoundingClientRect();
  return head && total ? [head.left, head.right, total.left + total.width / 2] : null;
})"""


async def columns_line_up(page: Page) -> None:
    """Each total's cell lies within its player's column (the header with the name as title)."""
    await expect(page.get_by_test_id("total-3")).to_have_text("13")
    places = await page.evaluate(PLACES, NAMES)
    for name, place in zip(NAMES, places, strict=True):
        assert place is not None, name
        left, right, middle = place
        assert left <= middle <= right, (name, place)


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_totals_sit_under_their_names(
    new_context, base_url: str, lang: str, size: str, artifacts
) -> None:  # type: ignore[no-untyped-def]
    sheet = httpx.post(f"{base_url}/api/sheets", json={"players": NAMES, "rules": {"target": 100}}).json()
    for points in ([5, 8, 13, 0], [0, 0, 13, 13]):
        assert (
            httpx.post(f"{base_url}{sheet['links']['api']}/deals", json={"points": points}).status_code == 201
        )
    context = await new_context(locale=LOCALES[lang], **SIZES[size])
    page = await context.new_page()
    for link in ("edit", "share"):
        await page.goto(sheet["links"][link])
        await columns_line_up(page)
        await page.screenshot(path=str(artifacts / f"mends-scorer-{link}-{lang}-{size}.png"), full_page=True)
    await context.close()
