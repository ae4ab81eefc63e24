"""/admin replace mid-game (issue 28): the board follows at once and history credits both."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from .botproc import BotProcess
from .driver import Table, active_player, boards, description, open_table, play, start_bot, step
from .fakediscord import FakeDiscord
from .fakediscord.state import Message, User
from .test_flight_e2e import MAX_STEPS, route_builder

FLIGHT_ONE_HAND = {"match": "hands", "hands": 1}

pytestmark = pytest.mark.long  # each test plays a one-hand Flight game through the bot


async def _flight_with_bob(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path, server: str
) -> tuple[Table, User, User]:
    """alice and bob at a one-hand Flight game, dealt; also an admin and dave, who waits."""
    guild = fake.add_guild(server)
    channel = fake.add_channel(guild, "flight")
    alice, bob, dave = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("dave")
    admin = fake.add_user("root", admin=True)
    await start_bot(fake, bots, guild, tmp_path / "hangar.sqlite3")
    table = await open_table(fake, channel, [alice, bob], "flight", **FLIGHT_ONE_HAND)
    return table, admin, dave


async def _until_turn_after_bob(table: Table, rng: random.Random, bob: User, turn: User) -> None:
    """Play on until it is `turn`'s turn after a move of bob's."""
    bob_moved = False
    for _ in range(200):
        mover = active_player(table, boards(table)[-1])
        if mover is turn and bob_moved:
            break
        assert await step(table, rng, route_builder)
        bob_moved = bob_moved or mover is bob
    assert bob_moved and active_player(table, boards(table)[-1]) is turn


async def test_replace_reposts_the_board_pings_the_new_player_and_credits_both(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """bob plays, then an admin hands his seat to dave on bob's turn: a fresh board names dave
    and pings him without /admin resume; dave finishes; /game history shows "dave (replaced
    bob)" and both players' /stats count the game."""
    table, admin, dave = await _flight_with_bob(fake, bots, tmp_path, "Replacements")
    channel, (alice, bob) = table.channel, table.players

    rng = random.Random(5)
    await _until_turn_after_bob(table, rng, bob, bob)

    mark = fake.mark()
    reply = await (
        await fake.slash(admin, channel, "admin replace", old=str(bob.id), new=str(dave.id))
    ).response()
    assert not reply.failed and "Seat replaced" in reply.all_text
    fresh = await fake.wait_for_message(
        channel, lambda m: any(a.filename == "board.png" for a in m.attachments), after=mark
    )
    table.players = [alice, dave]
    assert active_player(table, fresh) is dave, description(fresh)
    assert fresh.mentions == [dave.id], "dave is pinged at once: his turn"
    assert "bob's deadline" not in description(fresh)

    assert await play(table, rng, max_steps=MAX_STEPS, policy=route_builder)
    history = await (await fake.slash(alice, channel, "game history")).response()
    assert "dave (replaced bob)" in history.all_text, history.all_text
    asked = await fake.slash(bob, channel, "game history", options={"user": bob.id})
    mine = await asked.response()
    assert "dave (replaced bob)" in mine.all_text, "bob's history keeps the game he played"
    for user in (bob, dave):
        stats = await (await fake.slash(user, channel, "stats")).response()
        assert "**1** game ·" in stats.all_text, stats.all_text
    bob_stats = await (await fake.slash(bob, channel, "stats")).response()
    assert "Skill estimate" not in bob_stats.all_text, "only the seat's final holder is rated"
    dave_stats = await (await fake.slash(dave, channel, "stats")).response()
    assert "Skill estimate" in dave_stats.all_text


async def _humans_turn(table: Table, timeout: float = 30.0) -> None:
    """Wait until the newest board names a person to play (the AI's turns pass by themselves)."""
    import asyncio

    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        board = boards(table)[-1]
        text = description(board)
        if "Game over" in text or ("🤖" not in text.split("to play")[0].split("\n")[-1]):
            return
        assert loop.time() < deadline, f"the AI did not play: {text!r}"
        await asyncio.sleep(0.05)


async def test_seat_hand_offs_to_an_ai_and_back_repost_the_board_and_credit_the_leaver(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """bob plays, then /admin ai hands his seat to an AI on alice's turn: a fresh board names
    the AI at once. /admin human then gives the seat to dave: a fresh board names dave. dave
    finishes; /game history shows "dave (replaced bob)", bob's /stats count the game, and the
    export of every finished game says "1 finished game"."""
    table, admin, dave = await _flight_with_bob(fake, bots, tmp_path, "Hand-offs")
    channel, (alice, bob) = table.channel, table.players

    rng = random.Random(5)
    await _until_turn_after_bob(table, rng, bob, alice)

    mark = fake.mark()
    reply = await (
        await fake.slash(admin, channel, "admin ai", player=bob.id, level="normal")
    ).response()
    assert not reply.failed and "Seat handed to 🤖 Normal AI" in reply.all_text, reply.all_text
    fresh = await fake.wait_for_message(channel, is_board, after=mark)
    assert scores_of(fresh) == "alice 0, 🤖 Normal AI 0", alt_of(fresh)
    assert active_player(table, fresh) is alice

    for _ in range(200):  # alice plays; the AI answers, until it is alice's turn again
        assert await step(table, rng, route_builder)
        await _humans_turn(table)
        if active_player(table, boards(table)[-1]) is alice:
            break
    mark = fake.mark()
    reply = await (
        await fake.slash(admin, channel, "admin human", seat=2, player=dave.id)
    ).response()
    assert not reply.failed and "Seat handed to a player" in reply.all_text, reply.all_text
    fresh = await fake.wait_for_message(channel, is_board, after=mark)
    assert scores_of(fresh).startswith("alice ") and ", dave " in scores_of(fresh), alt_of(fresh)

    table.players = [alice, dave]
    assert await play(table, rng, max_steps=MAX_STEPS, policy=route_builder)
    history = await (await fake.slash(alice, channel, "game history")).response()
    assert "dave (replaced bob)" in history.all_text, history.all_text
    stats = await (await fake.slash(bob, channel, "stats")).response()
    assert "**1** game ·" in stats.all_text, stats.all_text
    every = await (await fake.slash(admin, channel, "admin export", all=True)).response()
    assert "1 finished game:" in every.all_text, every.all_text


def is_board(message: Message) -> bool:
    """A public board message."""
    return any(a.filename == "board.png" for a in message.attachments)


def alt_of(board: Message) -> str:
    """The board picture's alt text."""
    return next(a.description or "" for a in board.attachments if a.filename == "board.png")


def scores_of(board: Message) -> str:
    """Who sits where, as the board's alt text lists the scores ('alice 0, bob 0')."""
    return alt_of(board).split("Scores: ")[1].split(".")[0]
