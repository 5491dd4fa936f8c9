"""Docs that run: every code example of ``README.md`` and ``docs/*.md`` is run here.

- ``python`` blocks with ``>>>`` are doctests, one per file, in the order of
  the file (a later block sees an earlier one's names), line numbers kept.
- ``python`` blocks without prompts are programs: they are executed as
  ``__main__`` with the bot API's ``play`` standing in for a server (the call
  is checked against the real signature), and every bot class they define
  chooses a pass and a card in a real deal.
- ``sh`` blocks: every ``damepique`` line is parsed by the command's own
  parser; the referee commands are run in a scratch folder, and a ``# {...}``
  comment after one is what it prints (``...`` stands for anything); a path
  (``scripts/serve``) exists; ``pip install`` names extras the package has.
- ``json`` blocks parse, unless elided with ``...``.

Plain ````` blocks are text (diagrams, HTTP exchanges), not code.
"""

from __future__ import annotations

import contextlib
import doctest
import importlib.util
import inspect
import io
import json
import random
import re
import shlex
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
FENCE = re.compile(r"^```(\w*)\s*$")


@dataclass(frozen=True)
class Block:
    path: Path
    line: int  # 1-based line of the first line of code
    lang: str
    text: str

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def blocks(path: Path) -> list[Block]:
    found: list[Block] = []
    lang: str | None = None
    start = 0
    body: list[str] = []
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        m = FENCE.match(line)
        if lang is None and m:
            lang, start, body = m.group(1), i + 1, []
        elif lang is not None and line.startswith("```"):
            found.append(Block(path, start, lang, "\n".join(body) + "\n"))
            lang = None
        elif lang is not None:
            body.append(line)
    assert lang is None, f"{path.name}: a code block is never closed"
    return found


ALL = [b for path in DOCS for b in blocks(path)]
KNOWN = {"", "python", "sh", "json"}


def test_every_block_has_a_known_language() -> None:
    assert not [f"{b.where} {b.lang}" for b in ALL if b.lang not in KNOWN]


# -- doctests -----------------------------------------------------------------------------------

# The interop extras' examples run where the extras are installed.
NEEDS = {"environments.md": ("pettingzoo", "pyspiel")}


def _doctest_files() -> list[Path]:
    return [p for p in DOCS if any(b.lang == "python" and ">>>" in b.text for b in blocks(p))]


@pytest.mark.parametrize("path", _doctest_files(), ids=lambda p: p.name)
def test_the_doctests_of_a_page_pass(path: Path) -> None:
    for module in NEEDS.get(path.name, ()):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{path.name} needs {module} (pip install 'damepique[rl,openspiel]')")
    lines = path.read_text(encoding="utf-8").splitlines()
    keep = [""] * len(lines)
    for b in blocks(path):
        if b.lang == "python" and ">>>" in b.text:
            for k, text in enumerate(b.text.splitlines()):
                keep[b.line - 1 + k] = text
    test = doctest.DocTestParser().get_doctest(
        "\n".join(keep) + "\n", {"__name__": "docs"}, path.name, str(path), 0
    )
    out = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test, out=out.write)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, out.getvalue()
    assert result.attempted > 0


# -- programs -----------------------------------------------------------------------------------

PROGRAMS = [b for b in ALL if b.lang == "python" and ">>>" not in b.text]


@pytest.mark.parametrize("block", PROGRAMS, ids=lambda b: b.where)
def test_a_program_of_the_docs_runs(block: Block, monkeypatch: pytest.MonkeyPatch) -> None:
    import damepique.botapi
    from damepique.engine import Deal, Rules, cards_of, view_of

    real = damepique.botapi.play
    calls: list[inspect.BoundArguments] = []

    def play(*args: Any, **kwargs: Any) -> list[dict[str, Any]]:
        calls.append(inspect.signature(real).bind(*args, **kwargs))
        return []

    monkeypatch.setattr(damepique.botapi, "play", play)
    monkeypatch.setattr(sys, "argv", ["example.py", "http://127.0.0.1:8000/#/t/K7QM4XPA", "dpb_example"])
    namespace: dict[str, Any] = {"__name__": "__main__"}
    exec(compile(block.text, block.where, "exec"), namespace)
    if "play" in block.text:
        assert calls, f"{block.where}: the example never plays"
    for bound in calls:
        damepique.botapi.Target.parse(bound.arguments["url"], bound.arguments.get("table"))
    bots = [
        v
        for v in namespace.values()
        if isinstance(v, type) and issubclass(v, damepique.botapi.RemoteBot) and v.__module__ == "__main__"
    ]
    for cls in bots:
        bot = cls()
        deal = Deal.shuffled(Rules(), random.Random(7))
        passed = bot.choose_pass(view_of(deal, 0), random.Random(0))
        deal.pass_cards(0, passed)
        for seat in deal.passing_seats:
            deal.pass_cards(seat, cards_of(view_of(deal, seat).hand)[:3])
        card = bot.choose_play(view_of(deal, deal.to_act), random.Random(0))
        deal.play(card)


# -- shell --------------------------------------------------------------------------------------

REFEREE = {"random-game", "replay", "legal", "verify"}
EXTRAS = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"])
SHELL = [b for b in ALL if b.lang == "sh"]


def _lines(block: Block) -> Iterator[tuple[list[str], str | None]]:
    """Each command of a block as words (its variables dropped) and its ``#`` comment."""
    for raw in block.text.splitlines():
        code, *rest = re.split(r"(?:^|\s)#(?:\s|$)", raw, maxsplit=1)
        code = re.sub(r"<[^<>]*>", "PLACEHOLDER", code)  # <the day's secret>: a value to fill in
        comment = rest[0].strip() if rest else None
        lexer = shlex.shlex(code, posix=True, punctuation_chars=">")
        lexer.whitespace_split = True
        words = list(lexer)
        while words and re.fullmatch(r"[A-Z_]+=.*", words[0]):
            words = words[1:]
        if words:
            yield words, comment


ANY = "\u2026any"


def _pattern(text: str) -> Any:
    """A comment's JSON, ``...`` standing for any value (or any list's items)."""
    value, _ = json.JSONDecoder().raw_decode(text.replace("...", json.dumps(ANY)))
    return value


def _matches(pattern: Any, value: Any) -> bool:
    if pattern == ANY:
        return True
    if isinstance(pattern, dict):
        return (
            isinstance(value, dict)
            and set(pattern) == set(value)
            and all(_matches(pattern[k], value[k]) for k in pattern)
        )
    if isinstance(pattern, list):
        if pattern == [ANY]:
            return isinstance(value, list)
        return isinstance(value, list) and len(pattern) == len(value) and all(map(_matches, pattern, value))
    return bool(pattern == value)


@pytest.mark.parametrize("block", SHELL, ids=lambda b: b.where)
def test_a_shell_example_of_the_docs_is_real(
    block: Block, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from damepique import __version__
    from damepique.cli import build_parser, main

    monkeypatch.chdir(tmp_path)
    unmade: set[str] = set()  # files written by a line that is only parsed, not run
    for words, comment in _lines(block):
        target = None
        if ">" in words:
            k = words.index(">")
            words, target = words[:k], words[k + 1]
        if words[0] == "damepique":
            try:
                args = build_parser().parse_args(words[1:])
            except SystemExit:
                pytest.fail(f"{block.where}: {shlex.join(words)} is not a damepique command line")
            if args.command not in REFEREE or getattr(args, "file", None) in unmade:
                if target:
                    unmade.add(target)
                continue
            if args.command != "random-game" and not Path(args.file).exists():
                Path(args.file).write_text(json.dumps(_random_game()))
            capsys.readouterr()
            main(words[1:])
            printed = capsys.readouterr().out
            if target:
                Path(target).write_text(printed)
            if comment and comment.startswith("{"):
                assert _matches(_pattern(comment), json.loads(printed)), (
                    f"{block.where}: {shlex.join(words)} prints {printed[:300]}, the docs say {comment}"
                )
        elif words[:2] == ["python", "-m"]:
            assert importlib.util.find_spec(words[2]), f"{block.where}: no module {words[2]}"
        elif words[0] == "python":
            assert (ROOT / words[1]).exists() or words[1].endswith("lowest.py"), f"{block.where}: {words}"
        elif words[:2] == ["pip", "install"]:
            for spec in words[2:]:
                named = re.findall(r"\[([^\]]+)\]", spec)
                for extra in ",".join(named).split(",") if named else []:
                    assert extra in EXTRAS, f"{block.where}: no extra {extra!r}"
                base = spec.split("[")[0]
                assert base == "." or base.endswith(f"damepique-{__version__}-py3-none-any.whl"), (
                    f"{block.where}: {spec} is neither the clone nor this version's wheel"
                )
        elif "/" in words[0]:
            assert (ROOT / words[0]).exists(), f"{block.where}: no file {words[0]}"
        else:
            pytest.fail(f"{block.where}: a shell line this test does not know: {shlex.join(words)}")


def _random_game() -> dict[str, Any]:
    from damepique.cli import random_game
    from damepique.engine import Rules

    return random_game(Rules(), 1)


# -- JSON ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("block", [b for b in ALL if b.lang == "json"], ids=lambda b: b.where)
def test_a_json_example_parses(block: Block) -> None:
    if "..." in block.text or "\u2026" in block.text:
        return  # an elided example: it says so
    with contextlib.suppress(ValueError):
        json.loads(block.text)
        return
    json.loads("{" + block.text + "}")  # the members of an object


# -- the record format -------------------------------------------------------------------------


def test_the_records_of_the_record_format_replay_as_it_says() -> None:
    """Each record of docs/record-format.md replays and verifies, and the
    referee's answer shown after it is what the referee prints."""
    from damepique.engine import referee_replay
    from damepique.engine.fairness import referee_verify

    page = [b for b in blocks(ROOT / "docs" / "record-format.md") if b.lang == "json"]
    records = [(k, json.loads(b.text)) for k, b in enumerate(page) if '"format"' in b.text]
    assert records
    for k, record in records:
        assert referee_replay(record) == json.loads(page[k + 1].text)
        if "fairness" in record:
            assert referee_verify(record)["verified"]
        assert set(record["rules"]) == set(referee_rules_keys()), "a record writes every rules key"


def referee_rules_keys() -> list[str]:
    from damepique.engine import Rules

    return list(Rules().to_json())


# -- figures ------------------------------------------------------------------------------------


def test_a_ratio_the_docs_quote_from_the_benchmarks_is_there() -> None:
    """A sentence of the docs that cites ``benchmarks/README.md`` quotes its figures."""
    bench = (ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8")
    wrong = []
    for path in DOCS:
        text = " ".join(path.read_text(encoding="utf-8").split())
        for sentence in re.split(r"(?<=[.;:])\s", text):
            if "benchmarks/README.md" not in sentence:
                continue
            for figure in re.findall(r"\d[\d.,]* to \d[\d.,]* ×|\d[\d.,]* ×", sentence):
                if figure not in bench:
                    wrong.append(f"{path.name}: {figure!r} is not in benchmarks/README.md")
    assert not wrong, wrong
