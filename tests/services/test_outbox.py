"""The outbox: every committed change owes its board, written in the change's own transaction."""

from __future__ import annotations

import pytest

from bot.services import GameService
from bot.store import Store, outbox
from rules.core import NotYourTurnError
from tests.services.conftest import ALICE, BOB, CHANNEL, started


async def owed(store: Store) -> list[outbox.Announcement]:
    """Every undelivered announcement, read straight from the database file."""
    async with store.reading() as db:
        found = [await outbox.fetch(db, pk) for pk in await outbox.pending(db)]
    return [item for item in found if item is not None]


async def test_a_move_owes_its_board_until_delivered(service: GameService, store: Store) -> None:
    """Start and each move leave one row (the latest version); delivery clears it."""
    loaded = await started(service)
    (first,) = await owed(store)
    assert first.version == loaded.record.version and first.new_board
    assert first.ping == loaded.active_seats

    seat = loaded.active_seats[0]
    user = loaded.user_of(seat)
    assert user is not None
    key = loaded.legal_actions(seat)[0].key
    result = await service.act(CHANNEL, user, key, loaded.record.version)
    (second,) = await owed(store)
    assert second == result.announcement and second.version == result.loaded.record.version

    await service.boards.delivered(first, 99, 99)  # an older delivery does not clear a newer row
    assert await owed(store) == [second]
    await service.boards.delivered(second, 100, 100)
    assert await owed(store) == []
    assert (await service.load(CHANNEL)).record.board_message_id == 100


async def test_a_refused_move_owes_nothing(service: GameService, store: Store) -> None:
    """A refusal rolls back with the move: no row, nothing announced."""
    loaded = await started(service)
    (first,) = await owed(store)
    await service.boards.delivered(first, 1, 1)
    waiting = next(u for u in (ALICE, BOB) if loaded.user_of(loaded.active_seats[0]) != u)
    with pytest.raises(NotYourTurnError):
        await service.act(CHANNEL, waiting, "anything", None)
    assert await owed(store) == []


async def test_an_abandoned_game_owes_no_board(service: GameService, store: Store) -> None:
    """Abandoning drops the row; a row of a closed game is dropped, not delivered."""
    loaded = await started(service)
    assert await service.boards.pending() == [loaded.record.pk]
    await service.admin.abandon(CHANNEL, ALICE, True)
    assert await service.boards.pending() == []
    assert await service.boards.pending_board(loaded.record.pk) is None
