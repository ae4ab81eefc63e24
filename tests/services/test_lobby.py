"""Lobby flow through the service: open, join, leave, start, abandon — and every refusal."""

from __future__ import annotations

import pytest

from bot.services import (
    AlreadyJoinedError,
    AlreadyStartedError,
    ChannelBusyError,
    GameFullError,
    GameService,
    NoGameHereError,
    NotAllowedError,
    NotInGameError,
    NotStartedError,
)
from rules.core import InvalidOptionsError, UnknownGameError
from tests.services.conftest import ALICE, BOB, CAROL, CHANNEL, DAVE, GUILD, open_lobby, started
from tests.support.reads import recent_events, user_games


async def test_new_lobby_seats_the_creator_and_fills_default_options(
    service: GameService,
) -> None:
    """The creator takes seat 0; options are validated and completed."""
    loaded = await service.lobby.open(GUILD, CHANNEL, "toy", {}, ALICE, "Alice", seed=42)
    assert loaded.record.status == "lobby" and loaded.record.version == 0
    assert loaded.record.options == {"rounds": 3} and loaded.record.seed == 42
    assert loaded.names == ("Alice",) and loaded.user_of(0) == ALICE
    assert loaded.state is None and loaded.active_seats == () and loaded.outcome is None
    assert (await service.load(CHANNEL)) == loaded


async def test_seed_defaults_to_a_random_31_bit_number(service: GameService) -> None:
    """Without a seed the lobby still gets a fixed one, used for every replay."""
    loaded = await service.lobby.open(GUILD, CHANNEL, "toy", {}, ALICE, "Alice")
    assert 0 <= loaded.record.seed < 2**31


async def test_one_game_per_channel(service: GameService) -> None:
    """A second game in the same channel is refused; another channel is fine."""
    await open_lobby(service, ALICE)
    with pytest.raises(ChannelBusyError, match="already has a Toy game"):
        await service.lobby.open(GUILD, CHANNEL, "toy", {}, BOB, "Bob")
    other = await service.lobby.open(GUILD, CHANNEL + 1, "toy", {}, BOB, "Bob")
    assert other.record.channel_id == CHANNEL + 1


async def test_unknown_game_and_bad_options_are_refused(service: GameService) -> None:
    """Only known games with valid options open a lobby."""
    with pytest.raises(UnknownGameError, match="known: toy"):
        await service.lobby.open(GUILD, CHANNEL, "chess", {}, ALICE, "Alice")
    with pytest.raises(InvalidOptionsError, match="rounds"):
        await service.lobby.open(GUILD, CHANNEL, "toy", {"rounds": 99}, ALICE, "Alice")
    with pytest.raises(NoGameHereError):
        await service.load(CHANNEL)


async def test_no_game_here_says_how_to_start_one(service: GameService) -> None:
    """Every channel operation in an empty channel gives the same helpful refusal."""
    message = "There is no game in this channel — start one with /game new."
    calls = [
        service.load(CHANNEL),
        service.lobby.join(CHANNEL, BOB, "Bob"),
        service.lobby.leave(CHANNEL, BOB),
        service.lobby.start(CHANNEL, BOB, True),
        service.act(CHANNEL, BOB, "roll", None),
        service.admin.abandon(CHANNEL, BOB, True),
        service.moves.undo(CHANNEL),
        service.admin.verify(CHANNEL),
        service.admin.export(CHANNEL),
        recent_events(service, CHANNEL, None),
        service.admin.replace(CHANNEL, BOB, CAROL, "Carol"),
    ]
    for call in calls:
        with pytest.raises(NoGameHereError) as err:
            await call
        assert str(err.value) == message


async def test_join_fills_seats_in_order_until_full(service: GameService) -> None:
    """Joiners take the next seats; a double join and a fourth player are refused."""
    loaded = await open_lobby(service, ALICE, BOB, CAROL)
    assert loaded.names == ("Alice", "Bob", "Carol")
    with pytest.raises(AlreadyJoinedError):
        await service.lobby.join(CHANNEL, BOB, "Bob")
    with pytest.raises(GameFullError, match="full"):
        await service.lobby.join(CHANNEL, DAVE, "Dave")


async def test_leaving_renumbers_the_seats(service: GameService) -> None:
    """A player leaving the lobby frees their seat; later players move up."""
    await open_lobby(service, ALICE, BOB, CAROL)
    loaded = await service.lobby.leave(CHANNEL, BOB)
    assert loaded.names == ("Alice", "Carol") and loaded.user_of(1) == CAROL
    with pytest.raises(NotInGameError, match=r"^You are not in this game — join"):
        await service.lobby.leave(CHANNEL, BOB)


async def test_creator_leaving_closes_the_lobby(service: GameService) -> None:
    """When the creator leaves, the lobby is abandoned and the channel is free again."""
    await open_lobby(service, ALICE, BOB)
    loaded = await service.lobby.leave(CHANNEL, ALICE)
    assert loaded.record.status == "abandoned"
    with pytest.raises(NoGameHereError):
        await service.load(CHANNEL)
    await service.lobby.open(GUILD, CHANNEL, "toy", {}, BOB, "Bob")


async def test_start_needs_creator_or_admin_and_enough_players(service: GameService) -> None:
    """Only the creator or an admin starts, and only with enough players."""
    await open_lobby(service, ALICE)
    with pytest.raises(InvalidOptionsError, match="at least 2 players — 1 seated"):
        await service.lobby.start(CHANNEL, ALICE, False)
    await service.lobby.join(CHANNEL, BOB, "Bob")
    with pytest.raises(NotAllowedError):
        await service.lobby.start(CHANNEL, BOB, False)
    result = await service.lobby.start(CHANNEL, BOB, True)
    loaded = result.loaded
    assert loaded.record.status == "running" and loaded.record.version == 1
    assert loaded.state == service.games["toy"].new_game(7, 2, None)
    assert loaded.active_seats == (0,) and not result.finished and result.events == ()
    assert (await service.load(CHANNEL)).state == loaded.state


async def test_lobby_operations_are_refused_after_start(service: GameService) -> None:
    """Join, leave and start are for lobbies only."""
    await started(service)
    with pytest.raises(AlreadyStartedError):
        await service.lobby.join(CHANNEL, CAROL, "Carol")
    with pytest.raises(AlreadyStartedError):
        await service.lobby.leave(CHANNEL, BOB)
    with pytest.raises(AlreadyStartedError):
        await service.lobby.start(CHANNEL, ALICE, True)


async def test_game_operations_are_refused_before_start(service: GameService) -> None:
    """Moves, undo and verify wait for the game to start."""
    await open_lobby(service, ALICE, BOB)
    with pytest.raises(NotStartedError, match="/game start"):
        await service.act(CHANNEL, ALICE, "roll", None)
    with pytest.raises(NotStartedError):
        await service.moves.undo(CHANNEL)
    with pytest.raises(NotStartedError):
        await service.admin.verify(CHANNEL)


async def test_abandon_rights(service: GameService) -> None:
    """The creator may close a lobby; after the start only an admin may end the game."""
    await open_lobby(service, ALICE, BOB)
    with pytest.raises(NotAllowedError):
        await service.admin.abandon(CHANNEL, BOB, False)
    assert (await service.admin.abandon(CHANNEL, ALICE, False)).record.status == "abandoned"

    await started(service)
    with pytest.raises(NotAllowedError, match="only an admin"):
        await service.admin.abandon(CHANNEL, ALICE, False)
    assert (await service.admin.abandon(CHANNEL, CAROL, True)).record.status == "abandoned"
    with pytest.raises(NoGameHereError):
        await service.load(CHANNEL)


async def test_games_for_user_lists_open_games_on_this_server(service: GameService) -> None:
    """Lobbies and running games where the user sits, on this guild only."""
    running = await started(service)
    lobby = await service.lobby.open(GUILD, CHANNEL + 1, "toy", {}, BOB, "Bob")
    await service.lobby.open(GUILD + 1, CHANNEL + 2, "toy", {}, BOB, "Bob")
    closed = await service.lobby.open(GUILD, CHANNEL + 3, "toy", {}, BOB, "Bob")
    await service.admin.abandon(CHANNEL + 3, BOB, False)
    pks = {g.record.pk for g in await user_games(service, GUILD, BOB)}
    assert pks == {running.record.pk, lobby.record.pk} and closed.record.pk not in pks
    assert [g.record.pk for g in await user_games(service, GUILD, ALICE)] == [running.record.pk]
    assert await user_games(service, GUILD, DAVE) == []


async def test_board_and_live_message_ids_are_remembered(service: GameService) -> None:
    """The bot can find its latest board and live prompt after a restart."""
    loaded = await started(service)
    await service.boards.set_board_message(loaded.record.pk, 555)
    await service.boards.set_live_message(loaded.record.pk, 777)
    record = (await service.load(CHANNEL)).record
    assert (record.board_message_id, record.live_message_id) == (555, 777)
    await service.boards.set_live_message(loaded.record.pk, None)
    assert (await service.load(CHANNEL)).record.live_message_id is None
