"""Where a move's time goes: each part of a click measured alone, in this process.

For the end-to-end bench (`bench/e2e_moves.py`) this gives the floor of each part Hangar adds to
what the floor bot does — the move's transaction (rules + database, against a bare INSERT+COMMIT),
drawing and encoding the board and the clicker's panel — so the report can say the least a move
can cost with this work, and what is left above the parts (issue 14: "show the measured floor of
each part and what is left above it").
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.commit import bare_insert
from bot.render import has_live, private_png, public_png
from bot.services import GameService, LoadedGame
from bot.store import open_store
from rules import GAMES

GUILD, CHANNEL = 1, 1
SPACING = 0.03  # seconds between two clicks' pictures, about, in the end-to-end bench
NAMES = ("Player 1", "Player 2", "Player 3", "Player 4", "Player 5")


@dataclass(frozen=True)
class Parts:
    """Medians per move, in seconds: wall time of the move's transaction and its floor, and CPU
    time of each picture, drawn and encoded as a render worker does it (repainted where the move
    changed it, on the picture drawn before: bot/render/retained.py)."""

    act: float
    act_cpu: float
    bare_commit: float
    board: float
    panel: float
    board_spaced: float  # drawn and encoded SPACING after the last picture, as clicks come
    panel_spaced: float

    @property
    def pictures_cpu(self) -> float:
        """Both pictures, drawn and encoded (one after the other: CPU)."""
        return self.board + self.panel

    @property
    def spaced_pictures_cpu(self) -> float:
        """Both pictures, each drawn and encoded SPACING after the one before."""
        return self.board_spaced + self.panel_spaced

    @property
    def slower_picture(self) -> float:
        """The slower of the two pictures (they are drawn at the same time, on two cores)."""
        return max(self.board, self.panel)


def cpu(work: Callable[[], Any]) -> tuple[float, Any]:
    """CPU seconds of `work()` and its result."""
    start = time.process_time()
    result = work()
    return time.process_time() - start, result


class Samples:
    """Per-move measurements of each part."""

    def __init__(self) -> None:
        self.columns: dict[str, list[float]] = {}

    def add(self, name: str, seconds: float) -> None:
        """One measurement of one part."""
        self.columns.setdefault(name, []).append(seconds)

    def median(self, name: str) -> float:
        """The median of a part."""
        return statistics.median(self.columns[name])


async def open_table(service: GameService, game_id: str, players: int, seed: int) -> LoadedGame:
    """A started game with `players` seats in a fresh channel."""
    channel = CHANNEL + seed
    await service.lobby.open(GUILD, channel, game_id, {}, 100, NAMES[0], seed=seed)
    for i in range(1, players):
        await service.lobby.join(channel, 100 + i, NAMES[i])
    return (await service.lobby.start(channel, 100, False)).loaded


def measure_pictures(samples: Samples, loaded: LoadedGame, seat: int, new_board: bool) -> None:
    """Draw and encode the board (as the bot would show it) and `seat`'s panel, one right
    after the other."""
    board, panel = _pictures(loaded, seat, new_board)
    samples.add("board", cpu(board)[0])
    samples.add("panel", cpu(panel)[0])


def measure_spaced(samples: Samples, loaded: LoadedGame, seat: int, new_board: bool) -> None:
    """The same two pictures, each drawn and encoded SPACING after the one before: this
    machine's caches lose a picture's pixels and pieces between clicks (a 6 MB copy took 40–80 %
    longer after 30–100 ms idle, a loop without memory traffic 5 %)."""
    board, panel = _pictures(loaded, seat, new_board)
    time.sleep(SPACING)
    samples.add("board_spaced", cpu(board)[0])
    time.sleep(SPACING)
    samples.add("panel_spaced", cpu(panel)[0])


def _pictures(
    loaded: LoadedGame, seat: int, new_board: bool
) -> tuple[Callable[[], bytes], Callable[[], bytes]]:
    """The board's and the panel's PNGs, as the render workers make them."""
    game_id, names = loaded.game.id, tuple(loaded.names)
    public, private = loaded.game.view(loaded.state, None), loaded.game.view(loaded.state, seat)
    live = not new_board and has_live(game_id)
    return (
        lambda: public_png(game_id, public, names, live=live),
        lambda: private_png(game_id, private, names),
    )


async def measure(game_id: str, players: int, moves: int, path: Path) -> Parts:
    """Play `moves` random moves through GameService on a SQLite file, measuring each part."""
    store = await open_store(path)
    samples, chooser = Samples(), random.Random(7)
    try:
        async with store.transaction() as db:
            await db.execute("CREATE TABLE bench_blob (id BIGINT PRIMARY KEY, body TEXT)")
        service = GameService(store, games={game_id: GAMES[game_id]})
        seed = 1
        loaded = await open_table(service, game_id, players, seed)
        for move in range(moves):
            if loaded.outcome is not None:
                seed += 1
                loaded = await open_table(service, game_id, players, seed)
            seat = loaded.active_seats[0]
            key = chooser.choice(loaded.legal_actions(seat)).key
            user = loaded.user_of(seat)
            assert user is not None
            wall, start = time.perf_counter(), time.process_time()
            result = await service.act(loaded.record.channel_id, user, key, loaded.record.version)
            samples.add("act_cpu", time.process_time() - start)
            samples.add("act", time.perf_counter() - wall)
            samples.add("bare_commit", await bare_insert(store, move, "x" * 1400))
            loaded = result.loaded
            new_board = result.announcement is None or result.announcement.new_board
            # alternate moves: pictures back to back (the floor), or spaced as clicks come
            pictures = measure_spaced if move % 2 else measure_pictures
            pictures(samples, loaded, seat, new_board)
    finally:
        await store.close()
    return Parts(**{name: samples.median(name) for name in Parts.__dataclass_fields__})


async def move_parts(game_id: str, players: int, moves: int = 60) -> Parts:
    """Each part's median cost per move of `game_id` (a temporary SQLite file)."""
    with tempfile.TemporaryDirectory(prefix="hangar-parts-") as tmp:
        return await measure(game_id, players, moves, Path(tmp) / "parts.sqlite3")
