"""The game's last deal (issue 25, player item 3): a moon on it is said in the
game-over dialog (the sentence and ☾), and the dialog waits until the last
trick has been seen, as a deal's summary does. A fixed position: the page's
socket is answered by the test (mends_harness), its clock moved by the test."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import expect

from .mends_harness import LOCALES, SIZES, FakeServer, open_solo, state, tricks_of, view

pytestmark = [pytest.mark.browser]

WORDS = {
    "en": {
        "over": "Game over",
        "moon": "You shot the moon: every other player takes 26.",
        "takes": "You take the trick",
    },
    "fr": {
        "over": "Partie terminée",
        "moon": "Vous avez fait le grand chelem : chacun des autres prend 26.",
        "takes": "Vous remportez le pli",
    },
}

RANKS = "23456789TJQKA"
DEALT = [r + s for s in "CDS" for r in RANKS] + [r + "H" for r in "26789TJQK"]
CARDS = [DEALT[4 * k : 4 * k + 4] for k in range(12)]
POINTS = [sum(1 if c[1] == "H" else 13 if c == "QS" else 0 for c in cards) for cards in CARDS]
TWELVE = tricks_of(CARDS, [0] * 12, [0] * 12, POINTS)
LAST = {"leader": 1, "cards": ["3H", "4H", "5H", "AH"], "winner": 0, "points": 4}
BEFORE = [{"points": [3, 10, 20, 26], "moon": None, "taken": [3, 10, 20, 26]}] * 3
TOTALS = [9, 30, 60, 78]


def last_deal() -> tuple[dict, dict]:
    """Me to play the last card of the game's last deal, then the state that ends the game (my moon)."""
    first = state(
        view=view(deal=3, hand=["AH"], legal=["AH"], trick=["3H", "4H", "5H"], trick_leader=1, tricks=TWELVE,
                  hand_sizes=[1, 0, 0, 0], taken_points=[22, 0, 0, 0], hearts_broken=True, totals=TOTALS),
        results=BEFORE, totals=TOTALS,
    )  # fmt: skip
    first["seats"][0]["name"] = "You"
    result = {"points": [0, 26, 26, 26], "moon": 0, "taken": [26, 0, 0, 0]}
    totals = [9, 56, 86, 104]
    end = state(
        view=view(deal=3, phase="done", to_act=None, tricks=[*TWELVE, LAST], hand_sizes=[0, 0, 0, 0],
                  taken_points=[26, 0, 0, 0], hearts_broken=True, totals=TOTALS, result=result),
        results=[*BEFORE, result], totals=totals, over=True, winner=0, winners=[0],
        events=[{"type": "play", "seat": 0, "card": "AH", "trick_winner": 0, "trick_points": 4,
                 "deal_over": True, "game_over": True}],
    )  # fmt: skip
    end["seats"] = first["seats"]
    return first, end


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_moon_on_the_last_deal_is_said_once_the_last_trick_was_seen(
    new_context, lang, size, artifacts
) -> None:  # type: ignore[no-untyped-def]
    words = WORDS[lang]
    first, end = last_deal()
    server = FakeServer(first)
    context = await new_context(locale=LOCALES[lang], **SIZES[size])
    page = await context.new_page()
    await open_solo(page, server)
    card = page.locator('#hand [data-card="AH"]')
    await expect(card).to_be_visible()
    await card.click()
    play = server.of_type("play")
    assert play and play[-1]["card"] == "AH"
    server.send({**end, "ack": play[-1]["id"]})
    over = page.locator("#t-over")
    # The last trick is on the felt, with its winner; the end waits for it to be seen.
    await expect(page.locator(".trick-label")).to_have_text(re.compile("^" + words["takes"]))
    await expect(page.locator(".trick .card")).to_have_count(4)
    await page.clock.run_for(300)
    await expect(over).not_to_be_visible()
    await page.clock.run_for(2500)
    await expect(over).to_be_visible()
    await expect(over.get_by_role("heading", name=words["over"])).to_be_visible()
    said = await over.locator(".sum-word").all_inner_texts()
    assert [re.sub("[\u00a0\u202f]", " ", x) for x in said] == [words["moon"]]
    await expect(over.locator(".sum-table tbody tr").first.locator(".moon")).to_have_count(1)
    await page.screenshot(path=str(artifacts / f"mends-over-moon-{lang}-{size}.png"))
