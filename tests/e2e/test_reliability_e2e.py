"""Reliability through the fake Discord: departed members, crashes, Discord failures, abuse."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sqlite3
from collections import Counter
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from bot.edge.announce import CRASH_AFTER_COMMIT

from .botproc import BotProcess, bot_env
from .driver import Table, active_player, board_version, boards
from .fakediscord import FakeDiscord
from .fakediscord.state import Channel, Guild, Message, User

KILLS = 8


async def start_takeoff(fake: FakeDiscord, channel: Channel, alice: User, bob: User) -> None:
    """alice opens Takeoff!, bob joins, alice starts; returns once the first board is up."""
    await (await fake.slash(alice, channel, "game new takeoff")).response()
    await (await fake.slash(bob, channel, "game join")).response()
    mark = fake.mark()
    await (await fake.slash(alice, channel, "game start")).response()
    await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)


def world(fake: FakeDiscord) -> tuple[Guild, Channel, User, User, User, User]:
    """A server with a channel, two players, a stranger and an admin."""
    guild = fake.add_guild("Reliability")
    channel = fake.add_channel(guild, "table")
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    admin = fake.add_user("root", admin=True)
    return guild, channel, alice, bob, carol, admin


async def test_replace_a_member_who_left(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """/admin replace works for a player who left the server, and the bot keeps answering."""
    guild, channel, alice, bob, carol, admin = world(fake)
    bot = bots(bot_env(fake, guild, tmp_path / "hangar.sqlite3"))
    await bot.start()
    await fake.wait_ready(60)
    await start_takeoff(fake, channel, alice, bob)
    del guild.members[bob.id]  # bob leaves the server

    mark = fake.mark()
    reply = await (
        await fake.slash(admin, channel, "admin replace", old=str(bob.id), new=carol.id)
    ).response()
    assert not reply.failed and "replaced" in reply.all_text.lower()
    note = await fake.wait_for_message(channel, lambda m: "takes over" in m.content, after=mark)
    assert "bob" in note.content and note.mentions == [carol.id]

    unknown = await (
        await fake.slash(admin, channel, "admin replace", old="<@123>", new=alice.id)
    ).response()
    assert "is not a player in this game" in unknown.all_text

    status = await (await fake.slash(carol, channel, "game status")).response()
    assert not status.failed, "the bot must keep answering after the replace"
    table = Table(fake, channel, [alice, carol], stranger=admin)
    assert active_player(table, boards(table)[-1]) in (alice, carol)
    assert not bot.log_errors(), bot.log_errors()


def db_version(path: Path) -> int:
    """The stored version of the channel's game, read from the real database file."""
    with closing(sqlite3.connect(path)) as db:
        row = db.execute("SELECT version FROM games ORDER BY pk DESC LIMIT 1").fetchone()
    return int(row[0])


def db_moves(path: Path) -> set[int]:
    """Sequence numbers of the moves in the log."""
    with closing(sqlite3.connect(path)) as db:
        return {int(r[0]) for r in db.execute("SELECT seq FROM actions WHERE kind = 'act'")}


async def outbox_empty(path: Path, timeout: float = 30) -> None:
    """Wait until no board is owed any more (read from the real database file)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        with closing(sqlite3.connect(path)) as db:
            if db.execute("SELECT count(*) FROM outbox").fetchone()[0] == 0:
                return
        assert loop.time() < deadline, "boards still owed"
        await asyncio.sleep(0.1)


# The version each turn board announced, noted when a test waited for it: once the next board
# is posted, a past board shrinks to one line without its footer (issue 28.7).
SEEN_VERSIONS: dict[int, int] = {}


def pinged_boards(fake: FakeDiscord, channel: Channel) -> dict[int, list[Message]]:
    """Board messages that pinged someone, by the game version they announced (0: a past board
    no test waited for — one posted twice)."""
    found: dict[int, list[Message]] = {}
    for message in fake.messages(channel):
        board = any(a.filename == "board.png" for a in message.attachments)
        if message.mentions and (board or not message.embeds):
            version = board_version(message) if board else SEEN_VERSIONS.get(message.id, 0)
            found.setdefault(version, []).append(message)
    return found


async def wait_turn_board(fake: FakeDiscord, channel: Channel, version: int) -> Message:
    """The board that announced the turn at `version` (posted now or earlier)."""
    board = await fake.wait_for_message(
        channel,
        lambda m: (
            SEEN_VERSIONS.get(m.id) == version
            or (bool(m.mentions and m.embeds) and board_version(m) == version)
        ),
        timeout=30,
    )
    SEEN_VERSIONS[board.id] = version
    return board


@pytest.mark.parametrize("stage", ["1", "post"], ids=["after-commit", "after-post"])
async def test_crash_between_commit_and_record_pings_the_next_player_once(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path, stage: str
) -> None:
    """Killed after a move's commit (before or after its post): the next player is pinged once."""
    guild, channel, alice, bob, _carol, admin = world(fake)
    database = tmp_path / "hangar.sqlite3"
    bot = bots(bot_env(fake, guild, database))
    await bot.start()
    await fake.wait_ready(60)
    await start_takeoff(fake, channel, alice, bob)
    table = Table(fake, channel, [alice, bob], stranger=admin)
    first = active_player(table, await wait_turn_board(fake, channel, 1))
    second = bob if first is alice else alice
    await bot.stop()

    bot.env[CRASH_AFTER_COMMIT] = stage  # test-only hook: exit at that point of the next move
    await bot.start()
    await fake.wait_ready(60)
    await fake.slash(first, channel, "play", action="v1:end")
    assert bot.proc is not None and await asyncio.wait_for(bot.proc.wait(), 30) == 70
    assert db_version(database) == 2, "the move was committed before the crash"
    posted = 1 if stage == "post" else 0
    assert len(pinged_boards(fake, channel).get(2, [])) == posted

    del bot.env[CRASH_AFTER_COMMIT]
    await bot.restart()
    await fake.wait_ready(60)
    await outbox_empty(database)  # the start-up sweep delivered (or found) the owed board
    board = await wait_turn_board(fake, channel, 2)
    assert board.mentions == [second.id]
    assert len(pinged_boards(fake, channel)[2]) == 1
    reply = await (await fake.slash(second, channel, "play", action="v2:end")).response()
    assert "✅" in reply.all_text
    await wait_turn_board(fake, channel, 3)
    assert [len(pinged_boards(fake, channel).get(v, [])) for v in (0, 1, 2, 3)] == [0, 1, 1, 1]
    verify = await (await fake.slash(admin, channel, "admin verify")).response()
    assert "✅" in verify.all_text


async def test_random_kills_lose_no_move_and_announce_every_turn_once(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """SIGKILL at random points over many moves: moves kept, log verifies, one ping per turn."""
    rng = random.Random(8)
    guild, channel, alice, bob, _carol, admin = world(fake)
    database = tmp_path / "hangar.sqlite3"
    bot = bots(bot_env(fake, guild, database))
    await bot.start()
    await fake.wait_ready(60)
    await start_takeoff(fake, channel, alice, bob)
    table = Table(fake, channel, [alice, bob], stranger=admin)
    acknowledged: set[int] = set()  # versions whose move the player saw succeed
    windows: Counter[tuple[bool, bool]] = Counter()  # (committed, announced) when killed
    kills = 0
    while kills < KILLS:
        version = db_version(database)
        player = active_player(table, await wait_turn_board(fake, channel, version))
        handle = await fake.slash(player, channel, "play", action=f"v{version}:end")
        if rng.random() < 0.6:
            reply = await handle.response(timeout=30)
            assert "✅" in reply.all_text, reply.all_text
            acknowledged.add(version)
            continue
        await asyncio.sleep(rng.uniform(0.0, 0.6))
        assert bot.proc is not None
        bot.proc.kill()
        kills += 1
        with contextlib.suppress(TimeoutError):
            if "✅" in (await handle.response(timeout=2, settle=0)).all_text:
                acknowledged.add(version)
        await bot.stop()
        committed = db_version(database) > version
        windows[(committed, version + 1 in pinged_boards(fake, channel))] += 1
        await bot.start()
        await fake.wait_ready(60)
        assert acknowledged <= db_moves(database), "a move a player saw succeed was lost"

    final = db_version(database)
    await wait_turn_board(fake, channel, final)
    verify = await (await fake.slash(admin, channel, "admin verify")).response()
    assert "✅" in verify.all_text
    pings = pinged_boards(fake, channel)
    assert {v: len(pings.get(v, [])) for v in range(final + 1)} == {
        v: int(v > 0) for v in range(final + 1)
    }, "every turn change is announced exactly once"
    print("kills (committed, announced):", dict(windows))
    # Interactions cut off by a kill were never acknowledged: that is the point of this test.
    fake.world.violations[:] = [v for v in fake.violations if v.kind != "ack-timeout"]


async def test_a_corrupted_game_is_named_and_blocks_nothing_else(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """A bad snapshot in one row: status/new explain it, admins export and abandon it,
    /mygames lists it as damaged beside the healthy game, the other channel plays on."""
    guild, channel, alice, bob, _carol, admin = world(fake)
    other = fake.add_channel(guild, "other")
    database = tmp_path / "hangar.sqlite3"
    bot = bots(bot_env(fake, guild, database))
    await bot.start()
    await fake.wait_ready(60)
    await start_takeoff(fake, channel, alice, bob)
    await start_takeoff(fake, other, alice, bob)
    with closing(sqlite3.connect(database)) as db, db:
        db.execute(
            'UPDATE games SET snapshot = \'{"v": 1, "state": {"nope": 1}}\' WHERE channel_id = ?',
            (channel.id,),
        )

    status = await (await fake.slash(alice, channel, "game status")).response()
    assert "damaged" in status.all_text and "/admin abandon" in status.all_text
    new = await (await fake.slash(alice, channel, "game new flight")).response()
    assert "damaged" in new.all_text
    mine = await (await fake.slash(bob, channel, "mygames")).response()
    assert "damaged" in mine.all_text and f"<#{other.id}>" in mine.all_text
    healthy = await (await fake.slash(alice, other, "game status")).response()
    assert not healthy.failed and "damaged" not in healthy.all_text

    export = await (await fake.slash(admin, channel, "admin export")).response()
    (attachment,) = export.attachments
    assert '"nope"' in json.loads(attachment.data)["game"]["snapshot"]
    mark = fake.mark()
    await (await fake.slash(admin, channel, "admin abandon")).response()
    ended = await fake.wait_for_message(channel, lambda m: "ended" in m.content, after=mark)
    assert "damaged" in ended.content
    await (await fake.slash(alice, channel, "game new flight")).response()
    assert "lobby" in fake.messages(channel)[-1].content
    assert not [line for line in bot.log_errors() if "Traceback" in line]


@pytest.mark.parametrize("status", [500, 503])
async def test_discord_failing_after_the_commit_gets_the_truth_and_the_board_later(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path, status: int
) -> None:
    """Channel posts fail (500: discord.py retries itself; 503: it gives up at once and the
    bot's own retry delivers): the player reads "saved, the board will follow"; it does."""
    guild, channel, alice, bob, _carol, admin = world(fake)
    database = tmp_path / "hangar.sqlite3"
    bot = bots(bot_env(fake, guild, database))
    await bot.start()
    await fake.wait_ready(60)
    await start_takeoff(fake, channel, alice, bob)
    table = Table(fake, channel, [alice, bob], stranger=admin)
    board = await wait_turn_board(fake, channel, 1)
    first = active_player(table, board)
    end = next(cid for cid in board.custom_ids if cid.endswith(":end"))

    route = rf"^(POST|PATCH) /api/v10/channels/{channel.id}/messages"
    fault = fake.world.faults.fail(route, status)
    reply = await (await fake.click(first, board, end)).response(timeout=30)
    assert "saved" in reply.all_text and "nothing was changed" not in reply.all_text
    assert db_version(database) == 2 and fault.hits >= 1
    assert 2 not in pinged_boards(fake, channel)

    fake.world.faults.clear()
    second = await wait_turn_board(fake, channel, 2)
    assert second.mentions and second.mentions[0] != first.id
    await outbox_empty(database)
    assert len(pinged_boards(fake, channel)[2]) == 1


async def test_oversized_input_gets_a_short_refusal(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """/play with 5,000 characters: a short refusal echoing a short excerpt, nothing changed."""
    guild, channel, alice, bob, _carol, _admin = world(fake)
    database = tmp_path / "hangar.sqlite3"
    bot = bots(bot_env(fake, guild, database))
    await bot.start()
    await fake.wait_ready(60)
    await start_takeoff(fake, channel, alice, bob)
    for typed in ("play:" + "B" * 4995, "play:" + "B" * 90):
        reply = await (await fake.slash(alice, channel, "play", action=typed)).response()
        assert not reply.failed and reply.ephemeral
        assert "play:BBB" in reply.all_text and len(reply.all_text) < 300, reply.all_text
    assert db_version(database) == 1

    other = fake.add_channel(guild, "fif")
    for card_data in ("x" * 4000, "takeoff.json"):
        opened = await fake.slash(alice, other, "game new first-in-flight", card_data=card_data)
        refusal = await opened.response()
        if "Lobby opened" in refusal.all_text:  # options checked only at the start
            assert all(len(m.content) <= 2000 for m in fake.messages(other))
            refusal = await (await fake.slash(alice, other, "game start")).response()
            await (await fake.slash(alice, other, "game abandon")).response()
        assert "Invalid options" in refusal.all_text and len(refusal.all_text) <= 600


async def test_an_unknown_control_is_answered(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """Old or forged components get "This control is no longer active." (not a failure)."""
    guild, channel, alice, bob, _carol, _admin = world(fake)
    bot = bots(bot_env(fake, guild, tmp_path / "hangar.sqlite3"))
    await bot.start()
    await fake.wait_ready(60)
    await start_takeoff(fake, channel, alice, bob)
    board = await wait_turn_board(fake, channel, 1)
    forged = ["old:v1:end", "hg:x:1", "hg:b:1:notanumber:end"]
    board.components.append(
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 2, "label": "?", "custom_id": cid} for cid in forged
            ],
        }
    )
    for custom_id in forged:
        reply = await (await fake.click(alice, board, custom_id)).response()
        assert not reply.failed and reply.ephemeral
        assert reply.all_text == "This control is no longer active."


async def test_an_invalid_token_stops_the_bot_with_one_line(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """The fake Discord answers 401 to a wrong token: exit non-zero, one line, no traceback."""
    guild = fake.add_guild("Reliability")
    env = bot_env(fake, guild, tmp_path / "hangar.sqlite3") | {"DISCORD_TOKEN": "wrong.token"}
    bot = bots(env)
    await bot.start()
    assert bot.proc is not None
    code = await asyncio.wait_for(bot.proc.wait(), 60)
    output = bot.log_path.read_text()
    assert code != 0 and "Traceback" not in output
    lines = [line for line in output.splitlines() if line.startswith("Hangar cannot start:")]
    assert len(lines) == 1 and "token" in lines[0], output[-2000:]
    assert "wrong.token" not in output


async def test_a_strangers_status_spam_posts_nothing_and_delays_no_turn(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """40 /game status from a non-player: private boards only; the turn board still comes,
    right after the move; a player's public re-post is limited to one a minute."""
    guild, channel, alice, bob, carol, _admin = world(fake)
    bot = bots(bot_env(fake, guild, tmp_path / "hangar.sqlite3"))
    await bot.start()
    await fake.wait_ready(60)
    await start_takeoff(fake, channel, alice, bob)
    table = Table(fake, channel, [alice, bob], stranger=carol)
    first = active_player(table, await wait_turn_board(fake, channel, 1))
    public_before = len(fake.messages(channel))

    spam = [await fake.slash(carol, channel, "game status") for _ in range(40)]
    move = await fake.slash(first, channel, "play", action="v1:end")
    replies = [await handle.response(timeout=60, settle=0) for handle in spam]
    assert "✅" in (await move.response(timeout=60)).all_text
    turn = await wait_turn_board(fake, channel, 2)
    assert all(not r.failed and r.ephemeral and r.message for r in replies)
    assert all(a.filename == "board.png" for r in replies for a in r.attachments)
    assert len(fake.messages(channel)) == public_before + 1, "only the turn's board is public"
    assert boards(table)[-1].id == turn.id

    for _ in range(3):
        await (await fake.slash(alice, channel, "game status")).response()
    assert len(fake.messages(channel)) == public_before + 2, "one re-post a minute per channel"
