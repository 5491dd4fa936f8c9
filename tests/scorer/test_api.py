"""The score keeper's JSON API, in-process, including bad input and the live link."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import threading

import pytest
from fastapi.testclient import TestClient

from damepique.server.app import create_app

FOUR = ["Ann", "Bob", "Cy", "Dee"]


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "sheets.sqlite3"


@pytest.fixture
def client(db_path):
    with TestClient(create_app(f"sqlite+aiosqlite:///{db_path}")) as c:
        yield c


def new_sheet(client, players=FOUR, **rules):
    r = client.post("/api/sheets", json={"players": players, "rules": rules})
    assert r.status_code == 201, r.text
    return r.json()


def add(client, sheet, **entry):
    return client.post(f"/api/sheets/{sheet['id']}/deals", json=entry)


# -- the happy path ---------------------------------------------------------------------------


def test_create_and_read_a_sheet(client):
    sheet = new_sheet(client, target=50, jack_of_diamonds=True)
    assert sheet["players"] == FOUR
    assert sheet["rules"] == {
        "target": 50,
        "moon": "others",
        "jack_of_diamonds": True,
        "queen_points": 13,
        "black_maria": False,
        "deck": 52,
        "tie": "play_on",
    }
    assert sheet["deal_total"] == 16
    assert sheet["next_deal"] == {"number": 1, "pass": "left"}
    assert sheet["editable"] is True
    again = client.get(f"/api/sheets/{sheet['id']}").json()
    assert again["read_id"] == sheet["read_id"]
    assert again["totals"] == [0, 0, 0, 0]


def test_rules_default_when_left_out(client):
    r = client.post("/api/sheets", json={"players": ["A", "B", "C"]})
    assert r.status_code == 201
    assert r.json()["rules"]["target"] == 100
    assert r.json()["deal_total"] == 26


def test_enter_deals_moon_totals_and_end(client):
    sheet = new_sheet(client, target=50)
    r = add(client, sheet, points=[5, 8, 13, 0])
    assert r.status_code == 201
    assert r.json()["totals"] == [5, 8, 13, 0]
    r = add(client, sheet, moon="Dee")
    body = r.json()
    assert body["totals"] == [31, 34, 39, 0]
    assert body["deals"][1]["moon"] == 3
    assert body["deals"][1]["pass"] == "right"
    assert body["leaders"] == [3]
    assert body["leader"] == 3
    assert body["next_deal"]["pass"] == "across"
    r = add(client, sheet, points=[0, 20, 6, 0])
    body = r.json()
    assert body["over"] is True
    assert body["winner"] == 3
    assert body["status"]["code"] == "winner"
    # The page says it from code and params (scm_winner): the server sends no sentence.
    assert body["status"] == {"code": "winner", "params": {"player": "Dee", "total": 0}}
    # Once over, no next deal (nor pass) is announced.
    assert body["next_deal"] is None and body["winners"] == [3]
    r = add(client, sheet, points=[0, 20, 6, 0])
    assert r.status_code == 409
    assert r.json()["kind"] == "game_over"


def test_tie_is_reported(client):
    sheet = new_sheet(client, target=50)
    add(client, sheet, points=[25, 1, 0, 0])
    body = add(client, sheet, points=[25, 1, 0, 0]).json()
    assert body["over"] is False
    assert body["tied"] == [2, 3]
    assert body["status"] == {"code": "tie", "params": {"players": ["Cy", "Dee"], "total": 0}}


def test_tie_share_ends_the_game_with_both_winners(client):
    sheet = new_sheet(client, target=50, tie="share")
    add(client, sheet, points=[25, 1, 0, 0])
    body = add(client, sheet, points=[25, 1, 0, 0]).json()
    assert (body["over"], body["winner"], body["winners"], body["tied"]) == (True, None, [2, 3], [])
    assert body["next_deal"] is None and body["status"]["code"] == "shared"
    assert body["status"]["params"] == {"players": ["Cy", "Dee"], "total": 0}
    r = add(client, sheet, points=[25, 1, 0, 0])
    assert r.status_code == 409
    assert r.json()["reason"] == ("the game is over: Cy and Dee have won. Edit or delete a deal to go on")


def test_moon_with_the_jack_or_not_is_asked_and_either_reading_is_saved(client):
    # With the J♦, 16 0 0 0 reads as Ann's moon with the J♦ too (-10 and 26 to
    # each other) or an ordinary deal (Q♠ and 3 hearts to Ann, the J♦ and 10
    # hearts to someone else): the API asks, with both readings as entries.
    sheet = new_sheet(client, jack_of_diamonds=True)
    r = add(client, sheet, points=[16, 0, 0, 0])
    assert r.status_code == 422
    error = r.json()
    assert (error["kind"], error["code"], error["player"]) == ("ambiguous", "moon_or_ordinary", 0)
    moon, ordinary = error["params"]["readings"]
    assert moon == {"entry": {"moon": 0, "jack": 0}, "points": [-10, 26, 26, 26]}
    assert ordinary == {"entry": {"points": [16, 0, 0, 0], "ordinary": True}, "points": [16, 0, 0, 0]}
    assert client.get(f"/api/sheets/{sheet['id']}").json()["deals"] == []  # nothing saved
    body = add(client, sheet, **moon["entry"]).json()
    assert body["totals"] == [-10, 26, 26, 26] and body["deals"][0]["moon"] == 0
    body = add(client, sheet, **ordinary["entry"]).json()
    assert body["totals"] == [6, 26, 26, 26] and body["deals"][1]["moon"] is None
    assert body["deals"][1]["entry"] == {"points": [16, 0, 0, 0], "ordinary": True}
    # The same answer when correcting a deal.
    r = client.put(f"/api/sheets/{sheet['id']}/deals/1", json={"points": [0, 0, 16, 0]})
    assert r.status_code == 422 and r.json()["kind"] == "ambiguous"


def test_a_36_card_sheet(client):
    # The 36-card game: nine hearts 1 each, Q♠ 5, the last trick 1: 15 a deal.
    sheet = new_sheet(client, deck=36)
    assert sheet["rules"]["queen_points"] == 5 and (sheet["deal_total"], sheet["moon_points"]) == (15, 15)
    assert add(client, sheet, points=[6, 4, 5, 0]).json()["totals"] == [6, 4, 5, 0]
    assert add(client, sheet, moon="Cy").json()["totals"] == [21, 19, 5, 15]
    r = add(client, sheet, points=[6, 4, 6, 0])
    assert r.json()["reason"] == "the points add up to 16, a deal gives 15: 1 point too many"


def test_moon_by_position_and_jack(client):
    sheet = new_sheet(client, jack_of_diamonds=True)
    body = add(client, sheet, moon=0, jack="Cy").json()
    assert body["totals"] == [0, 26, 16, 26]
    assert body["deals"][0]["jack"] == 2


def test_refused_entry_says_what_is_wrong_and_saves_nothing(client):
    sheet = new_sheet(client)
    r = add(client, sheet, points=[5, 8, 11, 0])
    assert r.status_code == 422
    body = r.json()
    assert body["reason"] == "the points add up to 24, a deal gives 26: 2 points are missing"
    assert body["kind"] == "bad_entry"
    assert body["code"] == "sum_short"
    assert body["params"] == {"total": 24, "expected": 26, "difference": 2}
    assert "messages" not in body and "detail" not in body  # the words are the page's (scm_CODE)
    assert client.get(f"/api/sheets/{sheet['id']}").json()["deals"] == []


def test_negative_points_name_the_player(client):
    sheet = new_sheet(client)
    body = add(client, sheet, points=[13, -3, 16, 0]).json()
    assert body["player"] == 1
    assert body["code"] == "points_negative"


def test_edit_delete_undo(client):
    sheet = new_sheet(client)
    add(client, sheet, points=[5, 8, 13, 0])
    add(client, sheet, points=[10, 0, 3, 13])
    sid = sheet["id"]
    r = client.put(f"/api/sheets/{sid}/deals/1", json={"moon": "Dee"})
    assert r.status_code == 200
    assert r.json()["totals"] == [36, 26, 29, 13]
    r = client.put(f"/api/sheets/{sid}/deals/1", json={"points": [1, 1, 1, 1]})
    assert r.status_code == 422
    assert r.json()["code"] == "sum_short"
    r = client.delete(f"/api/sheets/{sid}/deals/2")
    assert r.json()["totals"] == [26, 26, 26, 0]
    assert r.json()["can_undo"] is True
    assert client.post(f"/api/sheets/{sid}/undo").json()["totals"] == [36, 26, 29, 13]
    assert client.post(f"/api/sheets/{sid}/undo").json()["totals"] == [15, 8, 16, 13]
    assert client.post(f"/api/sheets/{sid}/undo").json()["totals"] == [5, 8, 13, 0]
    assert client.post(f"/api/sheets/{sid}/undo").json()["totals"] == [0, 0, 0, 0]
    r = client.post(f"/api/sheets/{sid}/undo")
    assert r.status_code == 409
    assert r.json()["kind"] == "nothing_to_undo"


def test_sheet_survives_a_restart(db_path):
    url = f"sqlite+aiosqlite:///{db_path}"
    with TestClient(create_app(url)) as c:
        sheet = new_sheet(c)
        add(c, sheet, points=[5, 8, 13, 0])
    with TestClient(create_app(url)) as c:
        assert c.get(f"/api/sheets/{sheet['id']}").json()["totals"] == [5, 8, 13, 0]
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_concurrent_entries_are_all_kept(client):
    sheet = new_sheet(client, target=10_000)
    errors = []

    def enter():
        for _ in range(5):
            r = add(client, sheet, points=[5, 8, 13, 0])
            if r.status_code != 201:
                errors.append(r.text)

    threads = [threading.Thread(target=enter) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert client.get(f"/api/sheets/{sheet['id']}").json()["totals"] == [100, 160, 260, 0]


# -- shared link, live updates, export -----------------------------------------------------------------


def test_shared_link_is_read_only(client):
    sheet = new_sheet(client)
    add(client, sheet, points=[5, 8, 13, 0])
    shared = client.get(f"/api/sheets/shared/{sheet['read_id']}").json()
    assert shared["id"] is None
    assert shared["editable"] is False
    assert "edit" not in shared["links"]
    assert shared["totals"] == [5, 8, 13, 0]
    # The read id does not open the editing routes.
    assert add(client, {"id": sheet["read_id"]}, points=[5, 8, 13, 0]).status_code == 404
    assert client.get(f"/api/sheets/{sheet['read_id']}").status_code == 404


def test_live_link_sends_each_change(client):
    sheet = new_sheet(client)
    with client.websocket_connect(f"/api/sheets/shared/{sheet['read_id']}/live") as ws:
        first = ws.receive_json()
        assert first["type"] == "sheet"
        assert first["sheet"]["totals"] == [0, 0, 0, 0]
        assert first["sheet"]["id"] is None
        add(client, sheet, points=[5, 8, 13, 0])
        assert ws.receive_json()["sheet"]["totals"] == [5, 8, 13, 0]
        client.post(f"/api/sheets/{sheet['id']}/undo")
        assert ws.receive_json()["sheet"]["deals"] == []


def test_live_link_to_an_unknown_sheet(client):
    with client.websocket_connect("/api/sheets/shared/nope/live") as ws:
        # The protocol's one error message (docs/protocol.md), as on a table's socket.
        assert ws.receive_json() == {
            "v": 2,
            "type": "error",
            "code": "no_such_sheet",
            "reason": "there is no sheet at this address (check the link)",
        }


def test_export_csv_and_json(client):
    sheet = new_sheet(client)
    add(client, sheet, points=[5, 8, 13, 0])
    add(client, sheet, moon="Dee")
    r = client.get(sheet["links"]["csv"])
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/csv")
    assert "attachment" in r.headers["content-disposition"]
    rows = list(csv.reader(io.StringIO(r.text)))
    assert rows[0] == ["deal", "pass", "moon", *FOUR]
    assert rows[-1] == ["total", "", "", "31", "34", "39", "0"]
    r = client.get(sheet["links"]["json"])
    data = json.loads(r.text)
    assert data["format"] == "damepique-sheet/1"
    assert data["totals"] == [31, 34, 39, 0]
    shared = client.get(f"/api/sheets/shared/{sheet['read_id']}/export.csv")
    assert shared.text == client.get(sheet["links"]["csv"]).text
    assert client.get(f"/api/sheets/{sheet['id']}/export.xml").status_code == 422


# -- bad input ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [[], ["A"], ["A", "B"], [f"P{i}" for i in range(7)]])
def test_wrong_player_counts(client, players):
    r = client.post("/api/sheets", json={"players": players})
    assert r.status_code == 422
    assert r.json()["code"] == "players_count"
    assert r.json()["reason"] == f"a sheet needs 3 to 6 players, not {len(players)}"


@pytest.mark.parametrize(
    "body",
    [
        {"players": "Ann,Bob,Cy"},
        {"players": [1, 2, 3]},
        {"players": ["A", "B", "C"], "rules": {"target": "lots"}},
        {"players": ["A", "B", "C"], "rules": {"moon": "sun"}},
        {"players": ["A", "B", "C"], "rules": {"jokers": True}},
        {"players": ["A", "B", "C"], "colour": "red"},
        {"players": [f"P{i}" for i in range(1000)]},
    ],
)
def test_bad_sheet_bodies(client, body):
    r = client.post("/api/sheets", json=body)
    assert r.status_code == 422
    assert r.json()["reason"]


@pytest.mark.parametrize(
    ("rules", "code"),
    [
        ({"target": 0}, "target_range"),
        ({"target": 10**12}, "target_range"),
        ({"queen_points": 11}, "queen_points"),
        ({"deck": 32}, "deck"),
        ({"deck": 36, "queen_points": 13}, "queen_points_36"),
    ],
)
def test_rules_out_of_range(client, rules, code):
    r = client.post("/api/sheets", json={"players": FOUR, "rules": rules})
    assert r.status_code == 422
    assert r.json()["code"] == code


def test_not_json_at_all(client):
    r = client.post("/api/sheets", content=b"players=Ann", headers={"content-type": "application/json"})
    assert r.status_code == 422


@pytest.mark.parametrize(
    "entry",
    [
        {"points": ["five", 8, 13, 0]},
        {"points": ["5", 8, 13, 0]},
        {"points": [5.5, 8, 13, 0]},
        {"points": [None, 8, 13, 0]},
        {"points": "26"},
        {"points": [5, 8, 13, 0], "bonus": 1},
    ],
)
def test_non_numbers_are_refused(client, entry):
    sheet = new_sheet(client)
    r = add(client, sheet, **entry)
    assert r.status_code == 422
    assert r.json()["reason"]


@pytest.mark.parametrize(
    ("entry", "code"),
    [
        ({"points": [13, 13]}, "points_count"),
        ({"points": [13, 13, 0, 0, 0]}, "points_count"),
        ({"points": [10**18, 0, 0, 0]}, "points_too_many"),
        ({"points": [-(10**18), 0, 0, 26]}, "points_negative"),
        ({}, "entry_empty"),
        ({"moon": "Zed"}, "unknown_player"),
        ({"moon": 9}, "unknown_player"),
        ({"moon": 1, "points": [0, 26, 0, 0]}, "entry_both"),
    ],
)
def test_bad_entries(client, entry, code):
    sheet = new_sheet(client)
    r = add(client, sheet, **entry)
    assert r.status_code == 422
    assert r.json()["code"] == code


def test_unknown_sheet_and_deal(client):
    for method, path in [
        ("get", "/api/sheets/nope"),
        ("post", "/api/sheets/nope/undo"),
        ("delete", "/api/sheets/nope/deals/1"),
        ("get", "/api/sheets/nope/export.csv"),
        ("get", "/api/sheets/shared/nope"),
    ]:
        r = getattr(client, method)(path)
        assert r.status_code == 404, path
        assert r.json()["kind"] == "no_such_sheet"
    r = add(client, {"id": "nope"}, points=[5, 8, 13, 0])
    assert r.status_code == 404
    sheet = new_sheet(client)
    r = client.delete(f"/api/sheets/{sheet['id']}/deals/3")
    assert r.status_code == 404
    assert r.json()["kind"] == "no_such_deal"
    assert client.delete(f"/api/sheets/{sheet['id']}/deals/abc").status_code == 422
    assert client.get("/api/sheets/" + "x" * 500).status_code == 422


# -- the app ----------------------------------------------------------------------------------------------


def test_routes_are_in_the_apps_openapi_document(tmp_path):
    from damepique.server.app import create_app

    app = create_app(f"sqlite+aiosqlite:///{tmp_path / 'app.sqlite3'}")
    with TestClient(app) as c:
        doc = c.get("/openapi.json").json()
        assert "/api/sheets" in doc["paths"]
        assert "/api/sheets/{sheet_id}/deals" in doc["paths"]
        assert "/api/sheets/{sheet_id}/deals/{number}" in doc["paths"]
        assert "SheetOut" in doc["components"]["schemas"]
        assert new_sheet(c)["players"] == FOUR
        assert c.get("/scorer/").status_code == 200
