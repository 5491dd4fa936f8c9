"""A claim at a table of two people and two bots, in a real Chromium: Bob's
page in English at 1280x800, Ann's in French on a 390x844 phone. The
server's test hook plays every seat to a position where a person's cards
must take every trick left (``claim``), or none with no points left
(``claim_none``); that person's page, and only it, offers "Claim the rest"
("Réclamer la suite", #claim-btn); pressed, it sends ``{"type": "claim"}``,
the deal ends at once with every trick left to the claimer, or none, at the
score it had to come to (the events both pages receive say so), and both
pages announce the claimed cards in #hint-line, each in its own language.
Screenshots of the offer and of the announcement at both sizes go to
test-artifacts/."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from typing import Any

import pytest
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page, expect

from .test_play import MOVES, WAIT, forward
from .test_table import DESKTOP, PHONE, shoot

pytestmark = [pytest.mark.browser]

RANKS = {
    "en": [
        "Two",
        "Three",
        "Four",
        "Five",
        "Six",
        "Seven",
        "Eight",
        "Nine",
        "Ten",
        "Jack",
        "Queen",
        "King",
        "Ace",
    ],
    "fr": [
        "Deux",
        "Trois",
        "Quatre",
        "Cinq",
        "Six",
        "Sept",
        "Huit",
        "Neuf",
        "Dix",
        "Valet",
        "Dame",
        "Roi",
        "As",
    ],
}
WORDS: dict[str, dict[str, Any]] = {
    "en": {
        "locale": "en-GB",
        "size": DESKTOP,
        "claim": "Claim the rest",
        "claims": "{name} claims the rest: {cards}.",
        "you_claim": "You claim the rest: {cards}.",
        "claims_none": "{name} claims the rest without taking a trick: {cards}.",
        "you_claim_none": "You claim the rest without taking a trick: {cards}.",
        "deal_over": re.compile(r"^Deal \d+ is over$"),
        "continue": "Continue",
        "ranks": dict(zip("23456789TJQKA", RANKS["en"], strict=True)),
        "suits": {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"},
        "card": "{rank} of {suit}",
    },
    "fr": {
        "locale": "fr-FR",
        "size": PHONE,
        "claim": "Réclamer la suite",
        # French typography: a no-break space before ":".
        "claims": "{name} réclame la suite\u00a0: {cards}.",
        "you_claim": "Vous réclamez la suite\u00a0: {cards}.",
        "claims_none": "{name} réclame la suite sans prendre de pli\u00a0: {cards}.",
        "you_claim_none": "Vous réclamez la suite sans prendre de pli\u00a0: {cards}.",
        "deal_over": re.compile(r"^La donne \d+ est finie$"),
        "continue": "Continuer",
        "ranks": dict(zip("23456789TJQKA", RANKS["fr"], strict=True)),
        "suits": {"C": "trèfle", "D": "carreau", "H": "cœur", "S": "pique"},
        "card": "{rank} de {suit}",
    },
}  # fmt: skip


def card_names(cards: list[str], words: dict[str, Any]) -> str:
    """The cards as the page names them, e.g. "Ace of spades, King of spades"."""
    return ", ".join(
        words["card"].format(rank=words["ranks"][c[0]], suit=words["suits"][c[1]]) for c in cards
    )


def frames_of(page: Page) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every message the page's socket receives, and sends, from now on, as JSON."""
    received: list[dict[str, Any]] = []
    sent: list[dict[str, Any]] = []

    def keep(into: list[dict[str, Any]]):  # type: ignore[no-untyped-def]
        def frame(payload: str | bytes) -> None:
            msg = json.loads(payload)
            if isinstance(msg, dict):
                into.append(msg)

        return frame

    page.on(
        "websocket",
        lambda ws: (ws.on("framereceived", keep(received)), ws.on("framesent", keep(sent))),
    )
    return received, sent


@pytest.mark.parametrize(("goal", "tricks"), [("claim", "all"), ("claim_none", "none")])
async def test_a_claim_ends_the_deal_and_both_pages_announce_it(new_context, artifacts, goal, tricks) -> None:  # type: ignore[no-untyped-def]
    contexts = {
        lang: await new_context(locale=words["locale"], **words["size"]) for lang, words in WORDS.items()
    }
    bob, ann = await contexts["en"].new_page(), await contexts["fr"].new_page()
    pages = {"en": bob, "fr": ann}
    frames = {lang: frames_of(page) for lang, page in pages.items()}
    errors: list[str] = []
    for p in pages.values():
        p.on("pageerror", lambda e: errors.append(str(e)))

    # Bob makes a table for two people and two bots; Ann sits down by its link.
    await bob.goto("/#/friends")
    await bob.get_by_label("Rules", exact=True).select_option("short")
    await bob.get_by_label("Speed").select_option("fast")
    await bob.get_by_label("Computer level").select_option("beginner")
    await bob.get_by_label("Your name").fill("Bob")
    await bob.get_by_role("button", name="Create the table").click()
    code_box = bob.locator(".waiting-room .code")
    await expect(code_box).to_be_visible()
    code = (await code_box.inner_text()).strip()
    await ann.goto(f"/#/t/{code.replace('-', '')}")
    await ann.get_by_label("Votre nom").fill("Ann")
    await ann.get_by_role("button", name="Prendre une place").click()
    start = bob.get_by_role("button", name="Start the game")
    await expect(start).to_be_enabled()
    await start.click()
    for p in pages.values():
        await expect(p.locator("#hand [data-card]")).not_to_have_count(0)

    # The server plays every seat, theirs too, to a position where one of them may claim.
    at = await forward(bob, goal, code)
    deal, (seat,) = at["deal"], at["to_act"]
    claim = {lang: p.locator("#claim-btn") for lang, p in pages.items()}

    async def to_the_claim(p: Page) -> None:
        # A deal played through meanwhile has its summary to close first: then the
        # page draws the deal of the claim. Both pages at once: the server holds
        # the next deal until each has closed the summary (or 15 s have passed).
        drawn = p.locator(f'.table-page[data-drawn="{deal}"]')
        for _ in range(MOVES):
            await expect(drawn.or_(p.locator("#continue-btn:enabled")).first).to_be_visible(timeout=WAIT)
            if await drawn.count() and not await p.locator("#t-summary[open]").count():
                return
            with contextlib.suppress(PlaywrightError):
                await p.locator("#continue-btn:enabled").click(timeout=WAIT)

    await asyncio.gather(*(to_the_claim(p) for p in pages.values()))
    seats = {lang: next(m["seat"] for m in reversed(frames[lang][0]) if "seat" in m) for lang in pages}
    lang = next(lang for lang, s in seats.items() if s == seat)
    other = "fr" if lang == "en" else "en"
    claimer, watcher = pages[lang], pages[other]
    name = {"en": "Bob", "fr": "Ann"}[lang]
    words, their = WORDS[lang], WORDS[other]

    # Only the claimer's page offers it, in its words, on its turn.
    button = claimer.get_by_role("button", name=words["claim"])
    await expect(button).to_be_visible()
    await expect(button).to_have_id("claim-btn")
    await expect(claim[other]).to_have_count(0)
    hand = await claimer.locator("#hand [data-card]").evaluate_all("bs => bs.map((b) => b.dataset.card)")
    assert len(hand) >= 2, hand
    await shoot(claimer, artifacts, f"{goal}-offered-{lang}", [words["size"], their["size"]])
    claimer_frames, sent = frames[lang]
    before, asked = len(claimer_frames), len(sent)

    await button.click()

    # The deal ends at once: the claim, then the rest played out, every trick to the
    # claimer, or none, and the points it had taken are those it ends with when none.
    await expect(claimer.get_by_role("dialog", name=words["deal_over"])).to_be_visible(timeout=WAIT)
    await expect(watcher.get_by_role("dialog", name=their["deal_over"])).to_be_visible(timeout=WAIT)
    assert [m for m in sent[asked:] if m.get("type") == "claim"], sent[asked:]  # {"type": "claim"} went
    events = [e for msg in claimer_frames[before:] for e in msg.get("events") or []]
    claimed = next(e for e in events if e["type"] == "claim")
    assert claimed["seat"] == seat and claimed["tricks"] == tricks
    assert sorted(claimed["cards"]) == sorted(hand), (claimed, hand)
    after = events[events.index(claimed) + 1 :]
    taken = [e["trick_winner"] for e in after if e["type"] == "play" and "trick_winner" in e]
    assert len(taken) == len(hand), after  # one trick a card held
    if tricks == "all":
        assert taken == [seat] * len(hand), after  # each to the claimer
    else:
        assert seat not in taken, after  # none to the claimer, and no points in them
        assert not any(e.get("trick_points") for e in after), after
    assert after[-1].get("deal_over") or any(e.get("deal_over") for e in after), after[-1]
    # The watcher's page was told the same, and says it: the claimer and the cards, in its language.
    seen = [e for msg in frames[other][0] for e in msg.get("events") or [] if e["type"] == "claim"]
    assert seen and seen[-1]["cards"] == claimed["cards"] and seen[-1]["seat"] == seat
    none = "_none" if tricks == "none" else ""
    await expect(watcher.locator("#hint-line")).to_have_text(
        their[f"claims{none}"].format(name=name, cards=card_names(claimed["cards"], their))
    )
    await expect(claimer.locator("#hint-line")).to_have_text(
        words[f"you_claim{none}"].format(cards=card_names(claimed["cards"], words))
    )
    await shoot(watcher, artifacts, f"{goal}-announced-{other}", [their["size"], words["size"]])
    assert not errors, errors
    for ctx in contexts.values():
        await ctx.close()
