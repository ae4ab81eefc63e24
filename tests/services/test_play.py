"""Playing through the service: whole games, refusals that change nothing, logs, restarts."""

from __future__ import annotations

import json
import random

import pytest

from bot.services import GameService, NoGameHereError, NotInGameError
from bot.services.replay import replay
from bot.store import Store, open_store
from bot.store import repository as repo
from rules.core import IllegalActionError, NotYourTurnError, StaleActionError, fill_names, messages
from tests.services.conftest import ALICE, BOB, CAROL, CHANNEL, DAVE, FakeClock, started
from tests.support.reads import recent_events
from tests.support.toygame import TOY


async def play_to_the_end(service: GameService, chooser: random.Random) -> list[str]:
    """Random legal moves through act() until the game finishes; returns the keys played."""
    loaded = await service.load(CHANNEL)
    pk, keys = loaded.record.pk, []
    while True:
        seat = loaded.active_seats[0]
        action = chooser.choice(loaded.game.legal_actions(loaded.state, seat))
        user = loaded.user_of(seat)
        assert user is not None
        result = await service.act(CHANNEL, user, action.key, loaded.record.version)
        keys.append(action.key)
        assert result.acted_seat == seat and result.previous_active == (seat,)
        assert result.events, "every toy move is announced"
        loaded = result.loaded
        if result.finished:
            assert loaded.record.status == "finished" and loaded.outcome is not None
            assert loaded.active_seats == ()
            return keys
        assert (await service.admin.verify(CHANNEL)).ok
        assert (await service.load(CHANNEL)).record.version == loaded.record.version
        assert loaded.record.pk == pk


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_a_whole_game_replays_from_the_log_to_the_snapshot(
    service: GameService, store: Store, seed: int
) -> None:
    """Seed + logged moves rebuild exactly the stored final state; the channel frees up."""
    loaded = await started(service, ALICE, BOB, CAROL, seed=seed)
    keys = await play_to_the_end(service, random.Random(seed))
    assert len(keys) == 3 * 3
    with pytest.raises(NoGameHereError):
        await service.load(CHANNEL)
    assert len(await recent_events(service, CHANNEL, None, limit=100)) == len(keys)
    async with store.reading() as db:
        stored = await repo.fetch_game(db, loaded.record.pk)
        actions = await repo.fetch_actions(db, loaded.record.pk)
    assert stored is not None and stored.snapshot is not None
    assert [a.key for a in actions] == keys
    assert stored.record.version == 1 + len(keys)
    final = replay(TOY, stored.record, 3, actions)
    assert TOY.dump_state(final) == stored.snapshot
    assert TOY.outcome(final) is not None


async def test_refusals_say_why_and_change_nothing(service: GameService) -> None:
    """Outsiders, wrong seats, stale prompts and illegal keys are refused; state is untouched."""
    before = await started(service)
    version = before.record.version
    with pytest.raises(NotInGameError, match=r"^You are not in this game — "):
        await service.act(CHANNEL, DAVE, "roll", version)
    with pytest.raises(NotYourTurnError) as err:
        await service.act(CHANNEL, BOB, "roll", version)
    assert str(err.value) == "Not your turn — it is {seat0}'s turn."
    assert fill_names(str(err.value), before.names) == "Not your turn — it is Alice's turn."
    with pytest.raises(StaleActionError) as err:
        await service.act(CHANNEL, ALICE, "roll", version - 1)
    assert str(err.value) == messages.STALE
    with pytest.raises(IllegalActionError):
        await service.act(CHANNEL, ALICE, "bid:9", version)
    after = await service.load(CHANNEL)
    assert after.state == before.state and after.record.version == version
    assert await recent_events(service, CHANNEL, None) == []


async def test_a_move_without_expected_version_is_checked_against_the_current_state(
    service: GameService,
) -> None:
    """/play sends no version: it applies to whatever state is current."""
    await started(service)
    result = await service.act(CHANNEL, ALICE, "bid:2", None)
    assert result.loaded.record.version == 2 and result.loaded.active_seats == (1,)
    assert [e.text for e in result.events] == ["{seat0} bid 2."]


async def test_recent_events_show_each_viewer_what_they_may_see(service: GameService) -> None:
    """The drawer reads their card; others read only that a card was drawn."""
    await started(service)
    drawn = (await service.act(CHANNEL, ALICE, "draw", None)).events[0]
    await service.act(CHANNEL, BOB, "bid:1", None)
    await service.act(CHANNEL, ALICE, "bid:3", None)
    card = drawn.private_text
    assert card is not None and card.startswith("You drew a ")
    public = ["{seat0} drew a card.", "{seat1} bid 1.", "{seat0} bid 3."]
    assert await recent_events(service, CHANNEL, None) == public
    assert await recent_events(service, CHANNEL, 1) == public
    assert await recent_events(service, CHANNEL, 0) == [card, *public[1:]]
    assert await recent_events(service, CHANNEL, None, limit=2) == public[1:]


async def test_state_survives_a_restart(database_url: str) -> None:
    """Close everything mid-game, open the file again: same state, same version, play on."""
    first = await open_store(database_url)
    service = GameService(first, games={"toy": TOY}, clock=FakeClock())
    await started(service)
    await service.act(CHANNEL, ALICE, "draw", None)
    before = await service.load(CHANNEL)
    await first.close()
    reopened = await open_store(database_url)
    try:
        again = GameService(reopened, games={"toy": TOY}, clock=FakeClock())
        after = await again.load(CHANNEL)
        assert after.state == before.state and after.record == before.record
        await again.act(CHANNEL, BOB, "roll", after.record.version)
        assert (await again.admin.verify(CHANNEL)).ok
    finally:
        await reopened.close()


async def test_export_is_a_json_replay(service: GameService) -> None:
    """The export holds game, options, seed, seats and moves, and replays to the same state."""
    loaded = await started(service, seed=11)
    for user, key in ((ALICE, "bid:1"), (BOB, "draw"), (ALICE, "roll")):
        await service.act(CHANNEL, user, key, None)
    data = json.loads(json.dumps(await service.admin.export(CHANNEL)))
    assert data["game"]["pk"] == loaded.record.pk and data["game"]["id"] == "toy"
    assert data["options"] == {"rounds": 3} and data["seed"] == 11
    assert data["seats"] == [
        {"seat": 0, "user_id": ALICE, "name": "Alice", "ai_level": None},
        {"seat": 1, "user_id": BOB, "name": "Bob", "ai_level": None},
    ]
    assert [(a["seat"], a["key"]) for a in data["actions"]] == [
        (0, "bid:1"),
        (1, "draw"),
        (0, "roll"),
    ]
    state = TOY.new_game(data["seed"], len(data["seats"]), data["options"])
    for move in data["actions"]:
        state = TOY.apply(state, move["seat"], move["key"]).state
    assert state == (await service.load(CHANNEL)).state
    assert data["outcome"] is None


async def test_lobby_export_has_no_moves(service: GameService) -> None:
    """Exporting a lobby is allowed and empty."""
    await service.lobby.open(1, CHANNEL, "toy", {}, CAROL, "Carol", seed=3)
    data = await service.admin.export(CHANNEL)
    assert data["actions"] == [] and data["game"]["status"] == "lobby"


async def test_the_log_stays_readable_after_the_game_ends(service: GameService) -> None:
    """/game log after an abandoned game shows it, until a new game opens in the channel."""
    await started(service)
    await service.act(CHANNEL, ALICE, "bid:1", None)
    await service.admin.abandon(CHANNEL, CAROL, True)
    assert await recent_events(service, CHANNEL, None) == ["{seat0} bid 1."]
    await service.lobby.open(1, CHANNEL, "toy", {}, BOB, "Bob")
    assert await recent_events(service, CHANNEL, None) == []
