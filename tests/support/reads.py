"""Reads the tests make of a service's games that the bot itself does not need."""

from __future__ import annotations

from bot.services import GameService, LoadedGame, NoGameHereError
from bot.services.errors import DamagedGameError
from bot.services.replay import stored_event
from bot.store import repository as repo


async def recent_events(
    service: GameService, channel_id: int, viewer_seat: int | None, limit: int = 15
) -> list[str]:
    """The last log lines this viewer may read, oldest first (seat placeholders unfilled)."""
    async with service.store.reading() as db:
        stored = await repo.fetch_latest_game(db, channel_id)
        if stored is None:
            raise NoGameHereError()
        raw = await repo.fetch_recent_events(db, stored.record.pk, limit)
    return [stored_event(event)[0].line_for(viewer_seat) for event in raw]


async def user_games(service: GameService, guild_id: int, user_id: int) -> list[LoadedGame]:
    """The user's open games on this server, decoded (damaged ones raise)."""
    async with service.store.reading() as db:
        stored = await repo.fetch_user_games(db, guild_id, user_id)
    return [service.decoder.decode(one) for one in stored]


async def readable_and_damaged(
    service: GameService, guild_id: int, user_id: int
) -> tuple[list[LoadedGame], list[DamagedGameError]]:
    """The user's open games on this server: the readable ones, and the damaged ones."""
    async with service.store.reading() as db:
        stored = await repo.fetch_user_games(db, guild_id, user_id)
    games: list[LoadedGame] = []
    damaged: list[DamagedGameError] = []
    for one in stored:
        try:
            games.append(service.decoder.decode(one))
        except DamagedGameError as exc:
            damaged.append(exc)
    return games, damaged
