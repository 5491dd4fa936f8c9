"""Keyboard play, reasons on disabled cards, training mode, history, replay and upload."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Page, expect

from .test_play import MOVES, TEXT, WAIT, enabled_now, forward, play_until, start_game, wait_actionable

pytestmark = [pytest.mark.browser]


async def test_keyboard_training_history_and_replay(new_context, artifacts, tmp_path) -> None:  # type: ignore[no-untyped-def]
    words = TEXT["en"]
    context = await new_context(locale="en-US")
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    await start_game(page, words)
    hand = page.get_by_role("group", name=words["hand"])
    # Training mode: advice for the decision in front of us, cards played by suit, voids.
    await page.get_by_role("switch", name="Training mode").check()
    await expect(page.get_by_role("heading", name="Cards played")).to_be_visible()
    await expect(page.get_by_role("heading", name="Voids shown")).to_be_visible()
    await expect(page.locator(".advice li").first).to_be_visible(timeout=30_000)
    # Advice values say what they are, and only what costs half a point or more is called a mistake
    # (the server's word: clearly worse and costly).
    await expect(page.locator(".advice-unit")).to_have_text("expected points for the deal (lower is better)")
    scores = [float(x) for x in await page.locator(".advice li .score").all_inner_texts()]
    mistakes = [float(x) for x in await page.locator(".advice li.mistake .score").all_inner_texts()]
    assert all(m - min(scores) >= 0.4 for m in mistakes), (scores, mistakes)
    # The pass, with the keyboard only: Enter chooses, arrows move, Enter on "Pass".
    await hand.get_by_role("button").first.focus()
    for _ in range(3):
        await page.keyboard.press("Enter")
        await page.keyboard.press("ArrowRight")
    await expect(hand.locator("[aria-pressed=true]")).to_have_count(3)
    await page.get_by_role("button", name=words["pass"], exact=True).focus()
    await page.keyboard.press("Enter")
    await expect(page.get_by_role("button", name=words["pass"], exact=True)).to_have_count(0)
    # A disabled card says why, to assistive technology and on hover.
    disabled = hand.get_by_role("button", disabled=True).first
    await expect(disabled).to_have_accessible_description(re.compile(r"\w+"))
    assert await disabled.get_attribute("title")
    await disabled.focus()
    await page.screenshot(path=str(artifacts / "training-en.png"), full_page=True)
    # Without the training mode, one hint on our turn (the history counts it).
    await page.get_by_role("switch", name="Training mode").uncheck()
    hint = page.get_by_role("button", name="Hint", exact=True)
    await expect(hint).to_be_enabled(timeout=30_000)
    await hint.click()
    await expect(page.locator("#hint-line")).to_contain_text("Hint: play", timeout=30_000)
    await page.get_by_role("switch", name="Training mode").check()
    # Play on with the keyboard: focus an enabled card and press Enter; the deal's summary takes
    # the focus and Enter closes it. The cards between are the server's (its test hook): a few
    # of this deal's with the keyboard, then its last trick, then the game's.
    await keyboard_play(page, words, stop=lambda: _cards_left(page, words, 10))
    await forward(page, "last_trick")
    await keyboard_play(page, words, one_deal=True)
    await forward(page, "game_end")
    await keyboard_play(page, words)
    await expect(page.get_by_role("heading", name=words["over"])).to_be_visible(timeout=WAIT)
    await expect(page.get_by_role("heading", name="Review of the deal")).to_be_visible()
    # Once the game is over, each choice reviewed links to the replay from that card.
    await expect(
        page.locator(".review li").first.or_(page.get_by_text("None of your choices this deal"))
    ).to_be_visible(timeout=2 * WAIT)
    links = page.get_by_role("link", name="Replay from this card")
    if await links.count():
        link = await links.first.get_attribute("href") or ""
        assert re.fullmatch(r"#/replay/\w+\?deal=\d+(&play=\d+)?", link), link
        await links.first.click()
        await expect(page.get_by_role("heading", name=re.compile("^Replay — Deal"))).to_be_visible()
        await expect(page.get_by_role("heading", name="The expert's view")).to_be_visible()
        await page.go_back()

    # History: the finished game, its replay trick by trick, and its record.
    await page.get_by_role("link", name="History").click()
    await expect(page.get_by_role("link", name="Replay").first).to_be_visible(timeout=15_000)
    # The hints a game took are counted in its history: the one asked above.
    await expect(page.get_by_role("columnheader", name="Hints")).to_be_visible()
    await expect(page.locator(".history-table tbody tr").first.locator("td").nth(3)).to_have_text("1")
    href = await page.get_by_role("link", name="Download the record").first.get_attribute("href")
    await page.get_by_role("link", name="Replay").first.click()
    await expect(page.get_by_role("heading", name=re.compile("Replay — Deal 1"))).to_be_visible()
    await expect(page.get_by_text("Trick 1 of 13")).to_be_visible()
    await page.get_by_role("button", name="Next trick").click()
    await expect(page.get_by_text("Trick 2 of 13")).to_be_visible()
    # The trick's winner is readable on its background (WCAG AA: a contrast of 4.5 at least).
    contrast = await page.locator(".replay-winner").evaluate(CONTRAST)
    assert contrast >= 4.5, contrast
    # Card by card: the trick so far, and the expert's view at that card.
    await page.get_by_role("button", name="Previous card").click()
    await expect(page.locator(".replay-trick .card")).to_have_count(3)
    await expect(page.get_by_text("Trick 2 of 13")).to_be_visible()
    await page.get_by_role("button", name="Show the expert's view").click()
    expert = page.get_by_role("region", name="The expert's view")
    await expect(expert.locator(".advice li").first).to_be_visible(timeout=30_000)
    await expect(expert).to_contain_text(re.compile(r"to play card 8 of the deal"))
    await expect(expert.locator(".advice li.played")).to_have_count(1)  # the card that was played, marked
    await expect(expert.locator(".advice li").first.locator("dt")).to_have_text(
        ["expected points", "takes Q♠", "hearts taken", "your moon", "another's moon"]
    )
    await page.get_by_role("button", name="Next card").click()
    await expect(page.locator(".replay-trick .card")).to_have_count(4)
    await expect(expert).to_contain_text(re.compile(r"to play card 9 of the deal"))
    await page.get_by_role("button", name="Next card").click()
    await expect(page.get_by_text("Trick 3 of 13")).to_be_visible()
    await expect(expert).to_contain_text(re.compile(r"to play card 10 of the deal"))
    # A review's link opens the replay at its card, the expert's view open.
    game = href.split("/")[-2]
    await page.goto(f"/#/replay/{game}?deal=0&play=5")
    await expect(page.get_by_text("Trick 2 of 13")).to_be_visible()
    await expect(page.locator(".replay-trick .card")).to_have_count(1)
    await expect(page.get_by_role("region", name="The expert's view")).to_contain_text(
        "to play card 6 of the deal"
    )
    await page.screenshot(path=str(artifacts / "replay-expert-en.png"), full_page=True)
    # Upload the downloaded record and replay it the same way.
    record = await (await page.request.get(href)).body()
    path = tmp_path / "game.json"
    path.write_bytes(record)
    await page.get_by_role("link", name="History").click()
    await page.get_by_label(re.compile("Replay a record file")).set_input_files(str(path))
    await expect(page.get_by_role("heading", name=re.compile("Replay — Deal 1"))).to_be_visible()
    await page.screenshot(path=str(artifacts / "replay-en.png"), full_page=True)
    assert not errors


# The contrast ratio of an element's text on its background (WCAG 2).
CONTRAST = """el => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => [r, g, b]
    .map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
  const cs = getComputedStyle(el);
  const [a, b] = [lum(rgb(cs.color)), lum(rgb(cs.backgroundColor))].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


async def _no_pass(page, words) -> bool:  # type: ignore[no-untyped-def]
    return not await page.get_by_role("button", name=words["pass"], exact=True).count()


async def _cards_left(page: Page, words: dict[str, str], n: int) -> bool:
    return await page.get_by_role("group", name=words["hand"]).get_by_role("button").count() <= n


async def keyboard_play(page: Page, words: dict[str, str], stop=None, one_deal: bool = False) -> None:  # type: ignore[no-untyped-def]
    """Play with the keyboard until the game is over, ``stop()``, or (``one_deal``) a
    deal's summary is closed: Enter on an enabled card of the hand, Enter on a
    summary's Continue (it has the focus); a pass is clicked."""
    hand = page.get_by_role("group", name=words["hand"])
    for _ in range(MOVES):
        if await page.get_by_role("heading", name=words["over"]).count():
            return
        if stop is not None and await stop():
            return
        go_on = page.get_by_role("button", name=words["continue"])
        if await go_on.count() and await enabled_now(go_on):
            await expect(go_on).to_be_focused()
            await page.keyboard.press("Enter")
            await expect(page.locator("#t-summary[open]")).to_have_count(0)
            if one_deal:
                return
            continue
        if await page.get_by_role("button", name=words["pass"], exact=True).count():
            await play_until(page, words, stop=lambda: _no_pass(page, words))
            continue
        enabled = hand.get_by_role("button", disabled=False)
        if await enabled.count():
            size = await hand.get_by_role("button").count()
            try:
                await enabled.first.focus(timeout=1000)
                await page.keyboard.press("Enter")
                await page.wait_for_function(
                    "size => document.querySelectorAll('#hand button').length !== size"
                    " || document.querySelector('#t-summary[open]')",
                    arg=size,
                    timeout=WAIT,
                )
            except Exception:
                continue  # the hand was drawn again under the key: look again
            continue
        await wait_actionable(page, words)
    raise AssertionError(f"the keyboard game did not finish in {MOVES} looks")


async def test_language_switch_is_remembered(new_context) -> None:  # type: ignore[no-untyped-def]
    context = await new_context(locale="en-US")
    page = await context.new_page()
    await page.goto("/")
    await expect(page.get_by_role("button", name="Play now")).to_be_visible()
    await page.get_by_label("Language").select_option("fr")
    await expect(page.get_by_role("button", name="Jouer maintenant")).to_be_visible()
    assert await page.evaluate("localStorage.getItem('damepique.lang')") == "fr"
    await page.reload()
    await expect(page.get_by_role("button", name="Jouer maintenant")).to_be_visible()
    await page.get_by_role("link", name="Règles").click()
    await expect(page.get_by_role("heading", name="Les règles de la Dame de pique")).to_be_visible()
    await page.get_by_role("button", name="Plus").click()  # the guide is under "More" on a desk
    await page.get_by_role("link", name="Guide stratégique").click()
    await expect(page.get_by_role("heading", name="Guide stratégique")).to_be_visible()
