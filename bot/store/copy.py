"""Copy every table from one database to another (SQLite ⇄ PostgreSQL), then prove it by replay."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.store import repository as repo
from bot.store.connection import open_store
from bot.store.cursor import Db, Store
from rules.core.messages import plural

log = logging.getLogger(__name__)

# Parents before children (foreign keys); any other table (added by later migrations) follows.
FIRST_TABLES = ("games", "seats", "actions", "events")
BOOKKEEPING = {"hangar_schema"}
BATCH = 500
# What the bot writes about itself at every start, games or not: its heartbeat and the hash of
# the slash commands it synced (`meta`). A database the bot has started on holds these rows and
# may still take a copy; the source's rows replace them, because the copied games' turn clocks
# stopped at the source's last heartbeat (the next start extends them by the time since).
STARTUP_TABLES = frozenset({"heartbeat", "meta"})
# Settings people choose without any game (/notify, /away, server defaults), by key column. A
# row chosen on the target stays (it is the newer choice); the source's other rows are added.
SETTINGS_KEYS = {"user_prefs": "user_id", "guild_settings": "guild_id"}


class CopyRefusedError(ValueError):
    """The target holds data of its own (games): copying would mix two histories."""


@dataclass
class CopyReport:
    """What a copy moved and what the replay check found."""

    rows: dict[str, int] = field(default_factory=dict)
    kept: dict[str, int] = field(default_factory=dict)  # the target's own settings rows
    games_checked: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when every table arrived whole and every game replays to its snapshot."""
        return not self.problems

    def summary(self) -> str:
        """A few lines for the terminal."""
        tables = ", ".join(f"{name} {count}" for name, count in self.rows.items())
        lines = [f"Copied rows: {tables}."]
        if any(self.kept.values()):
            kept = ", ".join(f"{name} {count}" for name, count in self.kept.items() if count)
            lines.append(f"Kept the target's own settings: {kept}.")
        lines.append(f"Games replayed and checked: {self.games_checked}.")
        lines += [f"PROBLEM: {problem}" for problem in self.problems]
        return "\n".join(lines)


async def table_names(store: Store) -> list[str]:
    """The store's own tables, parents first."""
    if store.dialect == "postgres":
        sql = (
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
        )
    else:
        sql = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    async with store.reading() as db, db.execute(sql) as cursor:
        names = {str(row[0]) for row in await cursor.fetchall()} - BOOKKEEPING
    first = [name for name in FIRST_TABLES if name in names]
    return first + sorted(names - set(first))


async def _count(db: Db, table: str) -> int:
    """Rows in a table."""
    async with db.execute(f"SELECT COUNT(*) FROM {table}") as cursor:
        row = await cursor.fetchone()
    return int(row[0])


async def _source_rows(source: Store, table: str) -> list[Any]:
    """Every row of one source table."""
    async with source.reading() as db, db.execute(f"SELECT * FROM {table}") as cursor:
        return list(await cursor.fetchall())


async def _insert(target_db: Db, table: str, rows: list[Any]) -> int:
    """Write rows into the target, column by column name; returns how many."""
    if not rows:
        return 0
    columns = list(rows[0].keys())
    marks = ", ".join("?" for _ in columns)
    sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"
    values = [tuple(row[c] for c in columns) for row in rows]
    for start in range(0, len(values), BATCH):
        await target_db.executemany(sql, values[start : start + BATCH])
    return len(values)


async def _refuse_own_data(target_db: Db, tables: list[str]) -> None:
    """Refuse a target holding anything but start-up rows and settings (games first)."""
    for table in tables:
        if table in STARTUP_TABLES or table in SETTINGS_KEYS:
            continue
        count = await _count(target_db, table)
        if count:
            what = f"{plural(count, 'row')} in {table}"
            held = plural(count, "game") if table == "games" else what
            raise CopyRefusedError(
                f"the target database already holds {held}; nothing was copied — copy into a "
                "new, empty database instead (one the bot has only started on is fine)"
            )


async def _settings_to_add(target_db: Db, table: str, rows: list[Any]) -> tuple[list[Any], int]:
    """The source's settings rows the target has none for, and how many rows the target keeps."""
    key = SETTINGS_KEYS[table]
    async with target_db.execute(f"SELECT {key} FROM {table}") as cursor:
        chosen = {row[0] for row in await cursor.fetchall()}
    return [row for row in rows if row[key] not in chosen], len(chosen)


async def _copy_table(source: Store, target_db: Db, table: str, report: CopyReport) -> None:
    """One table: start-up rows replaced, settings merged, everything else simply inserted."""
    rows = await _source_rows(source, table)
    if table in STARTUP_TABLES:
        await target_db.execute(f"DELETE FROM {table}")
    elif table in SETTINGS_KEYS:
        rows, report.kept[table] = await _settings_to_add(target_db, table, rows)
    report.rows[table] = await _insert(target_db, table, rows)


async def _restart_generated_keys(target: Store, target_db: Db) -> None:
    """PostgreSQL's identity counter must continue after the copied keys."""
    if target.dialect == "postgres":
        await target_db.execute(
            "SELECT setval(pg_get_serial_sequence('games', 'pk'), "
            "COALESCE((SELECT MAX(pk) FROM games), 0) + 1, false)"
        )


# Why a copied game does not replay to its snapshot, or None (bot/services/replay.py has it:
# the store copies rows and leaves the rules to the services).
ReplayCheck = Callable[[repo.StoredGame, list[repo.ActionRecord]], str | None]


async def copy_database(source_url: str, target_url: str, check: ReplayCheck) -> CopyReport:
    """Copy everything from source to a target without games, then check counts and replays."""
    source = await open_store(source_url)
    try:
        target = await open_store(target_url)
        try:
            return await _copy(source, target, check)
        finally:
            await target.close()
    finally:
        await source.close()


async def _copy(source: Store, target: Store, check: ReplayCheck) -> CopyReport:
    """The copy itself, in one target transaction (all or nothing)."""
    report = CopyReport()
    tables = await table_names(source)
    async with target.transaction() as db:
        await _refuse_own_data(db, tables)
        for table in tables:
            await _copy_table(source, db, table, report)
        await _restart_generated_keys(target, db)
    for table in tables:
        async with target.reading() as db:
            arrived = await _count(db, table)
        sent, kept = report.rows[table], report.kept.get(table, 0)
        if arrived != sent + kept:
            besides = f" besides {kept} kept" if kept else ""
            report.problems.append(f"{table}: {sent} rows sent{besides}, {arrived} arrived")
    await _check_replays(target, report, check)
    return report


async def _check_replays(store: Store, report: CopyReport, check: ReplayCheck) -> None:
    """Every game with a snapshot: seed + copied log must replay to the copied snapshot."""
    async with store.reading() as db, db.execute("SELECT pk FROM games ORDER BY pk") as cursor:
        pks = [int(row[0]) for row in await cursor.fetchall()]
    for pk in pks:
        async with store.reading() as db:
            stored = await repo.fetch_game(db, pk)
            actions = await repo.fetch_actions(db, pk)
        if stored is None or stored.snapshot is None:
            continue
        problem = check(stored, actions)
        report.games_checked += 1
        if problem:
            report.problems.append(f"game {pk} ({stored.record.game_id}): {problem}")
