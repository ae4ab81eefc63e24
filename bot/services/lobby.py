"""Lobbies: open one in a channel, join, leave and start (the deal goes through the pipeline)."""

from __future__ import annotations

import dataclasses
import logging
import secrets
from collections.abc import Callable
from typing import Any

from bot.services.errors import (
    AlreadyJoinedError,
    AlreadyStartedError,
    ChannelBusyError,
    GameFullError,
    NotAllowedError,
    NotInGameError,
)
from bot.services.loading import ActResult, Decoder, LoadedGame, held_open_game, seat_of
from bot.services.moves import Moves
from bot.services.options import validated_options
from bot.store import IntegrityError, Store
from bot.store import repository as repo
from bot.store.locks import Lock
from bot.store.repository import GameRecord, SeatRecord, StoredGame
from rules.core import Game, InvalidOptionsError, RulesError
from rules.core.errors import said

log = logging.getLogger(__name__)


class Lobby:
    """A channel's lobby, each operation one transaction on that game alone."""

    def __init__(
        self, store: Store, decoder: Decoder, moves: Moves, clock: Callable[[], float]
    ) -> None:
        self.store = store
        self.decoder = decoder
        self.moves = moves
        self.clock = clock

    async def open(
        self,
        guild_id: int,
        channel_id: int,
        game_id: str,
        options: dict[str, Any],
        creator_id: int,
        creator_name: str,
        seed: int | None = None,
    ) -> LoadedGame:
        """Open a lobby in this channel with the creator in seat 0."""
        game = self.decoder.engine(game_id)
        clean = validated_options(game, options)
        seed = secrets.randbelow(2**31) if seed is None else seed
        now = self.clock()
        # No game to lock yet: the unique index on a channel's open game settles a race.
        async with self.store.transaction(lock=Lock.GAMES) as db:
            existing = await repo.fetch_open_game(db, channel_id)
            if existing is not None:
                raise busy(self.decoder.decode(existing).game)  # or DamagedGameError, saying so
            try:
                pk = await repo.insert_game(
                    db,
                    guild_id=guild_id,
                    channel_id=channel_id,
                    game_id=game_id,
                    options=clean,
                    seed=seed,
                    creator_id=creator_id,
                    now=now,
                )
            except IntegrityError:
                # Another process opened a game here between our check and this insert.
                raise busy(game) from None
            await repo.replace_seats(db, pk, (SeatRecord(0, creator_id, creator_name),), now)
            return await self.decoder.reload(db, pk)

    async def join(self, channel_id: int, user_id: int, name: str) -> LoadedGame:
        """Take the next free seat of the lobby."""
        async with self.store.transaction(lock=Lock.GAMES) as db:
            stored = in_lobby(await held_open_game(db, channel_id), "join")
            game = self.decoder.engine(stored.record.game_id)
            if seat_of(stored.seats, user_id) is not None:
                raise AlreadyJoinedError(said("You have already joined this game."))
            if len(stored.seats) >= game.max_players:
                raise GameFullError(
                    said(
                        "This {game} game is full ({players} players).",
                        game=game.title,
                        players=game.max_players,
                    )
                )
            seats = (*stored.seats, SeatRecord(len(stored.seats), user_id, name))
            await repo.replace_seats(db, stored.record.pk, seats, self.clock())
            return await self.decoder.reload(db, stored.record.pk)

    async def leave(self, channel_id: int, user_id: int) -> LoadedGame:
        """Give up a lobby seat; when the creator leaves, the lobby closes."""
        async with self.store.transaction(lock=Lock.GAMES) as db:
            stored = in_lobby(await held_open_game(db, channel_id), "leave")
            if seat_of(stored.seats, user_id) is None:
                raise NotInGameError()
            pk, now = stored.record.pk, self.clock()
            if user_id == stored.record.creator_id:
                await repo.set_status(db, pk, "abandoned", now)
            else:
                rest = [s for s in stored.seats if s.user_id != user_id]
                seats = tuple(dataclasses.replace(s, seat=i) for i, s in enumerate(rest))
                await repo.replace_seats(db, pk, seats, now)
            return await self.decoder.reload(db, pk)

    async def start(self, channel_id: int, user_id: int, is_admin: bool) -> ActResult:
        """Deal the game for the seated players (creator or admin only)."""
        async with self.store.transaction(lock=Lock.GAMES) as db:
            stored = in_lobby(await held_open_game(db, channel_id), "start")
            record = stored.record
            if user_id != record.creator_id and not is_admin:
                raise NotAllowedError(
                    said("Only the player who opened the lobby or an admin can start.")
                )
            game = self.decoder.engine(record.game_id)
            check_player_count(game, len(stored.seats))
            state = new_game(game, record, len(stored.seats))
            lobby = LoadedGame(record, stored.seats, None, game, self.decoder.legal_cache)
            return await self.moves.deal(db, lobby, state)


def busy(game: Game) -> ChannelBusyError:
    """The refusal for a second game in one channel."""
    return ChannelBusyError(
        said(
            "This channel already has a {game} game — finish or abandon it first "
            "(or start a thread for another game).",
            game=game.title,
        )
    )


# Each lobby operation's refusal as a whole sentence, so a translation can order its words.
TOO_LATE = {
    "join": said("The game has already started — you can't join now."),
    "leave": said("The game has already started — you can't leave now."),
    "start": said("The game has already started — you can't start now."),
    "add-ai": said("The game has already started — you can't add an AI now."),
    "remove-ai": said("The game has already started — you can't remove an AI now."),
}


def in_lobby(stored: StoredGame, what: str) -> StoredGame:
    """Refuse lobby operations (`what`: a key of TOO_LATE) once the game has started."""
    if stored.record.status != "lobby":
        raise AlreadyStartedError(TOO_LATE[what])
    return stored


def new_game(game: Game, record: GameRecord, players: int) -> Any:
    """Deal the game; options that cannot set it up (e.g. a missing data file) are a refusal."""
    try:
        return game.new_game(record.seed, players, game.Options.model_validate(record.options))
    except RulesError:
        raise
    except (OSError, ValueError) as exc:
        log.warning("Game %s cannot start with its options: %s", record.pk, exc)
        raise InvalidOptionsError(
            said(
                "Invalid options for {game}: the game cannot be set up with them "
                "(check file names and values), so it was not started.",
                game=game.title,
            )
        ) from None


def check_player_count(game: Game, players: int) -> None:
    """Refuse to start with too few (or, after data edits, too many) players."""
    if players < game.min_players:
        raise InvalidOptionsError(
            said(
                "{game} needs at least {least} players — {players} seated so far.",
                game=game.title,
                least=game.min_players,
                players=players,
            )
        )
    if players > game.max_players:
        raise InvalidOptionsError(
            said("{game} takes at most {most} players.", game=game.title, most=game.max_players)
        )
