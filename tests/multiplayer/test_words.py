"""Every word of the multiplayer pages exists in English and in French, and
every quick message the server accepts has its words."""

from __future__ import annotations

import re
from pathlib import Path

from damepique.server.tables.session import QUICK_MESSAGES

WEB = Path(__file__).resolve().parents[2] / "src" / "damepique" / "web"


def _keys(block: str) -> set[str]:
    return set(re.findall(r"(?:^|[\s,{])(\w+): \"", block, re.M))


def test_every_new_word_in_both_languages() -> None:
    text = (WEB / "mp_strings.js").read_text(encoding="utf-8")
    en = text[text.index("  en: {") : text.index("  fr: {")]
    fr = text[text.index("  fr: {") :]
    assert _keys(en) == _keys(fr)
    used = set(re.findall(r"t\(\"((?:mp|acc|lb|pf|qm|nav)_\w+)\"", (WEB / "multiplayer.js").read_text()))
    used |= set(re.findall(r"t\(\"((?:mp|acc|lb|pf|qm|nav)_\w+)\"", (WEB / "app.js").read_text()))
    old_nav = {"nav_play", "nav_history", "nav_rules", "nav_guide", "nav_scorer"}  # i18n.js has these
    used = {k for k in used if not k.endswith("_") and k not in old_nav}
    assert used <= _keys(en), used - _keys(en)
    assert {f"qm_{q}" for q in QUICK_MESSAGES} <= _keys(en)
    for kind in ("timeout", "stand_in", "back", "left"):
        assert f"mp_notice_{kind}" in _keys(en)
