"""Admin operations: undo (allowed and refused), replace, verify, and crash safety of act()."""

from __future__ import annotations

from typing import Any

import pytest

from bot.services import (
    AlreadyJoinedError,
    GameService,
    NotAllowedError,
    NotInGameError,
    UndoRefusedError,
    turn_message,
)
from bot.store import Store
from bot.store import repository as repo
from rules.core import Action, StaleActionError, Transition
from tests.services.conftest import ALICE, BOB, CAROL, CHANNEL, DAVE, FakeClock, started
from tests.support.reads import recent_events
from tests.support.toygame import ToyGame


async def test_undo_takes_back_a_pure_choice(service: GameService) -> None:
    """A bid revealed nothing: undo restores the state before it and bumps the version."""
    start = await started(service)
    await service.act(CHANNEL, ALICE, "bid:3", None)
    result = await service.moves.undo(CHANNEL)
    after = result.loaded
    assert after.state == start.state and after.record.version == start.record.version + 2
    assert result.acted_seat == 0 and result.previous_active == (1,) and not result.finished
    assert after.active_seats == (0,)
    assert await recent_events(service, CHANNEL, None) == []
    assert (await service.admin.export(CHANNEL))["actions"] == []
    assert (await service.admin.verify(CHANNEL)).ok
    await service.act(CHANNEL, ALICE, "bid:1", after.record.version)
    assert (await service.load(CHANNEL)).state.bids == (1, 0)


async def test_undo_twice_walks_back_two_moves(service: GameService) -> None:
    """Each undo takes back the latest move still in force."""
    start = await started(service)
    await service.act(CHANNEL, ALICE, "bid:1", None)
    await service.act(CHANNEL, BOB, "bid:2", None)
    await service.moves.undo(CHANNEL)
    assert (await service.load(CHANNEL)).state.bids == (1, 0)
    assert (await service.moves.undo(CHANNEL)).loaded.state == start.state
    with pytest.raises(UndoRefusedError, match="nothing to undo"):
        await service.moves.undo(CHANNEL)


async def test_undo_refuses_a_hidden_draw(service: GameService) -> None:
    """Drawing a card showed the drawer a hidden card: undo refuses and says so."""
    await started(service)
    before = await service.act(CHANNEL, ALICE, "draw", None)
    with pytest.raises(UndoRefusedError, match="revealed hidden information") as err:
        await service.moves.undo(CHANNEL)
    assert "{seat0} drew a card." in str(err.value)
    after = await service.load(CHANNEL)
    assert after.state == before.loaded.state and after.record == before.loaded.record


async def test_undo_refuses_a_die_roll(service: GameService) -> None:
    """A random result cannot be taken back (it would be re-rolled)."""
    await started(service)
    await service.act(CHANNEL, ALICE, "roll", None)
    with pytest.raises(UndoRefusedError, match="random result"):
        await service.moves.undo(CHANNEL)


class QuietRollGame(ToyGame):
    """A toy whose die roll forgets to set reveals=True (an engine bug undo must survive)."""

    def apply(self, state: Any, seat: int, action: Action | str) -> Transition:
        """The toy move, with the reveals flag wrongly cleared."""
        transition = super().apply(state, seat, action)
        events = tuple(e.model_copy(update={"reveals": False}) for e in transition.events)
        return Transition(state=transition.state, events=events)


async def test_undo_refuses_when_the_rng_moved_even_without_a_reveal_flag(store: Store) -> None:
    """The RNG counter is checked too, so a mislabelled random move is not undone."""
    service = GameService(store, games={"toy": QuietRollGame()}, clock=FakeClock())
    await started(service)
    await service.act(CHANNEL, ALICE, "roll", None)
    with pytest.raises(UndoRefusedError, match="random draw"):
        await service.moves.undo(CHANNEL)
    await service.act(CHANNEL, BOB, "bid:1", None)
    assert (await service.moves.undo(CHANNEL)).loaded.state.bids == (0, 0)


async def test_undo_with_no_moves_is_refused(service: GameService) -> None:
    """Right after the start there is nothing to take back."""
    await started(service)
    with pytest.raises(UndoRefusedError, match="nothing to undo"):
        await service.moves.undo(CHANNEL)


async def test_replace_hands_a_seat_to_another_user(service: GameService) -> None:
    """The new user plays the old seat; the old user is out; the creator role moves along."""
    await started(service)
    await service.act(CHANNEL, ALICE, "bid:1", None)
    loaded = await service.admin.replace(CHANNEL, BOB, DAVE, "Dave")
    assert loaded.names == ("Alice", "Dave") and service.seat_of(loaded, DAVE) == 1
    assert service.seat_of(loaded, BOB) is None
    with pytest.raises(NotInGameError):
        await service.act(CHANNEL, BOB, "bid:1", None)
    await service.act(CHANNEL, DAVE, "bid:2", None)
    assert (await service.load(CHANNEL)).state.bids == (1, 2)
    moved = await service.admin.replace(CHANNEL, ALICE, CAROL, "Carol")
    assert moved.record.creator_id == CAROL
    assert (await service.admin.export(CHANNEL))["actions"][-1]["user_id"] == DAVE
    assert (await service.admin.verify(CHANNEL)).ok


async def test_replace_refusals(service: GameService) -> None:
    """Replacing a non-player, or with someone already seated, is refused."""
    await started(service)
    with pytest.raises(NotInGameError, match="That player is not in this game"):
        await service.admin.replace(CHANNEL, CAROL, DAVE, "Dave")
    with pytest.raises(AlreadyJoinedError):
        await service.admin.replace(CHANNEL, ALICE, BOB, "Bob")


async def test_replace_works_in_the_lobby(service: GameService) -> None:
    """An admin may swap a lobby seat too."""
    await service.lobby.open(1, CHANNEL, "toy", {}, ALICE, "Alice")
    loaded = await service.admin.replace(CHANNEL, ALICE, BOB, "Bob")
    assert loaded.names == ("Bob",) and loaded.record.creator_id == BOB


async def test_verify_reports_a_tampered_snapshot(service: GameService, store: Store) -> None:
    """A snapshot that the log does not explain is reported with where it differs."""
    loaded = await started(service)
    await service.act(CHANNEL, ALICE, "bid:2", None)
    report = await service.admin.verify(CHANNEL)
    assert report.ok and report.actions == 1 and str(report).startswith("✅")
    current = await service.load(CHANNEL)
    forged = current.state.model_copy(update={"bids": (3, 0)})
    async with store.transaction() as db:
        await repo.update_snapshot(
            db,
            loaded.record.pk,
            expected_version=current.record.version,
            snapshot=current.game.dump_state(forged),
            status="running",
            now=0.0,
        )
    report = await service.admin.verify(CHANNEL)
    assert not report.ok and report.differences == ("snapshot.state.bids[0]",)
    assert str(report).startswith("❌") and "bids" in report.detail


async def test_crash_inside_act_leaves_the_database_unchanged(
    service: GameService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """If writing the snapshot fails after the move was logged, the move is rolled back too."""
    before = await started(service)

    async def explode(*args: Any, **kwargs: Any) -> bool:
        raise OSError("disk full")

    monkeypatch.setattr(repo, "update_snapshot", explode)
    with pytest.raises(OSError, match="disk full"):
        await service.act(CHANNEL, ALICE, "bid:2", before.record.version)
    monkeypatch.undo()
    after = await service.load(CHANNEL)
    assert after.state == before.state and after.record.version == before.record.version
    async with store.reading() as db:
        assert await repo.fetch_actions(db, before.record.pk) == []
        assert await repo.fetch_recent_events(db, before.record.pk, 10) == []
    await service.act(CHANNEL, ALICE, "bid:2", before.record.version)


async def test_losing_the_version_race_at_write_time_logs_nothing(
    service: GameService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """UPDATE … WHERE version = ? matching no row means stale: the move is not kept."""
    before = await started(service)

    async def lost_race(*args: Any, **kwargs: Any) -> bool:
        return False

    monkeypatch.setattr(repo, "update_snapshot", lost_race)
    with pytest.raises(StaleActionError):
        await service.act(CHANNEL, ALICE, "bid:2", None)
    monkeypatch.undo()
    async with store.reading() as db:
        assert await repo.fetch_actions(db, before.record.pk) == []
    assert (await service.load(CHANNEL)).record.version == before.record.version


def test_turn_message_names_every_waiting_seat() -> None:
    """Simultaneous turns list all the seats the bot should mention."""
    assert turn_message((2,)) == "Not your turn — it is {seat2}'s turn."
    assert turn_message((0, 2)) == "Not your turn — it is {seat0} and {seat2}'s turn."
    assert turn_message((0, 1, 3)) == "Not your turn — it is {seat0}, {seat1} and {seat3}'s turn."


async def test_export_is_refused_to_a_player_while_the_game_runs(service: GameService) -> None:
    """The seed would show a seated admin every hidden card: refused to them until the game
    ends, given to anyone not seated, and nothing changes."""
    await started(service)
    await service.act(CHANNEL, ALICE, "bid:1", None)
    before = await service.load(CHANNEL)
    with pytest.raises(NotAllowedError, match="hidden card") as refused:
        await service.admin.export(CHANNEL, asked_by=ALICE)
    assert f"game #{before.record.pk}" in str(refused.value)
    assert (await service.admin.export(CHANNEL, asked_by=CAROL))["seed"] == before.record.seed
    assert await service.load(CHANNEL) == before
    await service.admin.abandon(CHANNEL, CAROL, is_admin=True)
    ended = await service.admin.export(0, before.record.pk, before.record.guild_id, asked_by=ALICE)
    assert ended["seed"] == before.record.seed and ended["game"]["status"] == "abandoned"
