"""The board and the clicker's panel drawn ahead of a click's commit: the same pictures the real
path asks for, and nothing at all for a click that cannot be the next move."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.parts import open_table
from bot.edge import present
from bot.edge.present import hand_panel
from bot.i18n import ENGLISH
from bot.render import private_png, public_png
from bot.render.pool import RenderPool
from bot.runtime.preview import Previews
from bot.services import GameService, LoadedGame
from bot.store import open_store
from rules import GAMES


async def _table(tmp_path: Path) -> tuple[GameService, LoadedGame]:
    """A started Takeoff! game on a fresh SQLite file."""
    store = await open_store(tmp_path / "preview.sqlite3")
    service = GameService(store, games={"takeoff": GAMES["takeoff"]})
    return service, await open_table(service, "takeoff", 2, seed=3)


def _click(loaded: LoadedGame, version: int | None = None) -> tuple[int, int, int]:
    """(channel, game, version) of a click on `loaded`'s buttons."""
    record = loaded.record
    return record.channel_id, record.pk, record.version if version is None else version


async def test_the_board_drawn_ahead_is_the_one_the_move_shows(tmp_path: Path) -> None:
    service, loaded = await _table(tmp_path)
    pool = RenderPool(0)
    previews = Previews(pool)
    previews.remember(loaded)
    seat = loaded.active_seats[0]
    user, key = loaded.user_of(seat), loaded.legal_actions(seat)[0].key
    assert user is not None
    previews.start(service, _click(loaded), user, key)  # a click on the public board
    await previews.settle()
    assert pool.cache.misses == 1, "the board was drawn ahead, and no panel"

    after = (await service.act(loaded.record.channel_id, user, key, loaded.record.version)).loaded
    game, names = after.game, after.names
    board = await pool.render(
        public_png, "takeoff", game.view(after.state, None), names, live=False
    )
    hand = await pool.render(private_png, "takeoff", game.view(after.state, seat), names)
    assert (pool.cache.hits, pool.cache.misses) == (1, 2), "the real path found the board"
    assert board == public_png("takeoff", game.view(after.state, None), names)
    assert hand == private_png("takeoff", game.view(after.state, seat), names)
    await service.store.close()


@pytest.mark.parametrize("language", [ENGLISH, "de"])
async def test_a_click_on_a_panel_draws_its_next_panel_ahead_too(
    tmp_path: Path, language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A click on the clicker's own panel starts the board and that panel, in the clicker's
    language, and the move then shows exactly those two pictures (neither drawn again)."""
    service, loaded = await _table(tmp_path)
    pool = RenderPool(0)
    monkeypatch.setattr(present, "start_render", pool.start)  # the panel asks this pool
    previews = Previews(pool)
    previews.remember(loaded)
    seat = loaded.active_seats[0]
    user, key = loaded.user_of(seat), loaded.legal_actions(seat)[0].key
    assert user is not None
    previews.start(service, _click(loaded), user, key, language)
    await previews.settle()
    assert pool.cache.misses == 2, "the board and the panel were drawn ahead"

    after = (await service.act(loaded.record.channel_id, user, key, loaded.record.version)).loaded
    panel = await hand_panel(after, seat, language)
    board = await pool.render(public_png, "takeoff", after.view(None), after.names, live=False)
    assert (pool.cache.hits, pool.cache.misses) == (2, 2), "the move found both pictures"
    assert panel.image == private_png("takeoff", after.view(seat), after.names, language=language)
    assert board == public_png("takeoff", after.view(None), after.names)
    await service.store.close()


async def test_a_stale_or_illegal_click_draws_nothing(tmp_path: Path) -> None:
    service, loaded = await _table(tmp_path)
    pool = RenderPool(0)
    previews = Previews(pool)
    seat = loaded.active_seats[0]
    user, key = loaded.user_of(seat), loaded.legal_actions(seat)[0].key
    other = loaded.user_of(1 - seat)
    assert user is not None and other is not None
    previews.start(service, _click(loaded), user, key)  # game not known yet
    previews.remember(loaded)
    previews.start(service, _click(loaded, loaded.record.version - 1), user, key)
    previews.start(service, _click(loaded), user, "no-such-move")
    previews.start(service, _click(loaded), other, key)  # not their turn
    await previews.settle()
    assert pool.cache.misses == 0 and len(pool.cache) == 0
    await service.store.close()
