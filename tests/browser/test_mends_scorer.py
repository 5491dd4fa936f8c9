"""The score keeper's totals sit under their players' names (issue 25, player
item 1): on a phone the Pass column is hidden, and the Total row must lose
that column too, in the editable sheet and in the shared read-only view."""

from __future__ import annotations

import re

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


def plain(text: str) -> str:
    """The text with French typography's narrow spaces read as spaces."""
    return " ".join(text.replace("\u202f", " ").replace("\u00a0", " ").split())


SCORER = {
    "en": {
        "moon": "That is a moon: tap “Moon shot by …” below, it counts it for you.",
        "save": "Save the deal",
        "short": "The points add up to 24, a deal gives 16: 8 points too many",
    },
    "fr": {
        "moon": "C'est un grand chelem : touchez « Grand chelem de … » ci-dessous, il le compte pour vous.",
        "save": "Enregistrer la donne",
        "short": "Les points font 24 au total, une donne en distribue 16 : 8 points de trop",
    },
}


@pytest.mark.parametrize(("lang", "size"), [("en", "phone"), ("fr", "desktop")])
async def test_a_moon_typed_out_points_to_the_moon_buttons_and_messages_are_sentences(  # type: ignore[no-untyped-def]
    new_context, base_url: str, lang: str, size: str, artifacts
) -> None:
    words = SCORER[lang]
    rules = {"target": 100, "jack_of_diamonds": True}
    sheet = httpx.post(f"{base_url}/api/sheets", json={"players": NAMES, "rules": rules}).json()
    context = await new_context(locale=LOCALES[lang], **SIZES[size])
    page = await context.new_page()
    await page.goto(sheet["links"]["edit"])
    for name, value in zip(NAMES, ["26", "26", "0", "26"], strict=True):
        await page.get_by_label(name, exact=True).fill(value)
    sum_line = page.get_by_test_id("sum")
    await expect(sum_line).not_to_have_text(re.compile("78"))
    assert plain(await sum_line.inner_text()) == words["moon"]
    assert await page.evaluate("document.documentElement.scrollWidth <= innerWidth")  # it wraps, not widens
    await page.screenshot(path=str(artifacts / f"mends-scorer-moon-{lang}-{size}.png"), full_page=True)
    # A refusal shown on its own is a sentence: a capital first.
    for name, value in zip(NAMES, ["10", "0", "1", "13"], strict=True):
        await page.get_by_label(name, exact=True).fill(value)
    await page.get_by_role("button", name=words["save"]).click()
    alert = page.get_by_role("alert")
    await expect(alert).not_to_be_empty()
    assert plain(await alert.inner_text()) == words["short"]
    await context.close()


# The header's brand and look, read from the page.
HEADER = """() => { const bar = document.querySelector('header'); const brand = bar.querySelector('a');
  const cs = getComputedStyle(bar); return { brand: brand.textContent.trim(),
  background: cs.backgroundColor, size: getComputedStyle(brand).fontSize,
  weight: getComputedStyle(brand).fontWeight }; }"""


@pytest.mark.parametrize(("lang", "size"), [("en", "phone"), ("fr", "desktop")])
async def test_the_score_keeper_wears_the_apps_header(new_context, lang: str, size: str) -> None:  # type: ignore[no-untyped-def]
    context = await new_context(locale=LOCALES[lang], **SIZES[size])
    page = await context.new_page()
    await page.goto("/")
    await expect(page.locator("header nav, header .menu").first).to_be_attached()
    app = await page.evaluate(HEADER)
    await page.goto("/scorer/")
    await expect(page.locator("header a").first).to_be_visible()
    scorer = await page.evaluate(HEADER)
    assert scorer == app
    assert app["brand"] == "♠ Dame de pique"
    await context.close()


# The header's language control, read from the page: what it is, says and looks like.
LANGUAGE = """() => { const s = document.querySelector('header select');
  if (!s) return null; const cs = getComputedStyle(s);
  return { label: s.labels[0]?.textContent, options: [...s.options].map((o) => [o.value, o.textContent]),
    value: s.value, size: cs.fontSize, padding: cs.padding, height: s.offsetHeight,
    labelShown: s.labels[0]?.offsetWidth > 1 }; }"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_the_score_keeper_switches_language_as_the_app_does(  # type: ignore[no-untyped-def]
    new_context, lang: str, size: str, artifacts
) -> None:
    context = await new_context(locale=LOCALES[lang], **SIZES[size])
    page = await context.new_page()
    await page.goto("/")
    await expect(page.locator("header select")).to_have_value(lang)
    app = await page.evaluate(LANGUAGE)
    await page.goto("/scorer/")
    await expect(page.locator("header a").first).to_be_visible()
    assert await page.evaluate(LANGUAGE) == app
    assert app["label"] == {"en": "Language", "fr": "Langue"}[lang]
    await page.screenshot(path=str(artifacts / f"mends-scorer-header-{lang}-{size}.png"))
    # It switches the score keeper's words, as the app's does.
    other = {"en": "fr", "fr": "en"}[lang]
    await page.get_by_label(app["label"]).select_option(other)
    await expect(
        page.get_by_role("heading", name={"en": "New sheet", "fr": "Nouvelle feuille"}[other])
    ).to_be_visible()
    await context.close()
