"""Quick match in a real Chromium: "Play with people" on the home page (in
English, on a phone) and in the lobby (in French, on a desktop), a wait with
its countdown, then, once the server's clock passes the two minutes' wait
(moved by the test hook, never slept), both people at one table with two bots;
and a server restarting while both wait: each page says so in its language,
both come back to their wait and sit together."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.async_api import Page, expect

from ..conftest import free_port, start_server, stop_server

pytestmark = [pytest.mark.browser]

PHONE = {"width": 390, "height": 844}
RESTART_WAIT = 60_000
"""ms a page may take to come back after a restart: its back-off window is 30 s at most."""


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server whose clock moves only when the test says (``/api/test/clock``)."""
    folder = tmp_path_factory.mktemp("quick-server")
    port = free_port()
    env = {**os.environ, "DAMEPIQUE_CLOCK": "manual", "DAMEPIQUE_TEST_HOOKS": "1", "DAMEPIQUE_CREATIONS": "0"}
    proc = start_server(folder / "quick.sqlite3", port, folder / "server.log", env)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_server(proc)


async def test_play_with_people_from_home_and_lobby_then_bots_fill_after_the_wait(
    browser, quick_server: str, artifacts: Path
) -> None:  # type: ignore[no-untyped-def]
    en = await browser.new_context(base_url=quick_server, locale="en-GB", viewport=PHONE)
    fr = await browser.new_context(base_url=quick_server, locale="fr-FR")
    try:
        ann: Page = await en.new_page()
        await ann.goto("/")
        await ann.screenshot(path=str(artifacts / "quick-home-en-phone.png"))
        await ann.get_by_role("link", name="Play with people").click()
        await ann.screenshot(path=str(artifacts / "quick-choice-en-phone.png"))
        await expect(ann).to_have_url(re.compile(r"#/quick$"))
        await ann.get_by_label("Wait for people").select_option("120")
        await ann.get_by_label("Your name").fill("Ann")
        await ann.get_by_role("button", name="Find a game").click()
        await expect(ann.get_by_role("status")).to_have_text("Waiting for people…")
        await expect(ann.locator("#quick-countdown")).to_have_text(
            re.compile(r"^Computer players fill the empty seats in 1\d\d seconds$")
        )
        await expect(ann.get_by_role("button", name="Stop waiting")).to_be_focused()
        await ann.screenshot(path=str(artifacts / "quick-waiting-en-phone.png"))

        zoe: Page = await fr.new_page()
        await zoe.goto("/#/friends")
        await zoe.get_by_role("link", name="Jouer avec d'autres").click()
        await zoe.get_by_label("Attendre d'autres joueurs").select_option("120")
        await zoe.get_by_label("Votre nom").fill("Zoé")
        await zoe.get_by_role("button", name="Trouver une partie").click()
        await expect(zoe.get_by_role("status")).to_contain_text("2 ici pour cette partie")
        await zoe.screenshot(path=str(artifacts / "quick-waiting-fr-desktop.png"))
        await expect(ann.get_by_role("status")).to_have_text("Waiting for people: 2 here for this game…")

        r = httpx.post(f"{quick_server}/api/test/clock", json={"advance": 120}, timeout=30)
        assert r.status_code == 200, r.text
        await expect(ann).to_have_url(re.compile(r"#/t/[0-9A-Z]{8}$"))
        await expect(zoe).to_have_url(re.compile(r"#/t/[0-9A-Z]{8}$"))
        assert ann.url.split("#/t/")[1] == zoe.url.split("#/t/")[1]
        for name in ("Ann", "Zoé"):
            await expect(ann.get_by_text(name, exact=True).first).to_be_visible()
        await ann.screenshot(path=str(artifacts / "quick-table-en-phone.png"))
    finally:
        await en.close()
        await fr.close()


async def test_a_server_restart_keeps_the_people_waiting_and_says_so(
    browser, tmp_path: Path, artifacts: Path
) -> None:  # type: ignore[no-untyped-def]
    port = free_port()
    env = {**os.environ, "DAMEPIQUE_CLOCK": "manual", "DAMEPIQUE_TEST_HOOKS": "1", "DAMEPIQUE_CREATIONS": "0"}
    db, log = tmp_path / "restart.sqlite3", tmp_path / "server.log"
    base = f"http://127.0.0.1:{port}"
    proc = start_server(db, port, log, env)
    en = await browser.new_context(base_url=base, locale="en-GB", viewport=PHONE)
    fr = await browser.new_context(base_url=base, locale="fr-FR")
    try:
        ann: Page = await en.new_page()
        zoe: Page = await fr.new_page()
        for page, name, wait_label, name_label, go in (
            (ann, "Ann", "Wait for people", "Your name", "Find a game"),
            (zoe, "Zoé", "Attendre d'autres joueurs", "Votre nom", "Trouver une partie"),
        ):
            await page.goto("/#/quick")
            await page.get_by_label(wait_label).select_option("120")
            await page.get_by_label(name_label).fill(name)
            await page.get_by_role("button", name=go).click()
        await expect(ann.get_by_role("status")).to_have_text("Waiting for people: 2 here for this game…")
        stop_server(proc)  # uvicorn closes the pages' sockets with 1012: going away
        await expect(ann.get_by_role("status")).to_have_text(
            "The server is restarting; you keep your place in the queue…"
        )
        await expect(zoe.get_by_role("status")).to_have_text(
            "Le serveur redémarre ; vous gardez votre place dans la file…"
        )
        await ann.screenshot(path=str(artifacts / "quick-restarting-en-phone.png"))
        await zoe.screenshot(path=str(artifacts / "quick-restarting-fr-desktop.png"))
        proc = start_server(db, port, log, env)
        # Both pages come back with their tickets and wait again, together. Each
        # comes back at a random point of its back-off window (up to 30 s after a
        # restart, so that a server's pages do not all return in the same instant):
        # the limit here is a hang's, not a speed.
        await expect(ann.get_by_role("status")).to_have_text(
            "Waiting for people: 2 here for this game…", timeout=RESTART_WAIT
        )
        await expect(zoe.get_by_role("status")).to_contain_text(
            "2 ici pour cette partie", timeout=RESTART_WAIT
        )
        r = httpx.post(f"{base}/api/test/clock", json={"advance": 120}, timeout=30)
        assert r.status_code == 200, r.text
        await expect(ann).to_have_url(re.compile(r"#/t/[0-9A-Z]{8}$"))
        await expect(zoe).to_have_url(re.compile(r"#/t/[0-9A-Z]{8}$"))
        assert ann.url.split("#/t/")[1] == zoe.url.split("#/t/")[1]
    finally:
        await en.close()
        await fr.close()
        stop_server(proc)
