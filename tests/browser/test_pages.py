"""The pages around the table (issue 16): none scrolls sideways on a phone or
a desk, the options form offers only what the rules allow, a refusal is a
sentence next to its button, the profile's chart fits its box, and the words
(the number of computer players, the face-down kitty, the sounds' switch)."""

from __future__ import annotations

import asyncio
import json
import re

import httpx
import pytest
from playwright.async_api import Page, expect

from .test_table import DESKTOP, PHONE, columns_cut, settle

pytestmark = [pytest.mark.browser]

# Elements that stick out of the window, other than inside a box that scrolls
# on its own (a wide table in its own scroller is fine; the page is not) and
# the "skip to content" link, kept off screen until it has the focus.
OVERFLOW = """() => {
  const w = document.documentElement.clientWidth;
  const scrolls = (el) => {
    for (let p = el.parentElement; p; p = p.parentElement) {
      if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(p).overflowX)) return true;
    }
    return false;
  };
  const out = [...document.querySelectorAll('body *')].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width && r.height && (r.right > w + 1 || r.left < -1) && !scrolls(el)
      && !el.closest('#card-sprite, .sr-only, .skip');
  });
  const width = document.documentElement.scrollWidth;
  return { width, window: w, out: out.slice(0, 5).map((el) => el.outerHTML.slice(0, 120)) };
}"""

PROFILE = {
    "nickname": "lea_long_nickname",
    "rating": 1562,
    "history": [
        {"game": f"g{i}", "at": 1_700_000_000 + i, "rating": 1500 + 9 * i - (i % 3) * 7} for i in range(14)
    ],
    "stats": {
        "games": 20,
        "ranked": 14,
        "wins": 6,
        "deals": 150,
        "average_points": 5.37,
        "moons": 2,
        "queens": 11,
    },
}
LEADERBOARD = {
    "players": [
        {
            "rank": i + 1,
            "nickname": f"player_with_a_long_name_{i}",
            "rating": 1700 - 10 * i,
            "games": 40 - i,
            "wins": 20 - i,
        }
        for i in range(12)
    ]
}


async def fits(page: Page, path: str) -> None:
    await page.goto(path)
    await page.wait_for_load_state("networkidle")
    await settle(page)  # drawn, laid out, nothing moving
    where = await page.evaluate(OVERFLOW)
    assert where["width"] <= where["window"] and not where["out"], (path, where)


@pytest.mark.parametrize("size", ["phone", "desktop"])
async def test_no_page_scrolls_sideways(new_context, base_url: str, size: str) -> None:  # type: ignore[no-untyped-def]
    context = await new_context(locale="fr-FR", **(PHONE if size == "phone" else DESKTOP))
    page = await context.new_page()
    await page.route("**/api/players/lea_long_nickname", lambda r: r.fulfill(json=PROFILE))
    await page.route("**/api/leaderboard", lambda r: r.fulfill(json=LEADERBOARD))
    sheets = {}
    for n in (5, 6):
        names = ["Alexandra", "Bartholomew", "Cy", "Dee", "Evangeline", "Fitzgerald"][:n]
        sheet = httpx.post(f"{base_url}/api/sheets", json={"players": names, "rules": {"target": 100}}).json()
        httpx.post(f"{base_url}{sheet['links']['api']}/deals", json={"points": [13, 8, 5] + [0] * (n - 3)})
        httpx.post(f"{base_url}{sheet['links']['api']}/deals", json={"moon": names[-1]})
        sheets[n] = sheet
    for path in [
        "/",
        "/#/friends",
        "/#/rules",
        "/#/guide",
        "/#/leaderboard",
        "/#/player/lea_long_nickname",
        "/#/account",
    ]:
        await fits(page, path)
    for sheet in sheets.values():
        await fits(page, f"/scorer/?id={sheet['id']}")
        # The sheet fits its panel too, five or six players: no scrolling inside it either.
        box = await page.locator(".table-wrap").evaluate("el => [el.scrollWidth, el.clientWidth]")
        assert box[0] <= box[1], box
    # The profile's rating chart is drawn at the width of its box, its labels readable.
    await page.goto("/#/player/lea_long_nickname")
    chart = page.locator("svg.rating-chart")
    await expect(chart).to_be_visible()
    widths = await chart.evaluate(
        "svg => [svg.getBoundingClientRect().width, svg.viewBox.baseVal.width, svg.parentElement.clientWidth]"
    )
    assert abs(widths[0] - widths[1]) <= 2 and widths[0] <= widths[2] + 1, widths
    label = await chart.locator("text.axis").first.evaluate("t => t.getBoundingClientRect().height")
    assert label >= 11, label
    await expect(page.get_by_text("Points moyens par donne")).to_be_visible()
    await expect(page.locator(".stats")).to_contain_text("5,4")  # a decimal comma


async def test_the_options_form_offers_only_what_the_rules_allow(new_context) -> None:  # type: ignore[no-untyped-def]
    context = await new_context(locale="en-GB", **DESKTOP)
    page = await context.new_page()
    await page.goto("/")
    await page.get_by_text("Every option").click()
    cycle = page.get_by_label("Pass direction")
    leftover = page.get_by_label("Leftover cards")
    await expect(cycle.locator("option")).to_have_text(
        ["Left, right, across, none", "Always left", "Always right", "Always across"]
    )
    await expect(leftover).to_be_disabled()  # four players: no card left over
    # Three players: no "always across", the 2♦ removed, two computer players.
    await page.get_by_label("Players", exact=True).select_option("3")
    await expect(cycle.locator("option")).to_have_text(["Left, right, none", "Always left", "Always right"])
    await expect(leftover.locator("option")).to_have_text(["Removed (2♦)", "Kitty to the first trick"])
    await expect(page.locator("#home-intro")).to_have_text(
        "No sign-up. Two computer players are waiting; a short game takes a few minutes."
    )
    await expect(page.get_by_label("Rules", exact=True)).to_have_value("three_players")
    # Five: the 2♦ and the 2♣, and the 3♣ leads.
    await page.get_by_label("Players", exact=True).select_option("5")
    await expect(leftover.locator("option").first).to_have_text("Removed (2♦, 2♣)")
    await expect(page.get_by_label("First lead").locator("option").first).to_have_text("3♣ leads")
    await expect(page.locator("#home-intro")).to_contain_text("Four computer players are waiting")
    # A fixed direction needs passing: with passing off, the direction (and the count) close.
    await page.get_by_label("Players", exact=True).select_option("4")
    await cycle.select_option("across")
    await page.get_by_label("Passing", exact=True).select_option("false")
    await expect(cycle).to_be_disabled()
    await expect(cycle).to_have_value("standard")
    await expect(page.get_by_label("Cards passed")).to_be_disabled()
    await expect(page.get_by_label("Rules", exact=True)).to_have_value("custom")
    # A preset brings its rules back.
    await page.get_by_label("Rules", exact=True).select_option("five_players")
    await expect(page.get_by_label("Players", exact=True)).to_have_value("5")
    await expect(page.get_by_label("Passing", exact=True)).to_have_value("true")
    await context.close()


HOUSE_RULES = {
    "en": {
        "locale": "en-GB",
        "options": "Every option",
        "level": "Computer level",
        "bold": "Bold",
        "broken": ("Hearts are broken by", ["any heart played", "a heart discarded on another suit"]),
        "discard": ("First trick: a hand of only hearts and Q♠ plays", ["any of them", "a heart"]),
        "tie": (
            "A tie for the lowest total at the end",
            ["play another deal", "the tied players share the win"],
        ),
        "must_break": "Hearts must be broken before being led",
        "no_points": "No points on the first trick",
        "presets": {
            "old_rules": "Old rules (any first lead, points on the first trick, hearts free)",
            "hearts_any_time": "Hearts led at any time",
        },
        "rules_link": "Rules",  # the preset select and the page share the word
        "rules_text": "Hearts led at any time — the standard rules, but hearts may be led at any time.",
        "friends": "/#/friends",
        "bot_level": "Computer level",
    },
    "fr": {
        "locale": "fr-FR",
        "options": "Toutes les options",
        "level": "Niveau des joueurs virtuels",
        "bold": "Audacieux",
        "broken": ("Ce qui ouvre les cœurs", ["tout cœur joué", "un cœur joué en défausse"]),
        "discard": (
            "Au premier pli, une main de cœurs et de la dame de pique joue",
            ["n'importe laquelle", "un cœur"],
        ),
        "tie": (
            "Égalité pour le plus petit total à la fin",
            ["on joue une autre donne", "les ex æquo se partagent la victoire"],
        ),
        "must_break": "Cœur ouvert avant d'être entamé",
        "no_points": "Pas de points au premier pli",
        "presets": {
            "old_rules": "Anciennes règles (entame libre, points au premier pli, cœurs libres)",
            "hearts_any_time": "Entame à cœur à tout moment",
        },
        "rules_link": "Règles",
        "rules_text": "Entame à cœur à tout moment — les règles classiques, mais on peut entamer à cœur"
        " à tout moment.",
        "friends": "/#/friends",
        "bot_level": "Niveau des joueurs virtuels",
    },
}


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_the_house_rules_and_the_bold_bots_are_offered_in_both_languages(
    new_context, lang: str
) -> None:  # type: ignore[no-untyped-def]
    words = HOUSE_RULES[lang]
    context = await new_context(locale=words["locale"], **DESKTOP)
    page = await context.new_page()
    await page.goto("/")
    # The bold personality beside the levels, by its name, on the home page and for a table's bots.
    await expect(page.get_by_label(words["level"]).get_by_role("option", name=words["bold"])).to_have_count(1)
    await page.get_by_label(words["level"]).select_option("shooter")
    await expect(page.get_by_label(words["level"])).to_have_value("shooter")
    await page.get_by_text(words["options"]).click()
    for key in ("broken", "discard", "tie"):
        label, choices = words[key]
        await expect(page.get_by_label(label, exact=True).locator("option")).to_have_text(choices)
    # What breaks hearts matters only when hearts must be broken; the first trick's discard
    # only with no points on the first trick.
    await page.get_by_label(words["must_break"], exact=True).select_option("false")
    await expect(page.get_by_label(words["broken"][0], exact=True)).to_be_disabled()
    await page.get_by_label(words["no_points"], exact=True).select_option("false")
    await expect(page.get_by_label(words["discard"][0], exact=True)).to_be_disabled()
    rules = page.get_by_label(words["rules_link"], exact=True)
    for preset, name in words["presets"].items():
        await expect(rules.locator(f'option[value="{preset}"]')).to_have_text(name)
    # The old rules: any first lead, points on the first trick, hearts free.
    await rules.select_option("old_rules")
    await expect(page.get_by_label(words["no_points"], exact=True)).to_have_value("false")
    await expect(page.get_by_label(words["must_break"], exact=True)).to_have_value("false")
    await page.goto(words["friends"])
    await expect(
        page.get_by_label(words["bot_level"]).get_by_role("option", name=words["bold"])
    ).to_have_count(1)
    await page.goto("/#/rules")
    await expect(page.get_by_text(words["rules_text"])).to_be_visible()
    await context.close()


@pytest.mark.parametrize(("lang", "size"), [("en", "desktop"), ("fr", "phone")])
async def test_a_refusal_is_a_sentence_next_to_its_button(new_context, lang: str, size: str) -> None:  # type: ignore[no-untyped-def]
    context = await new_context(
        locale="en-GB" if lang == "en" else "fr-FR", **(PHONE if size == "phone" else DESKTOP)
    )
    page = await context.new_page()
    reason = "passing across needs four players"
    await page.route(
        "**/api/games",
        lambda r: r.fulfill(status=400, json={"error": "bad_rules", "code": "bad_rules", "reason": reason}),
    )
    await page.goto("/")
    button = page.get_by_role("button", name="Play now" if lang == "en" else "Jouer maintenant")
    await button.click()
    alert = page.get_by_role("alert")
    expected = (
        f"Refused: {reason}"
        if lang == "en"
        else "Refusé : Ces règles ne vont pas ensemble ; changez une option et réessayez."
    )
    await expect(alert).to_have_text(expected)
    # Next to the button (right under it) and in view, on a phone too.
    gap = await page.evaluate(
        """() => { const b = document.querySelector('.play-now').getBoundingClientRect();
                   const a = document.querySelector('#home-error').getBoundingClientRect();
                   return [a.top - b.bottom, a.bottom <= innerHeight, a.top >= 0]; }"""
    )
    assert 0 <= gap[0] < 40 and gap[1] and gap[2], gap
    await expect(button).to_be_enabled()  # one can change the rules and try again
    await context.close()


SOUND_PROBE = """
window.__sounds = 0;
for (const name of ['createOscillator', 'createBufferSource']) {
  const make = AudioContext.prototype[name];
  AudioContext.prototype[name] = function (...args) { window.__sounds += 1; return make.apply(this, args); };
}
"""


async def test_the_kitty_face_down_and_the_sounds_switch(new_context) -> None:  # type: ignore[no-untyped-def]
    context = await new_context(locale="en-GB", **DESKTOP)
    await context.add_init_script(SOUND_PROBE)
    page = await context.new_page()
    await page.goto("/")
    await page.get_by_label("Rules", exact=True).select_option("three_players_kitty")
    await page.get_by_label("Speed").select_option("fast")
    await page.get_by_label("Four-colour deck").check()  # the four-colour deck stays an option
    await page.get_by_role("button", name="Play now").click()
    await expect(page.get_by_role("group", name="Your hand")).to_be_visible()
    colours = await page.evaluate(
        """['C', 'D', 'H', 'S'].map((s) => {
          const probe = document.createElement('span');
          probe.className = 'card suit-' + s;
          document.querySelector('#hand').append(probe);
          const colour = getComputedStyle(probe).color;
          probe.remove();
          return colour;
        })"""
    )
    assert len(set(colours)) == 4, colours
    # A word about the kitty before the first trick: there, face down, for whom.
    await expect(page.locator(".bar .kitty")).to_have_text(
        "Kitty: 1 card face down, for the winner of the first trick"
    )
    await expect(page.locator(".bar .kitty .card.back")).to_have_count(1)
    # Sounds: off at first; on, they play (Web Audio, no file); the choice stays after a reload.
    switch = page.get_by_role("switch", name="Sounds")
    await expect(switch).not_to_be_checked()
    hand = page.get_by_role("group", name="Your hand")
    for card in (await hand.locator("[data-card]").all())[:3]:
        await card.click(position={"x": 6, "y": 20})
    assert await page.evaluate("window.__sounds") == 0
    await switch.check()
    assert await page.evaluate("window.__sounds") > 0
    assert json.loads(await page.evaluate("localStorage.getItem('damepique.prefs')"))["sound"] is True
    await page.reload()
    await expect(page.get_by_role("switch", name="Sounds")).to_be_checked()
    await expect(page.locator(".bar .kitty")).to_have_text(re.compile("^Kitty: 1 card face down"))
    await context.close()


async def test_a_page_still_loading_does_not_overwrite_the_next(new_context) -> None:  # type: ignore[no-untyped-def]
    """A visit still waiting on the server when the next begins (here: the
    language changed on the account page, then a click to the rules) must not
    draw over the page that followed it (seen in CI: a refilled account form,
    emptied by a late second drawing, refused a blank nickname)."""
    context = await new_context(locale="en-GB", **DESKTOP)
    page = await context.new_page()
    await page.goto("/#/account")
    await expect(page.get_by_role("heading", name="Account")).to_be_visible()
    slow = asyncio.Event()

    async def late(route) -> None:  # type: ignore[no-untyped-def]
        await slow.wait()
        await route.continue_()

    await page.route("**/api/me", late)  # the account page's own question, held back
    await page.locator("#lang").select_option("fr")  # the account page drawn again: it waits
    await page.get_by_role("link", name="Règles").click()
    rules = page.get_by_role("heading", name="Les règles de la Dame de pique", level=1)
    await expect(rules).to_be_visible()
    async with page.expect_event("requestfinished", lambda r: r.url.endswith("/api/me")):
        slow.set()  # the account page's answer comes now, late, and whole
    await settle(page)  # and the page has done what it does with it
    await expect(rules).to_be_visible()
    await expect(page.get_by_label("Pseudo")).to_have_count(0)
    await context.close()


LADDER = {
    "bots": [
        {
            "rank": i + 1,
            "nickname": f"robot_with_a_long_name_{i}",
            "owner": None if i == 2 else f"owner_with_a_long_name_{i}",
            "rating": 1560 - 20 * i,
            "games": 9 - i,
            "wins": 5 - i,
        }
        for i in range(4)
    ]
}


@pytest.mark.parametrize(("lang", "size"), [("en", "desktop"), ("fr", "phone")])
async def test_the_bots_ladder_is_shown_under_the_leaderboard(  # type: ignore[no-untyped-def]
    new_context, artifacts, lang: str, size: str
) -> None:
    """Issue 29: the bots' ladder (``GET /api/ladder``, answered here by the test)
    under the people's leaderboard, each bot with its owner, in both languages."""
    words = {
        "en": ("Leaderboard", "Bots' ladder", "Owner", "Ranked games between bots only"),
        "fr": ("Classement", "Classement des robots", "Propriétaire", "Parties classées entre robots"),
    }[lang]
    context = await new_context(
        locale="en-GB" if lang == "en" else "fr-FR", **(PHONE if size == "phone" else DESKTOP)
    )
    page = await context.new_page()
    await page.route("**/api/leaderboard", lambda r: r.fulfill(json=LEADERBOARD))
    await page.route("**/api/ladder", lambda r: r.fulfill(json=LADDER))
    await fits(page, "/#/leaderboard")
    people = page.get_by_role("heading", name=words[0], exact=True)
    ladder = page.get_by_role("heading", name=words[1])
    await expect(ladder).to_be_visible()
    assert (await ladder.bounding_box())["y"] > (await people.bounding_box())["y"]  # type: ignore[index]
    table = page.locator("#ladder")
    await expect(table.locator("th")).to_contain_text([words[2]])
    await expect(table.locator("tbody tr")).to_have_count(4)
    first = table.locator("tbody tr").first
    await expect(first).to_contain_text("robot_with_a_long_name_0")
    await expect(first).to_contain_text("owner_with_a_long_name_0")
    await expect(first.get_by_role("link")).to_have_attribute("href", "#/player/robot_with_a_long_name_0")
    await expect(page.get_by_text(words[3])).to_be_visible()
    # Each cell keeps to its column: a long owner's name wraps, never runs over the rating.
    cells = first.locator("td")
    owner, rating = await cells.nth(2).bounding_box(), await cells.nth(3).bounding_box()
    inner = await cells.nth(2).evaluate("td => td.scrollWidth <= td.clientWidth")
    assert owner and rating and owner["x"] + owner["width"] <= rating["x"] + 1 and inner, (owner, rating)
    # Every column in sight, the wins too (the table clips what passes the screen's edge).
    assert await columns_cut(page, "#ladder") == []
    await page.screenshot(path=str(artifacts / f"ladder-{lang}-{size}.png"), full_page=True)
    await context.close()
