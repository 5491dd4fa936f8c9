"""A finished trick stays in view about a second at every speed (issue 25,
player item 5), also when the next card is led in an update of its own a
moment later (at fast speed a thinking bot leads ~0.45 s after the trick).
A fixed position; the test moves the page's clock."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from .mends_harness import LOCALES, SIZES, FakeServer, open_solo, state, view

pytestmark = [pytest.mark.browser]

HAND = ["2C", "9D", "KD", "3S"]
CLOSED = {"leader": 0, "cards": ["2C", "3C", "4C", "5C"], "winner": 3, "points": 0}


@pytest.mark.parametrize("speed", ["fast", "normal"])
@pytest.mark.parametrize(("lang", "size"), [("en", "phone"), ("fr", "desktop")])
async def test_a_trick_taken_by_another_stays_about_a_second(
    new_context, lang, size, speed, artifacts
) -> None:  # type: ignore[no-untyped-def]
    first = state(speed=speed, view=view(hand=HAND, legal=["2C"], hand_sizes=[4, 4, 4, 4]))
    server = FakeServer(first)
    context = await new_context(locale=LOCALES[lang], **SIZES[size])
    page = await context.new_page()
    await open_solo(page, server)
    await page.locator('#hand [data-card="2C"]').click()
    play = server.of_type("play")[-1]
    rest = ["9D", "KD", "3S"]
    plays = [{"type": "play", "seat": s, "card": c} for s, c in zip((1, 2), ("3C", "4C"), strict=True)]
    plays.append({"type": "play", "seat": 3, "card": "5C", "trick_winner": 3, "trick_points": 0})
    # The bots answer in the update after the player's card; East took the trick.
    server.send(
        state(
            speed=speed,
            ack=play["id"],
            view=view(
                hand=rest, legal=[], to_act=3, trick_leader=3, tricks=[CLOSED], hand_sizes=[3, 3, 3, 3]
            ),
            events=[{"type": "play", "seat": 0, "card": "2C"}, *plays],
        )
    )
    trick = page.locator(".trick .card")
    await expect(trick).to_have_count(4)
    await expect(page.locator(".trick-label.winner")).to_have_count(1)
    # East leads the next trick a moment later, in an update of its own.
    await page.clock.run_for(450)
    server.send(
        state(
            speed=speed,
            view=view(
                hand=rest, legal=rest, trick=["7D"], trick_leader=3, tricks=[CLOSED], hand_sizes=[3, 3, 3, 2]
            ),
            events=[{"type": "play", "seat": 3, "card": "7D"}],
        )
    )
    await expect(page.locator('#hand [data-card="9D"][aria-disabled="false"]')).to_have_count(1)
    await expect(trick).to_have_count(4)  # the trick taken is still there, with its winner
    await expect(page.locator(".trick-label.winner")).to_have_count(1)
    await page.clock.run_for(450)  # 0.9 s after the trick was taken
    await expect(trick).to_have_count(4)
    await page.screenshot(path=str(artifacts / f"mends-trick-{speed}-{lang}-{size}.png"))
    await page.clock.run_for(1000)  # then the trick being played
    await expect(trick).to_have_count(1)
    await expect(page.locator('.trick [data-flip="7D"]')).to_have_count(1)
    await context.close()
