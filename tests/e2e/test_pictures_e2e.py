"""Pictures through the real bot: alt text on every image, private images re-sent only when
they changed, and never for a refused click."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from pathlib import Path

from PIL import Image

from .botproc import BotProcess, bot_env
from .driver import (
    PNG_MAGIC,
    Table,
    active_player,
    boards,
    is_over,
    step,
)
from .fakediscord import FakeDiscord
from .fakediscord.state import Message

STEPS = 30


async def _start(fake: FakeDiscord, table: Table, game: str = "takeoff") -> None:
    """Alice opens a lobby, Bob joins, Alice starts."""
    alice, bob = table.players
    mark = fake.mark()
    await (await fake.slash(alice, table.channel, f"game new {game}")).response()
    lobby = await fake.wait_for_message(table.channel, lambda m: "lobby" in m.content, after=mark)
    ids = [c["custom_id"] for c in lobby.iter_components()]
    await (await fake.click(bob, lobby, next(c for c in ids if c.endswith(":join")))).response()
    mark = fake.mark()
    await (await fake.click(alice, lobby, next(c for c in ids if c.endswith(":start")))).response()
    await fake.wait_for_message(table.channel, lambda m: bool(m.attachments), after=mark)


def _every_image(fake: FakeDiscord, table: Table) -> list[tuple[Message, int]]:
    """(message, attachment index) of every image a player can see, public or their own."""
    seen: dict[int, Message] = {}
    for user in table.players:
        for message in fake.visible_messages(user, table.channel):
            seen[message.id] = message
    return [(m, i) for m in seen.values() for i, a in enumerate(m.attachments) if a.data]


def _panel_images(fake: FakeDiscord, table: Table) -> dict[int, tuple[int, bytes]]:
    """Each open private panel's picture: attachment id and bytes."""
    return {
        pid: (fake.message(pid).attachments[0].id, fake.message(pid).attachments[0].data)
        for pid in table.panels.values()
        if fake.message(pid).attachments
    }


async def test_every_image_has_alt_text_and_private_images_are_sent_only_when_changed(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """A Takeoff! game: each board and private picture carries a description naming whose turn
    it is and the scores; a panel gets a new upload only with a different picture; a refused
    (out-of-date) click changes no picture."""
    guild = fake.add_guild("Hangar pictures")
    channel = fake.add_channel(guild, "pictures")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    table = Table(fake, channel, [alice, bob], stranger=fake.add_user("carol"))
    bot = bots(bot_env(fake, guild, tmp_path / "hangar.sqlite3"))
    await bot.start()
    await fake.wait_ready(60)
    await _start(fake, table)

    rng = random.Random(15)
    uploads = 0
    for _ in range(STEPS):
        before = _panel_images(fake, table)
        if not await step(table, rng):
            break
        for pid, (att_id, data) in _panel_images(fake, table).items():
            if pid not in before:
                continue
            old_id, old_data = before[pid]
            if att_id != old_id:
                uploads += 1
                assert data != old_data, "an unchanged private picture was uploaded again"
    assert uploads > 0, "moves from the hand panel re-send the changed private picture"

    await _refused_click_changes_no_picture(fake, table)

    board = boards(table)[-1]
    images = _every_image(fake, table)
    assert any(a.filename == "hand.png" for m, _ in images for a in m.attachments)
    for message, index in images:
        attachment = message.attachments[index]
        assert attachment.data.startswith(PNG_MAGIC)
        text = attachment.description or ""
        assert 40 <= len(text) <= 1024, f"{attachment.filename}: alt text {text!r}"
        assert "Scores:" in text and "alice" in text and "bob" in text
    latest = board.attachments[0].description or ""
    if not is_over(board):
        assert f"{active_player(table, board).name} to move" in latest
    width = Image.open(io.BytesIO(board.attachments[0].data)).width
    assert width <= 640, "the board is drawn for a phone"


async def _refused_click_changes_no_picture(fake: FakeDiscord, table: Table) -> None:
    """An illegal /play by the player to move is refused: no picture is drawn or re-sent."""
    board = boards(table)[-1]
    if is_over(board):
        return
    user = active_player(table, board)
    before = _panel_images(fake, table)
    edits = board.edits
    reply = await (await fake.slash(user, table.channel, "play", action="xyzzy")).response()
    assert reply.ephemeral and not reply.failed
    assert not any(m.attachments for m in [reply.message, *reply.followups] if m is not None)
    assert _panel_images(fake, table) == before
    # No new board and no edit of the latest (the one before it may still be shrinking to its
    # one-line story, which the tidy does after posting: issue 28.7).
    assert boards(table)[-1].id == board.id and fake.message(board.id).edits == edits


async def test_whole_table_is_one_tap_away_for_anyone(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """First in Flight's turn picture fits a phone; "Whole table" shows every mat to anyone,
    ephemerally, with alt text, and posts nothing in the channel."""
    guild = fake.add_guild("Hangar table")
    channel = fake.add_channel(guild, "fif")
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    table = Table(fake, channel, [alice, bob], stranger=carol)
    bot = bots(bot_env(fake, guild, tmp_path / "hangar.sqlite3"))
    await bot.start()
    await fake.wait_ready(60)
    await _start(fake, table, "first-in-flight")
    board = boards(table)[-1]
    turn = Image.open(io.BytesIO(board.attachments[0].data))
    assert turn.width <= 640 and turn.height <= 1.8 * turn.width
    assert board.attachments[0].description
    button = next(c for c in board.iter_components() if c["custom_id"].startswith("hg:t:"))
    assert button["label"] == "Whole table"
    count = len(fake.messages(channel))
    for user in (carol, bob):
        reply = await (await fake.click(user, board, button["custom_id"])).response()
        assert not reply.failed
        shown = [m for m in reply.messages if m.attachments]
        assert shown and shown[-1].ephemeral and shown[-1].visible_to == user.id
        pages = shown[-1].attachments  # the whole table in phone-sized pages
        assert 2 <= len(pages) <= 10
        for picture in pages:
            assert picture.data.startswith(PNG_MAGIC)
            alt = picture.description or ""
            assert "alice" in alt and "Records:" in alt
            page = Image.open(io.BytesIO(picture.data))
            assert page.width == turn.width and page.height <= 1.8 * page.width
    assert len(fake.messages(channel)) == count, "the table is shown privately"
