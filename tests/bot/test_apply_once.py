"""A click's move is worked out once: its preview and its real move share one application of the
rules, and the pictures' views are built once per state (issue 29, bot CPU per move)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench.parts import open_table
from bot.services import GameService, LoadedGame
from bot.store import open_store
from rules import GAMES


async def _table(tmp_path: Path) -> tuple[GameService, LoadedGame]:
    """A started Takeoff! game on a fresh SQLite file."""
    store = await open_store(tmp_path / "once.sqlite3")
    service = GameService(store, games={"takeoff": GAMES["takeoff"]})
    return service, await open_table(service, "takeoff", 2, seed=3)


def _count_applies(monkeypatch: pytest.MonkeyPatch, loaded: LoadedGame) -> list[int]:
    """Count the engine's `apply` calls from now on (one entry per call)."""
    calls: list[int] = []
    real = loaded.game.apply

    def counted(state: Any, seat: int, action: Any) -> Any:
        calls.append(seat)
        return real(state, seat, action)

    monkeypatch.setattr(loaded.game, "apply", counted)
    return calls


@pytest.mark.parametrize("preview_first", [False, True])
async def test_a_click_and_its_preview_apply_the_move_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, preview_first: bool
) -> None:
    service, loaded = await _table(tmp_path)
    seat = loaded.active_seats[0]
    user, key = loaded.user_of(seat), loaded.legal_actions(seat)[0].key
    assert user is not None
    calls = _count_applies(monkeypatch, loaded)
    channel, version = loaded.record.channel_id, loaded.record.version
    if preview_first:
        ahead, _ = service.moves.preview(loaded, user, key)
        after = (await service.act(channel, user, key, version)).loaded
    else:  # the bot's usual order: the transaction applies it before the preview runs
        after = (await service.act(channel, user, key, version)).loaded
        ahead, _ = service.moves.preview(loaded, user, key)
    assert calls == [seat], "the rules applied the move once"
    assert ahead.state == after.state
    assert after.view(None) is ahead.view(None), "one public view for both pictures"
    stored = await service.load(channel)
    assert stored.state == after.state and stored.record.version == version + 1
    await service.store.close()


async def test_views_are_built_once_per_state(tmp_path: Path) -> None:
    service, loaded = await _table(tmp_path)
    assert loaded.view(None) is loaded.view(None)
    assert loaded.view(0) is loaded.view(0)
    assert loaded.view(0) == loaded.game.view(loaded.state, 0)
    assert loaded.view(None) == loaded.game.view(loaded.state, None)
    await service.store.close()
