"""The game service: one object the Discord layer holds, made of one part per job.

`lobby` (open, join, leave, start), `moves` (the pipeline every move goes through), `boards`
(the outbox and the log a board tells) and `admin` (abandon, replace, verify, export). Its own
methods are the reads every part shares and the shortcuts the commands use.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence

import rules
from bot.services.admin import SEATED_EXPORT, Admin, VerifyReport, target_game
from bot.services.boards import BOARD_LINES, BoardLogs, Boards, PendingBoard
from bot.services.history import record_finished
from bot.services.loading import (
    STALE_MESSAGE,
    ActResult,
    Decoder,
    LegalCache,
    LoadedGame,
    open_game,
    seat_of,
    turn_message,
)
from bot.services.lobby import Lobby
from bot.services.moves import ByPlayer, Committed, Moves, Reaction
from bot.store import Store
from bot.store.cursor import Db
from bot.store.locks import RATINGS
from rules.core import Game

__all__ = [
    "BOARD_LINES",
    "SEATED_EXPORT",
    "STALE_MESSAGE",
    "ActResult",
    "GameService",
    "LegalCache",
    "LoadedGame",
    "PendingBoard",
    "VerifyReport",
    "record_history",
    "turn_message",
]


async def record_history(db: Db, change: Committed) -> None:
    """Reaction: a game that just ended gets its results, stats and ratings (same commit)."""
    after = change.after
    if after.record.status != "finished":
        return
    await db.hold(RATINGS)  # ratings span games: two games ending at once update them in turn
    await record_finished(db, after.record, after.game, after.state, change.now)


class GameService:
    """Everything the Discord layer does to games; nothing returns before its commit."""

    def __init__(
        self,
        store: Store,
        games: Mapping[str, Game] | None = None,
        clock: Callable[[], float] = time.time,
        reactions: Sequence[Reaction] = (),
    ) -> None:
        self.store = store
        self.clock = clock
        self.decoder = Decoder(rules.GAMES if games is None else games)
        self.board_logs = BoardLogs()
        # History is part of every game's end; the rest (clocks, listings) is wired at start-up.
        self.moves = Moves(
            store, self.decoder, self.board_logs, clock, (record_history, *reactions)
        )
        self.lobby = Lobby(store, self.decoder, self.moves, clock)
        self.boards = Boards(store, self.decoder, clock)
        self.admin = Admin(store, self.decoder, clock)

    @property
    def games(self) -> Mapping[str, Game]:
        """The engines by game id."""
        return self.decoder.games

    @property
    def legal_cache(self) -> LegalCache:
        """Legal actions per (game, version, seat), shared by every part."""
        return self.decoder.legal_cache

    async def load(self, channel_id: int) -> LoadedGame:
        """The lobby or running game in this channel."""
        async with self.store.reading(quick=True) as db:
            stored = await open_game(db, channel_id)
        return self.decoder.decode(stored)

    async def load_latest(
        self, channel_id: int, game_pk: int | None = None, guild_id: int | None = None
    ) -> LoadedGame:
        """Game #game_pk of this server when given; else the open game here, else the last
        finished one (it stays visible until a new game starts here)."""
        async with self.store.reading() as db:
            stored = await target_game(db, channel_id, game_pk, guild_id)
        return self.decoder.decode(stored)

    async def act(
        self,
        channel_id: int,
        user_id: int,
        key: str,
        expected_version: int | None,
        *,
        game_pk: int | None = None,
    ) -> ActResult:
        """A player's move through the pipeline (see `Moves.play`)."""
        return await self.moves.play(
            channel_id, ByPlayer(user_id), (key,), version=expected_version, game_pk=game_pk
        )

    def seat_of(self, loaded: LoadedGame, user_id: int) -> int | None:
        """The seat this user holds in the game, if any."""
        return seat_of(loaded.seats, user_id)
