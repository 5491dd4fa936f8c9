"""Every refusal code the server can send has French words on the page
(``refusal_CODE`` in ``web/strings/fr.js``): a code added to the server without
them would show French players an English reason."""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "damepique"

# Where the server names a refusal's code: a ``Refusal`` built with a literal
# code, and the accounts' (None, code, reason) refusals.
RAISED = re.compile(r'(?:Refusal|WireError)\(\s*"([a-z_]+)"')
RETURNED = re.compile(r'return None, "([a-z_]+)", "')
CONSTANT = re.compile(r'^TOO_MANY_CODES = "([a-z_]+)"', re.M)


def server_codes() -> set[str]:
    codes: set[str] = set()
    # The protocol's own refusals (a message that is not one) are the wire's.
    for path in [*(SRC / "server").rglob("*.py"), *(SRC / "wire").rglob("*.py")]:
        text = path.read_text(encoding="utf-8")
        for pattern in (RAISED, RETURNED, CONSTANT):
            codes.update(pattern.findall(text))
    return codes


def page_codes() -> set[str]:
    text = (SRC / "web" / "strings" / "fr.js").read_text(encoding="utf-8")
    return set(re.findall(r"^  refusal_([a-z_]+): ", text, re.M))


def test_every_refusal_of_the_server_has_french_words() -> None:
    codes = server_codes()
    assert {"table_full", "not_your_turn", "too_many_codes", "nickname_taken", "stale_rematch"} <= codes
    assert codes - page_codes() == set()
