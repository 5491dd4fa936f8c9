"""The shipped deployment, as an operator starts it, played in a real browser.

``deploy/two-processes.sh --postgres`` starts what ``deploy/`` ships: two
``damepique serve`` processes, ``deploy/nginx.conf`` in front of them on a
port that is not 80, Redis and a throwaway PostgreSQL cluster. Two people in
two browser contexts play a short game through nginx: one creates a table,
the other joins it by its code, bots fill the rest; the process that runs
the table (the one that answered its creation) is killed with ``SIGKILL``
in the middle of the first deal, and both pages finish the game at the other:
they play the rest of that deal there by clicking, the server's test hook
(``forward``, on in both processes: ``DAMEPIQUE_TEST_HOOKS=1``) plays the
deals between, and each page plays its last card and sees the game over.

A browser sends ``Origin: http://127.0.0.1:PORT`` with every POST and every
WebSocket: a proxy that passes on another ``Host`` (nginx's ``$host`` drops
the port) makes the app refuse them all as coming from another site.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest
from playwright.async_api import Page, expect

from ..browser.test_multiplayer import create_table, join_by_code, new_page, play_until
from ..browser.test_play import forward
from ..conftest import ROOT, free_port
from .cluster_helpers import _missing, nginx_binary
from .conftest import _pg_bin

pytestmark = [pytest.mark.browser, pytest.mark.services]

READY = re.compile(r"^damepique: two processes .* behind nginx at (http://\S+)/$")
PROCESS = re.compile(r"^process (p\d): pid (\d+), port (\d+)$")


@dataclass
class Deployment:
    front: str
    pids: dict[int, int]
    """The pid of the process on each port."""
    script: subprocess.Popen[str]


def _ctrl_c_heard() -> None:
    """SIGINT as the script's own default: tests started in the background by a
    shell (``scripts/test &``) inherit it ignored, and bash cannot trap a signal
    ignored when it starts: the script then never stopped at the end, nginx,
    Redis and PostgreSQL were left running and the test waited 60 s for it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture
def deployment() -> Iterator[Deployment]:
    """``deploy/two-processes.sh --postgres`` on free ports, until it says it is ready."""
    nginx_binary()
    if shutil.which("redis-server") is None:
        _missing("redis-server")
    if _pg_bin() is None:
        _missing("PostgreSQL server binaries")
    env = {
        **os.environ,
        "PYTHON": sys.executable,
        "PORT": str(free_port()),
        "PORT1": str(free_port()),
        "PORT2": str(free_port()),
        "REDIS_PORT": str(free_port()),
        "PGPORT": str(free_port()),
        # A page away through the takeover keeps its seat (no bot takes it meanwhile).
        "DAMEPIQUE_GRACE": "120",
        # The deals after the takeover's are the test hook's (the point is the takeover).
        "DAMEPIQUE_TEST_HOOKS": "1",
    }
    env.pop("DAMEPIQUE_DB", None)
    env.pop("DAMEPIQUE_BROKER", None)
    script = subprocess.Popen(
        ["bash", str(ROOT / "deploy" / "two-processes.sh"), "--postgres"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT,
        start_new_session=True, preexec_fn=_ctrl_c_heard,
    )  # fmt: skip
    assert script.stdout is not None
    lines: list[str] = []
    pids: dict[int, int] = {}
    front = None
    try:
        # The script says when both processes answer and nginx runs (or exits saying why).
        for line in script.stdout:
            lines.append(line.rstrip())
            if m := PROCESS.match(line.strip()):
                pids[int(m.group(3))] = int(m.group(2))
            if m := READY.match(line.strip()):
                front = m.group(1)
                break
        assert front is not None and len(pids) == 2, "the script did not start:\n" + "\n".join(lines)
        yield Deployment(front, pids, script)
    finally:
        # Ctrl-C, as the operator stops it: nginx, the processes, Redis and the cluster go.
        with contextlib.suppress(ProcessLookupError):
            os.kill(script.pid, signal.SIGINT)
        try:
            script.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(script.pid, signal.SIGKILL)
            script.communicate()


async def test_the_shipped_deployment_plays_a_table_through_nginx_and_survives_its_owner_killed(  # type: ignore[no-untyped-def]
    browser, deployment: Deployment, artifacts
) -> None:
    front = deployment.front
    assert not front.endswith(":80"), "the point is a port that is not the default"
    ctx_a, ann = await new_page(browser, front)
    ctx_b, bob = await new_page(browser, front)
    errors: list[str] = []
    refused: list[str] = []
    for p in (ann, bob):
        p.on("pageerror", lambda e: errors.append(str(e)))
        p.on("response", lambda r: refused.append(f"{r.status} {r.url}") if r.status == 403 else None)

    # Ann creates the table through nginx: the process that answered runs it.
    async with ann.expect_response(
        lambda r: r.url.endswith("/api/tables") and r.request.method == "POST"
    ) as created:
        code = await create_table(ann)
    answer = await created.value
    assert answer.status == 201, await answer.text()
    upstream = (await answer.all_headers())["x-upstream"]
    owner = int(upstream.rsplit(":", 1)[1])
    assert owner in deployment.pids, (upstream, deployment.pids)

    # Bob joins by its code in another browser context (his seat may be at the other process).
    await join_by_code(bob, code, "Bob")
    start = ann.get_by_role("button", name="Start the game")
    await expect(start).to_be_enabled()
    await start.click()
    hand_a = ann.get_by_role("group", name="Your hand")
    await expect(hand_a).to_be_visible()

    async def ann_mid_deal() -> bool:
        return await hand_a.get_by_role("button").count() <= 9

    def first_deal_over(page: Page):  # type: ignore[no-untyped-def]
        async def over() -> bool:
            # The next deal is dealt as the first ends (data-deal: the page has it).
            return await page.locator(".table-page").get_attribute("data-deal") not in (None, "", "0")

        return over

    bob_plays = asyncio.create_task(play_until(bob, stop=first_deal_over(bob)))
    await play_until(ann, stop=ann_mid_deal)
    await ann.screenshot(path=str(artifacts / "deployment-before-kill.png"))

    # The table's process dies without a word; nginx sends the pages to the other one.
    os.kill(deployment.pids[owner], signal.SIGKILL)
    survivor = next(port for port in deployment.pids if port != owner)
    health = httpx.get(f"http://127.0.0.1:{survivor}/healthz", timeout=10)
    assert health.status_code == 200

    try:
        # Each page reconnects through nginx at once; the survivor answers its hello
        # as soon as the dead owner's lease has run out, and runs the table: both
        # pages play the first deal's nine tricks or more left to its end there.
        await play_until(ann, stop=first_deal_over(ann))
        await bob_plays
        # The deals between, through nginx at the survivor (the owner is dead, so the
        # survivor ran the end of the first deal: it runs the table); the last
        # trick of the game is the pages' own.
        await forward(ann, "game_end", code)
        await asyncio.gather(play_until(ann), play_until(bob))
    finally:
        for name, p in (("ann", ann), ("bob", bob)):
            await p.screenshot(path=str(artifacts / f"deployment-after-kill-{name}.png"))
    for p in (ann, bob):
        await expect(p.get_by_role("heading", name="Game over")).to_be_visible()
    names = await ann.locator(".score-sheet thead th").all_inner_texts()
    assert "Bob" in names
    totals = await ann.locator(".score-sheet tfoot td").all_inner_texts()
    assert max(int(x) for x in totals) >= 50
    await ann.screenshot(path=str(artifacts / "deployment-game-over.png"))
    assert deployment.script.poll() is None, "the script still runs the survivor"
    assert not refused, refused
    assert not errors, errors
    await ctx_a.close()  # type: ignore[attr-defined]
    await ctx_b.close()  # type: ignore[attr-defined]
