"""Every word of the multiplayer pages exists in English and in French, and
every quick message the server accepts has its words (web/strings/en.js and
fr.js, read by Node)."""

from __future__ import annotations

import re
from pathlib import Path

from damepique.server.tables.session import QUICK_MESSAGES

from ..web.page_words import page_string_keys

WEB = Path(__file__).resolve().parents[2] / "src" / "damepique" / "web"


def test_every_new_word_in_both_languages() -> None:
    en, fr = page_string_keys()
    assert {k for k in en if k.startswith(("mp_", "acc_", "lb_", "pf_", "qm_", "nav_"))} <= fr
    used: set[str] = set()
    for module in ("tables.js", "friends.js", "table_words.js", "accounts.js", "app.js"):
        used |= set(re.findall(r"t\(\"((?:mp|acc|lb|pf|qm|nav)_\w+)\"", (WEB / module).read_text()))
    used = {k for k in used if not k.endswith("_")}
    assert len(used) > 30
    assert used <= en, used - en
    assert {f"qm_{q}" for q in QUICK_MESSAGES} <= en
    for kind in ("timeout", "stand_in", "back", "left"):
        assert f"mp_notice_{kind}" in en
