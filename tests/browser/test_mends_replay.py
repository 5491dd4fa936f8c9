"""The replay's expert view speaks to "you" as a person is spoken to (issue 25,
player item 8): a solo game's person is named "Vous" (or "You"), and the line
reads "Vous jouez la carte 2 de la donne", never "Vous joue…". The replay and
the advice are answered by the test (a fixed game)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from playwright.async_api import Route, expect

from .mends_harness import LOCALES, SIZES

pytestmark = [pytest.mark.browser]

RECORD = Path(__file__).resolve().parents[1] / "web" / "sealed_game.json"
GAME = "fixedreplay00001"
WORDS = {
    "en": {"name": "You", "line": "You to play card 2 of the deal", "expert": "The expert's view"},
    "fr": {"name": "Vous", "line": "Vous jouez la carte 2 de la donne", "expert": "L'avis de l'expert"},
}
NONE = {"moon_by_self": 0.0, "moon_by_other": 0.0}
OPTIONS = [
    {"cards": ["AC"], "expected_points": 1.2, "score": 1.2, "stderr": 0.1, "cost": 0.0,
     "reason": "follows_high", "best": True, "mistake": False,
     "outcomes": {"queen": 0.1, "hearts": 1.0, **NONE}},
    {"cards": ["9C"], "expected_points": 1.5, "score": 1.5, "stderr": 0.1, "cost": 0.3,
     "reason": "follows_low", "best": False, "mistake": False,
     "outcomes": {"queen": 0.1, "hearts": 1.3, **NONE},
     "comparison": {"cards": ["9C"], "other": ["AC"], "key": "hearts", "value": 1.3, "other_value": 1.0}},
]  # fmt: skip


@pytest.mark.parametrize(
    ("lang", "size"), [("fr", "phone"), ("en", "desktop"), ("fr", "desktop"), ("en", "phone")]
)
async def test_the_expert_line_is_conjugated_for_you(new_context, base_url, lang, size, artifacts) -> None:  # type: ignore[no-untyped-def]
    words = WORDS[lang]
    record = RECORD.read_text()
    made = httpx.post(
        f"{base_url}/api/replay",
        content=record,
        headers={"Content-Type": "application/json", "Origin": base_url},
    )
    assert made.status_code == 200, made.text
    replay = {**made.json(), "game": GAME}
    replay["players"][0] = words["name"]

    async def answer(route: Route) -> None:
        url = route.request.url
        body = (
            replay
            if url.endswith("/replay")
            else json.loads(record)
            if url.endswith("/record")
            else {"options": OPTIONS}
        )
        await route.fulfill(json=body)

    context = await new_context(locale=LOCALES[lang], **SIZES[size])
    page = await context.new_page()
    await page.route(f"**/api/games/{GAME}/**", answer)
    # Card 2 of the first deal is seat 0's (the first trick is led by seat 4).
    assert replay["deals"][0]["tricks"][0]["plays"][1]["seat"] == 0
    await page.goto(f"/#/replay/{GAME}?deal=0&play=1")
    expert = page.get_by_role("region", name=words["expert"])
    await expect(expert).to_contain_text(words["line"])
    await expect(expert.locator(".advice li")).to_have_count(2)
    await expert.screenshot(path=str(artifacts / f"mends-replay-expert-{lang}-{size}.png"))
    await context.close()
