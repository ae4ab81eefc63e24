"""Announcements: the pure board decisions and the straight click path (counted), with the
tidy of the board before (issue 28.7)."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import discord
import pytest

import rules
from bot.edge import notify
from bot.edge.announce import Announcer
from bot.edge.flow import edit_or_post
from bot.edge.present import Panel
from bot.services.announce import merge, plan_board
from bot.services.board_notes import Board
from bot.services.games import GameService, LoadedGame
from bot.store import SqliteStore, Store, open_store, outbox
from bot.store.locks import Lock
from bot.store.outbox import Announcement

GUILD, CHANNEL, ALICE, BOB = 1, 100, 11, 12
NO_ONE = discord.AllowedMentions.none()


def test_same_turn_edits_the_live_message() -> None:
    """A move that keeps the turn updates the board in place without pinging anyone."""
    plan = plan_board(previous_active=(0,), active=(0,), seats=2, milestone=False, finished=False)
    assert plan == (False, ())
    assert edit_or_post(plan[0], live_message_id=555) == "edit"


def test_turn_change_posts_a_new_board_pinging_the_next_player() -> None:
    """Passing the turn posts a new message that pings whoever must act now."""
    plan = plan_board(previous_active=(0,), active=(1,), seats=2, milestone=False, finished=False)
    assert plan == (True, (1,))
    assert edit_or_post(plan[0], live_message_id=555) == "post"


def test_milestone_posts_without_ping_and_the_end_pings_everyone() -> None:
    """A milestone gets a fresh board (no ping); the game's end pings every seat."""
    assert plan_board(
        previous_active=(0,), active=(0,), seats=3, milestone=True, finished=False
    ) == (True, ())
    assert plan_board(previous_active=(2,), active=(), seats=3, milestone=False, finished=True) == (
        True,
        (0, 1, 2),
    )


def test_without_a_live_message_the_board_is_posted() -> None:
    """Nothing to edit (deleted, or never recorded) → post."""
    assert edit_or_post(False, None) == "post"


def test_merge_keeps_what_an_undelivered_board_still_owes() -> None:
    """A newer change keeps the older new-board flag and pings only seats still to act."""
    old = Announcement(1, 5, True, (1,))
    same_turn = Announcement(1, 6, False, ())
    assert merge(old, same_turn, active=(1,), finished=False) == Announcement(1, 6, True, (1,))
    moved_on = Announcement(1, 6, True, (0,))
    assert merge(old, moved_on, active=(0,), finished=False) == Announcement(1, 6, True, (0,))
    assert merge(None, moved_on, active=(0,), finished=False) is moved_on


class CountingStore(SqliteStore):
    """The real store, counting the transactions it opens."""

    transactions = 0

    @asynccontextmanager
    async def transaction(
        self, *, durable: bool = True, lock: Lock = Lock.ALL
    ) -> AsyncIterator[Any]:
        """Count, then run the real write transaction."""
        CountingStore.transactions += 1
        async with super().transaction(durable=durable, lock=lock) as db:
            yield db

    @asynccontextmanager
    async def reading(self, *, quick: bool = False) -> AsyncIterator[Any]:
        """Count, then run the real read transaction."""
        CountingStore.transactions += 1
        async with super().reading(quick=quick) as db:
            yield db


class Sent:
    """What Discord returns for a posted message: its id."""

    ids = itertools.count(1000)

    def __init__(self) -> None:
        self.id = next(Sent.ids)


class Channel:
    """A channel that accepts every post and edit (the click path is counted, not Discord)."""

    def __init__(self) -> None:
        self.posts: list[dict[str, Any]] = []
        self.edits: list[dict[str, Any]] = []

    async def send(self, content: str | None = None, **kwargs: Any) -> Sent:
        """Post a message."""
        self.posts.append({"content": content, **kwargs})
        return Sent()

    def get_partial_message(self, message_id: int) -> Channel:
        """The message to edit (this channel stands in for it)."""
        return self

    async def edit(self, **kwargs: Any) -> None:
        """Edit a message."""
        self.edits.append(kwargs)


class Bot:
    """The parts of HangarBot the announcer uses."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.channel = Channel()
        self.user = None

    def get_partial_messageable(self, channel_id: int) -> Channel:
        """The one channel of this test."""
        return self.channel


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    """A counting store on a real SQLite file."""
    opened = await open_store(tmp_path / "hangar.sqlite3")
    counting = CountingStore(opened.db, opened.path)
    yield counting
    await counting.close()


async def test_a_click_that_passes_the_turn_is_two_transactions_and_one_legality_check(
    store: CountingStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Move + its board: ≤ 2 database transactions and ≤ 1 legal_actions call."""
    takeoff = rules.GAMES["takeoff"]
    service = GameService(store, games={"takeoff": takeoff})
    bot = Bot(service)
    announcer = Announcer(bot)  # type: ignore[arg-type]
    await service.lobby.open(GUILD, CHANNEL, "takeoff", {}, ALICE, "Alice", seed=3)
    await service.lobby.join(CHANNEL, BOB, "Bob")
    started = await service.lobby.start(CHANNEL, ALICE, False)
    assert await announcer.publish(started) is None  # the first board, as the bot posts it
    first = started.loaded.active_seats[0]
    user = started.loaded.user_of(first)
    assert user is not None

    calls: list[int] = []
    real = takeoff.legal_actions
    monkeypatch.setattr(
        takeoff, "legal_actions", lambda s, seat: calls.append(seat) or real(s, seat)
    )
    CountingStore.transactions = 0
    version, pk = started.loaded.record.version, started.loaded.record.pk

    result = await service.act(CHANNEL, user, "end", version, game_pk=pk)
    assert await announcer.publish(result) is None
    await announcer.settle()  # the delivery's record is written after the board is shown

    assert result.loaded.active_seats != (first,), "the click passed the turn"
    assert CountingStore.transactions <= 2
    assert len(calls) <= 1
    board = bot.channel.posts[-1]
    assert str(result.loaded.user_of(result.loaded.active_seats[0])) in board["content"]
    async with store.reading() as db:
        assert await outbox.pending(db) == [], "the delivered board left the outbox"
    reloaded = await service.load(CHANNEL)
    assert reloaded.record.live_message_id == reloaded.record.board_message_id is not None
    # Issue 28.7: two requests to Discord for the turn: the new board, then ONE edit that
    # shrinks the previous board to its turn, in players' words, without picture or buttons.
    assert len(bot.channel.posts) == 2 and len(bot.channel.edits) == 1
    (tidy,) = bot.channel.edits
    mover = result.loaded.names[first]
    assert tidy["content"] == f"{mover} ended their turn and drew a card.", tidy["content"]
    assert tidy["attachments"] == [] and tidy["embeds"] == [] and tidy["view"] is None


async def test_a_channel_ping_is_the_mention_alone_and_a_dm_tells_the_moves(
    store: CountingStore,
) -> None:
    """The board's embed already tells the moves since a player's turn: the channel ping above
    it only mentions them; a DM, with no board under it, keeps "Since your last turn"."""
    service = GameService(store, games={"takeoff": rules.GAMES["takeoff"]})
    await service.lobby.open(GUILD, CHANNEL, "takeoff", {}, ALICE, "Alice", seed=3)
    await service.lobby.join(CHANNEL, BOB, "Bob")
    loaded = (await service.lobby.start(CHANNEL, ALICE, False)).loaded
    seat = loaded.active_seats[0]
    user = loaded.user_of(seat)
    assert user is not None
    embed = discord.Embed(description="• Bob ended their turn and drew a card.")
    panel = Panel(f"<@{user}> — your turn.", embed, b"", "board.png", None, NO_ONE)
    digest = ["{seat1} ended their turn.", "{seat1} drew a card."]
    board = Board(digest_seat=seat, digest=digest)
    shown = notify.decorate_board(loaded, panel, (seat,), board)
    assert shown.content == f"<@{user}> — your turn."
    assert "Since your last turn" in notify.digest_text(loaded, digest), "DMs keep the digest"


class Messages(Channel):
    """A channel that also notes which message each edit went to."""

    def __init__(self) -> None:
        super().__init__()
        self.edited: list[int] = []

    def get_partial_message(self, message_id: int) -> Channel:
        """The message to edit, noted."""
        self.edited.append(message_id)
        return self


async def test_a_game_the_announcer_no_longer_keeps_still_tidies_its_previous_board(
    store: CountingStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The announcer keeps the message ids of its last few games only (memory on a host with
    many channels); a game beyond them reads its board's id back from the store, so passing the
    turn still shrinks that board and no old board keeps its picture and buttons."""
    monkeypatch.setattr("bot.edge.announce.KEPT", 2)
    service = GameService(store, games={"takeoff": rules.GAMES["takeoff"]})
    bot = Bot(service)
    bot.channel = Messages()
    announcer = Announcer(bot)  # type: ignore[arg-type]
    first_boards: dict[int, LoadedGame] = {}
    for channel in (CHANNEL, CHANNEL + 1, CHANNEL + 2):  # the third game pushes out the first
        await service.lobby.open(GUILD, channel, "takeoff", {}, ALICE, "Alice", seed=3)
        await service.lobby.join(channel, BOB, "Bob")
        started = await service.lobby.start(channel, ALICE, False)
        assert await announcer.publish(started) is None
        await announcer.settle()
        first_boards[channel] = await service.load(channel)
    first = first_boards[CHANNEL]
    assert first.record.board_message_id is not None
    assert len(announcer._ids) == 2, "only the last two games' ids are kept"

    user = first.user_of(first.active_seats[0])
    assert user is not None
    result = await service.act(CHANNEL, user, "end", first.record.version, game_pk=first.record.pk)
    assert await announcer.publish(result) is None
    await announcer.settle()

    assert bot.channel.edited[-1] == first.record.board_message_id, "the old board was tidied"
    assert bot.channel.edits[-1]["attachments"] == [] and bot.channel.edits[-1]["view"] is None
    reloaded = await service.load(CHANNEL)
    assert reloaded.record.board_message_id not in (None, first.record.board_message_id)
