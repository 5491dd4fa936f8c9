"""The page says the bots' words: each advice reason (``reason_CODE``) and
each comparison sentence (``cmp_KEY``, the templates of ``bots.advice.SENTENCES``)
in ``web/strings/en.js`` and ``fr.js`` is the bots' own, in both languages, so
that the page and ``damepique advise`` never tell a learner two things."""

from __future__ import annotations

from damepique.bots.advice import SENTENCES
from damepique.bots.reasons import REASONS, WORDS
from damepique.bots.registry import BOT_INFO

from .page_words import page_words


def test_every_reason_and_sentence_is_the_bots() -> None:
    words = page_words()
    for lang in ("en", "fr"):
        page = words[lang]
        assert {code: page.get(f"reason_{code}") for code in REASONS} == {
            code: WORDS[lang][code] for code in REASONS
        }
        assert {key: page.get(f"cmp_{key}") for key in SENTENCES[lang]} == SENTENCES[lang]


def test_every_bot_has_the_pages_own_name_and_words_and_the_server_none() -> None:
    # The page says each bot's name and what it does in its own words
    # (level_NAME, level_NAME_about); /api/options lists each bot's kind only
    # (issue 25: words only in the page, no server copy to keep in step).
    words = page_words()
    for lang in ("en", "fr"):
        page = words[lang]
        for name, info in BOT_INFO.items():
            assert page.get(f"level_{name}"), (lang, name)
            assert page.get(f"level_{name}_about"), (lang, name)
            assert set(info) == {"kind"}, name
    assert words["fr"]["level_shooter"] == "Audacieux" and words["en"]["level_shooter"] == "Bold"
