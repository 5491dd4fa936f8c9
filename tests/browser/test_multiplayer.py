"""Tables with others in a real Chromium: two people in two browser contexts,
one creates a private table, the other joins by its code, bots fill the rest;
a page closed mid-deal comes back to its seat; a player who stays away is
replaced by a bot after the grace period; a turn timer runs out and the server
plays. The deals between the first and the last are played by the server's
test hook (``forward``): these tests are about the tables, not the game.
A deal's summary that closes by itself is timed on a server whose clock the
test moves (``manual_server``), the pages' clocks set to the server's time;
the grace period (3 s) and the turn timer (2 s) run in real seconds on the
other server, each waited for on what the page shows, never asserted."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
from collections.abc import Iterator

import httpx
import pytest
from playwright.async_api import Page, expect

from ..conftest import free_port, start_server, stop_server
from .test_play import MOVES, TEXT, WAIT, enabled_now, forward, wait_actionable

pytestmark = [pytest.mark.browser]


CARD_NAME = re.compile(
    r"^(Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Jack|Queen|King|Ace) of (clubs|diamonds|hearts|spades)$"
)


@pytest.fixture(scope="module")
def mp_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server on real time (a page closed and opened again keeps its seat:
    the grace period is a minute)."""
    folder = tmp_path_factory.mktemp("mp-server")
    port = free_port()
    env = {**os.environ, "DAMEPIQUE_GRACE": "60", "DAMEPIQUE_TEST_HOOKS": "1"}
    proc = start_server(folder / "mp.sqlite3", port, folder / "server.log", env)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_server(proc)


async def new_page(browser, url: str) -> tuple[object, Page]:  # type: ignore[no-untyped-def]
    context = await browser.new_context(base_url=url, locale="en-GB")
    page = await context.new_page()
    return context, page


async def create_table(page: Page, timer: str = "0") -> str:
    await page.goto("/#/friends")
    await page.get_by_label("Rules", exact=True).select_option("short")
    await page.get_by_label("Speed").select_option("fast")
    await page.get_by_label("Computer level").select_option("beginner")
    await page.get_by_label("Time per turn").select_option(timer)
    await page.get_by_label("Your name").fill("Ann")
    await page.get_by_role("button", name="Create the table").click()
    code = page.locator(".waiting-room .code")
    await expect(code).to_be_visible()
    return (await code.inner_text()).strip()


async def join_by_code(page: Page, code: str, name: str) -> None:
    await page.goto("/#/friends")
    await page.get_by_label("Table code").fill(code.lower())
    await page.get_by_role("button", name="Join", exact=True).click()
    # The table's page first: the page before it has a "Your name" too.
    await expect(page.get_by_role("button", name="Take a seat")).to_be_visible()
    await page.get_by_label("Your name").fill(name)
    await page.get_by_role("button", name="Take a seat").click()
    await expect(page.get_by_text("Waiting for the host to start the game.")).to_be_visible()


DRAWN_AGAIN = """([size, drawn]) => document.querySelectorAll('#hand button').length !== size
    || document.querySelector('.table-page')?.dataset.state !== drawn"""
"""After a click on a card: the hand changed, or the page drew a state since."""


async def play_until(page: Page, stop=None) -> None:  # type: ignore[no-untyped-def]
    """Click legal cards (and pass three when asked) until the game is over or ``stop()``."""
    hand = page.get_by_role("group", name="Your hand")
    over = page.get_by_role("heading", name="Game over")
    for _ in range(MOVES):
        if await over.count():
            return
        if stop is not None and await stop():
            return
        # Each deal ends on its summary, closed by "Continue" (or by itself after 15 s).
        go_on = page.get_by_role("button", name="Continue")
        # (It may close by itself meanwhile: the others read it, or its time ran out.)
        if await go_on.count() and await enabled_now(go_on):
            # The summary may be what ``stop`` waits for, come in since it was asked.
            if stop is not None and await stop():
                return
            with contextlib.suppress(Exception):
                await go_on.click(timeout=2000)
            continue
        pass_button = page.get_by_role("button", name="Pass", exact=True)
        if await pass_button.count():
            pressed = await hand.locator("[aria-pressed=true]").count()
            cards = hand.locator("[aria-pressed=false]")
            try:
                # The passing may end meanwhile (a timer, the other seats): short waits, then look again.
                names = [
                    await cards.nth(i).get_attribute("aria-label", timeout=2000)
                    for i in range(max(0, 3 - pressed))
                ]
                for name in names:
                    await hand.get_by_role("button", name=name, exact=True).click(timeout=2000)
                await pass_button.click(timeout=2000)
            except Exception:
                continue
            continue
        enabled = hand.get_by_role("button", disabled=False)
        if await enabled.count():
            try:
                name = await enabled.first.get_attribute("aria-label", timeout=2000)
            except Exception:
                continue  # the hand changed meanwhile (a timer played): look again
            if name is None:
                continue
            assert CARD_NAME.match(name), name
            size = await hand.get_by_role("button").count()
            drawn = await page.locator(".table-page").get_attribute("data-state")
            try:
                await hand.get_by_role("button", name=name, exact=True).click(timeout=2000)
                # The card leaves the hand, or the page draws another state first: a
                # card sent to a server that died on the way is never answered, and
                # the page, connected again, offers it once more (look again then).
                await page.wait_for_function(DRAWN_AGAIN, arg=[size, drawn], timeout=WAIT)
            except Exception:
                continue
            continue
        await wait_actionable(page, TEXT["en"])
    raise AssertionError(f"the game did not finish in {MOVES} looks")


async def test_friends_play_by_code_and_a_closed_page_comes_back_to_its_seat(browser, mp_server: str) -> None:  # type: ignore[no-untyped-def]
    ctx_a, ann = await new_page(browser, mp_server)
    ctx_b, bob = await new_page(browser, mp_server)
    errors: list[str] = []
    for p in (ann, bob):
        p.on("pageerror", lambda e: errors.append(str(e)))
    code = await create_table(ann)
    await join_by_code(bob, code, "Bob")
    start = ann.get_by_role("button", name="Start the game")
    await expect(start).to_be_enabled()
    await start.click()
    hand_b = bob.get_by_role("group", name="Your hand")
    await expect(hand_b).to_be_visible()
    # A table that is not ranked offers a hint, once a trick: here for the pass in front of Bob.
    hint = bob.get_by_role("button", name="Hint", exact=True)
    await expect(hint).to_be_enabled()
    await hint.click()
    await expect(bob.get_by_role("status").filter(has_text="Hint: pass")).to_be_visible(timeout=30_000)
    await expect(hint).to_be_disabled()
    # A spectator with the link sees the table and the score sheet, never a hand.
    ctx_c, carl = await new_page(browser, mp_server)
    carl.on("pageerror", lambda e: errors.append(str(e)))
    await carl.goto(f"/#/t/{code}")
    await expect(carl.locator(".felt")).to_be_visible()
    await expect(carl.locator(".table-extras")).to_contain_text("you are watching")
    assert await carl.locator("#hand button").count() == 0
    await expect(carl.get_by_role("button", name="Hint", exact=True)).to_have_count(
        0
    )  # a spectator asks nothing
    await ctx_c.close()  # type: ignore[attr-defined]

    async def mid_deal(hand) -> bool:  # type: ignore[no-untyped-def]
        return await hand.get_by_role("button").count() <= 9

    # Both play four tricks (each stops once it holds nine cards: the other has played
    # its fourth card before, or plays it next); Bob closes the page.
    hand_a = ann.get_by_role("group", name="Your hand")
    ann_task = asyncio.create_task(play_until(ann, stop=lambda: mid_deal(hand_a)))
    await play_until(bob, stop=lambda: mid_deal(hand_b))
    before = await hand_b.get_by_role("button").evaluate_all(
        "bs => bs.map(b => b.getAttribute('aria-label'))"
    )
    await bob.close()
    bob = await ctx_b.new_page()  # type: ignore[attr-defined]
    bob.on("pageerror", lambda e: errors.append(str(e)))
    await bob.goto(f"/#/t/{code}")
    hand_b = bob.get_by_role("group", name="Your hand")
    await expect(hand_b).to_be_visible()
    after = await hand_b.get_by_role("button").evaluate_all("bs => bs.map(b => b.getAttribute('aria-label'))")
    assert (
        set(after) <= set(before) and len(after) >= len(before) - 1
    )  # the same seat (one card may have gone)
    await ann_task
    # On to the end: the server plays to the game's last trick (its test hook); its last cards are ours.
    await forward(ann, "game_end", code)
    await asyncio.gather(play_until(ann), play_until(bob))
    for p in (ann, bob):
        await expect(p.get_by_role("heading", name="Game over")).to_be_visible()
        await expect(p.get_by_role("button", name="Rematch")).to_be_visible()
    totals = await ann.locator(".score-sheet tfoot td").all_inner_texts()
    assert max(int(x) for x in totals) >= 50
    names = await ann.locator(".score-sheet thead th").all_inner_texts()
    assert "Bob" in names
    # A rematch starts on a clean table: nothing of the game before (its end, its summaries, its sheet).
    await ann.get_by_role("button", name="Rematch").click()
    for p in (ann, bob):
        await expect(p.get_by_role("heading", name="Game over")).to_have_count(0)
        await expect(p.get_by_role("group", name="Your hand").locator("[data-card]")).to_have_count(13)
        await expect(p.locator(".score-sheet tbody tr")).to_have_count(0)
        await expect(p.get_by_role("dialog")).to_have_count(0)
        await expect(p.locator(".bar .deal-no")).to_contain_text("Deal 1")
    assert not errors
    await ctx_a.close()  # type: ignore[attr-defined]
    await ctx_b.close()  # type: ignore[attr-defined]


async def test_the_lobby_updates_live_and_account_pages_work_in_both_languages(
    browser, mp_server: str
) -> None:  # type: ignore[no-untyped-def]
    ctx_a, watcher = await new_page(browser, mp_server)
    ctx_b, host = await new_page(browser, mp_server)
    errors: list[str] = []
    watcher.on("pageerror", lambda e: errors.append(str(e)))
    await watcher.goto("/#/friends")
    lobby = watcher.locator("#lobby")
    await expect(lobby).not_to_contain_text("Connecting")
    await host.goto("/#/friends")
    await host.get_by_label("Your name").fill("Zed")
    await host.get_by_label("Public (listed in the lobby)").check()
    await host.get_by_role("button", name="Create the table").click()
    await expect(host.locator(".waiting-room .code")).to_be_visible()
    await expect(lobby).to_contain_text("Zed")  # no reload
    # Accounts, leaderboard and profile.
    await watcher.goto("/#/account")
    await watcher.get_by_label("Nickname").fill("lea_browser")
    await watcher.get_by_label("Password").fill("a long password")
    await watcher.get_by_role("button", name="Create an account").click()
    await expect(watcher.get_by_text("Signed in as lea_browser")).to_be_visible()
    await watcher.goto("/#/leaderboard")
    await expect(watcher.get_by_role("heading", name="Leaderboard", exact=True)).to_be_visible()
    await watcher.goto("/#/player/lea_browser")
    await expect(watcher.get_by_text("Average points per deal")).to_be_visible()
    await watcher.locator("#lang").select_option("fr")
    await watcher.goto("/#/leaderboard")
    await expect(watcher.get_by_role("heading", name="Classement", exact=True)).to_be_visible()
    await watcher.goto("/#/friends")
    await expect(watcher.get_by_role("heading", name="Tables publiques")).to_be_visible()
    # A refusal in French: the server's English reason is not what a French page says.
    await host.locator("#lang").select_option("fr")
    await host.goto("/#/account")
    await host.get_by_label("Pseudo").fill("lea_browser")
    await host.get_by_label("Mot de passe").fill("another long password")
    await host.get_by_role("button", name="Créer un compte").click()
    await expect(host.get_by_role("alert")).to_have_text("Refusé : Ce pseudo est déjà pris.")
    assert not errors
    await ctx_a.close()  # type: ignore[attr-defined]
    await ctx_b.close()  # type: ignore[attr-defined]


async def test_waiting_room_lobby_and_leave(browser, mp_server: str, artifacts) -> None:  # type: ignore[no-untyped-def]
    ctx_a = await browser.new_context(
        base_url=mp_server, locale="en-GB", permissions=["clipboard-read", "clipboard-write"]
    )
    ann = await ctx_a.new_page()
    ctx_b, bob = await new_page(browser, mp_server)
    errors: list[str] = []
    for p in (ann, bob):
        p.on("pageerror", lambda e: errors.append(str(e)))
    await ann.goto("/#/friends")
    await ann.get_by_label("Rules", exact=True).select_option("short")
    await ann.get_by_label("Speed").select_option("fast")
    await ann.get_by_label("Computer level").select_option("beginner")
    await ann.get_by_label("Your name").fill("Ann")
    await ann.get_by_label("Public (listed in the lobby)").check()
    await ann.get_by_role("button", name="Create the table").click()

    # Contract 7: the waiting room says who is seated and what it waits for, the code large, "Copy link".
    code = ann.locator(".waiting-room .code")
    await expect(code).to_be_visible()
    shown = (await code.inner_text()).strip()
    assert float(await code.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")) >= 24
    await expect(ann.get_by_role("status")).to_have_text(
        "Waiting for a second person to sit down; then the host can start."
    )
    await expect(ann.get_by_text("Connecting…")).to_have_count(0)
    await expect(ann.locator(".seats li")).to_have_count(4)
    await expect(ann.locator(".seats li").first).to_have_text("Ann (host, you)")
    await ann.get_by_role("button", name="Copy link").click()
    await expect(ann.get_by_role("alert")).to_have_text("Link copied")
    link = await ann.evaluate("navigator.clipboard.readText()")
    assert link.endswith("/#/t/" + shown.replace("-", ""))
    await ann.screenshot(path=str(artifacts / "waiting-room-en-desktop.png"))

    # The lobby: the table at a glance (players, rules, speed, timer), to join in one tap.
    await bob.goto("/#/friends")
    entry = bob.locator(".lobby-table", has_text=shown)
    await expect(entry).to_contain_text("Players 1/4 — Ann · 3 free seats")
    await expect(entry).to_contain_text("Short game (50 points)")
    await expect(entry).to_contain_text("Speed Fast")
    await expect(entry).to_contain_text("No limit")
    await bob.screenshot(path=str(artifacts / "lobby-en-desktop.png"), full_page=True)
    await entry.get_by_role("link", name=f"Join {shown}").click()
    await expect(bob.get_by_role("button", name="Take a seat")).to_be_visible()
    await bob.get_by_label("Your name").fill("Bob")
    await bob.get_by_role("button", name="Take a seat").click()
    await expect(bob.get_by_role("status")).to_have_text("Waiting for the host to start the game.")
    await expect(ann.get_by_role("status")).to_have_text(
        "Everyone can start: press “Start the game” when you are ready."
    )
    await expect(ann.locator(".seats li").nth(1)).to_have_text("Bob")
    await ann.get_by_role("button", name="Start the game").click()
    ann.get_by_role("group", name="Your hand")
    hand_b = bob.get_by_role("group", name="Your hand")
    await expect(hand_b).to_be_visible()

    # "Leave the table" asks first, mid-game; "Stay" keeps the seat.
    await bob.get_by_role("button", name="Leave the table").click()
    confirm = bob.get_by_role("dialog", name="Leave the table?")
    await expect(confirm).to_be_visible()
    await confirm.get_by_role("button", name="Stay").click()
    await expect(confirm).to_have_count(0)
    await expect(hand_b).to_be_visible()

    assert not errors
    await ctx_a.close()
    await ctx_b.close()  # type: ignore[attr-defined]


TURN_S = 30
"""The turn timer of the table on ``manual_server`` (seconds on its clock)."""
GRACE_S = 60
"""Its grace period before a bot stands in for a person away."""


@pytest.fixture(scope="module")
def manual_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server whose clock stands still until the test moves it (``/api/test/clock``)."""
    folder = tmp_path_factory.mktemp("manual-server")
    port = free_port()
    env = {
        **os.environ,
        "DAMEPIQUE_CLOCK": "manual",
        "DAMEPIQUE_TEST_HOOKS": "1",
        "DAMEPIQUE_GRACE": str(GRACE_S),
        "DAMEPIQUE_TIMER_CHOICES": f"0,{TURN_S}",
    }
    proc = start_server(folder / "manual.sqlite3", port, folder / "server.log", env)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_server(proc)


def move_clock(url: str, seconds: float) -> float:
    """Move the server's clock ``seconds`` on (0: read it); its time, in s since 1970."""
    r = httpx.post(f"{url}/api/test/clock", json={"advance": seconds}, timeout=WAIT / 1000)
    assert r.status_code == 200, r.text
    return float(r.json()["time"])


async def test_a_summary_left_alone_closes_by_itself_on_the_servers_clock(
    browser, manual_server: str
) -> None:  # type: ignore[no-untyped-def]
    """At a table, the next deal waits while a person reads the last one's summary,
    for 15 s at most. Time here is the test's: the server's clock moves only when
    told, and both pages' clocks read the server's time (Playwright's clock)."""
    now = move_clock(manual_server, 0)
    ctx_a, ann = await new_page(browser, manual_server)
    ctx_b, bob = await new_page(browser, manual_server)
    errors: list[str] = []
    for ctx, p in ((ctx_a, ann), (ctx_b, bob)):
        await ctx.clock.set_fixed_time(now)  # type: ignore[attr-defined]  # (a float: seconds)
        p.on("pageerror", lambda e: errors.append(str(e)))
    code = await create_table(ann)
    await join_by_code(bob, code, "Bob")
    await ann.get_by_role("button", name="Start the game").click()
    await expect(bob.get_by_role("group", name="Your hand")).to_be_visible()

    # Both play the first deal (the server plays its cards up to the last trick: its test
    # hook), but Bob leaves its summary alone.
    await forward(ann, "last_trick", code)
    summary_b = bob.get_by_role("dialog", name="Deal 1 is over")
    summary_a = ann.get_by_role("dialog", name="Deal 1 is over")
    bob_task = asyncio.create_task(play_until(bob, stop=lambda: _count(summary_b)))
    await play_until(ann, stop=lambda: _count(summary_a))
    await bob_task
    go_on = ann.get_by_role("button", name="Continue")
    await go_on.click()
    # The table holds the next deal for Bob: Ann's summary says so, and stays until his closes.
    await expect(summary_a).to_contain_text("Waiting for Bob…")
    await expect(go_on).to_be_disabled()
    # Bob's is still open: its Continue has the focus, and it closes by itself in 15 s.
    await expect(summary_b).to_be_visible()
    await expect(bob.get_by_role("button", name="Continue")).to_be_focused()
    await expect(summary_b.locator(".sum-clock")).to_have_text("Closes in 15 s")
    # 14 s on, both still wait; at 15 s the table goes on for both.
    move_clock(manual_server, 14)
    await expect(summary_a).to_contain_text("Waiting for Bob…")
    await expect(summary_b).to_be_visible()
    move_clock(manual_server, 1)
    await expect(summary_b).to_have_count(0)
    await expect(summary_a).to_have_count(0)
    for p in (ann, bob):
        await expect(p.get_by_role("group", name="Your hand").locator("[data-card]")).not_to_have_count(0)
    assert not errors
    await ctx_a.close()  # type: ignore[attr-defined]
    await ctx_b.close()  # type: ignore[attr-defined]


async def test_a_timer_runs_out_and_an_absent_player_is_replaced_by_a_bot(
    browser, manual_server: str
) -> None:  # type: ignore[no-untyped-def]
    """A turn timer that runs out has the server play; a person away for the grace
    period is replaced by a bot. Both on the server's clock, moved by the test:
    nothing waits for real seconds, and a busy machine cannot outrun either."""
    ctx_a, ann = await new_page(browser, manual_server)
    ctx_b, bob = await new_page(browser, manual_server)
    code = await create_table(ann, timer=str(TURN_S))
    await join_by_code(bob, code, "Bob")
    await ann.get_by_role("button", name="Start the game").click()
    await expect(bob.get_by_role("group", name="Your hand")).to_be_visible()
    # Bob goes away for good without a word; Ann does nothing either at first.
    await ctx_b.close()  # type: ignore[attr-defined]
    presence = ann.locator(".presence")
    await expect(presence).to_contain_text("Bob: offline")  # the server knows: his grace begins
    notices = ann.locator(".notices")
    move_clock(manual_server, TURN_S - 1)
    await expect(presence).to_contain_text("Bob: offline")
    await expect(ann.get_by_text("Time ran out")).to_have_count(0)
    move_clock(manual_server, 1)
    await expect(notices).to_contain_text("Time ran out: the server played for")
    await expect(presence).not_to_contain_text("a computer player plays")
    move_clock(manual_server, GRACE_S)
    await expect(presence).to_contain_text("Bob: away, a computer player plays")
    # The game goes on to its end: the server plays to its last trick (the test hook), Ann her last card.
    await forward(ann, "game_end", code)
    await play_until(ann)
    await expect(ann.get_by_role("heading", name="Game over")).to_be_visible()
    await ctx_a.close()  # type: ignore[attr-defined]


async def _count(locator) -> bool:  # type: ignore[no-untyped-def]
    return await locator.count() > 0


async def _no_pass(page: Page) -> bool:
    return not await page.get_by_role("button", name="Pass", exact=True).count()


async def test_three_people_at_an_auto_table_play_three_handed_and_the_lobby_follows(
    browser, mp_server: str, artifacts
) -> None:  # type: ignore[no-untyped-def]
    """players "auto": five seats while the table waits, three when three people
    start it; the lobby's entry changes as they sit and start (lobby_changes)."""
    pages = [await new_page(browser, mp_server) for _ in range(4)]
    watcher, ann, bob, carl = (page for _, page in pages)
    errors: list[str] = []
    for _, p in pages:
        p.on("pageerror", lambda e: errors.append(str(e)))
    await watcher.goto("/#/friends")
    lobby = watcher.locator("#lobby")
    await expect(lobby).not_to_contain_text("Connecting")
    await ann.goto("/#/friends")
    await ann.get_by_label("Rules", exact=True).select_option("short")
    await ann.get_by_label("Speed").select_option("fast")
    await ann.get_by_label("Computer level").select_option("beginner")
    await ann.get_by_label("Your name").fill("Ann")
    await ann.get_by_label("Computer players fill empty seats").uncheck()
    await ann.get_by_label("Public (listed in the lobby)").check()
    await ann.get_by_text("Every option").click()
    await ann.get_by_label("Players", exact=True).select_option("auto")
    await ann.get_by_role("button", name="Create the table").click()
    code = ann.locator(".waiting-room .code")
    await expect(code).to_be_visible()
    display = (await code.inner_text()).strip()
    await expect(ann.locator(".waiting-room")).to_contain_text("Players: 3 to 5, as many as sit down")
    await expect(ann.get_by_text("Waiting for 2 more people (three at least)")).to_be_visible()
    entry = lobby.locator(".lobby-table", has_text=display)
    await expect(entry).to_contain_text("Players 1 (3 to 5, as many as sit down)")
    for page, name in ((bob, "Bob"), (carl, "Carl")):
        await page.goto(f"/#/t/{display.replace('-', '')}")
        await expect(page.get_by_role("button", name="Take a seat")).to_be_visible()
        await page.get_by_label("Your name").fill(name)
        await page.get_by_role("button", name="Take a seat").click()
        await expect(entry).to_contain_text(name)  # a change, not a new list
    await expect(entry).to_contain_text("Players 3 (3 to 5")
    await expect(carl.get_by_text("Waiting for the host to start the game.")).to_be_visible()
    start = ann.get_by_role("button", name="Start the game")
    await expect(start).to_be_enabled()
    await start.click()
    for page in (ann, bob, carl):
        # Three seats: 52 cards less the two of diamonds, 17 each.
        await expect(page.get_by_role("group", name="Your hand").locator("[data-card]")).to_have_count(17)
    await expect(entry).to_contain_text("playing")
    names = await bob.locator(".score-sheet thead th").all_inner_texts()
    assert [n for n in names if n in ("Ann", "Bob", "Carl", "You")] and len(names) == 4, names
    await bob.screenshot(path=str(artifacts / "auto-table-three.png"))
    assert not errors
    for ctx, _ in pages:
        await ctx.close()  # type: ignore[attr-defined]
