"""The page says the bots' words: each advice reason (``reason_CODE``) and
each comparison sentence (``cmp_KEY``, the templates of ``bots.advice.SENTENCES``)
in ``web/strings/en.js`` and ``fr.js`` is the bots' own, in both languages, so
that the page and ``damepique advise`` never tell a learner two things."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from damepique.bots.advice import SENTENCES
from damepique.bots.reasons import REASONS, WORDS

STRINGS = Path(__file__).resolve().parents[2] / "src" / "damepique" / "web" / "strings"


def page_words() -> dict[str, dict[str, object]]:
    node = shutil.which("node")
    assert node is not None, "Node.js reads the pages' strings (scripts/_system.sh installs it)"
    script = (
        "const [en, fr] = await Promise.all(['en', 'fr']"
        ".map((l) => import(process.argv[1] + '/' + l + '.js')));"
        "const plain = (t) => Object.fromEntries(Object.entries(t.default)"
        ".filter(([, v]) => typeof v === 'string'));"
        "console.log(JSON.stringify({en: plain(en), fr: plain(fr)}));"
    )
    out = subprocess.run(
        [node, "--input-type=module", "-e", script, STRINGS.as_uri()],
        capture_output=True,
        text=True,
        check=True,
    )
    words: dict[str, dict[str, object]] = json.loads(out.stdout)
    return words


def test_every_reason_and_sentence_is_the_bots() -> None:
    words = page_words()
    for lang in ("en", "fr"):
        page = words[lang]
        assert {code: page.get(f"reason_{code}") for code in REASONS} == {
            code: WORDS[lang][code] for code in REASONS
        }
        assert {key: page.get(f"cmp_{key}") for key in SENTENCES[lang]} == SENTENCES[lang]
