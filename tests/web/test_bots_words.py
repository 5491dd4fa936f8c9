"""Words only in the page (issue 25): the bots send codes (a reason code, a
comparison's key and numbers, a bot's name) and the page says them in its
language from ``web/strings/en.js`` and ``fr.js``. Where Python must say a
sentence itself (``damepique advise``, the analysis's ``reason``), it reads
those same files (``damepique.words``): no copy of a sentence in Python, and
Python says exactly what the page says."""

from __future__ import annotations

import ast
import json
import random
import shutil
import subprocess
from pathlib import Path

from damepique.bots.advice import OUTCOME_KEYS, Comparison, sentence
from damepique.bots.reasons import REASONS, reason_words
from damepique.bots.registry import BOT_INFO
from damepique.engine import CARD_NAMES, PRESETS, Rules
from damepique.words import forms, phrase, words

from .page_words import STRINGS, page_words

SRC = Path(__file__).resolve().parents[2] / "src" / "damepique"
COMPARISON_KEYS = (*OUTCOME_KEYS, "expected_points")


def test_python_reads_every_plain_word_as_the_page_does() -> None:
    for lang, page in page_words().items():
        mine = words(lang)
        assert {k: mine.get(k) for k in page} == page, lang


def test_every_code_the_bots_send_has_words_in_both_languages() -> None:
    codes = [f"reason_{c}" for c in REASONS]
    codes += [f"reason_pass_voids_{s}" for s in ("clubs", "diamonds", "hearts", "spades")]
    for key in (*COMPARISON_KEYS, "queen_heavy"):
        codes += [f"cmp_{key}", f"cmp_{key}_same"]
    codes += [f"level_{name}{about}" for name in BOT_INFO for about in ("", "_about")]
    for lang, page in page_words().items():
        assert [c for c in codes if not page.get(c)] == [], lang
    for name, info in BOT_INFO.items():
        assert set(info) == {"kind"}, name  # /api/options: the kind only, the page names it
    assert page_words()["fr"]["level_shooter"] == "Audacieux"


def _value_strings(path: Path) -> set[str]:
    """The string constants of a module that the code uses, left out: docstrings
    and attribute docstrings (bare string statements), a refusal's English
    ``reason`` (``Refusal(code, reason)``: for programs and logs, the page says
    its ``refusal_CODE``) and an API route's ``summary`` or ``description``
    (the OpenAPI document, for programmers)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant):
            skip.add(id(n.value))
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "Refusal":
            skip.update(id(c) for a in n.args for c in ast.walk(a))
        elif isinstance(n, ast.keyword) and n.arg in ("summary", "description"):
            skip.update(id(c) for c in ast.walk(n.value))
    return {
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in skip
    }


def test_no_sentence_of_the_page_is_copied_in_python() -> None:
    # Every sentence of the pages (plain words with at least two spaces), in either
    # language, looked for in the code of the bots, the server and the score keeper.
    sentences = {v for page in page_words().values() for v in page.values() if v.count(" ") >= 2}
    sentences |= {
        v for lang in ("en", "fr") for f in forms(lang).values() for v in f.values() if v.count(" ") >= 2
    }
    found = []
    for part in ("bots", "server", "scorer"):
        for path in sorted((SRC / part).rglob("*.py")):
            found += [f"{path.relative_to(SRC)}: {s!r}" for s in _value_strings(path) if s in sentences]
    assert found == []


def _page_says(cases: list[dict[str, object]]) -> list[dict[str, str]]:
    """What the page's advice.js and i18n.js say for each case, by Node."""
    node = shutil.which("node")
    assert node is not None, "Node.js reads the pages' strings (scripts/_system.sh installs it)"
    web = STRINGS.parent.as_uri()
    script = (
        "globalThis.localStorage = {getItem: () => null, setItem: () => {}};"
        "globalThis.document = {documentElement: {}};"
        "const i18n = await import(process.argv[1] + '/i18n.js');"
        "const advice = await import(process.argv[1] + '/advice.js');"
        "await i18n.loadLang('en'); await i18n.loadLang('fr');"
        "const cases = JSON.parse(process.argv[2]);"
        "console.log(JSON.stringify(cases.map((c) => { i18n.setLang(c.lang, false); return {"
        "sentence: advice.sentence(c.comparison, c.rules),"
        "reason: i18n.reasonText(c.reason, c.lang, c.phase)}; })));"
    )
    out = subprocess.run(
        [node, "--input-type=module", "-e", script, web, json.dumps(cases)],
        capture_output=True,
        text=True,
        check=True,
    )
    said: list[dict[str, str]] = json.loads(out.stdout)
    return said


def test_python_says_what_the_page_says() -> None:
    rng = random.Random(25)
    values = [
        0.0,
        0.004,
        0.005,
        0.0148,
        0.23,
        0.235,
        0.5,
        1.0,
        1.25,
        2.25,
        2.68,
        2.71,
        -1.35,
        7.05,
        12.95,
        123.45,
    ]
    cases = []
    python = []
    for i in range(160):
        lang = ("en", "fr")[i % 2]
        key = COMPARISON_KEYS[i // 2 % len(COMPARISON_KEYS)]
        rules = PRESETS["black_maria"] if i % 7 == 0 else Rules()
        a = tuple(rng.sample(range(52), rng.choice((1, 3))))
        b = tuple(rng.sample(range(52), len(a)))
        value, other = rng.choice(values), rng.choice(values)
        if i % 5 == 0:
            other = value
        comparison = Comparison(a, b, key, value, other)
        code = REASONS[i % len(REASONS)]
        phase = "pass" if i % 3 == 0 else "play"
        cases.append(
            {
                "lang": lang,
                "comparison": {
                    "cards": [CARD_NAMES[c] for c in a],
                    "other": [CARD_NAMES[c] for c in b],
                    "key": key,
                    "value": value,
                    "other_value": other,
                },
                "rules": rules.to_json(),
                "reason": code,
                "phase": phase,
            }
        )
        python.append(
            {"sentence": sentence(comparison, lang, rules), "reason": reason_words(code, lang, phase)}
        )
    assert _page_says(cases) == python


def _scorer_cases() -> list[tuple[str, dict[str, object]]]:
    """Each score keeper code with params of the kinds the scorer sends (and
    their edge cases: one point, one name, no deal yet, a value of each JSON type)."""
    from damepique.scorer.messages import CODES

    base: dict[str, object] = {
        "count": 7,
        "position": 2,
        "name": "Léa",
        "length": 40,
        "limit": 26,
        "key": "target",
        "expected": 26,
        "value": "x",
        "target": 0,
        "player": "Ann",
        "points": 30,
        "over": 4,
        "total": 24,
        "difference": 2,
        "number": 3,
        "winner": "Ann",
        "winners": ["Ann"],
        "detail": "x",
        "queen": 12,
        "shooter_score": -10,
        "others_score": 26,
        "players": ["Ann", "Bob", "Cy"],
    }
    cases = []
    for code in CODES:
        params = dict(base)
        if code == "points_count":
            params["players"] = 4
        cases.append((code, params))
    cases += [
        ("sum_short", {**base, "difference": 1}),
        ("sum_over", {**base, "difference": 1}),
        ("points_too_many", {**base, "points": 27, "over": 1}),
        ("winner", {**base, "total": 1}),
        ("winner", {**base, "total": 0}),
        ("winner", {**base, "total": -1}),
        ("tie", {**base, "players": ["Cy", "Dee"], "total": 0}),
        ("shared", {**base, "players": ["Cy", "Dee"]}),
        ("playing", {**base, "players": ["Ann"]}),
        ("playing", {**base, "players": ["Ann", "Bob"]}),
        ("no_such_deal", {**base, "count": 0}),
        ("no_such_deal", {**base, "count": 1}),
        ("game_over", {**base, "winner": "Ann", "winners": ["Ann", "Bob"]}),
        ("rules_type", {**base, "value": None}),
        ("rules_type", {**base, "key": "moon", "value": 3.0}),
        ("rules_type", {**base, "key": "no_such_rule", "value": False}),
        ("deck", {**base, "value": [52, "é"]}),
        ("deck", {**base, "value": {"a": 1.5}}),
        ("moon_rule", {**base, "value": True}),
        ("points_not_number", {**base, "value": 2.5}),
        ("player_name_long", {**base, "name": "Zoë « la reine »"}),
    ]
    return cases


def _page_t(cases: list[tuple[str, str, dict[str, object]]]) -> list[str]:
    """What the page's ``t(key, params, lang)`` (web/i18n.js) says for each case, by Node."""
    node = shutil.which("node")
    assert node is not None, "Node.js reads the pages' strings (scripts/_system.sh installs it)"
    script = (
        "globalThis.localStorage = {getItem: () => null, setItem: () => {}};"
        "globalThis.document = {documentElement: {}};"
        "const i18n = await import(process.argv[1] + '/i18n.js');"
        "await i18n.loadLang('en'); await i18n.loadLang('fr');"
        "console.log(JSON.stringify(JSON.parse(process.argv[2]).map(([k, l, p]) => i18n.t(k, p, l))));"
    )
    out = subprocess.run(
        [node, "--input-type=module", "-e", script, STRINGS.parent.as_uri(), json.dumps(cases)],
        capture_output=True,
        text=True,
        check=True,
    )
    said: list[str] = json.loads(out.stdout)
    return said


def test_the_score_keepers_words_are_data_python_reads() -> None:
    # One copy: every scm_CODE of the pages is words (no function of the params),
    # which the server reads for its English reason (scorer/messages.py keeps none).
    from damepique.scorer import messages
    from damepique.words import has

    assert [(lang, c) for lang in ("en", "fr") for c in messages.CODES if not has(f"scm_{c}", lang)] == []
    assert not [n for n, v in vars(messages).items() if isinstance(v, dict | str) and not n.startswith("__")]


def test_the_score_keepers_sentences_are_the_pages_in_both_languages() -> None:
    # Python and the page fill the same words (t() and damepique.words): word for word
    # the same for every code, its edge cases, both languages; the reason is the English.
    from damepique.scorer.messages import render

    cases = [(f"scm_{code}", lang, params) for code, params in _scorer_cases() for lang in ("en", "fr")]
    python = [phrase(key, lang, **params) for key, lang, params in cases]
    assert _page_t(cases) == python
    assert [render(c, p) for c, p in _scorer_cases()] == python[::2]


def test_every_entry_of_forms_is_chosen_as_the_page_chooses() -> None:
    # Each plural entry of both languages, for counts where English and French differ.
    cases = [
        (key, lang, {"n": n, "w": n, "total": "T", "names": "Ann"})
        for lang in ("en", "fr")
        for key in forms(lang)
        for n in (0, 1, 2, -1, 5, 1_000_000)
    ]
    assert len(cases) > 200
    assert _page_t(cases) == [phrase(key, lang, **params) for key, lang, params in cases]
    # ...and Python reads every entry of forms the pages have.
    script = (
        "const t = (await import(process.argv[1] + '/' + process.argv[2] + '.js')).default;"
        "const isForms = (v) => typeof v === 'object' && !Array.isArray(v);"
        "console.log(JSON.stringify(Object.keys(t).filter((k) => isForms(t[k]))));"
    )
    for lang in ("en", "fr"):
        node = shutil.which("node")
        assert node is not None
        out = subprocess.run(
            [node, "--input-type=module", "-e", script, STRINGS.as_uri(), lang],
            capture_output=True,
            text=True,
            check=True,
        )
        assert sorted(forms(lang)) == sorted(json.loads(out.stdout)), lang


def test_every_name_the_server_gives_a_seat_has_the_pages_words() -> None:
    # The server names seats in English when nobody chose a name (a solo game's
    # "You" and its bots, a daily deal's bots, a guest's "Player" at a table):
    # names kept in the game's record, which the page says in its language (seat_NAME).
    from damepique.server.daily.service import BOTS
    from damepique.server.solo.routes import BOT_NAMES

    names = {"You", "Player", *BOTS, *(n for seats in BOT_NAMES.values() for n in seats)}
    words_ = page_words()
    assert {lang: sorted(n for n in names if not words_[lang].get(f"seat_{n}")) for lang in words_} == {
        "en": [],
        "fr": [],
    }
    assert words_["fr"]["seat_Player"] == "Joueur"
