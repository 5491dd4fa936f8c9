"""What a player found wrong in four views (both languages, 1280x800 and
390x844): the header wrapped onto two lines on a desk; the leaderboard's last
column was cut off on a phone; the waiting room with a program seated said
"Waiting for 2 more people" beside "2 empty seats go to computer players";
the rules line said the players and the target twice. Each view's screenshot
is written to test-artifacts/."""

from __future__ import annotations

import pytest
from playwright.async_api import Page, expect

from .mends_harness import LOCALES, SIZES, FakeServer, open_table, table_message

pytestmark = [pytest.mark.browser]

BOTH = [(lang, size) for lang in ("en", "fr") for size in ("desktop", "phone")]

LEADERBOARD = {
    "players": [
        {"rank": i + 1, "nickname": f"player_{i}", "rating": 1700 - 10 * i, "games": 140 - i, "wins": 120 - i}
        for i in range(6)
    ]
}


async def rows_of(page: Page, selector: str) -> list[float]:
    """The distinct vertical middles (rounded) of the elements ``selector`` matches that are shown."""
    middles = await page.locator(selector).evaluate_all(
        """els => els.map(e => e.getBoundingClientRect()).filter(r => r.width && r.height)
             .map(r => Math.round(r.top + r.height / 2))"""
    )
    return sorted(set(middles))


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_the_header_holds_on_one_line_on_a_desk(new_context, lang, artifacts) -> None:  # type: ignore[no-untyped-def]
    context = await new_context(locale=LOCALES[lang], **SIZES["desktop"])
    page = await context.new_page()
    await page.goto("/")
    await expect(page.locator("button.play-now")).to_be_enabled()
    await expect(page.locator("header .menu")).to_be_hidden()
    # The name, every link and the language: one row, each within 6 px of the same middle.
    middles = await rows_of(
        page, "header.top .brand, header.top nav a, header.top .nav-more-btn, header.top #lang"
    )
    assert middles[-1] - middles[0] <= 6, middles
    # The links under "More" open in their box, and go with a click elsewhere.
    more = page.locator("header .nav-more-btn")
    await more.click()
    await expect(page.locator("#nav-more a").first).to_be_visible()
    await page.screenshot(path=str(artifacts / f"views-header-more-{lang}-desktop.png"))
    await page.locator("main").click(position={"x": 5, "y": 5})
    await expect(page.locator("#nav-more a").first).to_be_hidden()
    height = await page.locator("header.top").evaluate("h => h.offsetHeight")
    assert height <= 64, height
    await page.screenshot(path=str(artifacts / f"views-header-{lang}-desktop.png"))
    # On a phone the links fold behind "Menu": the header is one row there too.
    await page.set_viewport_size(SIZES["phone"]["viewport"])
    await expect(page.locator("header .menu")).to_be_visible()
    middles = await rows_of(page, "header.top .brand, header.top .menu, header.top #lang")
    assert middles[-1] - middles[0] <= 6, middles
    await page.screenshot(path=str(artifacts / f"views-header-{lang}-phone.png"))
    await context.close()


@pytest.mark.parametrize(("lang", "size"), BOTH)
async def test_every_column_of_the_leaderboard_is_seen_whole(new_context, lang, size, artifacts) -> None:  # type: ignore[no-untyped-def]
    context = await new_context(locale=LOCALES[lang], **SIZES[size])
    page = await context.new_page()
    await page.route("**/api/leaderboard", lambda r: r.fulfill(json=LEADERBOARD))
    await page.route("**/api/ladder", lambda r: r.fulfill(json={"bots": []}))
    await page.goto("/#/leaderboard")
    table = page.locator(".leaderboard table")
    await expect(table.locator("tbody tr")).to_have_count(6)
    # Each heading and number inside its cell, each cell inside the table's box and the window.
    cut = await table.locator("th, td").evaluate_all(
        """cells => {
          const box = cells[0].closest('table').getBoundingClientRect();
          const w = document.documentElement.clientWidth;
          return cells.filter(c => {
            const r = c.getBoundingClientRect();
            return c.scrollWidth > c.clientWidth + 1 || r.right > box.right + 1 || r.right > w + 1;
          }).map(c => c.textContent.trim());
        }"""
    )
    assert cut == [], cut
    await page.screenshot(path=str(artifacts / f"views-leaderboard-{lang}-{size}.png"), full_page=True)
    await context.close()


WAITING = {
    "en": {"second": "a second person", "bots": "2 empty seats go to computer players", "more": "more people",
           "rules": ["Standard (100 points)", "No limit", "friendly"], "players": "Players"},
    "fr": {"second": "deuxième personne", "bots": "2 places libres iront à des joueurs virtuels",
           "more": "personnes de plus", "rules": ["Classique (100 points)", "Sans limite", "amicale"],
           "players": "Joueurs"},
}  # fmt: skip


@pytest.mark.parametrize(("lang", "size"), BOTH)
async def test_the_waiting_room_with_a_program_and_its_rules_line(new_context, lang, size, artifacts) -> None:  # type: ignore[no-untyped-def]
    words = WAITING[lang]
    seats = [
        {"name": "Ann"},
        {"name": "Robo", "program": True},
        {"kind": "empty", "name": ""},
        {"kind": "empty", "name": ""},
    ]
    server = FakeServer(table_message(seats, status="waiting"))
    context = await new_context(locale=LOCALES[lang], **SIZES[size])
    page = await context.new_page()
    await open_table(page, server, clock=False)
    room = page.locator(".waiting-room")
    await expect(room.locator(".wait-for")).to_contain_text(words["second"])
    await expect(room).to_contain_text(words["bots"])
    await expect(room).not_to_contain_text(words["more"])
    # The preset's name says the target: the line says it once, and the players not at all (the seats do).
    await expect(room.locator(".rules-line")).to_contain_text(
        words["rules"][0]
    )  # once /api/options names the preset
    line = (await room.locator(".rules-line").inner_text()).replace("\u00a0", " ").replace("\u202f", " ")
    assert line.split(" · ") == words["rules"], line
    assert words["players"] not in line
    await page.screenshot(path=str(artifacts / f"views-waiting-{lang}-{size}.png"), full_page=True)
    await context.close()
