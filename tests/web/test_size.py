"""The page stays light with no build step: the JavaScript, CSS and card
images a visitor's browser loads for the app (``index.html``: its stylesheet,
``app.js`` and every module it imports, one language's strings) and for the
score keeper (``scorer/index.html``) add up to less than 200 KB each,
uncompressed. Card faces are drawn as SVG by ``cards.js`` and the card back
is one SVG inside ``style.css``: there are no image files to count, and this
test fails if some appear. The rules and guide pages' prose (``pages/*.html``)
is text fetched by those two pages only, not script."""

from __future__ import annotations

import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "src" / "damepique" / "web"
LIMIT = 200 * 1024
IMPORT = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}/[^"'`]+\.js)["']""")
ASSET = re.compile(r"""(?:href|src)="/static/([^"]+\.(?:js|css))\"""")


def modules(entry: Path, seen: set[Path]) -> set[Path]:
    """A module and everything it imports, statically or not (a literal path)."""
    if entry in seen:
        return seen
    seen.add(entry)
    for rel in IMPORT.findall(entry.read_text(encoding="utf-8")):
        modules((entry.parent / rel).resolve(), seen)
    return seen


def loaded(page: str) -> set[Path]:
    html = (WEB / page).read_text(encoding="utf-8")
    files: set[Path] = set()
    for asset in ASSET.findall(html):
        path = (WEB / asset).resolve()
        files |= modules(path, set()) if path.suffix == ".js" else {path}
    # i18n.js loads the visitor's language, one file: count the larger.
    largest = max((WEB / "strings").glob("*.js"), key=lambda p: p.stat().st_size)
    return files | {largest.resolve()}


def test_no_image_files() -> None:
    images = [
        p for p in WEB.rglob("*") if p.suffix.lower() in {".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg"}
    ]
    assert images == []


def test_the_app_and_the_score_keeper_stay_under_200_kb() -> None:
    for page in ("index.html", "scorer/index.html"):
        files = loaded(page)
        assert WEB / "app.js" in files or page != "index.html"
        assert all(f.exists() for f in files), files
        total = sum(f.stat().st_size for f in files)
        assert total < LIMIT, (page, total, sorted((f.stat().st_size, f.name) for f in files))
        print(f"{page}: {len(files)} files, {total / 1024:.1f} KB")


def test_the_count_follows_every_import() -> None:
    # Every module of web/ is loaded by one page or the other: none escapes the count.
    counted = loaded("index.html") | loaded("scorer/index.html")
    every = {p.resolve() for p in WEB.rglob("*.js")} | {p.resolve() for p in WEB.rglob("*.css")}
    strings = {p.resolve() for p in (WEB / "strings").glob("*.js")}
    assert every - counted - strings == set()
