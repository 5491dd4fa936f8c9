"""One refusal shape over HTTP (issue 25): the score keeper, uploads, a body of
the wrong shape, the shield and every other route answer a refusal alike
(``docs/protocol.md``, Refusals over HTTP), with the status of one table, and
no sentence in any language but the English ``reason``: the page has the words."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damepique.server.app import create_app
from damepique.server.errors import STATUS

ROOT = Path(__file__).resolve().parents[2]
KEYS = {"error", "code", "reason", "params", "seat", "card", "kind", "player"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    app = create_app(str(tmp_path_factory.mktemp("shape") / "shape.sqlite3"))
    with TestClient(app) as c:
        yield c


def refusal(r: Any) -> dict[str, Any]:
    body = r.json()
    assert set(body) <= KEYS, body
    assert body["error"] == body["code"] and isinstance(body["code"], str)
    assert isinstance(body["reason"], str) and body["reason"]
    assert isinstance(body["params"], dict)
    expected = STATUS.get(body["code"], STATUS.get(body.get("kind", ""), 400))
    assert r.status_code == expected, (r.status_code, body)
    return body


def test_every_kind_of_refusal_has_the_one_shape(client: TestClient) -> None:
    sheet = client.post("/api/sheets", json={"players": ["Ann", "Bob", "Cy", "Dee"]}).json()
    # The score keeper: its code, params, kind and player; no sentences of its own.
    short = refusal(client.post(f"/api/sheets/{sheet['id']}/deals", json={"points": [5, 8, 11, 0]}))
    assert (short["code"], short["kind"], short["params"]) == (
        "sum_short", "bad_entry", {"total": 24, "expected": 26, "difference": 2},
    )  # fmt: skip
    negative = refusal(client.post(f"/api/sheets/{sheet['id']}/deals", json={"points": [13, -3, 16, 0]}))
    assert negative["player"] == 1
    assert refusal(client.get("/api/sheets/nope"))["kind"] == "no_such_sheet"
    # A body of the wrong shape, at the score keeper (FastAPI's models).
    fields = refusal(client.post("/api/sheets", json={"players": "Ann,Bob,Cy"}))
    assert fields["code"] == "bad_body" and fields["params"]["fields"][0]["loc"][-1] == "players"
    # An uploaded record that does not replay: the referee's kind, where in params.
    bad = refusal(
        client.post(
            "/api/replay", content=b'{"format": "nope"}', headers={"content-type": "application/json"}
        )
    )
    assert bad["code"] == "bad_json"
    # Routes of the app, and the shield in front of them.
    assert refusal(client.post("/api/games", json={"preset": "nope"}))["code"] == "bad_rules"
    assert refusal(client.get("/api/tables/ABCD-EFGH"))["code"] == "no_table"
    assert refusal(client.post("/api/games", content=b"{}"))["code"] == "unsupported_media_type"
    assert (
        refusal(client.post("/api/games", json={}, headers={"origin": "https://evil.test"}))["code"]
        == "bad_origin"
    )
    for body in (short, negative, fields, bad):
        assert "messages" not in body and "detail" not in body


def test_the_status_table_in_the_docs_is_the_server_s() -> None:
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    section = text[text.index("### Refusals over HTTP") :]
    section = section[: section.index("\n## ")]
    documented: dict[str, int] = {}
    for status, codes in re.findall(r"^\| (\d{3}) \| (.+) \|$", section, re.M):
        for code in re.findall(r"`([a-z_]+)`", codes):
            documented[code] = int(status)
    assert documented == STATUS


def test_a_refusal_s_params_hold_no_words_of_the_page() -> None:
    """A rule of the wrong type: the key and the value, no words in any language
    (the pages' words say what the rule takes by its key, scm_rule_takes, and
    the English reason is read from them: tests/web/test_bots_words.py)."""
    from damepique.scorer import ScoreError, SheetRules

    with pytest.raises(ScoreError) as e:
        SheetRules.from_json({"target": "100"})
    assert e.value.params == {"key": "target", "value": "100"}
    assert e.value.reason == 'target must be a whole number, not "100"'
