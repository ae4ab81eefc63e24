"""/mygames from stored columns: the listing follows moves, undo, replace and the end of a game."""

from __future__ import annotations

from bot.edge import mygames
from bot.edge.commands.game import mygames_line
from bot.edge.mygames import user_listing
from bot.services import GameService, LoadedGame
from bot.services.listing import store_listing
from bot.store import Store
from bot.store import repository as repo
from tests.services.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    open_lobby,
    started,
)


def install(service: GameService) -> None:
    """Wire the listing reaction, as start-up does."""
    service.moves.reactions = (*service.moves.reactions, store_listing)


async def listed(service: GameService, user: int) -> dict[int, str]:
    """channel → the state /mygames shows this user, built from columns."""
    games, damaged = await user_listing(service, GUILD, user)
    assert damaged == []
    return {item.row.channel_id: item.state for item in games}


async def decoded(service: GameService, user: int) -> dict[int, str]:
    """channel → the same state, computed the old way (decoding every game)."""
    games = await user_games(service, user)
    return {
        g.record.channel_id: mygames_line(g, service.seat_of(g, user)).split(": ", 1)[1]
        for g in games
    }


async def user_games(service: GameService, user: int) -> list[LoadedGame]:
    """The user's open games here, decoded from their snapshots."""
    async with service.store.reading() as db:
        stored = await repo.fetch_user_games(db, GUILD, user)
    return [service.decoder.decode(one) for one in stored]


async def agree(service: GameService, *users: int) -> None:
    """For each user, the column listing reads exactly like decoding the games would."""
    for user in users:
        from_columns = await listed(service, user)
        from_snapshots = await decoded(service, user)
        assert from_columns.keys() == from_snapshots.keys()
        for channel, state in from_columns.items():
            assert from_snapshots[channel].startswith(state + " — ")


async def stored_listings(store: Store) -> list[str | None]:
    """The raw listing column of every game."""
    async with store.reading() as db, db.execute("SELECT listing FROM games ORDER BY pk") as cur:
        return [row[0] for row in await cur.fetchall()]


async def test_turn_follows_moves_and_undo(service: GameService, store: Store) -> None:
    """After each move the mover reads "X to play" and the next player "your turn"; undo
    gives the turn back."""
    install(service)
    await started(service)
    assert "your turn" in (await listed(service, ALICE))[CHANNEL]
    assert (await listed(service, BOB))[CHANNEL] == "**Alice** to play."
    assert all(listing is not None for listing in await stored_listings(store))
    await agree(service, ALICE, BOB)

    await service.act(CHANNEL, ALICE, "bid:2", None)
    assert (await listed(service, ALICE))[CHANNEL] == "**Bob** to play."
    assert "your turn" in (await listed(service, BOB))[CHANNEL]
    await agree(service, ALICE, BOB)

    await service.moves.undo(CHANNEL)
    assert "your turn" in (await listed(service, ALICE))[CHANNEL]
    assert (await listed(service, BOB))[CHANNEL] == "**Alice** to play."
    await agree(service, ALICE, BOB)


async def test_replace_renames_the_listing_and_finish_drops_it(service: GameService) -> None:
    """A replaced player's name shows in the others' listing; a finished game leaves /mygames."""
    install(service)
    await started(service)
    await service.admin.replace(CHANNEL, ALICE, CAROL, "Carol")
    assert (await listed(service, BOB))[CHANNEL] == "**Carol** to play."
    assert "your turn" in (await listed(service, CAROL))[CHANNEL]
    assert await listed(service, ALICE) == {}
    await agree(service, BOB, CAROL)

    players, turn, status = (CAROL, BOB), 0, "running"
    while status == "running":
        result = await service.act(CHANNEL, players[turn % 2], "bid:1", None)
        status, turn = result.loaded.record.status, turn + 1
        await agree(service, BOB, CAROL)
    assert await listed(service, BOB) == {} and await listed(service, CAROL) == {}


async def test_lobbies_and_games_stored_before_the_column(
    service: GameService, store: Store
) -> None:
    """Lobbies count their players; a running game without a listing (stored before migration
    8, or a service without the hook) is decoded once and then listed from its column."""
    await started(service)  # no hook installed: the listing stays empty
    await open_lobby(service, BOB, ALICE, channel=CHANNEL + 1)
    assert await stored_listings(store) == [None, None]
    assert (await listed(service, ALICE))[CHANNEL + 1] == "lobby, 2 players so far"
    assert "your turn" in (await listed(service, ALICE))[CHANNEL]
    assert (await stored_listings(store))[0] is not None  # built by that /mygames
    await agree(service, ALICE, BOB)


async def test_a_row_edited_behind_the_bots_back_is_listed_as_damaged(
    service: GameService, store: Store
) -> None:
    """The stored listing is not trusted once the snapshot it describes has changed."""
    install(service)
    pk = (await started(service)).record.pk
    await open_lobby(service, BOB, ALICE, channel=CHANNEL + 1)
    async with store.transaction() as db:
        bad = '{"v": 1, "state": {"nope": 1}}'
        await db.execute("UPDATE games SET snapshot = ? WHERE pk = ?", (bad, pk))
    games, damaged = await user_listing(service, GUILD, ALICE)
    assert [d.game_pk for d in damaged] == [pk]
    assert [g.row.channel_id for g in games] == [CHANNEL + 1]


async def test_only_the_newest_games_are_listed(service: GameService) -> None:
    """A user in many games gets the most recently active ones, newest first."""
    install(service)
    for n in range(mygames.SHOWN + 3):
        await open_lobby(service, ALICE, BOB, channel=CHANNEL + n)
    await service.lobby.join(CHANNEL + 2, CAROL, "Carol")  # touched last
    games, _ = await user_listing(service, GUILD, ALICE)
    assert len(games) == mygames.SHOWN
    assert games[0].row.channel_id == CHANNEL + 2
    assert games[0].state == "lobby, 3 players so far"
