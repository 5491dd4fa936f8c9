"""A duplicate tournament's results page (issue 27) in a real Chromium, in
both languages, on a phone and at a desk: the standings, a table per deal
with who held what, the exports and the print button; nothing scrolls
sideways. Screenshots go to test-artifacts/."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.async_api import expect

from ..conftest import free_port, real_server, start_server, stop_server
from .test_table import DESKTOP, PHONE, columns_cut

pytestmark = [pytest.mark.browser]

WORDS = {
    "en": {"standings": "Standings", "final": "Final standings", "print": "Print", "held": "Who held what"},
    "fr": {
        "standings": "Classement",
        "final": "Classement final",
        "print": "Imprimer",
        "held": "Qui avait quoi",
    },
}


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A server of its own, and a tournament of two tables of computer players, played out."""
    folder = tmp_path_factory.mktemp("tourney")
    port = free_port()
    env = os.environ | {"DAMEPIQUE_CREATIONS": "0"}
    proc = start_server(folder / "t.sqlite3", port, folder / "server.log", env)
    url = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=url, timeout=30) as http:
            made = http.post(
                "/api/tournaments",
                json={"name": "Club du jeudi", "deals": 2, "tables": 2, "speed": "fast", "level": "beginner"},
            ).json()
            code = made["code"]
            assert (
                http.post(f"/api/tournaments/{code}/start", json={"director": made["director"]}).status_code
                == 200
            )
            # Computer players at fast speed: over in a moment; asked again, never waited on by time.
            for _ in range(10_000):
                if http.get(f"/api/tournaments/{code}").json()["status"] == "over":
                    break
            else:
                raise AssertionError("the tournament did not finish")
            # Over because every table finished (not when the first did, the second still being made).
            assert http.get(f"/api/tournaments/{code}/results").json()["progress"] == [2, 2]
        yield url, code
    finally:
        stop_server(proc)


async def page_in(new_context, lang: str, size: str):  # type: ignore[no-untyped-def]
    """A new browser context in ``lang`` at the phone's or the desk's size, and a page in it."""
    context = await new_context(
        locale="fr-FR" if lang == "fr" else "en-GB", **(PHONE if size == "phone" else DESKTOP)
    )
    await context.add_init_script(f"localStorage.setItem('damepique.lang', '{lang}')")
    return context, await context.new_page()


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
async def test_the_results_page(
    new_context, finished: tuple[str, str], lang: str, size: str, artifacts: Path
) -> None:  # type: ignore[no-untyped-def]
    url, code = finished
    words = WORDS[lang]
    context, page = await page_in(new_context, lang, size)
    await page.goto(f"{url}/#/tournament/{code}")
    await expect(page.get_by_role("heading", name="Club du jeudi")).to_be_visible()
    await expect(page.get_by_role("heading", name=words["standings"])).to_be_visible()
    standings = page.get_by_role("table", name=words["final"])
    await expect(standings.locator("tbody tr")).to_have_count(8)
    await expect(page.locator("table.tn-board")).to_have_count(2)
    await expect(page.locator("table.tn-board").first.locator("tbody tr")).to_have_count(8)
    await expect(page.get_by_text(words["held"]).first).to_be_visible()
    # Who held what, in the page's card names (Q♠, D♠ in French), never the record's codes (QS).
    await page.get_by_text(words["held"]).first.click()
    hand = page.locator(".tn-hands li").first
    await expect(hand.locator(".chip")).to_have_count(13)
    await expect(hand).not_to_have_text(re.compile(r"\b[2-9TJQKA][CDHS]\b"))
    await expect(page.get_by_role("button", name=words["print"])).to_be_visible()
    csv = page.locator(f'a[href="/api/tournaments/{code}/results.csv"]')
    await expect(csv).to_be_visible()
    assert await page.evaluate(
        "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    # Every column in sight, the matchpoints and the difference too: none behind a sideways scroll.
    assert await columns_cut(page, ".tourney table") == []
    await page.screenshot(path=str(artifacts / f"tourney-results-{lang}-{size}.png"), full_page=True)
    # Printed: the header and the buttons are left out.
    await page.emulate_media(media="print")
    assert not await page.get_by_role("button", name=words["print"]).is_visible()
    await context.close()


async def test_a_player_joins_on_the_page_and_is_led_to_their_seat(
    new_context, finished: tuple[str, str]
) -> None:  # type: ignore[no-untyped-def]
    url, _ = finished
    with httpx.Client(base_url=url, timeout=30) as http:
        made = http.post(
            "/api/tournaments", json={"name": "Club", "deals": 1, "tables": 1, "speed": "fast"}
        ).json()
    code = made["code"]
    context = await new_context(locale="en-GB", **PHONE)
    page = await context.new_page()
    await page.goto(f"{url}/#/tournament/{code}")
    await page.get_by_label("Your name").fill("Zoé")
    await page.get_by_role("button", name="Join").click()
    await expect(page.get_by_text("You have joined as Zoé")).to_be_visible()
    with httpx.Client(base_url=url, timeout=30) as http:
        assert (
            http.post(f"/api/tournaments/{code}/start", json={"director": made["director"]}).status_code
            == 200
        )
    await page.reload()
    await page.get_by_role("link", name="Go to my table").click()
    # Her own seat at the tournament's table: her hand, dealt from the tournament's secret.
    await expect(page.get_by_role("group", name="Your hand")).to_be_visible()
    await context.close()


async def test_a_tournament_table_s_game_over_offers_no_rematch_and_no_record(
    new_context, server: str
) -> None:  # type: ignore[no-untyped-def]
    """A tournament's table plays its deals once, and its record stays with the
    tournament (other tables may still play the same cards): its game-over offers
    the analysis of one's own seat, but neither a rematch (always refused) nor the
    record's download (always withheld)."""
    with httpx.Client(base_url=server, timeout=30) as http:
        made = http.post(
            "/api/tournaments",
            json={"name": "Club", "deals": 1, "tables": 1, "speed": "fast", "level": "beginner"},
        ).json()
        code = made["code"]
        player = http.post(f"/api/tournaments/{code}/players", json={"name": "Zoé"}).json()["player"]
        assert (
            http.post(f"/api/tournaments/{code}/start", json={"director": made["director"]}).status_code
            == 200
        )
        table = http.post(f"/api/tournaments/{code}/me", json={"player": player}).json()["seat"]["table"]
    context = await new_context(locale="en-GB", **PHONE)
    await context.add_init_script(
        f"localStorage.setItem('damepique.tourney.player', JSON.stringify({{{code!r}: {player!r}}}))"
    )
    page = await context.new_page()
    await page.goto(f"{server}/#/tournament/{code}")
    await page.get_by_role("link", name="Go to my table").click()
    await expect(page.get_by_role("group", name="Your hand")).to_be_visible()
    r = httpx.post(f"{server}/api/test/tables/{table}/forward", json={"until": "last_trick"}, timeout=30)
    assert r.status_code == 200, r.text
    over = page.get_by_role("heading", name="Game over")
    card = page.locator('#hand [data-card][aria-disabled="false"]')
    await expect(card.first.or_(over)).to_be_visible()
    if not await over.count():
        await card.first.click()
    await expect(over).to_be_visible()
    await expect(page.get_by_role("link", name="Analyse", exact=True)).to_be_visible()
    assert await page.get_by_role("button", name="Rematch").count() == 0
    assert await page.get_by_role("link", name="Download the record").count() == 0
    await context.close()


SEATING = {
    "en": {
        "start": "Start with this seating",
        "computer": "(a computer player)",
        "twice": "Cy is seated twice",
    },
    "fr": {
        "start": "Lancer avec ce placement",
        "computer": "(un joueur virtuel)",
        "twice": "Cy occupe deux places",
    },
}


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_the_director_seats_the_players_by_hand(
    new_context, finished: tuple[str, str], lang: str, artifacts: Path
) -> None:  # type: ignore[no-untyped-def]
    url, _ = finished
    words, table, seat = SEATING[lang], "Table", "Seat" if lang == "en" else "Place"
    with httpx.Client(base_url=url, timeout=30) as http:
        made = http.post(
            "/api/tournaments", json={"name": "Club", "deals": 1, "tables": 2, "speed": "fast"}
        ).json()
        code = made["code"]
        ids = {
            n: http.post(f"/api/tournaments/{code}/players", json={"name": n}).json()["id"]
            for n in ("Ann", "Bob", "Cy")
        }
    context = await new_context(locale="fr-FR" if lang == "fr" else "en-GB", **DESKTOP)
    director = {code: made["director"]}
    await context.add_init_script(
        f"localStorage.setItem('damepique.lang', '{lang}');"
        f"localStorage.setItem('damepique.tourney.director', JSON.stringify({director!r}))"
    )
    page = await context.new_page()
    await page.goto(f"{url}/#/tournament/{code}")
    first, second = page.get_by_role("group", name=f"{table} 1"), page.get_by_role("group", name=f"{table} 2")
    # Filled in the order they joined, table by table, to begin with.
    await expect(first.get_by_label(f"{seat} 3")).to_have_value(ids["Cy"])
    await expect(second.get_by_label(f"{seat} 1")).to_have_value("")
    # Cy at both tables: refused, naming Cy, in the page's language, and nothing starts.
    await first.get_by_label(f"{seat} 1").select_option(ids["Cy"])
    await page.get_by_role("button", name=words["start"]).click()
    await expect(page.get_by_role("alert")).to_contain_text(words["twice"])
    # Cy alone at table 1; Ann and Bob at table 2, seats 1 and 3; computer players elsewhere.
    await first.get_by_label(f"{seat} 2").select_option(label=words["computer"])
    await expect(page.locator("#tn-error")).to_have_text("")  # a choice changed: the refusal goes
    await first.get_by_label(f"{seat} 3").select_option(label=words["computer"])
    await second.get_by_label(f"{seat} 1").select_option(label="Ann")
    await second.get_by_label(f"{seat} 3").select_option(label="Bob")
    await page.screenshot(path=str(artifacts / f"tourney-seating-{lang}.png"), full_page=True)
    await page.get_by_role("button", name=words["start"]).click()
    await expect(page.locator("#tn-seating")).to_have_count(0)
    with httpx.Client(base_url=url, timeout=30) as http:
        shown = http.get(f"/api/tournaments/{code}").json()
    assert shown["status"] == "playing"
    assert shown["seating"] == [[ids["Cy"], None, None, None], [ids["Ann"], None, ids["Bob"], None]]
    await context.close()


START = {
    "en": {
        "start": "Start time (optional)",
        "create": "Create the tournament",
        "starts": "Starts by itself on ",
    },
    "fr": {
        "start": "Heure de début (facultatif)",
        "create": "Créer le tournoi",
        "starts": "Commence de lui-même le ",
    },
}


@pytest.mark.parametrize(("lang", "size"), [("en", "desktop"), ("fr", "phone")])
async def test_the_director_gives_a_start_time_and_the_page_says_when(
    new_context, finished: tuple[str, str], lang: str, size: str, artifacts: Path
) -> None:  # type: ignore[no-untyped-def]
    """Issue 27: "optionally a start time": the creation form takes one (the
    browser's local time), the server keeps it, the tournament's page says it."""
    url, _ = finished
    words = START[lang]
    context, page = await page_in(new_context, lang, size)
    await page.goto(f"{url}/#/tournament")
    await page.get_by_label(words["start"]).fill("2030-01-02T20:30")
    await page.locator("#tn-name").fill("Club")
    await page.get_by_role("button", name=words["create"]).click()
    await expect(page.locator("#tn-starts")).to_contain_text(words["starts"])
    await expect(page.locator("#tn-starts")).to_contain_text("2030")
    code = page.url.rsplit("/", 1)[1]
    chosen = await page.evaluate("new Date('2030-01-02T20:30').getTime() / 1000")
    with httpx.Client(base_url=url, timeout=30) as http:
        assert http.get(f"/api/tournaments/{code}").json()["start"] == chosen
    assert await page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    await page.screenshot(path=str(artifacts / f"tourney-start-{lang}-{size}.png"), full_page=True)
    await context.close()


ROUNDS = {
    "en": {
        "heading": "Round 3, deal 1",
        "round": "round 3 of 3",
        "rounds": "Rounds",
        "shape": "1 deal at 3 tables",
        "name": "Tournament's name",
        "movement": "Movement",
        "random": "Random draw",
        "create": "Create the tournament",
        "first": "round 1 of 3 · Random draw",
    },
    "fr": {
        "heading": "Manche 3, donne 1",
        "round": "manche 3 sur 3",
        "rounds": "Manches",
        "shape": "1 donne à 3 tables",
        "name": "Nom du tournoi",
        "movement": "Mouvement",
        "random": "Tirage au sort",
        "create": "Créer le tournoi",
        "first": "manche 1 sur 3 · Tirage au sort",
    },
}


def three_rounds(http: httpx.Client, name: str, speed: str) -> str:
    """A tournament of three rounds at three tables of computer players, started: its code."""
    made = http.post(
        "/api/tournaments",
        json={"name": name, "rules": {"players": 3}, "deals": 1, "tables": 3, "rounds": 3, "speed": speed,
              "level": "beginner"},
    ).json()  # fmt: skip
    started = http.post(f"/api/tournaments/{made['code']}/start", json={"director": made["director"]})
    assert started.status_code == 200, started.text
    return str(made["code"])


@pytest.fixture(scope="module")
def rounds_over(finished: tuple[str, str]) -> str:
    """A tournament of three rounds at three tables of computer players, played out."""
    url, _ = finished
    with httpx.Client(base_url=url, timeout=30) as http:
        code = three_rounds(http, "Three rounds", "fast")
        for _ in range(10_000):  # asked again, never waited on by time
            if http.get(f"/api/tournaments/{code}").json()["status"] == "over":
                break
        else:
            raise AssertionError("the tournament did not finish")
    return str(code)


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_tournament_of_three_rounds_shows_every_rounds_deals(
    new_context, finished: tuple[str, str], rounds_over: str, lang: str, artifacts: Path
) -> None:  # type: ignore[no-untyped-def]
    url, _ = finished
    words = ROUNDS[lang]
    context = await new_context(locale="fr-FR" if lang == "fr" else "en-GB", **DESKTOP)
    await context.add_init_script(f"localStorage.setItem('damepique.lang', '{lang}')")
    page = await context.new_page()
    await page.goto(f"{url}/#/tournament/{rounds_over}")
    await expect(page.get_by_text(words["round"])).to_be_visible()
    await expect(page.get_by_text(words["shape"])).to_be_visible()  # one deal: not "1 deals"
    await expect(page.get_by_role("heading", name=words["heading"])).to_be_visible()
    await expect(page.locator("table.tn-board")).to_have_count(3)
    await expect(page.get_by_role("table", name=WORDS[lang]["final"]).locator("tbody tr")).to_have_count(9)
    await page.screenshot(path=str(artifacts / f"tourney-rounds-{lang}.png"), full_page=True)
    # The form that makes one asks for its rounds, and the movement between them.
    await page.goto(f"{url}/#/tournament")
    await expect(page.get_by_label(words["rounds"])).to_have_value("1")
    await expect(page.get_by_label(words["movement"])).to_have_value("rotation")  # the default
    await page.get_by_label(words["name"]).fill("Club")
    await page.get_by_label("Tables").fill("3")
    await page.get_by_label(words["rounds"]).fill("3")
    await page.get_by_label(words["movement"]).select_option(label=words["random"])
    await page.screenshot(path=str(artifacts / f"tourney-form-{lang}.png"), full_page=True)
    await page.get_by_role("button", name=words["create"]).click()
    await expect(page.get_by_text(words["first"])).to_be_visible()
    made = page.url.rsplit("/", 1)[-1]
    assert httpx.get(f"{url}/api/tournaments/{made}").json()["movement"] == "random"
    await context.close()


@pytest.fixture(scope="module")
def still(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of its own whose clock moves only when the test moves it (``/api/test/clock``)."""
    with real_server(tmp_path_factory.mktemp("tourney-still"), clock="manual") as url:
        yield url


async def test_the_page_draws_the_next_round_by_itself(new_context, still: str, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    """Issue 29 (a defect found on the page): it followed nothing, so a round
    that ended showed only once the page was loaded again. Now it follows the
    tournament's changes (``GET /api/tournaments/{code}/changes``)."""
    with httpx.Client(base_url=still, timeout=30) as http:
        code = three_rounds(http, "Live", "normal")  # at normal speed, bots wait on the clock
        context = await new_context(locale="en-GB", **DESKTOP)
        await context.add_init_script("localStorage.setItem('damepique.lang', 'en')")
        page = await context.new_page()
        await page.goto(f"{still}/#/tournament/{code}")
        await expect(page.get_by_text("round 1 of 3")).to_be_visible()
        # At normal speed each computer player waits on the app's clock: moved
        # on, they play until the first round is over.
        for _ in range(5_000):
            if http.get(f"/api/tournaments/{code}").json()["round"] >= 1:
                break
            assert http.post("/api/test/clock", json={"advance": 2}).status_code == 200
        else:
            raise AssertionError("the first round did not end")
        await expect(page.get_by_text("round 2 of 3")).to_be_visible()  # never loaded again
        await expect(page.get_by_role("heading", name="Round 1, deal 1")).to_be_visible()
        await page.screenshot(path=str(artifacts / "tourney-next-round-en.png"), full_page=True)
        await context.close()
