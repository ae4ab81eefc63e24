"""Drawing a move's pictures before they are shown: ahead of the click's transaction, and before
its COMMIT.

Ahead: a calm click on a private panel is answered by the refreshed panel itself, after the
move's transaction and its board (bot/edge/answer.py), so the board and then that panel are what
the click waits for. The move is applied ahead, in memory, to the game as this process last
committed it, and its board (and, for a click on the clicker's own panel, that panel) is sent to
the render worker before the transaction begins. The real path asks the pool for the same
pictures after the commit and joins those drawings (the pool shares a drawing between callers of
the same view).

The jobs are written to the worker before `start` returns (RenderPool dispatches to an idle
worker at once): a move's SQLite transaction runs on the loop's thread without waiting until its
COMMIT, so a job started in a task reached the worker only then. Measured on 60 Takeoff! moves
(issue 29): the board's job left 1.7 ms after the click before, 0.6 ms now, and the panel was
answered ~2 ms sooner (13.5 → 11.5 ms, median); five paired bench runs, median ×2.44 → ×2.33 of
the floor.

Before COMMIT: whatever the click, the move pipeline shows this module the game as the move will
commit it (`foresight`), so the board is started on the very state being committed while the
reactions run and COMMIT waits on the disk; a commit that fails discards it (issue 29: the job
had been sent only after COMMIT began, and the upload waited ~5 ms after the transaction).

With one worker the panel is drawn right after the board, while the board is uploaded: it waits
in the worker's socket (RenderPool._dispatch), so the worker turns to it at once. It had waited
for the loop to hand it the worker once the board came back, 1.0–1.5 ms of an idle worker on the
clicker's path (issue 29; 0.3–0.4 ms now, timed in the worker over 50 Takeoff! moves). (Drawing
both ahead was tried before, when jobs left only at COMMIT: both cores were then busy while the
move committed, and the click was slower, ×2.06 → ×2.35.)

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
from bot.render import has_live, private_png, public_png
from bot.render.pool import POOL, RenderPool
from bot.services.games import GameService, LoadedGame
from bot.services.loading import BUSY_GAMES

log = logging.getLogger(__name__)

# Games remembered: the channels with the latest moves. Each is one decoded state, 25–140 KiB
# (issue 29): 512 grew the bot by ~60 KiB a channel over the first few hundred channels a host
# serves; a channel where moves follow each other is among the BUSY_GAMES anyway.
KEEP = BUSY_GAMES


class Previews:
    """The last committed game of each busy channel, and the boards drawn ahead from it."""

    def __init__(self, pool: RenderPool = POOL, size: int = KEEP) -> None:
        self.pool = pool
        self.size = size
        self._games: OrderedDict[int, LoadedGame] = OrderedDict()
        self._drawings: set[asyncio.Future[bytes]] = set()  # pictures drawn ahead, until done
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
        self,
        service: GameService,
        click: tuple[int, int, int],
        user_id: int,
        key: str,
        panel: str | None = None,
    ) -> None:
        """Begin drawing what `key` would show, if this process knows the clicked game
        (channel id, game pk, version) at that version: its board, and the clicker's panel in
        the language `panel` when the click came from that panel.

        Both jobs reach the worker before this returns, so it draws while the move's transaction
        runs on the loop (which does not wait before its COMMIT)."""
        if not self.pool.idle():  # under load the workers are busy anyway: save the loop the work
            return
        channel_id, pk, version = click
        before = self._games.get(channel_id)
        if before is None or before.record.pk != pk or before.record.version != version:
            return
        try:
            after, seat = service.moves.preview(before, user_id, key)
            game_id = after.game.id
            # A game with a turn-in-progress picture may edit or post: which is not known yet.
            if not has_live(game_id):
                extra = self._language(after)
                board = after.view(None)
                self._keep(
                    self.pool.start(public_png, game_id, board, after.names, live=False, **extra)
                )
            if panel is not None:  # drawn as bot/edge/present.hand_panel asks for it
                language = {} if panel == ENGLISH else {"language": panel}
                mine = after.view(seat)
                self._keep(self.pool.start(private_png, game_id, mine, after.names, **language))
        except Exception:  # the real path reports every error; a preview only saves time
            log.debug("Preview of %r failed", key, exc_info=True)

    def _keep(self, drawing: asyncio.Future[bytes]) -> None:
        """Hold a picture drawn ahead until it is done (`settle`); nobody waits for it here."""
        self._drawings.add(drawing)
        drawing.add_done_callback(_retrieved)
        drawing.add_done_callback(self._drawings.discard)

    def _language(self, loaded: LoadedGame) -> dict[str, str]:
        """The board's language as the edge passes it (English left out: the default's key)."""
        language = self.language(loaded.record.guild_id)
        return {} if language == ENGLISH else {"language": language}

    async def settle(self) -> None:
        """Wait for the previews under way (tests)."""
        while self._drawings:
            await asyncio.wait(set(self._drawings))


def _retrieved(drawing: asyncio.Future[bytes]) -> None:
    """A picture drawn ahead that failed: the real path draws it again and reports the error."""
    if not drawing.cancelled():
        drawing.exception()


def _nothing() -> None:
    """Nothing was drawn ahead: nothing to discard."""
