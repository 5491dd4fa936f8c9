"""The page's files as a browser gets them: compressed, and named by content.

Every file of ``web/`` is served twice:

- under ``/static/v/VERSION/...``, where VERSION is a digest of the whole
  ``web/`` tree, with ``Cache-Control: immutable``: the two HTML pages (the
  app and the score keeper) name their stylesheet and first module there, and
  the modules import each other by relative paths, so one page load reads one
  version of every module. A deploy changes the digest, so old and new
  modules never mix in a browser's cache;
- under ``/static/...`` as before, ``no-cache`` (the prose pages the app
  fetches, links people kept), revalidated on each use.

The HTML itself is ``no-cache``. Text is gzip-compressed for browsers that
accept it (Starlette's ``GZipMiddleware``), which takes a first visit from
about 200 KB to about 70 KB (``tests/web/test_size.py``).

A page lists every module its first module imports, at any depth, as
``<link rel="modulepreload">`` (and what else it names: the visitor's words,
a first API answer): on a phone's network each level of imports would
otherwise cost a round trip before the next is even asked for
(``benchmarks/page_load.py``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import HTMLResponse, Response
from starlette.staticfiles import StaticFiles

WEB = Path(__file__).resolve().parent.parent / "web"
COMPRESS_FROM = 512
"""Bytes below which a response is sent as it is (gzip would not pay for itself)."""


# A module's static imports: ``import x from "./a.js"``, ``import "./b.js"`` (not ``import()``).
STATIC_IMPORT = re.compile(r"""(?:\bfrom\s*|^\s*import\s*)["'](\.{1,2}/[^"'`]+\.js)["']""", re.M)
MODULE_SCRIPT = re.compile(r"""<script type="module" src="/static/([^"]+)"></script>""")


def static_imports(root: Path, entry: str) -> list[str]:
    """Every module ``entry`` (a path under ``root``) imports statically, at any
    depth, as paths under ``root``, in the order they are found."""
    found: list[str] = []
    todo = [entry]
    while todo:
        module = todo.pop(0)
        text = (root / module).read_text(encoding="utf-8")
        for rel in STATIC_IMPORT.findall(text):
            name = (root / module).parent.joinpath(rel).resolve().relative_to(root.resolve()).as_posix()
            if name != entry and name not in found:
                found.append(name)
                todo.append(name)
    return found


def version(root: Path = WEB) -> str:
    """A digest of every file's path and bytes under ``root``: 12 hex digits."""
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


class _Files(StaticFiles):
    """Static files with one ``Cache-Control`` for all of them."""

    def __init__(self, directory: Path, cache_control: str) -> None:
        super().__init__(directory=directory)
        self.cache_control = cache_control

    def file_response(self, *args: object, **kwargs: object) -> Response:
        response = super().file_response(*args, **kwargs)  # type: ignore[arg-type]
        response.headers["Cache-Control"] = self.cache_control
        return response


class WebFiles:
    """The ``web/`` tree of one app: its version, its mounts and its two pages."""

    def __init__(self, root: Path = WEB) -> None:
        self.root = root
        self.version = version(root)
        self.prefix = f"/static/v/{self.version}/"
        self._graph: dict[str, list[str]] = {}

    def page(self, name: str, modules: Iterable[str] = (), fetches: Iterable[str] = ()) -> HTMLResponse:
        """An HTML page of ``web/`` whose ``/static/`` links name this version,
        with a ``modulepreload`` for each module its scripts import and each of
        ``modules`` (paths under ``web/``), and a ``preload`` of each of ``fetches``
        (URLs the page's first module fetches)."""
        html = (self.root / name).read_text(encoding="utf-8")
        wanted = [m for entry in MODULE_SCRIPT.findall(html) for m in self._imports(entry)]
        links = [f'<link rel="modulepreload" href="/static/{m}">' for m in dict.fromkeys([*wanted, *modules])]
        links += [f'<link rel="preload" href="{url}" as="fetch" crossorigin>' for url in fetches]
        html = html.replace("</head>", "".join(f"  {link}\n" for link in links) + "</head>", 1)
        html = html.replace('"/static/', f'"{self.prefix}')
        return HTMLResponse(html, headers={"Cache-Control": "no-cache"})

    def _imports(self, entry: str) -> list[str]:
        if entry not in self._graph:
            self._graph[entry] = static_imports(self.root, entry)
        return self._graph[entry]

    def mount(self, app: Starlette) -> None:
        """Mount the versioned files, then the plain ones (the first match wins)."""
        immutable = _Files(self.root, "public, max-age=31536000, immutable")
        plain = _Files(self.root, "no-cache")
        app.mount(self.prefix.rstrip("/"), GZipMiddleware(immutable, minimum_size=COMPRESS_FROM))
        app.mount("/static", GZipMiddleware(plain, minimum_size=COMPRESS_FROM), name="static")
