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
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import HTMLResponse, Response
from starlette.staticfiles import StaticFiles

WEB = Path(__file__).resolve().parent.parent / "web"
COMPRESS_FROM = 512
"""Bytes below which a response is sent as it is (gzip would not pay for itself)."""


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

    def page(self, name: str) -> HTMLResponse:
        """An HTML page of ``web/`` whose ``/static/`` links name this version."""
        html = (self.root / name).read_text(encoding="utf-8")
        html = html.replace('"/static/', f'"{self.prefix}')
        return HTMLResponse(html, headers={"Cache-Control": "no-cache"})

    def mount(self, app: Starlette) -> None:
        """Mount the versioned files, then the plain ones (the first match wins)."""
        immutable = _Files(self.root, "public, max-age=31536000, immutable")
        plain = _Files(self.root, "no-cache")
        app.mount(self.prefix.rstrip("/"), GZipMiddleware(immutable, minimum_size=COMPRESS_FROM))
        app.mount("/static", GZipMiddleware(plain, minimum_size=COMPRESS_FROM), name="static")
