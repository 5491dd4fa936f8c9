"""The table's parts fit the screen without covering each other (issue 25,
player item 4, and the overlap seen in test-artifacts/review-links-fr-390.png):
on a phone, in both languages, the seats on the felt, the instruction line,
the training's advice sheet and the hand never overlap, and the hand and the
best option of the advice for the decision in front of the player are on
screen together without scrolling; at 1280x800 too. Views passed through:
the solo pass and play with training on (3, 4 and 5 players), the solo pass
without training, tables of 3 and 5 players.

The whole 390x844 screen leaves the felt room enough; the seats spilled over
the lines under the felt (the felt shrank below its seats) with the room a
phone's browser leaves of that screen, 390x664, which is where this fails on
the old style.

One page per view and kind of screen: a phone's page is checked at 390x844,
then at 390x664 (the same phone, the page given less height, as when its
browser's bars show: the width is the same, so nothing the page lays out by
script changes; the style lays it out again), a desktop's at 1280x800. The
cards' travel from the deck is finished at once (``Animation.finish``): the
check is about where they end, not about their way there.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Page, expect

from .mends_harness import (
    LOCALES,
    SIZES,
    FakeServer,
    open_solo,
    open_table,
    state,
    table_message,
    view,
)

pytestmark = [pytest.mark.browser]

# 390x844 is the phone's screen; in a browser with its address and tool bars
# the page gets about 390x664 of it (Safari on an iPhone 12 to 14).
SIZES = {**SIZES, "phone-bars": {**SIZES["phone"], "viewport": {"width": 390, "height": 664}}}
SCREENS = {"phone": ["phone", "phone-bars"], "desktop": ["desktop"]}
"""The sizes one page is checked at, by kind of screen (a context's touch and scale)."""

HAND = ["3C", "8C", "KC", "4D", "9D", "QD", "2H", "7H", "JH", "5S", "9S", "QS", "AS"]
HAND17 = [*HAND, "5C", "6D", "8H", "KS"]


def option(
    cards: list[str], points: float, reason: str, best: bool = False, mistake: bool = False
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "cards": cards, "expected_points": points, "score": points, "stderr": 0.2,
        "cost": 0.0 if best else points - 3.1, "reason": reason, "best": best, "mistake": mistake,
        "outcomes": {"queen": 0.1, "hearts": points / 2, "moon_by_self": 0.0, "moon_by_other": 0.01},
    }  # fmt: skip
    if not best:
        # The "why" sentence under the options (the longest kind the page draws).
        out["comparison"] = {
            "cards": cards, "other": ["3C"], "key": "expected_points", "value": points, "other_value": 3.1,
        }  # fmt: skip
    return out


def pass_view(n: int = 4, hand: list[str] = HAND) -> dict[str, Any]:
    return view(
        n=n, phase="pass", hand=hand, legal=[], pass_direction="left", pass_to=1,
        passed_seats=[False] + [True] * (n - 1), hand_sizes=[len(hand)] * n,
    )  # fmt: skip


def play_view(n: int = 4) -> dict[str, Any]:
    return view(
        n=n, hand=HAND, legal=["3C", "8C", "KC"], trick=["2C"], trick_leader=n - 1,
        hand_sizes=[13] + [12] * (n - 1),
    )  # fmt: skip


def advice_for(phase: str) -> dict[str, Any]:
    if phase == "pass":
        options = [
            option(["5S", "9S", "8C"], 3.1, "pass_voids_clubs", best=True),
            option(["9S", "9D", "AS"], 3.2, "passes_high_cards"),
            option(["8C", "AS", "QS"], 4.4, "passes_high_cards", mistake=True),
        ]
    else:
        options = [
            option(["3C"], 3.1, "follows_low", best=True),
            option(["8C"], 3.6, "follows_high"),
            option(["KC"], 4.9, "follows_high", mistake=True),
        ]
    return {"type": "advice", "deal": 0, "phase": phase, "play": 1, "options": options}


# Each box once laid out: the seats on the felt, the instruction and hint lines,
# the advice sheet, the hand's cards (as one box) and the felt itself.
BOXES = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, w: r.width, h: r.height }; };
  const shown = (el) => el && el.getBoundingClientRect().height > 0;
  const out = {};
  document.querySelectorAll('#t-seats .seat').forEach((el) => { out['seat ' + el.dataset.seat] = box(el); });
  for (const [name, sel] of [['status', '#status'], ['hint', '#hint-line'], ['sheet', '.advice-sheet'],
                             ['felt', '#t-felt']]) {
    const el = document.querySelector(sel);
    if (shown(el) && el.textContent.trim()) out[name] = box(el);
  }
  const cards = [...document.querySelectorAll('#hand [data-card]')].map(box);
  const edge = (f, k) => f(...cards.map((c) => c[k]));
  if (cards.length) out.hand = { top: edge(Math.min, 'top'), bottom: edge(Math.max, 'bottom'),
    left: edge(Math.min, 'left'), right: edge(Math.max, 'right') };
  return out;
}"""


def overlaps(boxes: dict[str, dict[str, float]]) -> list[str]:
    """Pairs of boxes that share more than a pixel (the felt holds the seats: not compared)."""
    names = [n for n in boxes if n != "felt"]
    out = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            p, q = boxes[a], boxes[b]
            h = min(p["right"], q["right"]) - max(p["left"], q["left"])
            v = min(p["bottom"], q["bottom"]) - max(p["top"], q["top"])
            if h > 1 and v > 1:
                out.append(f"{a} {p} / {b} {q}")
    return out


async def check_fit(page: Page, size: str, must: list[str], shot: Any) -> dict[str, dict[str, float]]:
    """The page, resized to ``size`` if it is not, at rest: each check, and its screenshot ``shot``."""
    if page.viewport_size != SIZES[size]["viewport"]:
        await page.set_viewport_size(SIZES[size]["viewport"])
    await page.clock.run_for(1000)  # the frame that sends the cards from the deck
    # Every card where it goes, at once (their travel runs on real time, not the page's clock).
    await page.evaluate("document.getAnimations().forEach((a) => a.finish())")
    await page.screenshot(path=str(shot))  # before the checks: a failure's picture too
    boxes: dict[str, dict[str, float]] = await page.evaluate(BOXES)
    assert [m for m in must if m not in boxes] == [], sorted(boxes)
    assert overlaps(boxes) == []
    # Every seat inside the felt: none spills over the lines under it.
    felt = boxes["felt"]
    spill = [
        n
        for n, b in boxes.items()
        if n.startswith("seat") and (b["bottom"] > felt["bottom"] + 1 or b["top"] < felt["top"] - 1)
    ]
    assert spill == [], (felt, {n: boxes[n] for n in spill})
    # On screen together, with the page not scrolled.
    assert await page.evaluate("scrollY") == 0
    height = SIZES[size]["viewport"]["height"]
    width = SIZES[size]["viewport"]["width"]
    off = [
        n
        for n, b in boxes.items()
        if b["top"] < 0 or b["bottom"] > height or b["left"] < 0 or b["right"] > width
    ]
    assert off == [], {n: boxes[n] for n in off}
    return boxes


@pytest.mark.parametrize("screen", ["phone", "desktop"])
@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("phase", ["pass", "play"])
@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_training_parts_do_not_overlap(new_context, lang, phase, n, screen, artifacts) -> None:  # type: ignore[no-untyped-def]
    # The second deal, with the first's scores (as in the reviewer's screenshot);
    # three players pass 17 cards (two rows on a phone).
    hand = HAND17 if n == 3 else HAND
    v = pass_view(n, hand) if phase == "pass" else play_view(n)
    totals = [0, 0, 4, 22, 3][:n]
    v.update(deal=1, totals=totals)
    if phase == "pass":
        v.update(pass_direction="right", pass_to=n - 1)
    result = {"points": totals, "moon": None, "taken": totals}
    first = state(n=n, view=v, results=[result], totals=totals)
    server = FakeServer(first)
    server.answers["advice"] = lambda msg: advice_for(phase)
    context = await new_context(locale=LOCALES[lang], **SIZES[screen])
    page = await context.new_page()
    await open_solo(page, server, prefs={"training": True})
    best = page.locator(".advice li.best")
    await expect(best).to_have_count(1)
    for size in SCREENS[screen]:
        must = ["seat 0", "status", "hand", "felt"] + (["sheet"] if size == "phone" else [])
        await check_fit(page, size, must, artifacts / f"fit-training{n}-{phase}-{lang}-{size}.png")
        # The best option whole on screen, not cut by the sheet's scrolling list either.
        whole = """(el) => { const r = el.getBoundingClientRect();
            const l = el.closest('.advice').getBoundingClientRect();
            return r.height > 0 && r.top >= Math.max(0, l.top) - 1
              && r.bottom <= Math.min(innerHeight, l.bottom) + 1; }"""
        assert await best.evaluate(whole), (
            size,
            await best.bounding_box(),
            await page.locator(".advice").bounding_box(),
        )
    await context.close()


@pytest.mark.parametrize("screen", ["phone", "desktop"])
@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_solo_pass_without_training_fits(new_context, lang, screen, artifacts) -> None:  # type: ignore[no-untyped-def]
    server = FakeServer(state(view=pass_view()))
    context = await new_context(locale=LOCALES[lang], **SIZES[screen])
    page = await context.new_page()
    await open_solo(page, server, prefs={"training": False})
    await expect(page.locator("#hand [data-card]")).to_have_count(13)
    for size in SCREENS[screen]:
        await check_fit(
            page, size, ["seat 0", "status", "hand", "felt"], artifacts / f"fit-solo-pass-{lang}-{size}.png"
        )
    await context.close()


@pytest.mark.parametrize("screen", ["phone", "desktop"])
@pytest.mark.parametrize("n", [3, 5])
@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_tables_of_three_and_five_fit(new_context, lang, n, screen, artifacts) -> None:  # type: ignore[no-untyped-def]
    # Three players pass 17 cards (two rows on a phone); five play.
    v = pass_view(n, HAND17) if n == 3 else play_view(n)
    first = state(n=n, mode="table", view=v)
    seats = [{"name": f"P{i}"} for i in range(n)]
    server = FakeServer(first, before=[table_message(seats)])
    context = await new_context(locale=LOCALES[lang], **SIZES[screen])
    page = await context.new_page()
    await open_table(page, server)
    await expect(page.locator("#hand [data-card]")).to_have_count(len(v["hand"]))
    for size in SCREENS[screen]:
        await check_fit(
            page, size, ["seat 0", "status", "hand", "felt"], artifacts / f"fit-table{n}-{lang}-{size}.png"
        )
    await context.close()
