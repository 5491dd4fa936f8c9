"""One term for one idea across the page and the docs, in both languages
(issue 25): playing with other people is "Play with others" (the nav, the
quick match's button and heading), the computer players' strength is
"Computer level" (the home page and a new table's form)."""

from __future__ import annotations

from pathlib import Path

from .page_words import page_words

DOCS = Path(__file__).resolve().parents[2] / "docs"
OTHER_TERMS = {"en": ("with people", "bot level"), "fr": ("à plusieurs", "niveau des robots")}


def test_one_term_for_playing_with_others_and_for_the_computers_level() -> None:
    for lang, words in page_words().items():
        assert words["mp_bot_level"] == words["level"], lang
        assert words["quick_button"].startswith(words["nav_friends"]), lang
        assert words["quick_heading"].startswith(words["nav_friends"]), lang
        assert [(k, v) for k, v in words.items() for term in OTHER_TERMS[lang] if term in v.lower()] == [], (
            lang
        )


def test_the_docs_name_them_as_the_page_does() -> None:
    found = [
        f"{path.name}: {term}"
        for path in sorted(DOCS.rglob("*.md"))
        for term in ("play with people", "bot level")
        if term in path.read_text(encoding="utf-8").lower()
    ]
    assert found == []
