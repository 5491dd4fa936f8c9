"""The page's table-code check (``web/codes.js``) says what ``damepique.wire``
says, on the same inputs: one rule, a copy on each side of the socket."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from damepique import wire

CODES = Path(__file__).resolve().parents[2] / "src" / "damepique" / "web" / "codes.js"

INPUTS = [
    "K7QM4XPA", "k7qm-4xpa", " K7QM 4XPA ", "K7QM\t4XPA", "K7QM--4XPA", "K7QM4XP", "K7QM4XPAB",
    "K7QM0XPA", "K7QMOXPA", "K7QM1XPA", "K7QMIXPA", "K7QMLXPA", "", "--------", "22222222",
    "ZZZZ-ZZZZ", "k7qm_4xpa", "K7QM4XPÀ", "x" * 50, "K7QM-4XPA" + " " * 35,
]  # fmt: skip


def test_the_page_and_the_wire_read_table_codes_alike() -> None:
    node = shutil.which("node")
    assert node is not None, "Node.js is needed for the front end's tests (scripts/_system.sh installs it)"
    script = (
        f"import {{ normalizeCode, ALPHABET, CODE_LENGTH }} from {json.dumps(CODES.as_uri())};\n"
        f"const inputs = {json.dumps(INPUTS)};\n"
        "console.log(JSON.stringify({codes: inputs.map(normalizeCode), ALPHABET, CODE_LENGTH}));\n"
    )
    done = subprocess.run(
        [node, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    page = json.loads(done.stdout)
    assert (page["ALPHABET"], page["CODE_LENGTH"]) == (wire.ALPHABET, wire.CODE_LENGTH)
    assert page["codes"] == [wire.normalize_code(text) for text in INPUTS]
    assert wire.normalize_code("k7qm-4xpa") == "K7QM4XPA"  # the inputs hold codes that pass
