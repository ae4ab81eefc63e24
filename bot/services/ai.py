"""AI seats: seating an AI (lobby or admin), handing a seat back, and committing an AI's move.

An AI move goes through the same steps as a click (load, version check, apply, log, snapshot —
one transaction); only the choice comes from `rules.core.ai.decide`, computed beforehand off the
event loop from the loaded game. The commit re-checks the version the choice was made on, so a
resumed or duplicated AI turn can never apply twice.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from typing import Any

from bot.services.errors import GameFullError, NotAllowedError, NotInGameError
from bot.services.games import GameService
from bot.services.loading import ActResult, LoadedGame, held_open_game, seat_of
from bot.services.lobby import in_lobby
from bot.services.moves import ByBot
from bot.store import history as hrepo
from bot.store import repository as repo
from bot.store.locks import Lock
from bot.store.repository import SeatRecord
from rules.core import InvalidOptionsError
from rules.core.ai import LEVEL_NAMES, LEVELS, decide
from rules.core.errors import said

log = logging.getLogger(__name__)

AI_ICON = "🤖"


def check_level(level: str) -> str:
    """The level if known, else a refusal naming the levels."""
    if level not in LEVELS:
        raise InvalidOptionsError(
            said(
                "Unknown AI level {level} — choose {levels}.",
                level=repr(level),
                levels=", ".join(LEVELS),
            )
        )
    return level


def ai_name(level: str, taken: tuple[str, ...]) -> str:
    """'🤖 Hard AI', numbered when that name is already at the table."""
    base = f"{AI_ICON} {LEVEL_NAMES[level]} AI"
    if base not in taken:
        return base
    n = 2
    while f"{base} {n}" in taken:
        n += 1
    return f"{base} {n}"


def is_ai(loaded: LoadedGame, seat: int) -> bool:
    """True when an AI plays this seat."""
    return any(s.seat == seat and s.ai_level for s in loaded.seats)


def level_of(loaded: LoadedGame, seat: int) -> str | None:
    """The AI level of a seat (None for a human seat)."""
    return next((s.ai_level for s in loaded.seats if s.seat == seat), None)


def ai_to_move(loaded: LoadedGame) -> int | None:
    """The first active seat an AI plays, if any (None in a lobby or a finished game)."""
    if loaded.record.status != "running":
        return None
    return next((s for s in loaded.active_seats if is_ai(loaded, s)), None)


async def add_ai_seat(
    service: GameService, channel_id: int, user_id: int, is_admin: bool, level: str
) -> LoadedGame:
    """Seat an AI of `level` in the lobby's next seat (creator or admin)."""
    check_level(level)
    async with service.store.transaction(lock=Lock.GAMES) as db:
        stored = in_lobby(await held_open_game(db, channel_id), "add-ai")
        game = service.decoder.engine(stored.record.game_id)
        if user_id != stored.record.creator_id and not is_admin:
            raise NotAllowedError(
                said("Only the player who opened the lobby or an admin can add an AI.")
            )
        if len(stored.seats) >= game.max_players:
            raise GameFullError(
                said(
                    "This {game} game is full ({players} players).",
                    game=game.title,
                    players=game.max_players,
                )
            )
        name = ai_name(level, tuple(s.name for s in stored.seats))
        seats = (*stored.seats, SeatRecord(len(stored.seats), None, name, level))
        await repo.replace_seats(db, stored.record.pk, seats, service.clock())
        return await service.decoder.reload(db, stored.record.pk)


async def remove_ai_seat(
    service: GameService, channel_id: int, user_id: int, is_admin: bool, seat: int | None
) -> tuple[LoadedGame, str]:
    """Take an AI out of the lobby (creator or admin): seat `seat` (from 0), else the last AI.

    Returns the lobby and the removed AI's name; the seats after it move up one.
    """
    async with service.store.transaction(lock=Lock.GAMES) as db:
        stored = in_lobby(await held_open_game(db, channel_id), "remove-ai")
        if user_id != stored.record.creator_id and not is_admin:
            raise NotAllowedError(
                said("Only the player who opened the lobby or an admin can remove an AI.")
            )
        ais = [s for s in stored.seats if s.ai_level]
        if not ais:
            raise NotInGameError(said("There is no AI in this lobby."))
        gone = ais[-1] if seat is None else next((s for s in ais if s.seat == seat), None)
        if gone is None:
            raise NotInGameError(said("Seat {seat} is not played by an AI.", seat=(seat or 0) + 1))
        rest = [s for s in stored.seats if s.seat != gone.seat]
        seats = tuple(dataclasses.replace(s, seat=i) for i, s in enumerate(rest))
        await repo.replace_seats(db, stored.record.pk, seats, service.clock())
        return await service.decoder.reload(db, stored.record.pk), gone.name


async def seat_ai(
    service: GameService, channel_id: int, user_id: int, level: str
) -> tuple[LoadedGame, int]:
    """Admin: an AI of `level` takes over a player's seat (hand and turn carry over)."""
    check_level(level)
    async with service.store.transaction(lock=Lock.GAMES) as db:
        stored = await held_open_game(db, channel_id)
        seat = seat_of(stored.seats, user_id)
        if seat is None:
            raise NotInGameError(said("That player is not in this game."))
        name = ai_name(level, tuple(s.name for s in stored.seats))
        record = stored.record
        now = service.clock()
        # As /admin replace: history shows "🤖 Normal AI (replaced bob)" and bob's /stats count
        # the part he played.
        old_name = next((s.name for s in stored.seats if s.seat == seat), "")
        former = hrepo.FormerHolder(seat, user_id, old_name)
        await hrepo.add_former_holder(db, record.pk, former, now)
        new = SeatRecord(seat, None, name, level)
        await repo.update_seat(db, record.pk, new, record.creator_id, now)
        log.info("Game %s seat %s: user %s replaced by AI %s", record.pk, seat, user_id, level)
        return await service.decoder.reload(db, record.pk), seat


async def seat_human(
    service: GameService, channel_id: int, seat: int, user_id: int, name: str
) -> LoadedGame:
    """Admin: a user takes over an AI's seat (`seat` counts from 0)."""
    async with service.store.transaction(lock=Lock.GAMES) as db:
        stored = await held_open_game(db, channel_id)
        current = next((s for s in stored.seats if s.seat == seat), None)
        if current is None or not current.ai_level:
            raise NotInGameError(said("Seat {seat} is not played by an AI.", seat=seat + 1))
        if seat_of(stored.seats, user_id) is not None:
            raise NotAllowedError(said("That player already has a seat in this game."))
        record = stored.record
        now = service.clock()
        new = SeatRecord(seat, user_id, name)
        await repo.update_seat(db, record.pk, new, record.creator_id, now)
        log.info("Game %s seat %s: AI replaced by user %s", record.pk, seat, user_id)
        return await service.decoder.reload(db, record.pk)


async def choose(loaded: LoadedGame, seat: int, level: str) -> str:
    """The AI's key for `seat`, thought out in a worker thread (the event loop stays free)."""
    record = loaded.record
    return await asyncio.to_thread(
        decide, loaded.game, loaded.state, seat, level, record.seed, record.version
    )


async def act_as_ai(
    service: GameService, channel_id: int, seat: int, key: str, version: int
) -> ActResult:
    """Commit the AI's move for `seat`, decided on game `version`; StaleActionError if moved on."""
    # The same pipeline as a human's move: one transaction, the log, the outbox row.
    return await service.moves.play(channel_id, ByBot(seat), (key,), version=version)


async def pending_ai_channels(service: GameService) -> list[int]:
    """Channels of running games with an AI seat (candidates to resume after a restart)."""
    async with service.store.reading() as db:
        return await repo.channels_with_ai(db)


def combined(results: list[ActResult]) -> ActResult:
    """Several AI moves in a row as one result (one board message summarises them)."""
    first, last = results[0], results[-1]
    events: tuple[Any, ...] = tuple(e for r in results for e in r.events)
    # The last move's outbox row already merges the run's pings (see GameService._queue_board).
    return dataclasses.replace(last, events=events, previous_active=first.previous_active)
