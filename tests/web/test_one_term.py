"""One term for one idea across the page and the docs, in both languages
(issue 25): quick match is "Play with people" / "Jouer avec d'autres", as
issue 28 names its button (and the stats' games "With people" / "Avec
d'autres"), a name no other link contains, so that the button is found by
its name alone; the computer players' strength is
"Computer level" (the home page and a new table's form), and the players
the computer plays are "computer players" ("joueurs virtuels") wherever
the page speaks of them; "bots" ("robots") are the programs people write
(docs/bot-api.md)."""

from __future__ import annotations

from pathlib import Path

from damepique.words import forms

from .page_words import page_words

DOCS = Path(__file__).resolve().parents[2] / "docs"
OTHER_TERMS = {"en": ("bot level",), "fr": ("niveau des robots",)}
QUICK = {"en": ("Play with people", "With people"), "fr": ("Jouer avec d'autres", "Avec d'autres")}
# The words that speak of the players the computer plays, and the one term for them.
COMPUTER_PLAYERS = (
    "level", "mp_bot_level", "mp_fill", "mp_bot", "mp_bots_fill", "mp_away", "mp_left", "mp_notice_stand_in",
    "quick_intro", "quick_countdown", "tn_bots", "ch_fill_label", "home_intro",
)  # fmt: skip
TERM = {"en": "computer", "fr": "virtuel"}
NOT_THE_TERM = {"en": ("bot",), "fr": ("robot", "ordinateur")}


def test_one_term_for_playing_with_others_and_for_the_computers_level() -> None:
    for lang, words in page_words().items():
        assert words["mp_bot_level"] == words["level"], lang
        button, games = QUICK[lang]
        assert (words["quick_button"], words["st_mode_casual"]) == (button, games), lang
        assert words["quick_heading"].startswith(button), lang
        # Playwright finds a link by a part of its name: the nav's must not hold the button's.
        assert button.lower() not in words["nav_friends"].lower(), lang
        assert [(k, v) for k, v in words.items() for term in OTHER_TERMS[lang] if term in v.lower()] == [], (
            lang
        )


def test_the_docs_name_them_as_the_page_does() -> None:
    found = [
        f"{path.name}: {term}"
        for path in sorted(DOCS.rglob("*.md"))
        for term in ("bot level",)
        if term in path.read_text(encoding="utf-8").lower()
    ]
    assert found == []


def test_one_term_for_the_players_the_computer_plays() -> None:
    for lang, plain in page_words().items():
        said = {k: [plain[k]] if k in plain else list(forms(lang)[k].values()) for k in COMPUTER_PLAYERS}
        assert [k for k, texts in said.items() if not all(TERM[lang] in x.lower() for x in texts)] == [], lang
        wrong = [
            (k, x) for k, texts in said.items() for x in texts for w in NOT_THE_TERM[lang] if w in x.lower()
        ]
        assert wrong == [], lang
