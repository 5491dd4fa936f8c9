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


AUTO = {
    "en": {"players": "Players", "auto": "3 to 5, as many as sit down", "create": "Create the table"},
    "fr": {"players": "Joueurs", "auto": "de 3 à 5, autant que de joueurs assis", "create": "Créer la table"},
}


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_auto_is_offered_next_to_the_rules_not_folded(new_context, lang, size, artifacts) -> None:  # type: ignore[no-untyped-def]
    words = AUTO[lang]
    context = await new_context(locale=LOCALES[lang], **SIZES[size])
    page = await context.new_page()
    await page.goto("/#/friends")
    players = page.locator("#create-form").get_by_label(words["players"], exact=True)
    await expect(players).to_be_visible()  # "Every option" still closed
    assert not await page.locator("#create-form details.all-options").evaluate("d => d.open")
    await players.select_option(label=words["auto"])
    await page.screenshot(path=str(artifacts / f"mends-create-auto-{lang}-{size}.png"), full_page=True)
    await page.get_by_role("button", name=words["create"]).click()
    await expect(page.get_by_text(words["auto"], exact=False)).to_be_visible()
    await context.close()


SEATS = {
    "en": {"name": "Your name", "offline": "(host, offline)", "you": "(you)"},
    "fr": {"name": "Votre nom", "offline": "(hôte, hors ligne)", "you": "(vous)"},
}
DOT = "li => getComputedStyle(li.querySelector('.seat-dot'))"


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_seats_dot_says_what_its_words_say(new_context, base_url, lang, size, artifacts) -> None:  # type: ignore[no-untyped-def]
    # The host made the table by the API and never came: offline. The friend sits: here
    # (and is "you" in the list's lower-case words, not a capitalised name).
    made = httpx.post(f"{base_url}/api/tables", json={"name": "Ann"}, headers={"Origin": base_url})
    assert made.status_code in (200, 201), made.text
    code = made.json()["code"]
    words = {**WORDS[lang], **SEATS[lang]}
    context = await new_context(locale=LOCALES[lang], **SIZES[size])
    page = await context.new_page()
    await page.goto(f"/#/t/{code}")
    await page.get_by_label(words["name"]).fill("Bob")
    await page.get_by_role("button", name=words["sit"]).click()
    rows = page.locator(".seats li")
    host, friend = rows.nth(0), rows.nth(1)
    await expect(host).to_have_text(f"Ann {words['offline']}")
    await expect(friend).to_have_text(f"Bob {words['you']}")
    away = await host.evaluate(f"{DOT}.backgroundColor")
    here = await friend.evaluate(f"{DOT}.backgroundColor")
    assert here == "rgb(26, 127, 55)", here  # green: a person at the table
    assert away != here and away == "rgba(0, 0, 0, 0)", away  # an empty ring: offline
    assert await host.evaluate(f"{DOT}.boxShadow") != "none"
    await page.screenshot(path=str(artifacts / f"mends-seat-dots-{lang}-{size}.png"))
    await context.close()
