"""Drawing a move's board before it is shown: ahead of the click's transaction, and before its
COMMIT.

Ahead: a calm click on a private panel is answered by the refreshed panel itself, after the
move's transaction and its board (bot/edge/answer.py), so the board is the first thing that
waits. The move is applied ahead, in memory, to the game as this process last committed it, and
its board is started in the render pool while the transaction runs. The real path asks the pool
for the same picture after the commit and joins that drawing (the pool shares a drawing between
callers of the same view).

Before COMMIT: whatever the click, the move pipeline shows this module the game as the move will
commit it (`foresight`), so the board is started on the very state being committed while the
reactions run and COMMIT waits on the disk; a commit that fails discards it (issue 29: the job
had been sent only after COMMIT began, and the upload waited ~5 ms after the transaction).

Only the board: the clicker's panel is shown after the board, and drawing both ahead kept both
cores busy while the move committed, which made the click slower (bench, 7 paired runs: median
×2.35 → ×2.06 of the floor with the board alone).

Nothing here is shown or stored: a preview that guessed wrong (another process moved first, the
click was stale or illegal) only drew a picture nobody asks for. The games kept here are hints,
never the truth; the database is.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable

from bot.i18n import ENGLISH
from bot.render import has_live, public_png
from bot.render.pool import POOL, RenderPool
from bot.services.games import GameService, LoadedGame

log = logging.getLogger(__name__)

# Games remembered: the channels with the latest moves. Each is one decoded state, 25–140 KiB
# (issue 29): 512 grew the bot by ~60 KiB a channel over the first few hundred channels a host
# serves; a channel where moves follow each other is among the last 64 anyway.
KEEP = 64


class Previews:
    """The last committed game of each busy channel, and the boards drawn ahead from it."""

    def __init__(self, pool: RenderPool = POOL, size: int = KEEP) -> None:
        self.pool = pool
        self.size = size
        self._games: OrderedDict[int, LoadedGame] = OrderedDict()
        self._tasks: set[asyncio.Task[None]] = set()
        # The language of a server's boards, known without a query (set at start-up by the
        # edge): a picture drawn ahead in another language than the board's is wasted.
        self.language: Callable[[int], str] = lambda _guild_id: ENGLISH

    def remember(self, loaded: LoadedGame) -> None:
        """The game as just committed (previews start from it while its version is current)."""
        channel_id = loaded.record.channel_id
        if loaded.state is None or loaded.outcome is not None:
            self._games.pop(channel_id, None)
            return
        self._games[channel_id] = loaded
        self._games.move_to_end(channel_id)
        while len(self._games) > self.size:
            self._games.popitem(last=False)

    def foresight(self, after: LoadedGame) -> Callable[[], None]:
        """Start the board of a move about to commit (`Moves.foresee`); returns its discard."""
        if after.state is None or has_live(after.game.id):
            return _nothing  # a turn-in-progress picture: whether it edits or posts is not known
        board = after.view(None)
        extra = self._language(after)
        return self.pool.ahead(public_png, after.game.id, board, after.names, live=False, **extra)

    def start(
        self, service: GameService, click: tuple[int, int, int], user_id: int, key: str
    ) -> None:
        """Begin drawing what `key` would show, if this process knows the clicked game
        (channel id, game pk, version) at that version."""
        if not self.pool.idle():  # under load the workers are busy anyway: save the loop the work
            return
        channel_id, pk, version = click
        before = self._games.get(channel_id)
        if before is None or before.record.pk != pk or before.record.version != version:
            return
        draw = self._draw(service, before, user_id, key)
        task = asyncio.get_running_loop().create_task(draw)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _language(self, loaded: LoadedGame) -> dict[str, str]:
        """The board's language as the edge passes it (English left out: the default's key)."""
        language = self.language(loaded.record.guild_id)
        return {} if language == ENGLISH else {"language": language}

    async def settle(self) -> None:
        """Wait for the previews under way (tests)."""
        while self._tasks:
            await asyncio.wait(set(self._tasks))

    async def _draw(self, service: GameService, before: LoadedGame, user_id: int, key: str) -> None:
        """Apply ahead and start the board; any refusal or failure just ends the preview."""
        # Started just before the click is deferred (a busy bot defers at once; a calm one's
        # panel is the answer, bot/edge/answer.py), whose request body aiohttp writes in a task
        # of its own: yield once so that it goes out first.
        await asyncio.sleep(0)
        try:
            after, _ = service.moves.preview(before, user_id, key)
            game_id = after.game.id
            # A game with a turn-in-progress picture may edit or post: which is not known yet.
            if not has_live(game_id):
                board = after.view(None)
                extra = self._language(after)
                await self.pool.render(public_png, game_id, board, after.names, live=False, **extra)
        except Exception:  # the real path reports every error; a preview only saves time
            log.debug("Preview of %r failed", key, exc_info=True)


def _nothing() -> None:
    """Nothing was drawn ahead: nothing to discard."""
