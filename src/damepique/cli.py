"""The ``damepique`` command: referee, random games, bench, arena, server.

The referee commands (``replay``, ``legal``, ``verify``) print exactly one
JSON object on standard output and exit 0 or 2, whatever the input: never a
traceback.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
from collections.abc import Sequence
from typing import Any

from damepique import __version__
from damepique.engine import Match, Rules, RulesError, dump_match
from damepique.engine.fairness import (
    Unverified,
    deal_cards,
    derived_seed,
    fairness_json,
    new_secret,
    referee_verify,
)
from damepique.engine.record import RecordError, load, referee_legal, referee_replay

_ANSWERS = {"replay": referee_replay, "legal": referee_legal, "verify": referee_verify}


def _read_input(path: str) -> str | bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as f:
        return f.read()


def _print_json(obj: Any) -> None:
    """One JSON object and a newline on standard output, whatever it holds:
    text that the output's encoding cannot carry (a lone surrogate from the
    input, a non-UTF-8 terminal) is written as JSON escapes."""
    text = json.dumps(obj, ensure_ascii=False)
    try:
        text.encode(sys.stdout.encoding or "utf-8")
    except (UnicodeEncodeError, LookupError):
        text = json.dumps(obj, ensure_ascii=True)
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (``| head``): nothing more to say, and no
        # traceback at exit when Python flushes standard output again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def referee(path: str, command: str = "replay") -> tuple[int, dict[str, Any]]:
    """The referee's answer for a record file (``-``: standard input): the
    exit status (0 or 2) and the one JSON object to print. Never raises."""
    try:
        data = _read_input(path)
    except OSError as e:
        return 2, RecordError("bad_json", f"cannot read {path}: {e.strerror or e}").to_json()
    except Exception as e:  # pragma: no cover - an unreadable standard input
        return 2, {"error": "bad_json", "reason": f"cannot read {path}: {type(e).__name__}"}
    return referee_data(data, command)


def referee_data(data: str | bytes, command: str = "replay") -> tuple[int, dict[str, Any]]:
    """The referee's answer for a record's text or bytes (UTF-8, an optional
    byte order mark): ``(0, answer)`` or ``(2, error)``. Never raises.

    >>> referee_data(b'{"format": "damepique-game/1", "deals": []}', "legal")
    (0, {'seat': None, 'phase': 'deal', 'legal': []})
    >>> referee_data(b'{"format": ')
    (2, {'error': 'bad_json', 'reason': 'not valid JSON: Expecting value: line 1 column 12 (char 11)'})
    """
    answer = _ANSWERS[command]
    try:
        if isinstance(data, bytes):
            try:
                data = data.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise RecordError("bad_json", "the record is not UTF-8 text") from None
        elif data.startswith("\ufeff"):
            data = data[1:]
        return 0, answer(load(data))
    except (RecordError, Unverified) as e:
        return 2, e.to_json()
    except RecursionError:
        return 2, {"error": "bad_json", "reason": "the record is nested too deeply"}
    except MemoryError:
        return 2, {"error": "bad_json", "reason": "the record is too large"}
    except Exception as e:  # a bug of ours: still one JSON object, never a traceback
        return 2, {"error": "bad_json", "reason": f"unreadable record: {type(e).__name__}"}


def _referee(path: str, command: str) -> int:
    status, obj = referee(path, command)
    _print_json(obj)
    return status


def _parse_rules(text: str | None) -> Rules:
    if text is None:
        return Rules()
    from damepique.engine.rules import PRESETS

    if text in PRESETS:
        return PRESETS[text]
    try:
        data = json.loads(text)
    except ValueError as e:
        raise SystemExit(f"damepique: --rules is not JSON nor a preset name: {e}") from None
    if isinstance(data, dict) and "preset" in data:
        preset = data.pop("preset")
        if preset not in PRESETS:
            raise SystemExit(f"damepique: unknown preset {preset!r}; known: {', '.join(PRESETS)}")
        base = PRESETS[preset].to_json()
        base.update(data)
        data = base
    try:
        return Rules.from_json(data)
    except RulesError as e:
        raise SystemExit(f"damepique: bad rules: {e.reason}") from None
    except TypeError as e:
        raise SystemExit(f"damepique: bad rules: {e}") from None


def random_game(rules: Rules, seed: int | None = None) -> dict[str, Any]:
    """A complete game of uniformly random legal passes and plays, its deals
    sealed as the server seals them (``engine.fairness``) and its secret
    revealed in the record's ``fairness``. The secret is drawn from
    ``secrets``, or, with a ``seed``, derived from it for reproducible tests
    (anyone who knows the seed then knows the deals: never for real games)."""
    if seed is None:
        secret = new_secret()
    else:
        secret = hashlib.sha256(f"damepique-random-game:{seed}".encode()).digest()
    rng = random.Random(derived_seed(secret, "random-game"))
    match = Match(rules)
    while not match.over:
        hands, kitty = deal_cards(rules, secret, len(match.deals))
        deal = match.next_deal(hands, kitty)
        for seat in deal.passing_seats:
            hand = list(_cards(deal.hands[seat]))
            deal.pass_cards(seat, rng.sample(hand, rules.pass_count))
        while deal.phase == "play":
            legal = deal.legal_cards()
            deal.play(legal[rng.randrange(len(legal))])
        if len(match.deals) > 10_000:  # pragma: no cover - a tie cannot last forever
            break
    record = dump_match(match)
    record["fairness"] = fairness_json(secret, revealed=True)
    return record


def _cards(mask: int) -> tuple[int, ...]:
    from damepique.engine import cards_of

    return cards_of(mask)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="damepique", description="Hearts (Dame de pique): engine, bots, server."
    )
    parser.add_argument("--version", action="version", version=f"damepique {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("replay", help="check a game record and print its scores as JSON")
    p.add_argument("file", help="record file, or - for standard input")
    p = sub.add_parser("legal", help="print what the seat to act may do at the end of a record")
    p.add_argument("file", help="record file, or - for standard input")

    p = sub.add_parser(
        "verify", help="check that a finished game's deals are the ones its revealed secret deals"
    )
    p.add_argument("file", help="record file, or - for standard input")

    p = sub.add_parser("random-game", help="write a complete random legal game record")
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        help="derive the secret from this seed (reproducible; default: random)",
    )
    p.add_argument("--rules", help="rules as JSON (or a preset name)")

    p = sub.add_parser("bench", help="random legal play speed, side by side with OpenSpiel")
    p.add_argument("--deals", type=int, default=20_000)
    p.add_argument("--json", action="store_true")
    p.add_argument("--seed", type=int, default=1)

    p = sub.add_parser("arena", help="pit bots against each other")
    p.add_argument("--seats", required=True, help="comma-separated bot names, one per seat")
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rules", help="rules as JSON (or a preset name)")
    p.add_argument("--duplicate", action="store_true", help="play each deal once per rotation of the seats")
    p.add_argument("--games", action="store_true", help="play whole games to the target")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--json", action="store_true")
    p.add_argument("--no-progress", action="store_true")

    p = sub.add_parser("play", help="watch computer players play a game in the terminal")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--rules", help="rules as JSON (or a preset name)")
    p.add_argument("--level", default="intermediate")

    p = sub.add_parser("serve", help="run the web app")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--db", default=None, help="SQLite file path or database URL")
    p.add_argument("--open", action="store_true", help="open the page in a browser")
    p.add_argument(
        "--broker",
        default=None,
        help="memory:// (one process, the default) or redis://host:port/db to share tables with "
        "other processes on the same database (default: $DAMEPIQUE_BROKER)",
    )
    p.add_argument(
        "--process-id",
        default=None,
        help="this process's name among the others (default: $DAMEPIQUE_PROCESS_ID, else host-pid-random)",
    )

    args = parser.parse_args(argv)

    if args.command == "replay":
        return _referee(args.file, "replay")
    if args.command in ("legal", "verify"):
        return _referee(args.file, args.command)
    if args.command == "random-game":
        _print_json(random_game(_parse_rules(args.rules), args.seed))
        return 0
    if args.command == "bench":
        from damepique.bench import run_bench

        return run_bench(args.deals, args.seed, as_json=args.json)
    if args.command == "arena":
        from damepique.bots.arena import run_arena_cli

        return run_arena_cli(args, _parse_rules(args.rules))
    if args.command == "play":
        from damepique.bots.arena import play_demo

        return play_demo(_parse_rules(args.rules), args.seed, args.level)
    if args.command == "serve":
        # The web app is the [server] extra: without it, say so instead of an ImportError.
        from damepique.extras import install_hint, missing

        absent = missing("server")
        if absent:
            print(
                f"damepique serve: the web app is not installed (missing {', '.join(absent)}): "
                f"{install_hint('server')}",
                file=sys.stderr,
            )
            return 2
        from damepique.server.run import serve

        return serve(
            host=args.host,
            port=args.port,
            db=args.db,
            open_browser=args.open,
            broker=args.broker,
            process_id=args.process_id,
        )
    parser.error(f"unknown command {args.command}")  # pragma: no cover
    return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
