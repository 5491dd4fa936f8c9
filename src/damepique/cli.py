"""The ``damepique`` command: referee, advice, random games, bench, arena, a bot at a table, server.

The referee commands (``replay``, ``legal``, ``verify``) print exactly one
JSON object on standard output and exit 0 or 2, whatever the input: never a
traceback.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from damepique import __version__
from damepique.engine import PRESETS, Match, Rules, RulesError, dump_match
from damepique.engine.fairness import (
    Unverified,
    deal_cards,
    derived_seed,
    fairness_json,
    new_secret,
    referee_verify,
)
from damepique.engine.record import RecordError, load, referee_legal, referee_replay
from damepique.engine.schema import check as check_schema

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


def referee(path: str, command: str = "replay", check: bool = False) -> tuple[int, dict[str, Any]]:
    """The referee's answer for a record file (``-``: standard input): the
    exit status (0 or 2) and the one JSON object to print. Never raises."""
    try:
        data = _read_input(path)
    except OSError as e:
        return 2, RecordError("bad_json", f"cannot read {path}: {e.strerror or e}").to_json()
    except Exception as e:  # pragma: no cover - an unreadable standard input
        return 2, {"error": "bad_json", "reason": f"cannot read {path}: {type(e).__name__}"}
    return referee_data(data, command, check)


def _record_text(data: str | bytes) -> str:
    """A record's text from its bytes (UTF-8, an optional byte order mark);
    ``RecordError`` (``bad_json``) for bytes that are not UTF-8."""
    if isinstance(data, bytes):
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise RecordError("bad_json", "the record is not UTF-8 text") from None
    return data[1:] if data.startswith("\ufeff") else data


def referee_data(
    data: str | bytes, command: str = "replay", check: bool = False
) -> tuple[int, dict[str, Any]]:
    """The referee's answer for a record's text or bytes (UTF-8, an optional
    byte order mark): ``(0, answer)`` or ``(2, error)``. Never raises.
    ``check``: the record's shape is checked against its JSON Schema first
    (``engine.schema``), its faults said with the same error kinds.

    >>> referee_data(b'{"format": "damepique-game/1", "deals": []}', "legal")
    (0, {'seat': None, 'phase': 'deal', 'legal': []})
    >>> referee_data(b'{"format": ')
    (2, {'error': 'bad_json', 'reason': 'not valid JSON: Expecting value: line 1 column 12 (char 11)'})
    """
    answer = _ANSWERS[command]
    try:
        record = load(_record_text(data))
        if check:
            check_schema(record)  # the record's shape against record.schema.json first
        return 0, answer(record)
    except (RecordError, Unverified) as e:
        return 2, e.to_json()
    except RecursionError:
        return 2, {"error": "bad_json", "reason": "the record is nested too deeply"}
    except MemoryError:
        return 2, {"error": "bad_json", "reason": "the record is too large"}
    except Exception as e:  # a bug of ours: still one JSON object, never a traceback
        return 2, {"error": "bad_json", "reason": f"unreadable record: {type(e).__name__}"}


def _referee(path: str, command: str, check: bool = False) -> int:
    status, obj = referee(path, command, check)
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


# -- the arena and the terminal demo (the library is damepique.bots.arena) ----------------


def format_table(rows: list[dict[str, Any]]) -> str:
    head = (
        f"{'bot':<28} {'deals':>7} {'points':>8} {'payoff':>8}  {'95% CI':<18} {'moons':>6} {'conceded':>9}"
    )
    if rows and "games_won_share" in rows[0]:
        head += f" {'won':>6}"
    lines = [head]
    for r in rows:
        lo, hi = r["payoff_ci95"]
        line = (
            f"{r['name']:<28} {r['deals']:>7} {r['mean_points']:>8.2f} {r['payoff']:>+8.2f}  "
            f"[{lo:+.2f}, {hi:+.2f}]{'':<4} {r['moons_made']:>6} {r['moons_conceded']:>9}"
        )
        if "games_won_share" in r:
            line += f" {r['games_won_share']:>6.1%}"
        lines.append(line)
    return "\n".join(lines)


def _json_number(x: Any) -> Any:
    """``None`` for a bound that is not finite (one deal gives no interval):
    standard JSON has no Infinity."""
    return x if not isinstance(x, float) or math.isfinite(x) else None


def _missing_extra(command: str, extra: str, what: str) -> bool:
    """Say so (and True) when ``extra`` is not installed: a hint, not an ImportError."""
    from damepique.extras import install_hint, missing

    absent = missing(extra)
    if absent:
        print(
            f"damepique {command}: {what} is not installed (missing {', '.join(absent)}): "
            f"{install_hint(extra)}",
            file=sys.stderr,
        )
    return bool(absent)


def _listen_address(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit() or not 0 <= int(port) < 65536:
        raise ValueError(f"--listen takes HOST:PORT (such as 127.0.0.1:9000), not {text!r}")
    return host.strip("[]"), int(port)


def run_arena_cli(args: Any, rules: Rules) -> int:
    """``damepique arena``: ``args`` has seats, deals, seed, duplicate, games,
    jobs, json, no_progress, and for ``remote`` seats listen, wait, remote_timeout."""
    from damepique.bots.arena import run_arena, split_seats
    from damepique.bots.registry import get_bot

    names = split_seats(args.seats)
    openspiel = any(n.startswith("openspiel-") for n in names)
    remote = [i for i, n in enumerate(names) if n == "remote"]
    listen = getattr(args, "listen", None)
    try:
        if args.deals < 1:
            raise ValueError(f"--deals must be at least 1, not {args.deals}")
        if remote and listen is None:
            raise ValueError("a remote seat waits for a program: give --listen HOST:PORT")
        if listen is not None and not remote:
            raise ValueError("--listen is for remote seats: name one in --seats (remote,expert,...)")
        if remote and openspiel:
            raise ValueError("remote seats and OpenSpiel seats do not play together")
        address = _listen_address(listen) if listen is not None else None
        for name in names:
            if name == "remote":
                continue
            if name.startswith("openspiel-"):
                from damepique.bots.openspiel import spiel_seat

                spiel_seat(name)
            else:
                get_bot(name)
        if openspiel:
            from damepique.bots.openspiel import openspiel_rules

            if rules != openspiel_rules():
                raise ValueError(
                    "OpenSpiel seats play OpenSpiel's rules (the default rules, qs_breaks_hearts=false): "
                    "leave out --rules"
                )
            if len(names) != 4:
                raise ValueError(f"{len(names)} seats given, OpenSpiel's Hearts has 4 players")
        elif len(names) != rules.players:
            raise ValueError(f"{len(names)} seats given, the rules have {rules.players} players")
    except (KeyError, ValueError) as e:
        print(f"damepique arena: {e.args[0] if e.args else e}", file=sys.stderr)
        return 2
    if remote and _missing_extra("arena", "bot", "the bot API (for remote seats)"):
        return 2
    progress = not args.no_progress and args.deals >= 20
    seats = None
    given = None
    failures: tuple[type[Exception], ...] = (ImportError, ValueError)
    if address is not None:
        from damepique.botapi.remote_seat import RemoteSeatError, RemoteSeats

        failures += (RemoteSeatError,)

        labels = ["remote"] if len(remote) == 1 else [f"remote-{k + 1}" for k in range(len(remote))]
        for i, label in zip(remote, labels, strict=True):
            names[i] = label
        seats = RemoteSeats(labels, rules, args.remote_timeout)
        try:
            port = seats.listen(*address)
        except OSError as e:
            print(f"damepique arena: cannot listen on {listen}: {e}", file=sys.stderr)
            return 2
        print(
            f"damepique arena: waiting for {len(labels)} bot program(s) on ws://{address[0]}:{port} "
            f"(damepique bot --url ws://{address[0]}:{port} --bot NAME)",
            file=sys.stderr,
            flush=True,
        )
        if not seats.wait(args.wait):
            print(f"damepique arena: no program came in {args.wait:.0f} s", file=sys.stderr)
            seats.close()
            return 2
        given = {label: seat for label, seat in zip(labels, seats.seats, strict=True)}
    rows: list[dict[str, Any]] | None = None
    try:
        rows = run_arena(
            names,
            args.deals,
            args.seed,
            rules,
            duplicate=args.duplicate,
            games=args.games,
            jobs=max(1, args.jobs),
            progress=progress,
            bots=given,
        )
    except failures as e:
        print(f"damepique arena: {e}", file=sys.stderr)
        return 2
    finally:
        if seats is not None:
            seats.close(rows)
    if args.json:
        for row in rows:
            row["payoff_ci95"] = [_json_number(x) for x in row["payoff_ci95"]]
        print(json.dumps({"bots": rows}, allow_nan=False))
    else:
        print(format_table(rows))
    return 0


def run_bot_cli(args: Any) -> int:
    """``damepique bot``: seat a registered bot at a table (or an arena's remote
    seat) and play; each game's result is one JSON line on standard output."""
    if _missing_extra("bot", "bot", "the bot API's client"):
        return 2
    from damepique.botapi.client import Client, Refused
    from damepique.botapi.links import LinkError, Target
    from damepique.bots.registry import get_bot

    if args.challenges:
        return _serve_challenges(args)
    try:
        bot = get_bot(args.bot)
        target = Target.parse(args.url, args.table)
        if args.games < 1:
            raise ValueError(f"--games must be at least 1, not {args.games}")
    except (KeyError, ValueError, LinkError) as e:
        print(f"damepique bot: {e.args[0] if e.args else e}", file=sys.stderr)
        return 2
    token = args.token or os.environ.get("DAMEPIQUE_BOT_TOKEN")
    if target.http is not None and not token:
        print(
            "damepique bot: a table wants a bot account's token: --token or DAMEPIQUE_BOT_TOKEN "
            "(a signed-in person makes one with POST /api/bots: docs/bot-api.md)",
            file=sys.stderr,
        )
        return 2
    transcript = open(args.transcript, "a", encoding="utf-8") if args.transcript else None  # noqa: SIM115
    log = None if not args.quiet else (lambda line: None)
    client = Client(
        bot,
        target,
        token=token,
        games=args.games,
        seed=args.seed,
        transcript=transcript,
        log=log,
        on_result=_print_json,
    )
    try:
        client.run()
    except Refused as e:
        print(f"damepique bot: {e.code}: {e.reason}", file=sys.stderr)
        return 1 if e.code in ("unreachable", "closed") else 2
    except KeyboardInterrupt:
        return 130
    finally:
        if transcript is not None:
            transcript.close()
    return 0


def _serve_challenges(args: Any) -> int:
    """``damepique bot --challenges``: the account's event stream, every challenge
    accepted, each game it starts played, until ``--games`` were played."""
    from damepique.botapi.client import Refused
    from damepique.botapi.events import serve
    from damepique.botapi.links import LinkError
    from damepique.bots.registry import get_bot

    token = args.token or os.environ.get("DAMEPIQUE_BOT_TOKEN")
    try:
        bot = get_bot(args.bot)
        if not token:
            raise ValueError("--challenges needs the bot account's token: --token or DAMEPIQUE_BOT_TOKEN")
        serve(
            bot,
            url=args.url,
            token=token,
            games=args.games,
            seed=args.seed,
            log=None if not args.quiet else (lambda line: None),
            on_result=_print_json,
        )
    except (KeyError, ValueError, LinkError) as e:
        print(f"damepique bot: {e.args[0] if e.args else e}", file=sys.stderr)
        return 2
    except Refused as e:
        print(f"damepique bot: {e.code}: {e.reason}", file=sys.stderr)
        return 1 if e.code in ("unreachable", "closed") else 2
    except KeyboardInterrupt:
        return 130
    return 0


# -- the terminal demo ------------------------------------------------------------------


def play_demo(rules: Rules, seed: int | None, level: str) -> int:
    """``damepique play``: computer players of ``level`` play a game, trick by trick."""
    from damepique.bots.arena import _seed, play_deal
    from damepique.bots.registry import get_bot
    from damepique.engine import CARD_NAMES, PASS, Deal, direction_name, view_of

    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
    try:
        bots = [get_bot(level) for _ in range(rules.players)]
    except KeyError as e:
        print(f"damepique play: {e.args[0]}", file=sys.stderr)
        return 2
    n = rules.players
    print(f"A game of Hearts to {rules.target}, {n} players at level {level} (seed {seed}).")
    match = Match(rules)
    k = 0
    while not match.over:
        deal = Deal.shuffled(rules, random.Random(_seed(seed, k)), k)
        match.deals.append(deal)
        print(f"\n=== Deal {k + 1}: passing {direction_name(deal.pass_offset, n)} ===")
        for s in range(n):
            print(f"  seat {s}: {_hand_text(deal.hands[s])}")
        rngs = [random.Random(_seed(seed, k, s)) for s in range(n)]
        totals = match.totals

        def show_trick(d: Deal) -> None:
            leader, cards, winner, points = d.tricks[-1]
            played = "  ".join(f"{(leader + i) % n}:{CARD_NAMES[c]}" for i, c in enumerate(cards))
            tail = f", {points} point{'s' if points != 1 else ''}" if points else ""
            print(f"  trick {len(d.tricks):>2}: {played}  -> seat {winner}{tail}")

        if deal.phase == PASS:
            for s in range(n):
                cards = bots[s].choose_pass(view_of(deal, s, totals), rngs[s])
                deal.pass_cards(s, cards)
                names = " ".join(CARD_NAMES[c] for c in sorted(cards))
                print(f"  seat {s} passes {names} to seat {deal.pass_target(s)}")
        play_deal(deal, bots, rngs, totals, on_trick=show_trick)
        res = deal.result()
        moon = f"  seat {res.moon} shot the moon!" if res.moon is not None else ""
        print(f"  points: {list(res.points)}{moon}")
        print(f"  totals: {match.totals}")
        k += 1
    print(f"\nSeat {match.winner} wins with {min(match.totals)} points.")
    return 0


def _hand_text(mask: int) -> str:
    from damepique.engine import CARD_NAMES, cards_of

    parts = []
    for s in (3, 2, 1, 0):
        cards = [CARD_NAMES[c] for c in reversed(cards_of(mask)) if c // 13 == s]
        if cards:
            parts.append(" ".join(cards))
    return "  ".join(parts)


# -- advice (damepique advise) ------------------------------------------------------------


def advise_data(data: str | bytes, playouts: int | None = None, seed: int = 0) -> tuple[int, dict[str, Any]]:
    """``damepique advise``: the expert's advice for the seat to act at the
    end of a record, ``(0, answer)``, or the referee's ``(2, error)``. Never
    raises. ``answer`` is ``{"seat", "phase", "advice": [...]}``, one entry per
    legal card (the best few passes in the pass phase), best first, each as
    ``bots.advice.advice_json`` writes it.
    """
    from damepique.bots.advice import ADVICE_PLAYOUTS, advice_json, advise
    from damepique.engine import DONE, PASS, view_of
    from damepique.engine.record import replay

    try:
        match = replay(load(_record_text(data)))
    except RecordError as e:
        return 2, e.to_json()
    except RecursionError:
        return 2, {"error": "bad_json", "reason": "the record is nested too deeply"}
    except MemoryError:
        return 2, {"error": "bad_json", "reason": "the record is too large"}
    except Exception as e:  # a bug of ours: still one JSON object, never a traceback
        return 2, {"error": "bad_json", "reason": f"unreadable record: {type(e).__name__}"}
    deal = match.deal
    if deal is None or deal.phase == DONE:
        return 0, {"seat": None, "phase": "over" if match.over else "deal", "advice": []}
    seat = deal.passing_seats[0] if deal.phase == PASS else deal.to_act
    view = view_of(deal, seat, match.totals)
    options = advise(view, random.Random(seed), playouts or ADVICE_PLAYOUTS)
    return 0, {"seat": seat, "phase": deal.phase, "advice": [advice_json(a) for a in options]}


def _advise(args: Any) -> int:
    try:
        data = _read_input(args.file)
    except OSError as e:
        _print_json(RecordError("bad_json", f"cannot read {args.file}: {e.strerror or e}").to_json())
        return 2
    if args.playouts is not None and args.playouts < 1:
        print(f"damepique advise: --playouts must be at least 1, not {args.playouts}", file=sys.stderr)
        return 2
    status, obj = advise_data(data, args.playouts, args.seed)
    _print_json(obj)
    return status


def _add_advise(sub: Any) -> None:
    p = sub.add_parser("advise", help="print the expert's advice for the seat to act at the end of a record")
    p.add_argument("file", help="record file, or - for standard input")
    p.add_argument("--playouts", type=int, default=None, help="play-outs per decision (default 2000)")
    p.add_argument("--seed", type=int, default=0, help="seed of the search's generator (default 0)")


def daily_cli(date: str, secret: str, level: str) -> int:
    """``damepique daily``: the day's par game, the record the leaderboard's par comes from."""
    import datetime as dt
    import re

    from damepique.bots.par import DAILY_DEALS, DAILY_RULES, par_record

    try:
        if len(date) != 10:
            raise ValueError(date)
        dt.date.fromisoformat(date)
    except ValueError:
        print(f"damepique daily: --date is written YYYY-MM-DD, not {date!r}", file=sys.stderr)
        return 2
    if not re.fullmatch(r"[0-9a-f]{64}", secret):
        print("damepique daily: --secret is the day's 64 lower-case hex digits", file=sys.stderr)
        return 2
    try:
        _print_json(par_record(DAILY_RULES, DAILY_DEALS, bytes.fromhex(secret), level))
    except (KeyError, ValueError) as e:
        print(f"damepique daily: no bot {level!r} ({e})", file=sys.stderr)
        return 2
    return 0


# -- game analysis (damepique analyze) --------------------------------------------------------


def analyze_data(
    data: str | bytes,
    seat: int = 0,
    playouts: int | None = None,
    seed: int = 0,
    jobs: int = 1,
) -> tuple[int, dict[str, Any]]:
    """``damepique analyze``: every decision of ``seat`` in a record rated by
    the expert (``bots.analysis``), ``(0, analysis)``, or ``(2, error)``: the
    referee's error object for a bad record, ``bad_seat`` for a seat the
    game does not have. Never raises."""
    from damepique.bots.analysis import ANALYSIS_PLAYOUTS, analyze
    from damepique.engine.record import replay

    try:
        match = replay(load(_record_text(data)))
    except RecordError as e:
        return 2, e.to_json()
    except RecursionError:
        return 2, {"error": "bad_json", "reason": "the record is nested too deeply"}
    except MemoryError:
        return 2, {"error": "bad_json", "reason": "the record is too large"}
    except Exception as e:  # a bug of ours: still one JSON object, never a traceback
        return 2, {"error": "bad_json", "reason": f"unreadable record: {type(e).__name__}"}
    players = match.rules.players
    if not 0 <= seat < players:
        return 2, {"error": "bad_seat", "reason": f"seat {seat} is not a seat of this {players}-player game"}
    result = analyze(match, seat, playouts or ANALYSIS_PLAYOUTS, seed, jobs)
    return 0, result.to_json()


def _analyze(args: Any) -> int:
    try:
        data = _read_input(args.file)
    except OSError as e:
        _print_json(RecordError("bad_json", f"cannot read {args.file}: {e.strerror or e}").to_json())
        return 2
    for name in ("playouts", "jobs"):
        value = getattr(args, name)
        if value is not None and value < 1:
            print(f"damepique analyze: --{name} must be at least 1, not {value}", file=sys.stderr)
            return 2
    status, obj = analyze_data(data, args.seat, args.playouts, args.seed, args.jobs)
    _print_json(obj)
    return status


def _add_analyze(sub: Any) -> None:
    p = sub.add_parser(
        "analyze", help="rate every decision of one seat in a game record with the expert (JSON)"
    )
    p.add_argument("file", help="record file, or - for standard input")
    p.add_argument("--seat", type=int, default=0, help="the seat to analyse (default 0)")
    p.add_argument("--playouts", type=int, default=None, help="play-outs per decision (default 2000)")
    p.add_argument("--seed", type=int, default=0, help="seed of the search's generators (default 0)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")


# -- puzzles (damepique puzzles build | check) ----------------------------------------------------


def _counts_of(
    text: str | None, flag: str, shape: str, kind: str, known: Sequence[str] | Mapping[str, Any]
) -> dict[str, int] | None:
    """``NAME=N,NAME=N`` as a dict (None when absent); ``ValueError`` says what is wrong."""
    if not text:
        return None
    try:
        out = {k: int(v) for k, v in (x.split("=") for x in text.split(","))}
    except ValueError:
        raise ValueError(f"{flag} is {shape},{shape}") from None
    unknown = sorted(set(out) - set(known))
    if unknown:
        raise ValueError(f"no {kind} {unknown[0]!r}")
    return out


def _build_source(args: Any) -> str:
    """How a puzzle file was built: the options that decide its content (not
    ``--out``, ``--jobs``, ``--quiet``), kept files by name."""
    words = ["damepique puzzles build"]
    words += [f"--keep {os.path.basename(k)}" for k in args.keep or []]
    words += [f"--count {args.count}", f"--seed {args.seed}", f"--playouts {args.playouts}"]
    for flag in ("presets", "caps", "checks"):
        if getattr(args, flag):
            words.append(f"--{flag} {getattr(args, flag)}")
    return " ".join(words)


def _mine_games(args: Any) -> int:
    """Puzzles from the server's finished games whose every person allowed it."""
    import asyncio

    from damepique.bots import puzzles
    from damepique.server.settings import database_url
    from damepique.server.storage.database import Database
    from damepique.server.storage.puzzles import PuzzleStore

    async def consented() -> list[tuple[str, Any, list[int]]]:
        db = Database(database_url(args.db))
        await db.open()
        try:
            return await PuzzleStore(db).consented_games(args.games)
        finally:
            await db.close()

    games = asyncio.run(consented())
    checks = tuple(int(x) for x in args.checks.split(",")) if args.checks else ()
    data = puzzles.mine_games(games, args.playouts, args.jobs, checks)
    puzzles.dump(data, args.out)
    found = data["puzzles"]
    _print_json(
        {
            "out": args.out,
            "games": len(games),
            "puzzles": len(found),
            "themes": puzzles.counts(found, "theme"),
        }
    )
    return 0


def _puzzles(args: Any) -> int:
    from damepique.bots import puzzles

    if args.action == "build":
        try:
            presets = _counts_of(args.presets, "--presets", "NAME=WEIGHT", "preset", PRESETS)
            caps = _counts_of(args.caps, "--caps", "THEME=COUNT", "theme", puzzles.THEMES)
        except ValueError as e:
            print(f"damepique puzzles build: {e}", file=sys.stderr)
            return 2

        def progress(done: int, total: int) -> None:
            if not args.quiet:
                print(f"{done}/{total} puzzles", file=sys.stderr, flush=True)

        checks = tuple(int(x) for x in args.checks.split(",")) if args.checks else ()
        keep: list[Any] = []
        for path in args.keep or []:
            try:  # a file from before public ids is converted as it is read (puzzles.with_public_id)
                keep += puzzles.load(path)["puzzles"]
            except (OSError, ValueError) as e:
                print(f"damepique puzzles build: cannot keep {path}: {e}", file=sys.stderr)
                return 2
        data = puzzles.build(
            args.count, args.seed, args.playouts, args.jobs, presets, progress, caps, checks, keep
        )
        data["source"] = _build_source(args)
        puzzles.dump(data, args.out)
        found = data["puzzles"]
        _print_json(
            {
                "out": args.out,
                "puzzles": len(found),
                "themes": puzzles.counts(found, "theme"),
                "presets": puzzles.counts(found, "preset"),
            }
        )
        return 0
    if args.action == "mine-games":
        return _mine_games(args)
    try:
        data = puzzles.load(args.file)
    except (OSError, ValueError) as e:
        _print_json({"error": "bad_file", "reason": f"cannot read {args.file}: {e}"})
        return 2
    problems = puzzles.check(data, args.seed, args.jobs, args.sample)
    found = data.get("puzzles", [])
    checked = len(found) if args.sample is None else min(args.sample, len(found))
    _print_json(
        {
            "puzzles": len(found),
            "checked": checked,
            "ok": not problems,
            "problems": problems,
            "themes": puzzles.counts(found, "theme"),
            "presets": puzzles.counts(found, "preset"),
        }
    )
    return 0 if not problems else 1


def _add_puzzles(sub: Any) -> None:
    p = sub.add_parser(
        "puzzles", help="build or check a file of puzzles (positions where one card is clearly right)"
    )
    actions = p.add_subparsers(dest="action", required=True)
    b = actions.add_parser("build", help="mine puzzles from seeded bot games")
    b.add_argument("--out", required=True, help="the file to write (.json, or .json.gz compressed)")
    b.add_argument("--count", type=int, default=500, help="puzzles to find at least (default 500)")
    b.add_argument("--seed", type=int, default=0, help="seed of the games (default 0)")
    b.add_argument(
        "--playouts", type=int, default=3000, help="play-outs of the deciding search (default 3000)"
    )
    b.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    b.add_argument("--presets", default=None, help="NAME=WEIGHT,... (default: standard mostly)")
    b.add_argument("--caps", default=None, help="THEME=COUNT,...: at most COUNT puzzles of a theme")
    b.add_argument(
        "--keep",
        action="append",
        help="a puzzle file whose puzzles are taken first, within the caps (again: another file);"
        " one from before public ids is converted",
    )
    b.add_argument(
        "--checks", default="", help="SEED,...: keep only puzzles that `check` passes on each of these seeds"
    )
    b.add_argument("--quiet", action="store_true", help="no progress on standard error")
    g = actions.add_parser(
        "mine-games", help="mine puzzles from the server's finished games whose people allowed it"
    )
    g.add_argument("--db", default=None, help="the server's database (default: $DAMEPIQUE_DB, else its file)")
    g.add_argument("--out", required=True, help="the file to write (.json, or .json.gz compressed)")
    g.add_argument("--games", type=int, default=1000, help="the newest N games allowed (default 1000)")
    g.add_argument(
        "--playouts", type=int, default=3000, help="play-outs of the deciding search (default 3000)"
    )
    g.add_argument(
        "--checks", default="1", help="SEED,...: keep only puzzles `check` passes on these (default 1)"
    )
    g.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    c = actions.add_parser("check", help="check every puzzle of a file on a fresh seed")
    c.add_argument("file", help="a puzzle file (.json or .json.gz)")
    c.add_argument("--seed", type=int, default=1, help="the fresh seed (default 1)")
    c.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    c.add_argument("--sample", type=int, default=None, help="check the first N puzzles only")


def build_parser() -> argparse.ArgumentParser:
    """Every command and its options (the docs' examples are checked against it)."""
    parser = argparse.ArgumentParser(
        prog="damepique", description="Hearts (Dame de pique): engine, bots, server."
    )
    parser.add_argument("--version", action="version", version=f"damepique {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("replay", help="check a game record and print its scores as JSON")
    p.add_argument("file", help="record file, or - for standard input")
    p.add_argument(
        "--check",
        action="store_true",
        help="check the record's shape against its JSON Schema first (docs/record-format.md)",
    )
    p = sub.add_parser("legal", help="print what the seat to act may do at the end of a record")
    p.add_argument("file", help="record file, or - for standard input")

    p = sub.add_parser(
        "verify", help="check that a finished game's deals are the ones its revealed secret deals"
    )
    p.add_argument("file", help="record file, or - for standard input")
    _add_advise(sub)
    _add_analyze(sub)
    _add_puzzles(sub)

    p = sub.add_parser(
        "daily",
        help="print a day's par game: the daily deal's deals as the experts play them (docs/daily.md)",
    )
    p.add_argument("--date", required=True, help="the day, YYYY-MM-DD (UTC)")
    p.add_argument("--secret", required=True, help="the day's secret, revealed once the day is over")
    p.add_argument("--level", default="expert", help="the day's computer players (GET /api/daily/DATE says)")

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
    p.add_argument(
        "--listen",
        metavar="HOST:PORT",
        help="for remote seats: wait there for bot programs (damepique bot --url ws://HOST:PORT)",
    )
    p.add_argument("--wait", type=float, default=120.0, help="seconds to wait for the programs (120)")
    p.add_argument(
        "--remote-timeout", type=float, default=60.0, help="seconds a program has for one decision (60)"
    )

    p = sub.add_parser(
        "bot",
        help="seat a bot at a table over the bot API and play (docs/bot-api.md)",
        description="Seat a registered bot at a table of a damepique server with a bot account's "
        "token, and play whole games; each game's result is one JSON line on standard output.",
    )
    p.add_argument(
        "--url",
        required=True,
        help="the table's link as the page shows it (http://host:port/#/t/CODE), the server's "
        "address with --table, or an arena's ws://HOST:PORT",
    )
    p.add_argument("--table", help="the table's code, when --url is the server's address")
    p.add_argument("--token", help="the bot account's token (default: $DAMEPIQUE_BOT_TOKEN)")
    p.add_argument(
        "--bot", default="intermediate", help="a registered bot: expert, expert:budget_ms=500, ..."
    )
    p.add_argument("--games", type=int, default=1, help="games to play: a rematch after each but the last")
    p.add_argument(
        "--challenges",
        action="store_true",
        help="keep the account's event stream open, accept every challenge and play the games "
        "they start (--url: the server's address; --games: how many before stopping)",
    )
    p.add_argument("--seed", type=int, default=None, help="the bot's random generator's seed")
    p.add_argument("--transcript", metavar="FILE", help="append every message received to FILE, one a line")
    p.add_argument("--quiet", action="store_true", help="say nothing on standard error but failures")

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
    p.add_argument(
        "--forwarded-allow-ips",
        default=None,
        help="the proxies in front whose X-Forwarded-For is believed, comma-separated "
        "(default: $FORWARDED_ALLOW_IPS, else none: a client's address is the one it connects from)",
    )
    p.add_argument(
        "--fd",
        type=int,
        default=None,
        help="serve a socket already listening, handed down by the process that started this one "
        "(its connections wait until the server is ready: test fixtures wait for the first answer)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)

    if args.command == "replay":
        return _referee(args.file, "replay", args.check)
    if args.command in ("legal", "verify"):
        return _referee(args.file, args.command)
    if args.command == "advise":
        return _advise(args)
    if args.command == "analyze":
        return _analyze(args)
    if args.command == "daily":
        return daily_cli(args.date, args.secret, args.level)
    if args.command == "puzzles":
        return _puzzles(args)
    if args.command == "random-game":
        _print_json(random_game(_parse_rules(args.rules), args.seed))
        return 0
    if args.command == "bench":
        from damepique.bench import run_bench

        return run_bench(args.deals, args.seed, as_json=args.json)
    if args.command == "arena":
        return run_arena_cli(args, _parse_rules(args.rules))
    if args.command == "bot":
        return run_bot_cli(args)
    if args.command == "play":
        return play_demo(_parse_rules(args.rules), args.seed, args.level)
    if args.command == "serve":
        # The web app is the [server] extra: without it, say so instead of an ImportError.
        if _missing_extra("serve", "server", "the web app"):
            return 2
        from damepique.server.run import serve

        return serve(
            host=args.host,
            port=args.port,
            db=args.db,
            open_browser=args.open,
            broker=args.broker,
            process_id=args.process_id,
            forwarded_allow_ips=args.forwarded_allow_ips,
            fd=args.fd,
        )
    parser.error(f"unknown command {args.command}")  # pragma: no cover
    return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
