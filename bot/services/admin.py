"""Admin operations on a channel's game: abandon, replace a player, verify and export."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from bot.services.errors import (
    AlreadyJoinedError,
    DamagedGameError,
    NoGameHereError,
    NotAllowedError,
    NotInGameError,
)
from bot.services.loading import Decoder, LoadedGame, check_started, held_open_game, seat_of
from bot.services.replay import differences, exported, replay
from bot.store import Store, outbox
from bot.store import history as hrepo
from bot.store import repository as repo
from bot.store.cursor import Db
from bot.store.locks import Lock
from bot.store.raw import raw_rows
from bot.store.repository import SeatRecord, StoredGame
from rules.core import RulesError
from rules.core.errors import said

log = logging.getLogger(__name__)

# The refusal's template (its message id), filled with the game's number where it is raised.
SEATED_EXPORT = said(
    "You play in game #{number}, which is still going: its export holds the seed, which would "
    "show you every hidden card. Export it once it has ended, or ask an admin who is not playing."
)


@dataclass(frozen=True)
class VerifyReport:
    """Whether seed + action log replays to the stored snapshot."""

    ok: bool
    actions: int
    detail: str
    differences: tuple[str, ...] = ()

    def __str__(self) -> str:
        """The report as one line for an admin."""
        return ("✅ " if self.ok else "❌ ") + self.detail


class Admin:
    """What an admin (or a game's creator) does to a game besides playing it."""

    def __init__(self, store: Store, decoder: Decoder, clock: Callable[[], float]) -> None:
        self.store = store
        self.decoder = decoder
        self.clock = clock

    async def abandon(self, channel_id: int, user_id: int, is_admin: bool) -> LoadedGame:
        """Close the game: the creator may close a lobby, an admin any game."""
        async with self.store.transaction(lock=Lock.GAMES) as db:
            stored = await held_open_game(db, channel_id)
            if not is_admin and user_id != stored.record.creator_id:
                raise NotAllowedError(
                    said("Only the player who opened the game or an admin can end it.")
                )
            if not is_admin and stored.record.status == "running":
                raise NotAllowedError(
                    said("The game has started — only an admin can abandon it now.")
                )
            await repo.set_status(db, stored.record.pk, "abandoned", self.clock())
            await outbox.drop(db, stored.record.pk)  # a closed game's board is not posted any more
            log.info("Game %s abandoned by user %s (admin=%s)", stored.record.pk, user_id, is_admin)
            return await self.decoder.reload(db, stored.record.pk)

    async def abandon_damaged(self, channel_id: int, user_id: int) -> DamagedGameError:
        """Close the channel's open game without decoding it (it is damaged)."""
        async with self.store.transaction(lock=Lock.GAMES) as db:
            stored = await held_open_game(db, channel_id)
            try:
                self.decoder.decode(stored)
            except DamagedGameError as damaged:
                await repo.set_status(db, stored.record.pk, "abandoned", self.clock())
                await outbox.drop(db, stored.record.pk)
                log.info("Damaged game %s abandoned by user %s", stored.record.pk, user_id)
                return damaged
        raise NotAllowedError(said("This game is not damaged — use /admin abandon."))

    async def replace(
        self, channel_id: int, old_user_id: int | None, new_user_id: int, new_name: str
    ) -> LoadedGame:
        """Seat another user in place of a player (their seat, hand and turn carry over)."""
        async with self.store.transaction(lock=Lock.GAMES) as db:
            stored = await held_open_game(db, channel_id)
            seat = seat_of(stored.seats, old_user_id)
            if seat is None:
                raise NotInGameError(said("That player is not in this game."))
            if seat_of(stored.seats, new_user_id) is not None:
                raise AlreadyJoinedError(said("The new player already has a seat in this game."))
            record = stored.record
            creator = new_user_id if record.creator_id == old_user_id else record.creator_id
            seat_record = SeatRecord(seat, new_user_id, new_name)
            now = self.clock()
            if old_user_id is not None:  # history credits them with the part they played
                old_name = next((s.name for s in stored.seats if s.seat == seat), "")
                former = hrepo.FormerHolder(seat, old_user_id, old_name)
                await hrepo.add_former_holder(db, record.pk, former, now)
            await repo.update_seat(db, record.pk, seat_record, creator, now)
            log.info(
                "Game %s seat %s: user %s replaced by %s", record.pk, seat, old_user_id, new_user_id
            )
            return await self.decoder.reload(db, record.pk)

    async def verify(
        self, channel_id: int, game_pk: int | None = None, guild_id: int | None = None
    ) -> VerifyReport:
        """Replay seed + action log and compare the result with the stored snapshot."""
        async with self.store.reading() as db:
            stored = await target_game(db, channel_id, game_pk, guild_id)
            check_started(stored.record)
            current = self.decoder.decode(stored)
            actions = await repo.fetch_actions(db, current.record.pk)
        try:
            replayed = replay(current.game, current.record, len(current.seats), actions)
        except (RulesError, ValueError) as exc:
            detail = said("The log does not replay: {error}", error=str(exc))
            return VerifyReport(False, len(actions), detail)
        diffs = differences(
            current.game.dump_state(current.state), current.game.dump_state(replayed)
        )
        if diffs:
            count, path = len(actions), diffs[0]
            detail = (
                said(
                    "Replaying {count} move differs from the snapshot at {path}.",
                    count=1,
                    path=path,
                )
                if count == 1
                else said(
                    "Replaying {count} moves differs from the snapshot at {path}.",
                    count=count,
                    path=path,
                )
            )
            return VerifyReport(False, count, detail, tuple(diffs))
        # Two sentences, not a plural form: a Said keeps one message id (English: "1 move").
        done = (
            said("{count} move replays to the snapshot.", count=1)
            if len(actions) == 1
            else said("{count} moves replay to the snapshot.", count=len(actions))
        )
        return VerifyReport(True, len(actions), done)

    async def export(
        self,
        channel_id: int,
        game_pk: int | None = None,
        guild_id: int | None = None,
        *,
        asked_by: int | None = None,
    ) -> dict[str, Any]:
        """A JSON-ready replay: game, options, seed, seats and the moves in force. Refused to
        `asked_by` while they play in the game: its seed would show them every hidden card."""
        async with self.store.reading() as db:
            stored = await target_game(db, channel_id, game_pk, guild_id)
            actions = await repo.fetch_actions(db, stored.record.pk)
        seated = asked_by is not None and seat_of(stored.seats, asked_by) is not None
        if seated and stored.record.status in repo.OPEN_STATUSES:
            raise NotAllowedError(said(SEATED_EXPORT, number=stored.record.pk))
        loaded = self.decoder.decode(stored)
        outcome = loaded.outcome
        record = loaded.record
        return {
            "format": "hangar-replay/1",
            "game": {
                "pk": record.pk,
                "id": record.game_id,
                "title": loaded.game.title,
                "status": record.status,
                "version": record.version,
                "guild_id": record.guild_id,
                "channel_id": record.channel_id,
                "created_at": record.created_at,
            },
            "options": record.options,
            "seed": record.seed,
            "seats": [asdict(seat) for seat in loaded.seats],
            "actions": [exported(action) for action in actions],
            "outcome": outcome.model_dump(mode="json") if outcome is not None else None,
        }

    async def export_raw(
        self, channel_id: int, game_pk: int | None = None, guild_id: int | None = None
    ) -> dict[str, Any]:
        """A game exactly as stored, chosen like `export` (for a damaged game that cannot
        decode)."""
        async with self.store.reading() as db:
            stored = await target_game(db, channel_id, game_pk, guild_id)
            return await raw_rows(db, stored.record.pk)


async def latest_game(db: Db, channel_id: int) -> StoredGame:
    """The open game here, else the last finished one; an abandoned one counts as none."""
    stored = await repo.fetch_latest_game(db, channel_id)
    if stored is None or stored.record.status == "abandoned":
        raise NoGameHereError()
    return stored


async def target_game(
    db: Db, channel_id: int, game_pk: int | None, guild_id: int | None
) -> StoredGame:
    """Game #game_pk of this server when given, else this channel's latest game."""
    if game_pk is None:
        return await latest_game(db, channel_id)
    stored = await repo.fetch_game(db, game_pk)
    if stored is None or stored.record.guild_id != guild_id:
        raise NoGameHereError(said("There is no game #{number} on this server.", number=game_pk))
    return stored
