"""After an outage the page says when it tries again, counts down, and offers
"Try now" (issue 25, player item 9): pressed, it connects at once instead of
waiting for its next back-off slot. The socket is answered by the test, the
page's clock moves only when the test moves it, and its random source is fixed
(each wait at 0.9 of its window: tests/web/reconnect.test.mjs covers the spread)."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import expect

from .mends_harness import LOCALES, SIZES, FakeServer, open_solo, state, view

pytestmark = [pytest.mark.browser]

WORDS = {
    "en": {"in": r"Connection lost\. Trying again in (\d+) s\.", "try": "Try now", "turn": "Your turn."},
    "fr": {
        "in": r"Connexion perdue\. Nouvel essai dans (\d+)\s?s\.",
        "try": "Réessayer maintenant",
        "turn": "À vous de jouer.",
    },
}


@pytest.mark.parametrize(
    ("lang", "size"), [("en", "phone"), ("fr", "desktop"), ("fr", "phone"), ("en", "desktop")]
)
async def test_a_lost_connection_counts_down_and_can_be_tried_at_once(
    new_context, lang, size, artifacts
) -> None:  # type: ignore[no-untyped-def]
    words = WORDS[lang]
    first = state(view=view(hand=["2C", "9D"], legal=["2C"], hand_sizes=[2, 2, 2, 2]))
    server = FakeServer(first)
    context = await new_context(locale=LOCALES[lang], **SIZES[size])
    page = await context.new_page()
    await page.add_init_script("Math.random = () => 0.9")
    await open_solo(page, server)
    status = page.locator("#status")

    def trying_in(seconds: int) -> re.Pattern[str]:
        return re.compile(words["in"].replace(r"(\d+)", str(seconds)))

    await expect(status).to_have_text(words["turn"])
    # The server goes down: the connection drops, and each new one is dropped at once.
    server.refuse = True
    await server.sockets[-1].close(code=1011, reason="down")
    await expect(page.get_by_role("button", name=words["try"])).to_be_visible()
    # Two more failures (after 0.9 s, then 1.8 s): the wait grows to 3.6 s.
    for delay in (900, 1800):
        count = len(server.sockets)
        await page.clock.run_for(delay + 50)
        await server.until(lambda count=count: len(server.sockets) == count + 1)  # the page tried again
        await expect(page.get_by_role("button", name=words["try"])).to_be_visible()
    await expect(status).to_contain_text(trying_in(4))  # 3.6 s, counted in whole seconds
    await page.clock.run_for(1000)
    await expect(status).to_contain_text(trying_in(3))
    await page.screenshot(path=str(artifacts / f"mends-reconnect-{lang}-{size}.png"))
    # "Try now": a new connection at once, the clock not moved; the server is back.
    server.refuse = False
    sockets = len(server.sockets)
    await page.get_by_role("button", name=words["try"]).click()
    await expect(status).to_have_text(words["turn"])
    assert len(server.sockets) == sockets + 1
    await expect(page.get_by_role("button", name=words["try"])).to_have_count(0)
    await context.close()
