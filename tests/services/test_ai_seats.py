"""AI seats in the service: seating, refusals, hand-overs and one commit per decided version."""

from __future__ import annotations

import asyncio

import pytest

from bot.services import GameFullError, GameService, NotAllowedError, NotInGameError
from bot.services import ai as ai_service
from bot.store import Store
from bot.store import history as hrepo
from rules import GAMES
from rules.core import InvalidOptionsError, StaleActionError
from tests.services.conftest import ALICE, BOB, CHANNEL, GUILD, FakeClock


@pytest.fixture
def real(store: Store) -> GameService:
    """A service with the real games."""
    return GameService(store, games=GAMES, clock=FakeClock())


async def _lobby(service: GameService, game: str = "takeoff") -> None:
    """Alice opens a lobby."""
    await service.lobby.open(GUILD, CHANNEL, game, {}, ALICE, "Alice", seed=3)


async def test_ai_takes_the_next_seat_with_its_level(real: GameService) -> None:
    """Add AI seats an AI named by level; a full table and strangers are refused."""
    await _lobby(real, "flight")
    loaded = await ai_service.add_ai_seat(real, CHANNEL, ALICE, False, "hard")
    loaded = await ai_service.add_ai_seat(real, CHANNEL, ALICE, False, "hard")
    assert loaded.names == ("Alice", "🤖 Hard AI", "🤖 Hard AI 2")
    assert [s.ai_level for s in loaded.seats] == [None, "hard", "hard"]
    assert [s.user_id for s in loaded.seats] == [ALICE, None, None]
    with pytest.raises(NotAllowedError):
        await ai_service.add_ai_seat(real, CHANNEL, BOB, False, "easy")
    with pytest.raises(InvalidOptionsError, match="easy, normal, hard"):
        await ai_service.add_ai_seat(real, CHANNEL, ALICE, False, "expert")
    await ai_service.add_ai_seat(real, CHANNEL, ALICE, False, "easy")
    await ai_service.add_ai_seat(real, CHANNEL, ALICE, False, "easy")
    with pytest.raises(GameFullError):
        await ai_service.add_ai_seat(real, CHANNEL, ALICE, True, "easy")


async def test_an_ai_leaves_the_lobby_and_the_seats_behind_move_up(real: GameService) -> None:
    """Remove AI: a chosen AI seat or the last one; humans' seats and strangers are refused."""
    await _lobby(real, "flight")
    await ai_service.add_ai_seat(real, CHANNEL, ALICE, False, "hard")
    await real.lobby.join(CHANNEL, BOB, "Bob")
    await ai_service.add_ai_seat(real, CHANNEL, ALICE, False, "easy")
    with pytest.raises(NotAllowedError):
        await ai_service.remove_ai_seat(real, CHANNEL, BOB, False, None)
    with pytest.raises(NotInGameError, match="Seat 3 is not played by an AI"):
        await ai_service.remove_ai_seat(real, CHANNEL, ALICE, False, 2)
    loaded, name = await ai_service.remove_ai_seat(real, CHANNEL, ALICE, False, 1)
    assert name == "🤖 Hard AI"
    assert loaded.names == ("Alice", "Bob", "🤖 Easy AI")
    assert [s.seat for s in loaded.seats] == [0, 1, 2]
    loaded, name = await ai_service.remove_ai_seat(real, CHANNEL, BOB, True, None)
    assert (name, loaded.names) == ("🤖 Easy AI", ("Alice", "Bob"))
    with pytest.raises(NotInGameError, match="no AI"):
        await ai_service.remove_ai_seat(real, CHANNEL, ALICE, False, None)


async def test_an_ai_move_commits_once_per_decided_version(real: GameService) -> None:
    """Two drivers deciding on the same version: one move commits, the other is stale."""
    await _lobby(real)
    await ai_service.add_ai_seat(real, CHANNEL, ALICE, False, "easy")
    start = await real.lobby.start(CHANNEL, ALICE, False)
    loaded = start.loaded
    if ai_service.ai_to_move(loaded) is None:  # alice starts: she ends her turn first
        loaded = (await real.act(CHANNEL, ALICE, "end", None)).loaded
    seat = ai_service.ai_to_move(loaded)
    assert seat == 1
    key = await ai_service.choose(loaded, seat, "easy")
    version = loaded.record.version
    outcomes = await asyncio.gather(
        ai_service.act_as_ai(real, CHANNEL, seat, key, version),
        ai_service.act_as_ai(real, CHANNEL, seat, key, version),
        return_exceptions=True,
    )
    assert sum(isinstance(o, StaleActionError) for o in outcomes) == 1
    export = await real.admin.export(CHANNEL)
    ai_moves = [a for a in export["actions"] if a["seat"] == 1]
    assert len(ai_moves) == 1 and ai_moves[0]["user_id"] is None and ai_moves[0]["key"] == key
    assert (await real.admin.verify(CHANNEL)).ok


async def test_admin_hands_a_seat_to_an_ai_and_back(real: GameService) -> None:
    """A player's seat goes to an AI (same seat, same hand) and back to a member."""
    await _lobby(real)
    await real.lobby.join(CHANNEL, BOB, "Bob")
    before = (await real.lobby.start(CHANNEL, ALICE, False)).loaded
    loaded, seat = await ai_service.seat_ai(real, CHANNEL, BOB, "normal")
    assert seat == 1 and loaded.names[1] == "🤖 Normal AI" and loaded.user_of(1) is None
    assert loaded.state == before.state
    with pytest.raises(NotInGameError):
        await ai_service.seat_ai(real, CHANNEL, BOB, "normal")
    with pytest.raises(NotInGameError, match="not played by an AI"):
        await ai_service.seat_human(real, CHANNEL, 0, BOB, "Bob")
    back = await ai_service.seat_human(real, CHANNEL, 1, BOB, "Bob")
    assert back.names == ("Alice", "Bob") and back.seats[1].ai_level is None
    assert real.seat_of(back, BOB) == 1


async def test_a_seat_handed_to_an_ai_remembers_its_former_holder(real: GameService) -> None:
    """As /admin replace does: the person leaving is kept as the seat's former holder, so
    history shows "🤖 Normal AI (replaced Bob)" and Bob's /stats count the part he played."""
    await _lobby(real)
    await real.lobby.join(CHANNEL, BOB, "Bob")
    started = (await real.lobby.start(CHANNEL, ALICE, False)).loaded
    await ai_service.seat_ai(real, CHANNEL, BOB, "normal")
    async with real.store.reading() as db:
        former = await hrepo.fetch_former_holders(db, started.record.pk)
    assert former == [hrepo.FormerHolder(1, BOB, "Bob")]
