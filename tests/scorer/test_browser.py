"""The score keeper in a real Chromium: a whole game at a kitchen table, by tapping."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import httpx
import pytest
from playwright.async_api import Page, expect

pytestmark = [pytest.mark.browser]

NAMES = ["Ann", "Bob", "Cy", "Dee"]


async def enter_points(page: Page, points: list[int]) -> None:
    for seat, value in enumerate(points):
        await page.get_by_label(NAMES[seat], exact=True).fill(str(value))
    await page.get_by_role("button", name="Save the deal").click()


async def expect_totals(page: Page, totals: list[int]) -> None:
    for seat, total in enumerate(totals):
        await expect(page.get_by_test_id(f"total-{seat}")).to_have_text(str(total))


async def test_four_players_play_a_game_to_the_end(new_context, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    context = await new_context(locale="en-GB", accept_downloads=True)
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    await page.goto("/scorer/")
    await expect(page.get_by_role("heading", name="New sheet")).to_be_visible()
    for i, name in enumerate(NAMES):
        await page.get_by_label(f"Player {i + 1}", exact=True).fill(name)
    await page.get_by_role("radio", name="50").check()
    await page.get_by_role("button", name="Start the sheet").click()

    # Deal 1, passing left.
    await expect(page.get_by_role("heading", name="Deal 1 · pass left")).to_be_visible()
    await enter_points(page, [5, 8, 13, 0])
    await expect_totals(page, [5, 8, 13, 0])
    await expect(page.get_by_role("heading", name="Deal 2 · pass right")).to_be_visible()

    # A wrong count is refused with what is wrong and by how much; nothing is saved.
    await enter_points(page, [10, 0, 1, 13])
    await expect(page.get_by_role("alert")).to_have_text(
        "The points add up to 24, a deal gives 26: 2 points are missing"
    )
    await expect_totals(page, [5, 8, 13, 0])
    await expect(page.locator("tbody tr")).to_have_count(1)

    # Dee shoots the moon, in one tap.
    await page.get_by_role("button", name="Moon shot by Dee").click()
    await expect_totals(page, [31, 34, 39, 0])
    await expect(page.get_by_role("alert")).to_have_count(0)
    await expect(page.get_by_role("status").first).to_have_text("Dee leads")
    await expect(page.get_by_role("heading", name="Deal 3 · pass across")).to_be_visible()

    # A deal that takes Bob past 50 ends the game: Dee has the lowest total.
    await enter_points(page, [0, 20, 6, 0])
    await expect_totals(page, [31, 54, 45, 0])
    await expect(page.get_by_test_id("status")).to_contain_text("Dee wins!")
    await expect(page.get_by_role("button", name="Save the deal")).to_have_count(0)

    # Undo the last entry, correct it, and finish again.
    await page.get_by_role("button", name="Undo the last change").click()
    await expect_totals(page, [31, 34, 39, 0])
    await enter_points(page, [2, 20, 4, 0])
    await expect(page.get_by_test_id("status")).to_contain_text("Dee wins!")

    # Correct deal 1 after the fact.
    await page.get_by_role("button", name="Edit deal 1").click()
    await expect(page.get_by_role("heading", name="Correcting deal 1")).to_be_visible()
    await enter_points_edit(page, [6, 7, 13, 0])
    await expect_totals(page, [34, 53, 43, 0])

    # The chart has one line per player.
    await expect(page.locator("svg.chart polyline")).to_have_count(4)

    # Export both ways.
    async with page.expect_download() as info:
        await page.get_by_role("link", name="CSV").click()
    download = await info.value
    path = tmp_path / "sheet.csv"
    await download.save_as(path)
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    assert rows[0] == ["deal", "pass", "moon", *NAMES]
    assert rows[2] == ["2", "right", "Dee", "26", "26", "26", "0"]
    assert rows[-1] == ["total", "", "", "34", "53", "43", "0"]
    async with page.expect_download() as info:
        await page.get_by_role("link", name="JSON").click()
    download = await info.value
    await download.save_as(tmp_path / "sheet.json")
    data = json.loads((tmp_path / "sheet.json").read_text(encoding="utf-8"))
    assert data["winner"] == 3
    assert data["over"] is True

    # The sheet is still there after a reload.
    await page.reload()
    await expect_totals(page, [34, 53, 43, 0])
    assert errors == []
    await context.close()


async def enter_points_edit(page: Page, points: list[int]) -> None:
    for seat, value in enumerate(points):
        await page.get_by_label(NAMES[seat], exact=True).fill(str(value))
    await page.get_by_role("button", name="Save deal 1").click()


async def test_shared_link_is_read_only_in_french_and_updates_live(new_context, base_url: str) -> None:  # type: ignore[no-untyped-def]
    sheet = httpx.post(f"{base_url}/api/sheets", json={"players": NAMES, "rules": {"target": 100}}).json()
    context = await new_context(locale="fr-FR")
    page = await context.new_page()
    await page.goto(sheet["links"]["share"])
    await expect(page.get_by_text("Lecture seule", exact=False)).to_be_visible()
    await expect(page.locator(".live.on")).to_have_text("en direct")
    await expect(page.get_by_role("button", name="Enregistrer la donne")).to_have_count(0)
    r = httpx.post(f"{base_url}{sheet['links']['api']}/deals", json={"points": [5, 8, 13, 0]})
    assert r.status_code == 201
    await expect_totals(page, [5, 8, 13, 0])
    httpx.post(f"{base_url}{sheet['links']['api']}/deals", json={"moon": "Cy"})
    await expect_totals(page, [31, 34, 13, 26])
    await expect(page.locator("tbody tr").nth(1)).to_contain_text("☾")
    await context.close()


async def test_language_is_switched_and_remembered(new_context) -> None:  # type: ignore[no-untyped-def]
    context = await new_context(locale="en-US")
    page = await context.new_page()
    await page.goto("/scorer/")
    await expect(page.get_by_role("heading", name="New sheet")).to_be_visible()
    await page.get_by_label("Language").select_option("fr")
    await expect(page.get_by_role("heading", name="Nouvelle feuille")).to_be_visible()
    assert await page.evaluate("localStorage.getItem('damepique.lang')") == "fr"
    await page.reload()
    await expect(page.get_by_role("heading", name="Nouvelle feuille")).to_be_visible()
    assert await page.evaluate("document.documentElement.lang") == "fr"
    # French names for the moon and a refusal in French.
    for i, name in enumerate(NAMES):
        await page.get_by_label(f"Joueur {i + 1}", exact=True).fill(name)
    await page.get_by_role("button", name="Commencer la feuille").click()
    await expect(page.get_by_role("button", name="Grand chelem de Cy")).to_be_visible()
    for seat, value in enumerate([5, 8, 13, 3]):
        await page.get_by_label(NAMES[seat], exact=True).fill(str(value))
    await page.get_by_role("button", name="Enregistrer la donne").click()
    await expect(page.get_by_role("alert")).to_have_text(
        "Les points font 29 au total, une donne en distribue 26 : 3 points de trop"
    )
    await context.close()


async def test_phone_width_fits_and_three_to_six_players(new_context) -> None:  # type: ignore[no-untyped-def]
    context = await new_context(locale="en-GB", viewport={"width": 375, "height": 740})
    page = await context.new_page()
    await page.goto("/scorer/")
    await page.get_by_role("button", name="Remove Player 4").click()
    await expect(page.get_by_label("Player 4", exact=True)).to_have_count(0)
    await page.get_by_label("J♦ takes off 10 points").check()
    await page.get_by_role("radio", name="other", exact=True).check()
    await page.get_by_label("The game ends at (other)").fill("75")
    await page.get_by_role("button", name="Start the sheet").click()
    await expect(page.get_by_role("alert")).to_have_text("Player 1 has no name")
    # The refusal keeps what was chosen.
    await expect(page.get_by_label("J♦ takes off 10 points")).to_be_checked()
    await expect(page.get_by_label("The game ends at (other)")).to_have_value("75")
    for i in range(3):
        await page.get_by_label(f"Player {i + 1}", exact=True).fill(f"P{i}")
    for _ in range(3):
        await page.get_by_role("button", name="Add a player").click()
    await expect(page.get_by_role("button", name="Add a player")).to_have_count(0)
    for i in range(3, 6):
        await page.get_by_label(f"Player {i + 1}", exact=True).fill(f"P{i}")
    await page.get_by_role("button", name="Start the sheet").click()
    await expect(page.get_by_role("heading", name="Deal 1 · pass left")).to_be_visible()
    await expect(page.get_by_text("to 75 · moon +26 to the others · J♦ −10")).to_be_visible()
    await page.get_by_label("J♦ taken by").select_option("P0")
    await page.get_by_role("button", name="Moon shot by P5").click()
    await expect(page.get_by_role("heading", name="Deal 2 · pass right")).to_be_visible()
    await expect_totals(page, [16, 26, 26, 26, 26, 0])
    await page.get_by_label("P0", exact=True).fill("2.5")
    await page.get_by_role("button", name="Save the deal").click()
    await expect(page.get_by_role("alert")).to_have_text("P0: 2.5 is not a whole number")
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375
    await context.close()


async def test_a_36_card_sheet_gives_its_rules_and_no_next_deal_once_over(new_context) -> None:  # type: ignore[no-untyped-def]
    context = await new_context(locale="en-GB")
    page = await context.new_page()
    await page.goto("/scorer/")
    rules = page.get_by_test_id("rules")
    await expect(rules).to_contain_text("52 cards, 13 to each player.")
    await page.get_by_role("radio", name="36 cards (6 to ace: Q♠ 5, the last trick 1)").check()
    # The 36-card game has its own queen and its own moon (15 points).
    await expect(page.get_by_label("Q♠ is worth")).to_have_count(0)
    await expect(page.get_by_role("radio", name="+15 to each of the others")).to_be_visible()
    await expect(rules).to_contain_text("36 cards, 9 to each player.")
    await expect(rules).to_contain_text("Points: each heart 1, Q♠ 5 and the last trick 1; a deal gives 15.")
    await page.get_by_label("A tie for the lowest total at the end: the tied players share the win").check()
    await expect(rules).to_contain_text("players tied for it share the win")
    for i, name in enumerate(NAMES):
        await page.get_by_label(f"Player {i + 1}", exact=True).fill(name)
    await page.get_by_role("radio", name="50").check()
    await page.get_by_role("button", name="Start the sheet").click()
    await expect(page.get_by_role("heading", name="Deal 1 · pass left")).to_be_visible()
    await expect(
        page.get_by_text("to 50 · moon +15 to the others · 36 cards · a tie shares the win")
    ).to_be_visible()
    # On the sheet the rules are folded under their title, with the link to all the rules.
    sheet_rules = page.get_by_test_id("rules")
    await sheet_rules.get_by_text("The rules of this game").click()
    await expect(sheet_rules).to_contain_text("The 6♣ leads the first trick.")
    await expect(sheet_rules.get_by_role("link", name="All the rules →")).to_have_attribute(
        "href", "/#/rules"
    )
    await enter_points(page, [6, 4, 5, 0])
    await expect(page.get_by_text("Next: deal 2, pass right")).to_be_visible()
    for number, points in enumerate(([0, 0, 15, 0], [15, 0, 0, 0], [0, 0, 0, 15]), 2):  # moons: Cy, Ann, Dee
        await expect(page.get_by_role("heading", name=f"Deal {number}", exact=False)).to_be_visible()
        await enter_points(page, points)
    await expect(page.get_by_role("heading", name="Deal 5", exact=False)).to_be_visible()
    # 6+15+0+15 = 36, 4+15+15+15 = 49, 5+0+15+15 = 35, 0+15+15+0 = 30: nobody at 50 yet.
    await expect_totals(page, [36, 49, 35, 30])
    await enter_points(page, [0, 1, 14, 0])  # Bob 50: the game is over, Dee wins
    await expect(page.get_by_test_id("status")).to_contain_text("Dee wins!")
    await expect(page.get_by_text("Next: deal", exact=False)).to_have_count(0)
    await expect(page.get_by_role("heading", name="Deal 6", exact=False)).to_have_count(0)
    await context.close()


async def test_a_moon_with_the_jack_or_not_is_asked(new_context) -> None:  # type: ignore[no-untyped-def]
    context = await new_context(locale="en-GB")
    page = await context.new_page()
    await page.goto("/scorer/")
    for i, name in enumerate(NAMES):
        await page.get_by_label(f"Player {i + 1}", exact=True).fill(name)
    await page.get_by_label("J♦ takes off 10 points").check()
    await page.get_by_role("button", name="Start the sheet").click()
    await enter_points(page, [16, 0, 0, 0])
    await expect(page.get_by_role("alert")).to_have_text(
        "Ann has 16: a moon with the J♦ too (Ann -10, the others 26 each) or an ordinary deal? Choose one"
    )
    await expect(page.locator("tbody tr")).to_have_count(0)
    await page.get_by_role("button", name="A moon by Ann: -10, 26, 26, 26").click()
    await expect_totals(page, [-10, 26, 26, 26])
    await expect(page.get_by_role("alert")).to_have_count(0)
    await enter_points(page, [0, 16, 0, 0])
    await page.get_by_role("button", name="An ordinary deal: 0, 16, 0, 0").click()
    await expect_totals(page, [-10, 42, 26, 26])
    await expect(page.get_by_role("button", name="An ordinary deal", exact=False)).to_have_count(0)
    await context.close()
