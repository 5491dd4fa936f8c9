"""The package as people install it.

``python -m build`` makes an sdist and a wheel (the wheel built from the
sdist, so the sdist is complete too). The wheel installs into a fresh venv
with no other package at all (``--no-index``: any dependency would fail the
install) and runs ``damepique --version``, the referee and the arena; ``serve``
says which extra to install. With ``[server]`` (from the package index, as
people get it: about 6 s with pip's cache) ``damepique serve`` serves the
page, the score keeper and the OpenAPI document from the installed package
data. About 15 s in all; ``-m "not package"`` leaves it out.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

import damepique

ROOT = Path(__file__).resolve().parents[1]

LEAN_MODULES = (
    "damepique",
    "damepique.cli",
    "damepique.engine",
    "damepique.bots",
    "damepique.bots.arena",
    "damepique.bots.montecarlo",
    "damepique.bots.advice",
    "damepique.scorer",
    "damepique.extras",
    "damepique.observation",
    "damepique.worlds",
)


def _third_party_after_import(python: str, modules: tuple[str, ...]) -> list[str]:
    # What the interpreter loaded before (site's own hooks) does not count.
    code = (
        "import sys\n"
        "before = set(sys.modules)\n"
        f"for m in {list(modules)!r}: __import__(m)\n"
        "std = set(sys.stdlib_module_names)\n"
        "print(sorted({m.split('.')[0] for m in set(sys.modules) - before} - std - {'damepique'}))\n"
    )
    out = subprocess.run([python, "-c", code], check=True, capture_output=True, text=True, cwd="/").stdout
    found: list[str] = json.loads(out.replace("'", '"'))
    return found


def test_importing_the_engine_bots_and_cli_loads_no_third_party_module() -> None:
    # In the dev venv every extra is installed: nothing may be imported just in case.
    assert _third_party_after_import(sys.executable, LEAN_MODULES) == []


# Which extras provide the third-party modules each part imports (test_extras_cover_the_imports).
PARTS = {
    "server": ("server/**/*.py", ("server", "postgres", "redis")),
    "pettingzoo": ("pettingzoo.py", ("rl",)),
    "openspiel": ("openspiel.py", ("openspiel",)),
}


def _imported_modules(pattern: str) -> set[str]:
    import ast

    found = set()
    for path in (ROOT / "src" / "damepique").glob(pattern):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                found.add(node.module.split(".")[0])
    return found - set(sys.stdlib_module_names) - {"__future__", "damepique"}


def _normalized(name: str) -> str:
    import re

    return re.sub(r"[-_.]+", "-", name).lower()


@pytest.mark.parametrize("part", sorted(PARTS))
def test_extras_cover_the_imports(part: str) -> None:
    """Every third-party module a part imports (at the top or inside a
    function) comes from a distribution its extras require directly, so
    ``pip install 'damepique[server]'`` is all the web app needs."""
    from importlib import metadata

    pattern, extras = PARTS[part]
    requirements = metadata.requires("damepique") or []
    provided = set()
    for requirement in requirements:
        spec, _, marker = requirement.partition(";")
        if any(f'extra == "{extra}"' in marker.replace("'", '"') for extra in extras):
            provided.add(_normalized(spec.split("[")[0].split(">")[0].split("=")[0].split("<")[0].strip()))
    dists = metadata.packages_distributions()
    missing = {
        module: dists.get(module)
        for module in _imported_modules(pattern)
        if not {_normalized(d) for d in dists.get(module, [])} & provided
    }
    assert not missing, f"imported by {part} but not required by {extras}: {missing}"


def _run(*args: str | Path, **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=300, **kw)  # type: ignore[call-overload, no-any-return]


def _venv(path: Path) -> Path:
    # No pip of its own (ensurepip costs seconds): this interpreter's pip installs into it.
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", path], check=True)
    return path / "bin"


def _pip_into(bin_dir: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    return _run(sys.executable, "-m", "pip", "--python", bin_dir / "python", "install", "-q", *args)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _without_preloads(page: bytes) -> bytes:
    """A served page less the preload links the server adds (server/static.py)."""
    return re.sub(rb'  <link rel="(?:module)?preload" [^>]*>\n', b"", page)


def _get(url: str, timeout: float = 60) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return response.status, response.headers.get("content-type", ""), response.read()


@pytest.mark.package
def test_the_wheel_installs_lean_and_serves_with_the_server_extra(tmp_path: Path) -> None:
    if importlib.util.find_spec("build") is None:
        pytest.skip("the build package is not installed (it is in the test extra)")
    dist = tmp_path / "dist"
    built = _run(sys.executable, "-m", "build", "--outdir", dist, ROOT, cwd=ROOT)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    (wheel,) = dist.glob("damepique-*.whl")
    assert list(dist.glob("damepique-*.tar.gz"))

    # The lean install: no index, so any dependency would make it fail.
    lean = _venv(tmp_path / "lean")
    installed = _pip_into(lean, "--no-index", wheel)
    assert installed.returncode == 0, installed.stderr
    damepique_cmd = lean / "damepique"
    version = _run(damepique_cmd, "--version")
    assert version.returncode == 0 and version.stdout.strip() == f"damepique {damepique.__version__}"
    record = _run(damepique_cmd, "random-game", "--seed", "3", "--rules", "three_players_kitty", cwd=tmp_path)
    replayed = _run(damepique_cmd, "replay", "-", input=record.stdout, cwd=tmp_path)
    assert replayed.returncode == 0 and json.loads(replayed.stdout)["over"] is True
    arena = _run(damepique_cmd, "arena", "--seats", "intermediate,random,random", "--rules", "three_players",
                 "--deals", "2", "--json", cwd=tmp_path)  # fmt: skip
    assert arena.returncode == 0 and json.loads(arena.stdout)["bots"][0]["name"] == "intermediate"
    serve = _run(damepique_cmd, "serve", cwd=tmp_path)
    assert serve.returncode == 2 and "Traceback" not in serve.stderr
    assert "pip install 'damepique[server]'" in serve.stderr
    spiel = _run(damepique_cmd, "arena", "--seats", "ismcts-py:5,random,random", "--rules", "three_players",
                 "--deals", "1", cwd=tmp_path)  # fmt: skip
    assert (
        spiel.returncode == 2 and "damepique[openspiel]" in spiel.stderr and "Traceback" not in spiel.stderr
    )
    assert _third_party_after_import(str(lean / "python"), LEAN_MODULES) == []

    # With the server extra, from the package index.
    server = _venv(tmp_path / "server")
    installed = _pip_into(server, f"{wheel}[server]")
    assert installed.returncode == 0, installed.stderr[-3000:]
    where = _run(
        server / "python",
        "-c",
        "import damepique, os; print(os.path.dirname(damepique.__file__))",
        cwd=tmp_path,
    )
    package_dir = Path(where.stdout.strip())
    assert package_dir.is_relative_to(tmp_path / "server")
    port = _free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    # The port listens here and the socket goes to the server (``--fd``): the first
    # request waits in its queue until the server is ready. No polling, no sleep.
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", port))
        sock.listen(64)
        proc = subprocess.Popen(
            [server / "damepique", "serve", "--port", str(port), "--db", tmp_path / "db.sqlite3",
             "--fd", str(sock.fileno())],
            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            pass_fds=(sock.fileno(),),
        )  # fmt: skip
    try:
        base = f"http://127.0.0.1:{port}"
        try:
            assert _get(base + "/healthz", timeout=300)[0] == 200  # a generous limit: only a hang fails
        except OSError:
            proc.kill()
            out = proc.stdout.read().decode() if proc.stdout else ""
            pytest.fail(f"damepique serve from the wheel did not start: {out[-3000:]}")
        status, kind, page = _get(base + "/")
        assert status == 200 and kind.startswith("text/html")
        # The pages name their files under the package's content version (server/static.py).
        versioned = re.search(rb'"(/static/v/[0-9a-f]{12}/)app.js"', page)
        assert versioned, page
        unversioned = _without_preloads(page.replace(versioned.group(1), b"/static/"))
        assert unversioned == (package_dir / "web" / "index.html").read_bytes()
        status, kind, script = _get(base + versioned.group(1).decode() + "app.js")
        assert status == 200 and script == (package_dir / "web" / "app.js").read_bytes()
        status, kind, scorer = _get(base + "/scorer/")
        assert status == 200 and kind.startswith("text/html")
        scorer = _without_preloads(scorer.replace(versioned.group(1), b"/static/"))
        assert scorer == (package_dir / "web" / "scorer" / "index.html").read_bytes()
        status, kind, api = _get(base + "/openapi.json")
        assert status == 200 and json.loads(api)["info"]["version"] == damepique.__version__
        assert (tmp_path / "db.sqlite3").exists()  # the migrations ran from the package
    finally:
        proc.terminate()
        proc.wait(timeout=20)
