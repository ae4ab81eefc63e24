"""A corrupted game row: named as damaged, closable and exportable, harmless to everything else."""

from __future__ import annotations

import json

import pytest

from bot.services import GameService
from bot.services.errors import DamagedGameError
from bot.store import Store
from tests.services.conftest import ALICE, BOB, CHANNEL, GUILD, open_lobby, started
from tests.support.reads import readable_and_damaged

CORRUPTIONS = {
    "bad snapshot JSON": 'UPDATE games SET snapshot = \'{"v": 1, "state": \' WHERE pk = ?',
    "wrong shape": 'UPDATE games SET snapshot = \'{"v": 1, "state": {"nope": 1}}\' WHERE pk = ?',
    "unknown game id": "UPDATE games SET game_id = 'chess' WHERE pk = ?",
    "bad options": 'UPDATE games SET options = \'{"rounds": "many", "x": [1]}\' WHERE pk = ?',
    "bad options JSON": "UPDATE games SET options = 'rounds=3' WHERE pk = ?",
}


async def corrupt(store: Store, pk: int, sql: str) -> None:
    """Damage one row with plain SQL, as a bad restore or a manual edit would."""
    async with store.transaction() as db:
        await db.execute(sql, (pk,))


@pytest.mark.parametrize("sql", CORRUPTIONS.values(), ids=CORRUPTIONS.keys())
async def test_a_damaged_game_is_named_and_can_be_exported_and_abandoned(
    service: GameService, store: Store, sql: str
) -> None:
    """Load says which game is damaged; export gives the raw row; abandon frees the channel."""
    pk = (await started(service)).record.pk
    await open_lobby(service, BOB, ALICE, channel=CHANNEL + 1)  # another channel, healthy
    await corrupt(store, pk, sql)

    with pytest.raises(DamagedGameError) as caught:
        await service.load(CHANNEL)
    assert f"#{pk}" in str(caught.value) and "/admin abandon" in str(caught.value)
    with pytest.raises(DamagedGameError):
        await service.act(CHANNEL, ALICE, "anything", None)
    with pytest.raises(DamagedGameError):
        await service.lobby.open(GUILD, CHANNEL, "toy", {}, ALICE, "Alice")

    games, damaged = await readable_and_damaged(service, GUILD, ALICE)
    assert [g.record.channel_id for g in games] == [CHANNEL + 1]
    assert [d.game_pk for d in damaged] == [pk]
    assert (await service.load(CHANNEL + 1)).record.status == "lobby"

    raw = await service.admin.export_raw(CHANNEL)
    assert raw["game"]["pk"] == pk and len(raw["seats"]) == 2
    json.dumps(raw)  # the raw export is JSON-ready text, whatever the damage

    assert (await service.admin.abandon_damaged(CHANNEL, ALICE)).game_pk == pk
    await service.lobby.open(GUILD, CHANNEL, "toy", {}, ALICE, "Alice")
    assert (await service.load(CHANNEL)).record.status == "lobby"


async def test_abandon_damaged_refuses_a_healthy_game(service: GameService) -> None:
    """The damaged-game path is not a way around the normal abandon."""
    await started(service)
    with pytest.raises(Exception, match="not damaged"):
        await service.admin.abandon_damaged(CHANNEL, ALICE)
