"""The challenge page for people (issue 29, ``#/challenges``) in a real
Chromium, in both languages: a challenge from another player appears while
the page is open (the account's event stream), is declined with a reason the
challenger hears, another is accepted and leads to the seat at the game's
table; a challenge sent from the page waits for its answer, and the game it
starts is shown when the other accepts. Screenshots go to test-artifacts/."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.async_api import expect

from ..conftest import free_port, start_server, stop_server
from ..outside.outside_bot import EventStream
from .test_table import DESKTOP, PHONE

pytestmark = [pytest.mark.browser]

PASSWORD = "correct horse battery"
WORDS = {
    "en": {
        "accept": "Accept",
        "decline": "Decline",
        "why": "Why",
        "later": "later",
        "go": "Go to my table",
        "to": "Nicknames (separated by commas)",
        "send": "Send the challenge",
        "waiting": "waiting for an answer",
        "hand": "Your hand",
        "none": "Nobody is challenging you right now.",
    },
    "fr": {
        "accept": "Accepter",
        "decline": "Refuser",
        "why": "Pourquoi",
        "later": "plus tard",
        "go": "Aller à ma table",
        "to": "Pseudos (séparés par des virgules)",
        "send": "Envoyer le défi",
        "waiting": "en attente de réponse",
        "hand": "Votre main",
        "none": "Personne ne vous défie en ce moment.",
    },
}


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("challenges")
    port = free_port()
    proc = start_server(
        folder / "c.sqlite3", port, folder / "server.log", os.environ | {"DAMEPIQUE_CREATIONS": "0"}
    )
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_server(proc)


def person(url: str, nickname: str) -> httpx.Client:
    client = httpx.Client(base_url=url, timeout=30)
    r = client.post("/api/accounts", json={"nickname": nickname, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return client


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_challenged_on_the_page_declined_then_accepted_and_a_challenge_sent(
    new_context, url: str, lang: str, artifacts: Path
) -> None:  # type: ignore[no-untyped-def]
    words = WORDS[lang]
    ann, bob = f"ann_{lang}", f"bob_{lang}"
    challenger = person(url, bob)
    bob_events = EventStream(url, cookies=challenger.cookies)
    context = await new_context(locale="fr-FR" if lang == "fr" else "en-GB", **DESKTOP)
    await context.add_init_script(f"localStorage.setItem('damepique.lang', '{lang}')")
    made = await context.request.post(f"{url}/api/accounts", data={"nickname": ann, "password": PASSWORD})
    assert made.status == 201
    page = await context.new_page()
    await page.goto(f"{url}/#/challenges")
    await expect(page.get_by_text(words["none"])).to_be_visible()
    try:
        # Bob challenges Ann while her page is open: it appears there; she declines, saying why.
        first = challenger.post("/api/challenges", json={"to": [ann], "fill": True}).json()
        offer = page.locator(f'li[data-id="{first["id"]}"]')
        await expect(offer.get_by_text(bob)).to_be_visible()
        await offer.get_by_label(words["why"]).select_option(label=words["later"])
        await page.screenshot(path=str(artifacts / f"challenges-{lang}.png"), full_page=True)
        await offer.get_by_role("button", name=words["decline"]).click()
        told = bob_events.next("challengeDeclined")["challenge"]
        assert told["id"] == first["id"] and told["to"][0]["reason"] == "later"
        await expect(offer).to_have_count(0)
        # Again: she accepts, and the page leads her to her seat at the game's table.
        second = challenger.post("/api/challenges", json={"to": [ann], "fill": True, "speed": "fast"}).json()
        offer = page.locator(f'li[data-id="{second["id"]}"]')
        await offer.get_by_role("button", name=words["accept"]).click()
        game = bob_events.next("gameStart")["game"]
        await page.get_by_role("link", name=words["go"]).click()
        await expect(page).to_have_url(f"{url}/#/t/{game['table']}")
        await expect(page.get_by_role("group", name=words["hand"])).to_be_visible()
        # She challenges Bob from the page: waiting for his answer, then the game, shown when he accepts.
        await page.goto(f"{url}/#/challenges")
        await page.get_by_label(words["to"]).fill(bob)
        await page.get_by_role("button", name=words["send"]).click()
        await expect(page.get_by_text(words["waiting"])).to_be_visible()
        (sent,) = challenger.get("/api/challenges").json()["in"]
        assert challenger.post(f"/api/challenges/{sent['id']}/accept").json()["status"] == "started"
        mine = bob_events.next("gameStart")["game"]
        await expect(page.locator("#ch-go")).to_have_attribute("href", f"#/t/{mine['table']}")
    finally:
        bob_events.close()
        await context.close()


async def test_the_page_on_a_phone_keeps_to_its_width(new_context, url: str, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    challenger = person(url, "bob_phone")
    context = await new_context(locale="fr-FR", **PHONE)
    await context.add_init_script("localStorage.setItem('damepique.lang', 'fr')")
    made = await context.request.post(
        f"{url}/api/accounts", data={"nickname": "ann_phone", "password": PASSWORD}
    )
    assert made.status == 201
    challenger.post("/api/challenges", json={"to": ["ann_phone"], "fill": True, "rules": {"players": 5}})
    page = await context.new_page()
    await page.goto(f"{url}/#/challenges")
    await expect(page.get_by_role("button", name="Accepter")).to_be_visible()
    await expect(page.get_by_text("5 joueurs, en 100 points")).to_be_visible()
    assert await page.evaluate(
        "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    await page.screenshot(path=str(artifacts / "challenges-fr-phone.png"), full_page=True)
    await context.close()


async def test_signed_out_the_page_says_to_sign_in(new_context, url: str) -> None:  # type: ignore[no-untyped-def]
    context = await new_context(locale="en-GB", **PHONE)
    page = await context.new_page()
    await page.goto(f"{url}/#/challenges")
    await expect(page.get_by_text("Sign in to challenge and be challenged")).to_be_visible()
    await expect(page.get_by_role("main").get_by_role("link", name="Account")).to_be_visible()
    await context.close()


async def test_a_challenge_refused_names_the_nickname_in_french(new_context, url: str) -> None:  # type: ignore[no-untyped-def]
    """The French page's words for a refusal are filled with its params: an
    unknown nickname and a player named twice (here, oneself) are named, as
    the English reason names them, not "Introuvable." or a sentence naming nobody."""
    context = await new_context(locale="fr-FR", **PHONE)
    await context.add_init_script("localStorage.setItem('damepique.lang', 'fr')")
    made = await context.request.post(
        f"{url}/api/accounts", data={"nickname": "ann_named", "password": PASSWORD}
    )
    assert made.status == 201
    page = await context.new_page()
    await page.goto(f"{url}/#/challenges")
    words = WORDS["fr"]
    for to, said in (
        ("nobody_here", "Aucun joueur n'a le pseudo nobody_here"),
        ("ann_named", "ann_named est nommé deux fois"),
    ):
        await page.get_by_label(words["to"]).fill(to)
        await page.get_by_role("button", name=words["send"]).click()
        await expect(page.locator("#ch-error")).to_contain_text(said)
    await context.close()
