"""After the game, through the fake Discord: the last game stays visible, history pages, stats,
leaderboard, the end chart, an animated replay and the admin export/delete of finished games."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Callable
from pathlib import Path

from PIL import Image, ImageChops, ImageStat

import rules
from bot.render.replay import UPLOAD_LIMIT, board, downscale
from bot.services import GameService
from bot.store import open_store

from .botproc import BotProcess, bot_env
from .driver import Table, boards, is_over, play
from .fakediscord import FakeDiscord
from .fakediscord.state import Channel, Guild, Message, User
from .test_flight_e2e import MAX_STEPS, route_builder

SEEDED = 5  # games finished before the bot starts: six in all, two history pages of five
FLIGHT_ONE_HAND = {"match": "hands", "hands": 1}
# A history line's game number and length: "**#6 Flight** · <t:…:d> · 42 moves, 3 min"
HISTORY_MOVES = re.compile(r"\*\*#(\d+) Flight\*\* · <t:\d+:d> · (\d+) moves?\b")


async def _seed_finished_games(path: Path, guild: Guild, alice: User, bob: User) -> None:
    """Finish a few one-hand Flight games in the database the bot will open (other channels)."""
    store = await open_store(path)
    service = GameService(store)
    rng = random.Random(3)
    try:
        for n in range(SEEDED):
            channel = 900_000 + n
            await service.lobby.open(
                guild.id, channel, "flight", FLIGHT_ONE_HAND, alice.id, "alice"
            )
            await service.lobby.join(channel, bob.id, "bob")
            loaded = (await service.lobby.start(channel, alice.id, is_admin=False)).loaded
            while loaded.outcome is None:
                seat = loaded.active_seats[0]
                action = rng.choice(loaded.game.legal_actions(loaded.state, seat))
                user = loaded.user_of(seat)
                assert user is not None
                loaded = (await service.act(channel, user, action.key, None)).loaded
    finally:
        await store.close()


async def _finish_game_through_discord(fake: FakeDiscord, table: Table) -> None:
    """alice opens a one-hand Flight match, bob joins, they play it to the end by clicks."""
    alice, bob = table.players
    new = await fake.slash(alice, table.channel, "game new flight", **FLIGHT_ONE_HAND)
    await new.response()
    await (await fake.slash(bob, table.channel, "game join")).response()
    mark = fake.mark()
    await (await fake.slash(alice, table.channel, "game start")).response()
    await fake.wait_for_message(table.channel, lambda m: bool(m.attachments), after=mark)
    assert await play(table, random.Random(5), max_steps=MAX_STEPS, policy=route_builder)


def _image(data: bytes) -> Image.Image:
    """Decoded RGB image."""
    return Image.open(io.BytesIO(data)).convert("RGB")


def _difference(frame: Image.Image, board: Image.Image) -> float:
    """Mean absolute pixel difference (0 = identical) of a board and the frame area it fills."""
    area = frame.crop((0, 0, *board.size))
    return float(sum(ImageStat.Stat(ImageChops.difference(area, board)).mean) / 3)


def _webp_frames(data: bytes) -> list[Image.Image]:
    """Every frame of an animated image."""
    animation = Image.open(io.BytesIO(data))
    frames = []
    for index in range(animation.n_frames):
        animation.seek(index)
        frames.append(animation.convert("RGB"))
    return frames


def _first_board(export: dict[str, object]) -> Image.Image:
    """The board at the deal, drawn from the exported seed and options, downscaled."""
    game = rules.get_game("flight")
    seats = export["seats"]
    assert isinstance(seats, list)
    state = game.new_game(int(str(export["seed"])), len(seats), export["options"])
    names = [str(seat["name"]) for seat in seats]
    return downscale(board("flight", game.view(state, None), names))


def _attachment(messages: list[Message], suffix: str) -> bytes:
    """The bytes of the first attachment whose name ends with `suffix`."""
    for message in messages:
        for attachment in message.attachments:
            if attachment.filename.endswith(suffix):
                return attachment.data
    raise AssertionError(f"no {suffix} attachment")


async def _check_last_game_stays(fake: FakeDiscord, table: Table, admin: User) -> None:
    """/game status, /game log and /admin verify still reach the game that just ended."""
    alice = table.players[0]
    mark = fake.mark()
    status = await (await fake.slash(alice, table.channel, "game status")).response()
    assert not status.failed and "no game" not in status.all_text.lower()
    again = await fake.wait_for_message(table.channel, lambda m: bool(m.attachments), after=mark)
    assert is_over(again), "the final board and result are shown again"
    log = await (await fake.slash(alice, table.channel, "game log")).response()
    assert "Safe Landing" in log.all_text
    verify = await (await fake.slash(admin, table.channel, "admin verify")).response()
    assert "✅" in verify.all_text


async def _check_history_pages(fake: FakeDiscord, table: Table) -> None:
    """Newest first; the Older button shows the first seeded game."""
    alice = table.players[0]
    reply = await (await fake.slash(alice, table.channel, "game history")).response()
    text = reply.all_text
    assert text.index("#6 Flight") < text.index("#5 Flight"), "newest first"
    assert "final board" in text and "alice" in text and "bob" in text
    message = reply.message
    assert message is not None
    assert "Page 1 of 2" in str(message.embeds[0].get("footer"))
    older = next(c for c in reply.custom_ids if c.endswith(":n"))
    edits = message.edits
    await (await fake.click(alice, message, older)).response()
    page_two = fake.message(message.id)
    assert page_two.edits > edits
    assert "#1 Flight" in str(page_two.embeds[0].get("description"))


async def _check_move_counts(fake: FakeDiscord, table: Table, admin: User) -> None:
    """Each game on the first history page shows as many moves as its export holds and
    /admin verify replays (not its version, which also counts the start)."""
    reply = await (await fake.slash(table.players[0], table.channel, "game history")).response()
    shown = {int(pk): int(moves) for pk, moves in HISTORY_MOVES.findall(reply.all_text)}
    assert sorted(shown) == [2, 3, 4, 5, 6], reply.all_text
    for pk, moves in shown.items():
        export = await (
            await fake.slash(admin, table.channel, "admin export", game_id=pk)
        ).response()
        actions = json.loads(_attachment(export.messages, ".json"))["actions"]
        verify = await (
            await fake.slash(admin, table.channel, "admin verify", game_id=pk)
        ).response()
        assert moves == len(actions) > 0, f"game #{pk}: history says {moves} moves"
        assert f"✅ {moves} moves replay to the snapshot" in verify.all_text, verify.all_text


async def _check_stats_and_leaderboard(fake: FakeDiscord, table: Table) -> None:
    """alice's stats count all six games with a rating chart; both are on the leaderboard."""
    alice, bob = table.players
    stats = await (
        await fake.slash(bob, table.channel, "stats", options={"user": alice.id})
    ).response()
    assert "**6** games" in stats.all_text
    chart = _image(_attachment(stats.messages, "skill-estimate.png"))
    assert chart.width > 100
    board_reply = await (
        await fake.slash(alice, table.channel, "leaderboard", game="flight")
    ).response()
    assert "alice" in board_reply.all_text and "bob" in board_reply.all_text
    assert "6 games" in board_reply.all_text


async def _check_replay(fake: FakeDiscord, table: Table, admin: User) -> None:
    """The animation is under 10 MiB; its first frame is the deal, its last the final board."""
    export_reply = await (await fake.slash(admin, table.channel, "admin export")).response()
    export = json.loads(_attachment(export_reply.messages, ".json"))
    final_board = _image(_attachment([boards(table)[-1]], "board.png"))
    mark = fake.mark()
    reply = await (await fake.slash(table.players[1], table.channel, "game replay")).response(
        timeout=120
    )
    assert not reply.failed
    posted = await fake.wait_for_message(
        table.channel,
        lambda m: any(a.filename.endswith(".webp") for a in m.attachments),
        after=mark,
    )
    data = _attachment([posted], ".webp")
    assert len(data) < UPLOAD_LIMIT
    frames = _webp_frames(data)
    assert len(frames) > 2
    first, last = frames[0], frames[-1]
    deal, end = _first_board(export), downscale(final_board)
    # lossy WebP: a frame is within a few levels of its board, and far from the other board
    assert _difference(first, deal) < 5 and _difference(first, deal) * 4 < _difference(first, end)
    assert _difference(last, end) < 5 and _difference(last, end) * 4 < _difference(last, deal)
    still = await (await fake.slash(admin, table.channel, "game replay", turn=0)).response()
    assert not still.failed


async def _check_admin_export_and_delete(
    fake: FakeDiscord, table: Table, admin: User, elsewhere: Channel
) -> None:
    """Export of any game by number and of all games; delete (confirmed) leaves the stats."""
    alice = table.players[0]
    one = await (await fake.slash(admin, elsewhere, "admin export", game_id=2)).response()
    assert json.loads(_attachment(one.messages, ".json"))["game"]["pk"] == 2
    every = await (await fake.slash(admin, elsewhere, "admin export", all=True)).response()
    lines = _attachment(every.messages, ".jsonl").decode().splitlines()
    assert sorted(json.loads(line)["game"]["pk"] for line in lines) == [1, 2, 3, 4, 5, 6]
    asked = await (await fake.slash(admin, elsewhere, "admin delete", game_id=1)).response()
    confirm = next(c for c in asked.custom_ids if c.startswith("hg:del:"))
    assert asked.message is not None
    await (await fake.click(admin, asked.message, confirm)).response()
    assert "deleted" in fake.message(asked.message.id).content
    stats = await (await fake.slash(alice, elsewhere, "stats")).response()
    assert "**5** games" in stats.all_text


async def test_a_finished_game_lives_on(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """Six finished Flight games (one played through Discord) and everything players see after."""
    guild = fake.add_guild("History")
    channel = fake.add_channel(guild, "flight")
    elsewhere = fake.add_channel(guild, "lounge")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    admin = fake.add_user("root", admin=True)
    table = Table(fake, channel, [alice, bob], stranger=fake.add_user("carol"))
    database = tmp_path / "hangar.sqlite3"
    await _seed_finished_games(database, guild, alice, bob)
    bot = bots(bot_env(fake, guild, database))
    await bot.start()
    await fake.wait_ready(60)

    await _finish_game_through_discord(fake, table)
    assert any(a.filename == "chart.png" for m in fake.messages(channel) for a in m.attachments), (
        "the end-of-game chart (score per hand) is posted with the final board"
    )
    await _check_last_game_stays(fake, table, admin)
    await _check_history_pages(fake, table)
    await _check_move_counts(fake, table, admin)
    await _check_stats_and_leaderboard(fake, table)
    await _check_replay(fake, table, admin)
    await _check_admin_export_and_delete(fake, table, admin, elsewhere)
