"""Settings: each server's defaults, each game's table options and each player's preferences."""

from __future__ import annotations

import dataclasses
import time
from typing import Any, Literal, get_args

from pydantic import BaseModel, Field

from bot.i18n import ENGLISH, ptranslate, shipped, translate
from bot.lru import Lru
from bot.services.errors import ServiceError
from bot.services.gametime import Clock
from bot.store import Store
from bot.store import clocks as cs
from bot.store.clocks import GuildSettings, TableRow, UserPrefs
from bot.store.cursor import Db
from bot.store.locks import Lock
from bot.store.repository import GameRecord
from rules.core.errors import said

TURN_LIMITS: dict[str, float] = {"off": 0, "12h": 12, "24h": 24, "48h": 48, "72h": 72, "1w": 168}
TurnLimit = Literal["off", "12h", "24h", "48h", "72h", "1w"]
OnTimeout = Literal["remind", "ai"]
# How long a server's language setting is trusted from memory (another process may change it).
LANGUAGE_TTL = 300.0
Where = Literal["channel", "dm", "both"]


class TableOptions(BaseModel):
    """Options every game has, owned by the bot (None: the server's default)."""

    turn_limit: TurnLimit | None = Field(None, description="Time per turn")
    on_timeout: OnTimeout | None = Field(
        None, description="At the deadline: remind only, or ai (skip where a pass is allowed)"
    )
    thread: bool | None = Field(None, description="Play in a new thread of this channel")
    hints: bool | None = Field(
        None, description="Let players ask for the Hard AI's move and why (a Hint button)"
    )


def table_text(table: TableRow, hints: bool = False, locale: str = ENGLISH) -> str:
    """One line describing a game's table options (shown in the lobby, in its language)."""
    if table.turn_limit == "off":
        limit = translate(locale, "no turn limit")
    else:
        limit = translate(locale, "turn limit {limit}", limit=table.turn_limit)
    shown = translate(locale, "on (💡 Hint on the board)") if hints else translate(locale, "off")
    return translate(
        locale,
        "⏱ Table: {limit}, on timeout: {timeout}, hints: {hints}.",
        limit=limit,
        timeout=ptranslate(locale, "choice", table.on_timeout),
        hints=shown,
    )


class Preferences:
    """Server defaults, table options and player preferences, as stored."""

    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock
        # Each server's language setting, kept after its first read: every board asks for it, and
        # a board must not cost a query (issue 29). `update_guild` keeps it in step; another
        # process's change is seen after LANGUAGE_TTL seconds.
        self._languages: Lru[int, tuple[str, float]] = Lru(16_384)

    async def table_in(self, db: Db, record: GameRecord) -> TableRow:
        """A game's table options; games opened without them take the server's defaults."""
        table = await cs.fetch_table(db, record.pk)
        if table is None:
            table = self._resolve(record.pk, await cs.fetch_guild(db, record.guild_id), {})
            await cs.put_table(db, table)
        return table

    def _resolve(self, pk: int, guild: GuildSettings, chosen: dict[str, Any]) -> TableRow:
        """Table options: what the creator chose, else the server's defaults."""
        limit = str(chosen.get("turn_limit") or guild.turn_limit)
        policy = str(chosen.get("on_timeout") or guild.on_timeout)
        thread = chosen.get("thread")
        return TableRow(
            game_pk=pk,
            turn_limit=limit,
            limit_s=self.clock.hours(TURN_LIMITS[limit]),
            on_timeout=policy,
            thread=guild.threads if thread is None else bool(thread),
            reminders=guild.reminders,
            paused=False,
        )

    async def wants_thread(self, guild_id: int, chosen: dict[str, Any]) -> bool:
        """Whether a new game should get its own thread."""
        if chosen.get("thread") is not None:
            return bool(chosen["thread"])
        async with self.store.reading() as db:
            return (await cs.fetch_guild(db, guild_id)).threads

    async def set_table(self, record: GameRecord, chosen: dict[str, Any]) -> TableRow:
        """Store a new game's table options (chosen ones over the server's defaults)."""
        TableOptions.model_validate(chosen)
        async with self.store.transaction(lock=Lock.GAMES) as db:
            await db.hold_game(record.pk)
            table = self._resolve(record.pk, await cs.fetch_guild(db, record.guild_id), chosen)
            await cs.put_table(db, table)
        return table

    async def table(self, record: GameRecord) -> TableRow:
        """A game's table options."""
        async with self.store.transaction(lock=Lock.GAMES) as db:
            await db.hold_game(record.pk)
            return await self.table_in(db, record)

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """A server's defaults."""
        async with self.store.reading() as db:
            return await cs.fetch_guild(db, guild_id)

    async def update_guild(self, guild_id: int, **changes: Any) -> GuildSettings:
        """Change some of a server's defaults (None values are left alone)."""
        async with self.store.transaction() as db:
            current = await cs.fetch_guild(db, guild_id)
            updated = dataclasses.replace(
                current, **{k: v for k, v in changes.items() if v is not None}
            )
            if updated.turn_limit not in TURN_LIMITS or updated.on_timeout not in get_args(
                OnTimeout
            ):
                raise ServiceError(said("Unknown turn limit or timeout policy."))
            if updated.language not in ("", ENGLISH, *shipped()):
                raise ServiceError(said("Unknown language: choose one of the listed languages."))
            await cs.put_guild(db, updated)
        self._languages.put(guild_id, (updated.language, time.monotonic()))
        return updated

    async def language(self, guild_id: int) -> str:
        """The language chosen for a server's public messages ('': its Discord locale)."""
        kept = self._languages.get(guild_id)
        if kept is not None and time.monotonic() - kept[1] < LANGUAGE_TTL:
            return kept[0]
        chosen = (await self.guild_settings(guild_id)).language
        self._languages.put(guild_id, (chosen, time.monotonic()))
        return chosen

    def known_language(self, guild_id: int) -> str | None:
        """A server's language setting if already read (no query), else None."""
        kept = self._languages.get(guild_id)
        return kept[0] if kept is not None else None

    async def prefs(self, user_id: int) -> UserPrefs:
        """A user's notification and away preferences."""
        async with self.store.reading(quick=True) as db:
            return await cs.fetch_prefs(db, user_id)

    async def remember_locale(self, user_id: int, locale: str) -> None:
        """Keep a user's Discord locale for the DMs and reminders after a restart."""
        async with self.store.transaction() as db:
            await cs.put_locale(db, user_id, locale)

    async def set_notify(self, user_id: int, where: Where) -> UserPrefs:
        """Where this user is told about turns; asking again retries DMs."""
        async with self.store.transaction() as db:
            prefs = dataclasses.replace(
                await cs.fetch_prefs(db, user_id), notify=where, dm_closed=False
            )
            await cs.put_prefs(db, prefs)
        return prefs

    async def mark_dm_closed(self, user_id: int) -> None:
        """Discord refused a DM (50007): use the channel until the user sets /notify again."""
        async with self.store.transaction() as db:
            prefs = await cs.fetch_prefs(db, user_id)
            await cs.put_prefs(db, dataclasses.replace(prefs, dm_closed=True))
