"""The page stays light with no build step. A first visit to the app
(``index.html``: its stylesheet, ``app.js`` and every module it imports
statically, one language's strings) and to the score keeper
(``scorer/index.html``) transfers less than 90 KB each, gzip-compressed as
the server sends it (``server/static.py``). A module that only one page uses
is imported with ``import()`` when that page opens: it is not part of a first
visit, but every module of ``web/`` is still reached by one page or the other.
Card faces are drawn as SVG by ``cards.js`` and the card back is one SVG inside
``style.css``: there are no image files to count, and this test fails if some
appear. The rules and guide pages' prose (``pages/*.html``) is text fetched by
those two pages only, not script."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "src" / "damepique" / "web"
LIMIT = 90 * 1024
STATIC = re.compile(r"""(?:\bfrom\s*|^\s*import\s*)["'](\.{1,2}/[^"'`]+\.js)["']""", re.M)
DYNAMIC = re.compile(r"""\bimport\s*\(\s*["'](\.{1,2}/[^"'`]+\.js)["']""")
ASSET = re.compile(r"""(?:href|src)="/static/([^"]+\.(?:js|css))\"""")


def modules(entry: Path, seen: set[Path], *, dynamic: bool) -> set[Path]:
    """A module and what it imports: statically, and with ``dynamic`` also by ``import("./x.js")``."""
    if entry in seen:
        return seen
    seen.add(entry)
    text = entry.read_text(encoding="utf-8")
    found = STATIC.findall(text) + (DYNAMIC.findall(text) if dynamic else [])
    for rel in found:
        modules((entry.parent / rel).resolve(), seen, dynamic=dynamic)
    return seen


def loaded(page: str, *, dynamic: bool = False) -> set[Path]:
    html = (WEB / page).read_text(encoding="utf-8")
    files: set[Path] = {(WEB / page).resolve()}
    for asset in ASSET.findall(html):
        path = (WEB / asset).resolve()
        files |= modules(path, set(), dynamic=dynamic) if path.suffix == ".js" else {path}
    if page == "index.html":
        # i18n.js loads the visitor's language, one file: count the larger.
        largest = max((WEB / "strings").glob("*.js"), key=lambda p: gzipped(p))
        files.add(largest.resolve())
    return files


def gzipped(path: Path) -> int:
    """Bytes on the wire: the server's GZipMiddleware compresses at level 9."""
    return len(gzip.compress(path.read_bytes(), compresslevel=9))


def test_no_image_files() -> None:
    images = [
        p for p in WEB.rglob("*") if p.suffix.lower() in {".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg"}
    ]
    assert images == []


@pytest.mark.parametrize("page", ["index.html", "scorer/index.html"])
def test_a_first_visit_transfers_under_90_kb(page: str) -> None:
    files = loaded(page)
    assert WEB / "app.js" in files or page != "index.html"
    assert all(f.exists() for f in files), files
    total = sum(gzipped(f) for f in files)
    raw = sum(f.stat().st_size for f in files)
    assert total < LIMIT, (page, total, sorted((gzipped(f), f.name) for f in files))
    print(f"{page}: {len(files)} files, {total / 1024:.1f} KB transferred ({raw / 1024:.1f} KB unpacked)")


def test_a_first_visit_loads_the_home_page_only() -> None:
    # The router imports the home page alone: the table and every other page
    # come with import() when they open (benchmarks/page_load.py: on a phone's
    # network each module of the first visit costs its place in the queue).
    first = {p.name for p in loaded("index.html")}
    assert {"app.js", "home.js", "rules_form.js", "i18n.js"} <= first
    assert not first & {
        "table.js",
        "solo.js",
        "tables.js",
        "friends.js",
        "pages.js",
        "accounts.js",
        "net.js",
    }, first


def test_the_count_follows_every_import() -> None:
    # Every module of web/ is loaded by one page or the other, at once or when
    # a page opens: none escapes the count.
    counted = loaded("index.html", dynamic=True) | loaded("scorer/index.html", dynamic=True)
    every = {p.resolve() for p in WEB.rglob("*.js")} | {p.resolve() for p in WEB.rglob("*.css")}
    strings = {p.resolve() for p in (WEB / "strings").glob("*.js")}
    assert every - counted - strings == set()


def test_the_import_patterns_tell_static_from_dynamic(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text(
        'import { x } from "./b.js";\nimport "./c.js";\nconst m = await import("./d.js");\n'
    )
    for name in "bcd":
        (tmp_path / f"{name}.js").write_text("export const x = 1;\n")
    first = modules(tmp_path / "a.js", set(), dynamic=False)
    every = modules(tmp_path / "a.js", set(), dynamic=True)
    assert {p.name for p in first} == {"a.js", "b.js", "c.js"}
    assert {p.name for p in every} == {"a.js", "b.js", "c.js", "d.js"}
