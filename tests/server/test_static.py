"""The page's files as a browser gets them (``server/static.py``): the HTML
names one content version of its modules, that version is cached for good,
everything else is revalidated, and text goes out compressed."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from damepique.server.app import create_app
from damepique.server.static import WEB, static_imports, version


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("static") / "test.sqlite3"
    with TestClient(create_app(f"sqlite+aiosqlite:///{db}")) as c:
        yield c


@pytest.mark.parametrize(("page", "entry"), [("/", "app.js"), ("/scorer/", "scorer/app.js")])
def test_a_page_names_its_modules_by_version_and_is_revalidated(
    client: TestClient, page: str, entry: str
) -> None:
    r = client.get(page)
    assert r.status_code == 200 and r.headers["cache-control"] == "no-cache"
    prefix = f"/static/v/{version()}/"
    assert f'src="{prefix}{entry}"' in r.text
    assert not re.search(r'"/static/(?!v/)', r.text), "a link to an unversioned file"


def test_a_page_preloads_every_module_it_imports_and_the_visitors_words(client: TestClient) -> None:
    prefix = f"/static/v/{version()}/"
    preloads = re.findall(r'<link rel="modulepreload" href="([^"]+)">', client.get("/").text)
    # rules_form.js is imported by home.js, which app.js imports: found at any depth.
    for module in ("home.js", "rules_form.js", "prefs.js", "strings/en.js"):
        assert prefix + module in preloads
    # The table is imported when a game opens (import()): not part of the first visit.
    assert prefix + "table.js" not in preloads
    assert prefix + "app.js" not in preloads  # the page's own script is not named twice
    assert len(preloads) == len(set(preloads))
    french = client.get("/", headers={"Accept-Language": "fr-FR,fr;q=0.9"}).text
    assert prefix + "strings/fr.js" in french and prefix + "strings/en.js" not in french
    assert '<link rel="preload" href="/api/options" as="fetch" crossorigin>' in french
    scorer = re.findall(r'<link rel="modulepreload" href="([^"]+)">', client.get("/scorer/").text)
    assert prefix + "scorer/rules.js" in scorer


def test_static_imports_follow_the_graph_not_dynamic_imports(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.js").write_text('import { b } from "./sub/b.js";\nimport("./d.js");\n')
    (tmp_path / "sub" / "b.js").write_text('import "../c.js";\nexport const b = 1;\n')
    (tmp_path / "c.js").write_text('import { b } from "./sub/b.js";\n')
    (tmp_path / "d.js").write_text("")
    assert static_imports(tmp_path, "a.js") == ["sub/b.js", "c.js"]


def test_a_versioned_file_is_immutable_and_compressed(client: TestClient) -> None:
    r = client.get(f"/static/v/{version()}/table.js", headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200
    assert "immutable" in r.headers["cache-control"]
    assert r.headers["content-encoding"] == "gzip"
    assert r.content == (WEB / "table.js").read_bytes()  # httpx decodes it back
    # A module imported from it resolves under the same version.
    assert client.get(f"/static/v/{version()}/dom.js").status_code == 200


def test_an_old_version_is_not_served_as_the_new_one(client: TestClient) -> None:
    assert client.get("/static/v/000000000000/app.js").status_code == 404


def test_plain_paths_are_revalidated(client: TestClient) -> None:
    r = client.get("/static/pages/rules.en.html", headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200 and r.headers["cache-control"] == "no-cache"
    assert r.headers["content-encoding"] == "gzip"
    assert client.get("/static/app.js").content == (WEB / "app.js").read_bytes()


def test_the_version_follows_every_byte(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text("export const a = 1;\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.css").write_text("b {}\n")
    first = version(tmp_path)
    (tmp_path / "sub" / "b.css").write_text("b { }\n")
    assert version(tmp_path) != first and re.fullmatch(r"[0-9a-f]{12}", first)
