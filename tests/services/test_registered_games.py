"""Every registered game played to the end through the service, then replayed from the log."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator

import pytest

import rules
from bot.services import GameService, LoadedGame, UndoRefusedError
from bot.services.errors import NoGameHereError
from bot.services.replay import replay
from bot.store import Store, open_store
from bot.store import repository as repo
from rules.core import InvalidOptionsError
from tests.services.conftest import CHANNEL, GUILD, FakeClock

STEP_BOUND = 5000
# Verify and undo replay the whole log, so they are sampled (not every step) to keep this fast.
VERIFY_AT = frozenset({0, 10, 100, 1000})
UNDO_EVERY, UNDO_UNTIL = 7, 200


@pytest.fixture
async def real_service(database_url: str) -> AsyncIterator[tuple[GameService, Store]]:
    """A service over the real game registry, on a file where commits skip fsync for speed."""
    store = await open_store(database_url, synchronous="NORMAL")
    yield GameService(store, clock=FakeClock()), store
    await store.close()


async def _lobby(service: GameService, game_id: str, players: int, seed: int) -> None:
    """Open a lobby and seat `players` users (ids 1000, 1001, …)."""
    await service.lobby.open(GUILD, CHANNEL, game_id, {}, 1000, "Player 1", seed=seed)
    for i in range(1, players):
        await service.lobby.join(CHANNEL, 1000 + i, f"Player {i + 1}")


@pytest.mark.parametrize("game_id", sorted(rules.GAMES))
async def test_registered_game_plays_through_the_service(
    real_service: tuple[GameService, Store], game_id: str
) -> None:
    """Random legal moves via act() reach an outcome; seed + log rebuild the stored snapshot."""
    service, store = real_service
    game = rules.GAMES[game_id]
    players = game.min_players
    await _lobby(service, game_id, players, seed=2024)
    loaded = (await service.lobby.start(CHANNEL, 1000, False)).loaded
    pk, chooser = loaded.record.pk, random.Random(game_id)
    undone = 0
    for step in range(STEP_BOUND):
        seat = loaded.active_seats[0]
        action = chooser.choice(game.legal_actions(loaded.state, seat))
        user = loaded.user_of(seat)
        assert user is not None
        result = await service.act(CHANNEL, user, action.key, loaded.record.version)
        if result.finished:
            loaded = result.loaded
            break
        if step < UNDO_UNTIL and step % UNDO_EVERY == 0 and await _try_undo(service, loaded):
            undone += 1
            loaded = await service.load(CHANNEL)
        else:
            loaded = result.loaded
        if step in VERIFY_AT:
            assert (await service.admin.verify(CHANNEL)).ok
    else:
        pytest.fail(f"{game_id} did not finish within {STEP_BOUND} moves")
    async with store.reading() as db:
        stored = await repo.fetch_game(db, pk)
        actions = await repo.fetch_actions(db, pk)
    assert stored is not None and stored.record.status == "finished"
    final = replay(game, stored.record, players, actions)
    assert game.dump_state(final) == stored.snapshot
    assert game.outcome(final) == loaded.outcome
    assert undone, "some move in a whole game can be taken back"


async def _try_undo(service: GameService, before: LoadedGame) -> bool:
    """Undo the move just made: either refused with a reason or back to exactly `before`."""
    try:
        result = await service.moves.undo(CHANNEL)
    except UndoRefusedError as exc:
        assert str(exc)
        return False
    assert result.loaded.state == before.state
    assert result.loaded.active_seats == before.active_seats
    return True


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        ({"card_data": "nope.json"}, "no card data file"),
        ({"card_data": "../../../etc/passwd"}, "no card data file"),
        ({"gustave": "mean"}, "gustave: Input should be 'standard' or 'advanced'"),
    ],
)
async def test_bad_first_in_flight_options_are_refused_when_the_lobby_opens(
    real_service: tuple[GameService, Store], options: dict[str, str], reason: str
) -> None:
    """A bad option stops `/game new` with the reason, and no lobby (nothing to start) exists."""
    service, _ = real_service
    with pytest.raises(InvalidOptionsError, match=re.escape(reason)) as refused:
        await service.lobby.open(GUILD, CHANNEL, "first-in-flight", options, 1000, "P1")
    assert "errors.pydantic.dev" not in str(refused.value)
    with pytest.raises(NoGameHereError):
        await service.load(CHANNEL)
