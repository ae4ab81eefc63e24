"""Practice tables and hints in the services (issue 31): a practice game leaves no results,
stats, ratings or history; only its learner may leave it; hints are refused, with the reason,
where the table does not allow them."""

from __future__ import annotations

import pytest

from bot.services import GameService
from bot.services.errors import NotAllowedError, NotInGameError
from bot.services.gametime import Clock
from bot.services.hints import HINTS_OFF, NOT_SEATED, NOT_YOUR_TURN, HintService
from bot.services.history import HistoryService, user_key
from bot.services.learn import LearnService
from bot.services.preferences import Preferences
from bot.store import Store
from bot.store.repository import TableFlags
from tests.services.conftest import FakeClock
from tests.support.scripted import SCRIPTED

GUILD = 1
ALICE, BOB, CAROL = 11, 12, 13
RESULT = {"scores": [3, 1], "ranks": [1, 2], "winners": [0], "gustave": None, "gustave_won": False}


@pytest.fixture
def service(store: Store) -> GameService:
    """A service that plays the scripted game (it ends on the first move, as scripted)."""
    return GameService(store, games={"scripted": SCRIPTED}, clock=FakeClock())


@pytest.fixture
def learn(service: GameService, store: Store) -> LearnService:
    """The practice service over the same store."""
    return LearnService(service, Preferences(store, Clock(1.0)))


async def running(service: GameService, channel: int, learn: LearnService, practice: bool) -> int:
    """alice and bob start a scripted game in `channel`, flagged practice or not; its pk."""
    loaded = await service.lobby.open(GUILD, channel, "scripted", RESULT, ALICE, "alice")
    await learn.flags.put(loaded.record.pk, TableFlags(practice=practice, hints=practice))
    await service.lobby.join(channel, BOB, "bob")
    await service.lobby.start(channel, ALICE, is_admin=False)
    return loaded.record.pk


async def test_a_finished_practice_game_leaves_no_history_stats_or_ratings(
    store: Store, service: GameService, learn: LearnService
) -> None:
    """The same result counts at a normal table and leaves nothing at a practice table."""
    history = HistoryService(store, games={"scripted": SCRIPTED})
    await running(service, 200, learn, practice=True)
    await service.act(200, ALICE, "end", None)
    assert (await service.load_latest(200)).record.status == "finished"
    assert (await history.history(GUILD, user_id=None, game_id=None)).items == ()
    assert (await history.stats(GUILD, ALICE, None)).games == 0
    assert await history.leaderboard(GUILD, "scripted") == []

    await running(service, 201, learn, practice=False)
    await service.act(201, ALICE, "end", None)
    page = await history.history(GUILD, user_id=None, game_id=None)
    assert len(page.items) == 1 and page.items[0].game.channel_id == 201
    assert (await history.stats(GUILD, ALICE, None)).games == 1
    assert {r.player for r in await history.leaderboard(GUILD, "scripted")} == {
        user_key(ALICE),
        user_key(BOB),
    }


async def test_only_the_learner_leaves_and_only_a_practice_table(
    service: GameService, learn: LearnService
) -> None:
    """A stranger and a normal table are refused with the reason; the learner's leave ends it."""
    await running(service, 300, learn, practice=True)
    with pytest.raises(NotInGameError, match="Only the learner"):
        await learn.leave(300, CAROL)
    left = await learn.leave(300, ALICE)
    assert left.record.status == "abandoned"

    await running(service, 301, learn, practice=False)
    with pytest.raises(NotAllowedError, match="not a practice table"):
        await learn.leave(301, ALICE)


async def test_hints_are_refused_where_the_table_has_them_off(
    service: GameService, learn: LearnService
) -> None:
    """Off (the default): refused saying how to get them; on: still only for a seated player
    whose turn it is."""
    hints = HintService(learn.flags)
    await running(service, 400, learn, practice=False)
    loaded = await service.load(400)
    with pytest.raises(NotAllowedError) as off:
        await hints.hint(loaded, 0)
    assert str(off.value) == HINTS_OFF and "/game learn" in HINTS_OFF

    await running(service, 401, learn, practice=True)
    loaded = await service.load(401)
    with pytest.raises(NotInGameError) as stranger:
        await hints.hint(loaded, None)
    assert str(stranger.value) == NOT_SEATED
    waiting = next(s for s in (0, 1) if s not in loaded.active_seats)
    with pytest.raises(NotAllowedError) as early:
        await hints.hint(loaded, waiting)
    assert str(early.value) == NOT_YOUR_TURN
