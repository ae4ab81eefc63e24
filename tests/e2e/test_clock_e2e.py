"""The turn clock with the real bot against the fake Discord, 12 h turns scaled to 8 seconds."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from bot.edge.commands.clock import NOT_MARKED

from .botproc import BotProcess, bot_env
from .driver import active_player, boards, description
from .fakediscord import FakeDiscord
from .fakediscord.state import Channel, Message, User

TURN_SECONDS = 8.0  # a 12 h turn limit, scaled
SCALE = str(12 * 3600 / TURN_SECONDS)
WAIT = 30.0


def clock_env(fake: FakeDiscord, guild: object, db: Path) -> dict[str, str]:
    """The bot's environment with scaled time and a fast heartbeat."""
    env = bot_env(fake, guild, db)  # type: ignore[arg-type]
    return {**env, "HANGAR_TIME_SCALE": SCALE, "HANGAR_HEARTBEAT_SECONDS": "0.5"}


class Game:
    """A two-player Takeoff! table: alice starts, bob joins."""

    def __init__(self, fake: FakeDiscord, channel: Channel, alice: User, bob: User) -> None:
        self.fake, self.channel, self.players = fake, channel, [alice, bob]

    async def open(self, **table: object) -> None:
        """/game new takeoff with table options, join and start; wait for the first board."""
        alice, bob = self.players
        reply = await (
            await self.fake.slash(alice, self.channel, "game new takeoff", **table)
        ).response()
        assert not reply.failed, reply.all_text
        await (await self.fake.slash(bob, self.channel, "game join")).response()
        mark = self.fake.mark()
        await (await self.fake.slash(alice, self.channel, "game start")).response()
        await self.fake.wait_for_message(self.channel, is_board, after=mark)

    def board(self) -> Message:
        """The latest board."""
        return boards(self._table())[-1]

    def _table(self) -> object:
        from .driver import Table

        return Table(self.fake, self.channel, self.players, stranger=self.players[0])

    def to_play(self) -> User:
        """Who the latest board says must act."""
        return active_player(self._table(), self.board())  # type: ignore[arg-type]

    async def play(self, user: User, key: str) -> str:
        """/play a key."""
        reply = await (await self.fake.slash(user, self.channel, "play", action=key)).response()
        return reply.all_text

    async def first_turn_played(self) -> tuple[User, User]:
        """The first player ends their turn; returns (them, the one who never acts)."""
        first = self.to_play()
        late = next(p for p in self.players if p is not first)
        mark = self.fake.mark()
        assert "✅" in await self.play(first, "end")
        board = await self.fake.wait_for_message(self.channel, is_board, after=mark)
        assert late.id in board.mentions
        return first, late

    def texts(self, needle: str, channel: Channel | None = None) -> list[Message]:
        """Messages in the channel (or another) whose content contains `needle`."""
        return [m for m in self.fake.messages(channel or self.channel) if needle in m.content]


def is_board(message: Message) -> bool:
    """A public board message."""
    return any(a.filename == "board.png" for a in message.attachments)


def _reminder(message: Message) -> bool:
    return "Reminder" in message.content


async def _setup(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> tuple[Game, BotProcess]:
    """Guild, channel, alice and bob, and a started bot."""
    guild = fake.add_guild("Clock")
    channel = fake.add_channel(guild, "tables")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    bot = bots(clock_env(fake, guild, tmp_path / "hangar.sqlite3"))
    await bot.start()
    await fake.wait_ready(60)
    return Game(fake, channel, alice, bob), bot


async def test_silent_player_is_reminded_then_times_out_and_the_game_goes_on(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """Reminders ping only the late player; at the deadline their turn passes; play continues."""
    game, bot = await _setup(fake, bots, tmp_path)
    await game.open(turn_limit="12h", on_timeout="ai")
    assert "turn limit 12h, on timeout: ai" in game.texts("lobby")[0].content
    first, late = await game.first_turn_played()
    assert "deadline" in description(game.board()) and "<t:" in description(game.board())

    half = await game.fake.wait_for_message(game.channel, _reminder, WAIT)
    assert half.mentions == [late.id] and "half of your turn time" in half.content
    assert (
        "<t:" in half.content and ":R>" in half.content and "discord.com/channels" in half.content
    )
    assert "Since your last turn" in half.content  # first's move, from the public log
    tenth = await game.fake.wait_for_message(
        game.channel, lambda m: _reminder(m) and "10 %" in m.content, WAIT
    )
    assert tenth.mentions == [late.id]

    out = await game.fake.wait_for_message(game.channel, lambda m: "⏰" in m.content, WAIT)
    assert late.mention in out.content and out.mentions == []
    assert "the AI played their turn" in out.content
    board = await game.fake.wait_for_message(game.channel, is_board, WAIT, after=out.id)
    assert first.id in board.mentions and "time ran out" in description(board)
    assert game.to_play() is first
    assert "✅" in await game.play(first, "end")  # the game goes on
    assert len(game.texts("Reminder")) == 2 and len(game.texts("⏰ Time ran out")) == 1
    assert not bot.log_errors()


async def test_sigkill_across_the_deadline_fires_once_after_restart(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """Killed after the 50 % reminder and kept down past the deadline: the outage is added."""
    import asyncio

    game, bot = await _setup(fake, bots, tmp_path)
    await game.open(turn_limit="12h", on_timeout="ai")
    _, late = await game.first_turn_played()
    await game.fake.wait_for_message(game.channel, _reminder, WAIT)
    assert bot.proc is not None
    bot.proc.kill()  # SIGKILL: no goodbye, no last heartbeat
    await bot.proc.wait()
    await game.fake.wait_disconnected(10)
    await asyncio.sleep(TURN_SECONDS)  # the original deadline passes while the bot is down
    restarted = game.fake.mark()
    await bot.start()
    await game.fake.wait_ready(60)
    await asyncio.sleep(1.5)
    assert game.texts("⏰") == [], "the downtime did not count against the player"
    tenth = await game.fake.wait_for_message(
        game.channel, lambda m: _reminder(m) and "10 %" in m.content, WAIT, after=restarted
    )
    assert tenth.mentions == [late.id]
    await game.fake.wait_for_message(game.channel, lambda m: "⏰" in m.content, WAIT)
    await asyncio.sleep(1.0)
    assert len(game.texts("half of your turn")) == 1 and len(game.texts("10 %")) == 1
    assert len(game.texts("⏰ Time ran out")) == 1


async def test_dm_preference_and_closed_dms(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """alice and bob both ask for DMs; bob's DMs are closed, so he gets the channel (once tried)."""
    game, _ = await _setup(fake, bots, tmp_path)
    alice, bob = game.players
    bob.dm_closed = True
    for user in (alice, bob):
        reply = await (await fake.slash(user, game.channel, "notify", where="dm")).response()
        assert "DM" in reply.all_text
    await game.open(turn_limit="12h", on_timeout="remind")
    for _ in range(3):  # every player's turn comes at least once; bob's DM is tried once
        player = game.to_play()
        mark = fake.mark()
        assert "✅" in await game.play(player, "end")
        await fake.wait_for_message(game.channel, is_board, after=mark)
    alice_dm = fake.dm_channel(alice)
    assert alice_dm is not None
    dms = [m for m in fake.messages(alice_dm) if "your turn" in m.content]
    assert dms and "discord.com/channels" in dms[0].content
    assert any("Since your last turn" in m.content for m in dms), "a DM ping tells what happened"
    all_boards = boards(game._table())  # type: ignore[arg-type]
    assert all(alice.id not in b.mentions for b in all_boards), "alice is told by DM only"
    fallback = [m for m in game.texts("your turn in") if m.mentions == [bob.id]]
    assert len(fallback) == 1, "bob's closed DMs fall back to a ping in the channel"
    bob_dm = fake.dm_channel(bob)
    refused = [line for line in fake.http_log if bob_dm and f"{bob_dm.id}/messages -> 403" in line]
    assert len(refused) == 1, "a closed DM is not retried every turn"


async def test_thread_per_game(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """thread:true opens the lobby in a new public thread; the boards are posted there."""
    game, _ = await _setup(fake, bots, tmp_path)
    alice, bob = game.players
    reply = await (
        await fake.slash(alice, game.channel, "game new takeoff", thread=True)
    ).response()
    assert "Lobby opened in <#" in reply.all_text
    (thread,) = [c for c in fake.world.channels.values() if c.parent_id == game.channel.id]
    assert thread.type == 11 and "Takeoff" in thread.name
    assert any("lobby" in m.content for m in fake.messages(thread))
    await (await fake.slash(bob, thread, "game join")).response()
    await (await fake.slash(alice, thread, "game start")).response()
    await fake.wait_for_message(thread, is_board, WAIT)
    assert not any(is_board(m) for m in fake.messages(game.channel))
    assert not any("lobby" in m.content for m in fake.messages(game.channel))


async def test_away_settings_extend_pause_and_back(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """Server defaults apply to a new table; away shows on the board and /mygames; admin tools."""
    from .fakediscord import CommandUnavailable

    game, bot = await _setup(fake, bots, tmp_path)
    admin = fake.add_user("root", admin=True)
    alice, _ = game.players
    with_defaults = await (
        await fake.slash(admin, game.channel, "admin settings", turn_limit="1w", on_timeout="ai")
    ).response()
    assert "turn limit **1w**, on timeout **ai**" in with_defaults.all_text
    try:
        await fake.slash(alice, game.channel, "admin settings")
        raise AssertionError("a player without Manage Server changed the settings")
    except CommandUnavailable:
        pass
    await game.open()
    assert "turn limit 1w, on timeout: ai" in game.texts("lobby")[0].content

    player = game.to_play()
    away = await (await fake.slash(player, game.channel, "away set", until="48")).response()
    assert "away until <t:" in away.all_text and "1 turn clock paused" in away.all_text
    too_long = await (await fake.slash(player, game.channel, "away set", until="40d")).response()
    assert "at most 30 days" in too_long.all_text
    mark = fake.mark()
    await (await fake.slash(alice, game.channel, "game status")).response()
    status = await fake.wait_for_message(game.channel, is_board, after=mark)
    assert f"{player.name} is away until <t:" in description(status)
    mine = await (await fake.slash(player, game.channel, "mygames")).response()
    assert "away until" in mine.all_text and "your turn" in mine.all_text
    back = await (await fake.slash(player, game.channel, "away off")).response()
    assert "1 turn clock run again" in back.all_text
    again = await (await fake.slash(player, game.channel, "away off")).response()
    assert "no turn clock of yours was paused" in again.all_text, "nothing claimed to resume"

    extended = await (await fake.slash(admin, game.channel, "admin extend", hours=6)).response()
    assert "Extended by 6 h. New deadline: <t:" in extended.all_text
    paused = await (await fake.slash(admin, game.channel, "admin clock", paused=True)).response()
    assert "paused" in paused.all_text
    assert "paused by an admin" in description(fake.message(game.board().id))
    await (await fake.slash(admin, game.channel, "admin clock", paused=False)).response()
    assert "paused by an admin" not in description(fake.message(game.board().id))
    # Never marked absent: /game back says nothing changed and what it is for (issue 28).
    returned = await (await fake.slash(player, game.channel, "game back")).response()
    assert returned.ephemeral and returned.all_text == NOT_MARKED, returned.all_text
    assert not bot.log_errors()
