"""Every table of the app's database, in one place: what the migrations build.

The migrations (``storage/migrations``) write each change out as it was
made; ``tests/scaling/test_store_backends.py`` checks that after the last of
them the database is exactly this (Alembic's autogenerate finds nothing).
"""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, Index, Integer, MetaData, String, Table, Text, false, true

metadata = MetaData()

# -- games: every game played, solo or at a table with others, and its event log --------

games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("owner", String(64), index=True),
    Column("rules", Text, nullable=False),
    Column("seats", Text, nullable=False),
    Column("seed", Integer),
    Column("secret", String(64)),
    Column("options", Text, nullable=False),
    Column("created", Float, nullable=False),
    Column("finished", Float),
    Column("totals", Text),
    Column("winner", Integer),
    Column("record", Text),
)
"""``owner``: the browser that played a solo game (its history). ``secret``: the
deal secret (``engine.fairness``); ``seed``: set only for a game begun before
deals were sealed. ``record``: the finished game's record."""

events = Table(
    "events",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("body", Text, nullable=False),
)
"""Each game's log: ``deal``, ``pass`` and ``play`` events as JSON, committed before they are sent."""

analyses = Table(
    "analyses",
    metadata,
    Column("game", String(64), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("playouts", Integer, nullable=False),
    Column("created", Float, nullable=False),
    Column("data", Text, nullable=False),
)
"""A finished game's analysis for one seat (``bots.analysis``), kept so that it
is served again without recomputing: ``game`` is the game's id, or ``u-`` and
the SHA-256 of an uploaded record's canonical JSON; ``data`` the analysis as
the routes send it."""

# -- tables: where games are played (a solo game is a private table of one person) -------

tables = Table(
    "mp_tables",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("kind", String(8), nullable=False, server_default="table"),
    Column("status", String(16), nullable=False, index=True),
    Column("public", Boolean, nullable=False),
    Column("joined", Boolean, nullable=False, server_default=true()),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("data", Text, nullable=False),
)
"""A table's whole state (seats, host, options, current game) as one JSON document;
``kind`` is ``solo`` or ``table``; ``joined``: a person came to it (those
nobody joined expire: ``Tables.expire``)."""

Index("ix_mp_tables_unjoined", tables.c.kind, tables.c.joined, tables.c.created)
"""The look every 30 seconds for solo tables nobody joined (``TableStore.unjoined_solo``)
reads this index instead of every table ever stored."""

seat_tokens = Table(
    "mp_tokens",
    metadata,
    Column("token", String(64), primary_key=True),
    Column("code", String(16), nullable=False, index=True),
    Column("seat", Integer, nullable=False),
    Column("ticket", String(64), unique=True, index=True),
)
"""A seat's secret: whoever holds the token plays the seat. ``ticket``: the
quick-match wait that took the seat (``quick_tickets``), unique: whichever
process owns the queue, one wait sits at one table once."""

# -- accounts ---------------------------------------------------------------------------

accounts = Table(
    "accounts",
    metadata,
    Column("key", String(32), primary_key=True),
    Column("nickname", String(32), nullable=False),
    Column("password", Text, nullable=False),
    Column("rating", Float, nullable=False),
    Column("created", Float, nullable=False),
    Column("stats", Text, nullable=False),
    Column("kind", String(8), nullable=False, server_default="person"),
    Column("owner", String(32), index=True),
    Column("token", String(64), unique=True, index=True),
    Column("quick", Boolean, nullable=False, server_default=false()),
    Column("puzzle_consent", Boolean, nullable=False, server_default=false()),
)
"""People and bots share one namespace of nicknames, one rating and the same
statistics. ``kind``: ``person`` (signs in with a password) or ``bot`` (a
program that authenticates with a token; ``password`` is empty, so no
password ever signs it in). A bot's ``owner`` is the key of the person who
made it; its ``token`` is the SHA-256 (hex) of its secret token, None once
revoked. ``puzzle_consent``: the person lets puzzles be mined from the games
they finish (off unless they turn it on: ``damepique puzzles mine-games``)."""

rating_history = Table(
    "rating_history",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(32), nullable=False, index=True),
    Column("game_id", String(32), nullable=False),
    Column("at", Float, nullable=False),
    Column("rating", Float, nullable=False),
)

results = Table(
    "mp_results",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("at", Float, nullable=False),
    Column("data", Text, nullable=False),
)
"""One row per finished game with accounts at it: its ratings and statistics are counted once."""

account_sessions = Table(
    "account_sessions",
    metadata,
    Column("sid", String(64), primary_key=True),
    Column("key", String(32), nullable=False),
    Column("created", Float, nullable=False, index=True),
)
"""One row per signed-in browser: the cookie names its ``sid``; signing out deletes the row."""

meta = Table(
    "mp_meta",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("value", Text, nullable=False),
)
"""Small named values made once (the session-signing secret)."""

# -- everyone's statistics ------------------------------------------------------------------

player_games = Table(
    "player_games",
    metadata,
    Column("player", String(80), primary_key=True),
    Column("game_id", String(32), primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("finished", Float, nullable=False, index=True),
    Column("summary", Text),
)
"""Who played each finished game: ``player`` is ``a:<account key>`` (signed in)
or ``g:<browser id>`` (a guest), written when the game ends, with ``summary``,
that seat's part of it worked out from the game then (``stats.figures.seat_summary``;
missing, it is worked out from the game's record once, and kept)."""

player_links = Table(
    "player_links",
    metadata,
    Column("device", String(64), primary_key=True),
    Column("account", String(32), nullable=False, index=True),
    Column("at", Float, nullable=False),
)
"""A browser's guest games count for the account first signed in on it."""

ranked_leaves = Table(
    "ranked_leaves",
    metadata,
    Column("key", String(32), primary_key=True),
    Column("game_id", String(32), primary_key=True),
    Column("at", Float, nullable=False, index=True),
)
"""A ranked game a bot finished for an account (it left, or was away at the end):
repeated leaving bars quick ranked matches for a while (``accounts/leavers.py``)."""

bot_ladder = Table(
    "bot_ladder",
    metadata,
    Column("key", String(32), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
)
"""The bots' own ladder (issue 29): a bot's rating from ranked games of bots
only (challenges), apart from the people's ratings (``accounts.rating``)."""

# -- several processes --------------------------------------------------------------------

leases = Table(
    "leases",
    metadata,
    Column("name", String(64), primary_key=True),
    Column("holder", String(64), nullable=False),
    Column("expires", Float, nullable=False, index=True),
)
"""Who runs what: one row per table run somewhere (its code) and per live process (``proc:<id>``)."""

# -- the score keeper ------------------------------------------------------------------------

sheets = Table(
    "scorer_sheets",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("read_id", String(40), nullable=False, unique=True, index=True),
    Column("data", Text, nullable=False),
    Column("version", Integer, nullable=False),
    Column("created_at", String(40), nullable=False),
    Column("updated_at", String(40), nullable=False),
)

# -- the daily deal: the same cards for everyone each day (docs/daily.md) ---------------------

daily_days = Table(
    "daily_days",
    metadata,
    Column("date", String(10), primary_key=True),
    Column("secret", String(64), nullable=False),
    Column("created", Float, nullable=False),
    Column("level", String(32), nullable=False),
    Column("par", Text),
)
"""One row per UTC day (``YYYY-MM-DD``), made when the day is first asked for
(never before it starts): its deal secret (revealed once the day is over),
the level of its experts, and its par once played (JSON: the par game's record
and the points of each seat by deal)."""

daily_entries = Table(
    "daily_entries",
    metadata,
    Column("date", String(10), primary_key=True),
    Column("player", String(64), primary_key=True),
    Column("device", String(64), nullable=False),
    Column("account", String(32), index=True),
    Column("nickname", String(32)),
    Column("code", String(16), nullable=False),
    Column("game_id", String(32), nullable=False),
    Column("started", Float, nullable=False),
    Column("finished", Float),
    Column("points", Text),
    Column("total", Integer),
)
"""One try a day per player: ``player`` is the account's key when signed in,
else the browser's id (``device``); a browser's tries move to the account
when its owner signs in. ``points``: the player's points by deal (JSON), once finished."""

# -- puzzles (issue 26) ----------------------------------------------------------------------

puzzle_attempts = Table(
    "puzzle_attempts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player", String(80), nullable=False, index=True),
    Column("puzzle_id", String(64), nullable=False),
    Column("theme", String(16), nullable=False),
    Column("correct", Boolean, nullable=False),
    Column("puzzle_rating", Float, nullable=False),
    Column("at", Float, nullable=False),
    Column("before", Text, nullable=False),
    Column("after", Text, nullable=False),
)
"""Each puzzle answered: ``player`` is ``a:<account key>`` or ``g:<browser id>``
(a guest's move to the account when its owner signs in on that browser),
with the player's puzzle rating before and after (``{rating, rd, vol}``,
JSON): a player's rating is the last ``after``, and replaying every attempt
from the first ``before`` gives it again (``storage.puzzles.merge``)."""

# -- quick match ----------------------------------------------------------------------------

quick_tickets = Table(
    "quick_tickets",
    metadata,
    Column("ticket", String(64), primary_key=True),
    Column("since", Float, nullable=False),
    Column("due", Float, nullable=False),
    Column("seated", Text),
    Column("at", Float, nullable=False, index=True),
)
"""A quick-match wait, as its queue's owner took it in: when it began and when
bots fill (``since``, ``due``), and once seated, where (``seated``: the
``matched`` message, JSON). So a wait survives its owner (another process, or
the same server restarted, takes it back at its place), and a ticket is
seated once whoever owns the queue. ``at``: its last change; rows are kept
``quick.service.RECENT_S``."""

# -- duplicate tournaments for clubs (docs/tournaments.md) ------------------------------------

tournaments = Table(
    "tournaments",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("status", String(16), nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("data", Text, nullable=False),
    Column("due", Float, nullable=True, index=True),
)
"""A tournament's whole state as one JSON document (its rules, deals, players,
seating, tables, deal secret and the director's token's hash); ``status`` is
``open``, ``playing`` or ``over``; ``due``: from when some process must drive
it (its start time while open, 0 while played; null: nothing to drive)."""

# -- challenges between accounts (docs/bot-api.md) -------------------------------------------

challenges = Table(
    "challenges",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("status", String(16), nullable=False, index=True),
    Column("created", Float, nullable=False, index=True),
    Column("data", Text, nullable=False),
)
"""A challenge as one JSON document (who challenged whom, the answers, the
table's options; once started, each account's seat and token); ``status``
is ``pending``, ``started``, ``declined`` or ``canceled``."""

challenge_accounts = Table(
    "challenge_accounts",
    metadata,
    Column("challenge", String(16), primary_key=True),
    Column("account", String(64), primary_key=True, index=True),
)
"""Every account a challenge names (its challenger too): whose lists it is on."""


__all__ = [
    "account_sessions",
    "accounts",
    "analyses",
    "bot_ladder",
    "challenge_accounts",
    "challenges",
    "daily_days",
    "daily_entries",
    "events",
    "games",
    "leases",
    "meta",
    "metadata",
    "player_games",
    "player_links",
    "puzzle_attempts",
    "quick_tickets",
    "ranked_leaves",
    "rating_history",
    "results",
    "seat_tokens",
    "sheets",
    "tables",
    "tournaments",
]
