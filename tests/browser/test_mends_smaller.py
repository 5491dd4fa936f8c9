"""The smaller items of issue 25 (player item 10), each from a fixed position
answered by the test: a program at a table is marked and not counted among
the people seated; an offline person's seat on the felt says so; five seats'
names in the score sheet are not all cut to "No…"; the cards that fly to a
trick's winner live in the table's own box and go with it."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from .mends_harness import LOCALES, SIZES, FakeServer, open_solo, open_table, state, table_message, view

pytestmark = [pytest.mark.browser]

WORDS = {
    "en": {"seated": "1 person seated", "program": "program", "offline": "offline"},
    "fr": {"seated": "1 personne assise", "program": "programme", "offline": "hors ligne"},
}
CASES = [("en", "phone"), ("fr", "desktop")]


@pytest.mark.parametrize(("lang", "size"), CASES)
async def test_a_program_is_marked_and_not_counted_among_people(new_context, lang, size, artifacts) -> None:  # type: ignore[no-untyped-def]
    words = WORDS[lang]
    seats = [
        {"name": "Ann"},
        {"name": "Robo", "program": True},
        {"kind": "empty", "name": ""},
        {"kind": "empty", "name": ""},
    ]
    table = table_message(seats, status="waiting")
    server = FakeServer(table)
    context = await new_context(locale=LOCALES[lang], **SIZES[size])
    page = await context.new_page()
    await open_table(page, server, clock=False)
    await expect(page.get_by_role("heading", name=words["seated"])).to_be_visible()
    await expect(page.locator(".seats li").nth(1)).to_contain_text(f"Robo ({words['program']})")
    await page.screenshot(path=str(artifacts / f"mends-program-{lang}-{size}.png"))
    await context.close()


@pytest.mark.parametrize(("lang", "size"), CASES)
async def test_an_offline_person_is_said_offline_and_five_names_are_not_cut(
    new_context, lang, size, artifacts
) -> None:  # type: ignore[no-untyped-def]
    words = WORDS[lang]
    names = ["Ann", "Bob", "North-West", "North-East", "East"]
    seats = [{"name": "Ann"}, {"name": "Bob", "connected": False}] + [
        {"kind": "bot", "name": n, "level": "beginner"} for n in names[2:]
    ]
    first = state(
        n=5, mode="table",
        view=view(n=5, hand=["2C", "9D"], legal=[], to_act=1, trick=["3C"], trick_leader=0,
                  hand_sizes=[2, 3, 3, 3, 3]),
        results=[{"points": [3, 10, 0, 13, 0], "moon": None, "taken": [3, 10, 0, 13, 0]}],
        totals=[3, 10, 0, 13, 0],
    )  # fmt: skip
    for i, name in enumerate(names):
        first["seats"][i]["name"] = name
    server = FakeServer(first, before=[table_message(seats)])
    context = await new_context(locale=LOCALES[lang], **SIZES[size])
    page = await context.new_page()
    await open_table(page, server)
    bob = page.locator('.seat[data-seat="1"]')
    await expect(bob).to_contain_text(words["offline"])
    assert "absent" in (await bob.get_attribute("class") or "")
    # The score sheet's five names, each whole (on two lines if need be), none cut short.
    heads = page.locator(".score-sheet thead th[title]")
    await expect(heads).to_have_count(5)
    cut = await heads.evaluate_all(
        "hs => hs.filter((h) => h.scrollWidth > h.clientWidth + 1).map((h) => h.title)"
    )
    assert cut == []
    await page.screenshot(path=str(artifacts / f"mends-offline-{lang}-{size}.png"), full_page=True)
    await context.close()


# Where each ghost card (a card flying to the trick's winner) is put in the page.
GHOSTS = """window.__ghosts = [];
new MutationObserver((records) => { for (const r of records) for (const n of r.addedNodes)
  if (n.classList?.contains('ghost')) window.__ghosts.push(!!n.parentElement?.closest('#main')); })
  .observe(document, { childList: true, subtree: true });"""


async def test_flying_cards_live_in_the_table_and_go_with_it(new_context) -> None:  # type: ignore[no-untyped-def]
    closed = {"leader": 1, "cards": ["3C", "4C", "5C", "2C"], "winner": 3, "points": 0}
    first = state(
        view=view(
            hand=["2C", "9D"], legal=["2C"], trick=["3C", "4C", "5C"], trick_leader=1, hand_sizes=[2, 1, 1, 1]
        )
    )
    server = FakeServer(first)
    context = await new_context(locale="en-GB", **SIZES["desktop"])
    await context.add_init_script(GHOSTS)
    page = await context.new_page()
    await open_solo(page, server)
    await page.locator('#hand [data-card="2C"]').click()
    play = server.of_type("play")[-1]
    server.send(
        state(
            ack=play["id"],
            view=view(
                hand=["9D"], legal=[], to_act=3, trick_leader=3, tricks=[closed], hand_sizes=[1, 1, 1, 1]
            ),
            events=[{"type": "play", "seat": 0, "card": "2C", "trick_winner": 3, "trick_points": 0}],
        )
    )
    await expect(page.locator(".trick .card")).to_have_count(4)
    await page.clock.run_for(2000)  # the trick taken is gathered: its cards fly to East
    await expect(page.locator(".trick .card")).to_have_count(0)
    await page.wait_for_function("() => window.__ghosts.length >= 4")
    assert all(await page.evaluate("window.__ghosts"))
    await page.evaluate("location.hash = '#/history'")
    await expect(page.locator(".ghost")).to_have_count(0)
    await context.close()


@pytest.mark.parametrize(("lang", "size"), CASES)
async def test_a_profile_without_rated_games_shows_no_empty_box(new_context, lang, size, artifacts) -> None:  # type: ignore[no-untyped-def]
    stats = {"games": 2, "ranked": 0, "wins": 1, "average_points": 6.5, "moons": 0, "queens": 1}
    profile = {"nickname": "Zed", "rating": 1500, "stats": stats, "history": []}

    async def answer(route) -> None:  # type: ignore[no-untyped-def]
        await route.fulfill(json=profile)

    context = await new_context(locale=LOCALES[lang], **SIZES[size])
    page = await context.new_page()
    await page.route("**/api/players/Zed", answer)
    await page.goto("/#/player/Zed")
    await expect(page.get_by_role("heading", name="Zed")).to_be_visible()
    await expect(page.locator(".stats")).to_be_visible()
    await expect(page.locator(".rating-box")).to_have_count(0)
    await page.screenshot(path=str(artifacts / f"mends-profile-{lang}-{size}.png"))
    await context.close()
