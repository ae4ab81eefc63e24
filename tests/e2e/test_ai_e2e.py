"""AI seats through the fake Discord: a human against AIs, admin hand-overs, a restart."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from pathlib import Path

from .botproc import BotProcess, bot_env
from .driver import (
    TO_PLAY,
    Choice,
    Table,
    boards,
    description,
    is_over,
    key_of,
    random_policy,
    step,
)
from .fakediscord import FakeDiscord
from .fakediscord.state import Message, User

MAX_HUMAN_STEPS = 600


def quick_policy(choices: list[Choice], rng: random.Random) -> Choice:
    """End the turn whenever possible (keeps a human-vs-AI game short), else a random move."""
    ending = [c for c in choices if key_of(c) == "end"]
    return ending[0] if ending else random_policy(choices, rng)


async def settled_board(table: Table, timeout: float = 120) -> Message:
    """The latest board once it names a human to play (or the game is over)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    humans = {u.name for u in table.players}
    while True:
        found = boards(table)
        if found:
            board = found[-1]
            match = TO_PLAY.search(description(board))
            if is_over(board) or (match and match["who"].split(",")[0] in humans):
                return board
        assert loop.time() < deadline, "the AI never handed the turn back"
        await asyncio.sleep(0.05)


async def play_against_ai(table: Table, rng: random.Random, max_steps: int) -> Message:
    """The human plays whenever the AIs hand the turn back; returns the final board."""
    for _ in range(max_steps):
        board = await settled_board(table)
        if is_over(board):
            return board
        await step(table, rng, quick_policy)
    raise AssertionError("the game did not finish")


async def open_with_ai(fake: FakeDiscord, table: Table, command: str, **options: object) -> Message:
    """The human opens a lobby with AI seats and starts it; returns the lobby message."""
    human = table.players[0]
    mark = fake.mark()
    await (await fake.slash(human, table.channel, command, **options)).response()
    lobby = await fake.wait_for_message(table.channel, lambda m: "lobby" in m.content, after=mark)
    mark = fake.mark()
    start = next(
        c["custom_id"] for c in lobby.iter_components() if c["custom_id"].endswith(":start")
    )
    await (await fake.click(human, lobby, start)).response()
    await fake.wait_for_message(table.channel, lambda m: bool(m.attachments), after=mark)
    return lobby


def check_pings(table: Table, human: User) -> None:
    """Boards ping the human only (never an AI seat), and only on the human's turn (a past
    board, shrunk to its turn in one line, tells the human's moves: issue 28.7)."""
    for board in table.fake.messages(table.channel):
        assert set(board.mentions) <= {human.id}
        if not board.mentions or (board.embeds and is_over(board)):
            continue
        match = TO_PLAY.search(description(board))
        # A shrunk board's line tells that turn's events, which may open with the table's own
        # ("The pack ran out…") before the human's moves: it must name the human.
        turn = match["who"] if match else (human.name if human.name in board.content else "")
        assert turn == human.name, f"pinged while an AI was to play: {board.content!r}"


async def _setup(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path, name: str, **env: str
) -> tuple[Table, BotProcess]:
    """A guild, a channel, alice (and bob) and a running bot."""
    guild = fake.add_guild("AI test")
    channel = fake.add_channel(guild, name)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    table = Table(fake, channel, [alice, bob], stranger=fake.add_user("carol"))
    bot = bots({**bot_env(fake, guild, tmp_path / "hangar.sqlite3"), **env})
    await bot.start()
    await fake.wait_ready(60)
    table.fake_guild = guild  # type: ignore[attr-defined]
    return table, bot


async def test_human_against_an_ai_plays_takeoff_to_the_end(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """/game new takeoff ai_seats:1 → the lobby shows the AI; the game runs to its end."""
    table, _ = await _setup(fake, bots, tmp_path, "takeoff")
    alice = table.players[0]
    table.players = [alice]
    lobby = await open_with_ai(fake, table, "game new takeoff", ai_seats=1, ai_level="easy")
    assert "🤖 Easy AI" in lobby.content
    final = await play_against_ai(table, random.Random(1), MAX_HUMAN_STEPS)
    assert "Game over" in description(final)
    assert "🤖 Easy AI" in description(final)
    assert final.mentions == [alice.id], "the final board pings the human, not the AI"
    check_pings(table, alice)


async def test_human_against_two_ais_plays_flight_to_the_end(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """Add AI button twice (one normal via the button, one easy via /game ai add), then play."""
    table, _ = await _setup(fake, bots, tmp_path, "flight")
    alice = table.players[0]
    table.players = [alice]
    mark = fake.mark()
    reply = await (
        await fake.slash(alice, table.channel, "game new flight", match="hands", hands=1)
    ).response()
    assert not reply.failed
    lobby = await fake.wait_for_message(table.channel, lambda m: "lobby" in m.content, after=mark)
    add = next(c["custom_id"] for c in lobby.iter_components() if c["custom_id"].endswith(":ai"))
    await (await fake.click(alice, lobby, add)).response()
    assert "🤖 Normal AI" in fake.message(lobby.id).content
    stranger = await (await fake.click(table.stranger, lobby, add)).response()
    assert "opened the lobby or an admin" in stranger.all_text
    mark = fake.mark()
    added = await (await fake.slash(alice, table.channel, "game ai add", level="easy")).response()
    assert "Easy AI added" in added.all_text
    lobby = await fake.wait_for_message(table.channel, lambda m: "Easy AI" in m.content, after=mark)
    assert "🤖 Normal AI" in lobby.content
    # A third AI is seated and taken out again; a stranger may not take one out.
    await (await fake.slash(alice, table.channel, "game ai add", level="hard")).response()
    refused = await (await fake.slash(table.stranger, table.channel, "game ai remove")).response()
    assert "opened the lobby or an admin" in refused.all_text
    mark = fake.mark()
    removed = await (await fake.slash(alice, table.channel, "game ai remove", seat=4)).response()
    assert "Hard AI removed" in removed.all_text
    lobby = await fake.wait_for_message(
        table.channel, lambda m: "left the lobby" in m.content, after=mark
    )
    assert "Hard AI" not in lobby.content.split("left the lobby", 1)[1]
    not_ai = await (await fake.slash(alice, table.channel, "game ai remove", seat=1)).response()
    assert "Seat 1 is not played by an AI" in not_ai.all_text
    mark = fake.mark()
    await (await fake.slash(alice, table.channel, "game start")).response()
    await fake.wait_for_message(table.channel, lambda m: bool(m.attachments), after=mark)
    final = await play_against_ai(table, random.Random(2), MAX_HUMAN_STEPS)
    assert "Game over" in description(final)
    check_pings(table, alice)


async def test_first_in_flight_with_one_ai_pilot(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """A human and an AI pilot (beside Gustave) play First in Flight to the end."""
    table, _ = await _setup(fake, bots, tmp_path, "fif")
    alice = table.players[0]
    table.players = [alice]
    lobby = await open_with_ai(fake, table, "game new first-in-flight", ai_seats=1, ai_level="easy")
    assert "🤖 Easy AI" in lobby.content
    final = await play_against_ai(table, random.Random(3), MAX_HUMAN_STEPS)
    assert "Game over" in description(final)
    check_pings(table, alice)


async def _admin(fake: FakeDiscord, admin: User, table: Table, command: str, **opts: object) -> str:
    """An admin command's private answer."""
    reply = await (await fake.slash(admin, table.channel, f"admin {command}", **opts)).response()
    assert not reply.failed and reply.ephemeral
    return reply.all_text


async def _takeoff_under_way(
    fake: FakeDiscord,
    bots: Callable[..., BotProcess],
    tmp_path: Path,
    name: str,
    *,
    seed: int,
    steps: int,
) -> tuple[Table, User, random.Random]:
    """alice and bob a few steps into a Takeoff! game, and an admin standing by."""
    table, _ = await _setup(fake, bots, tmp_path, name)
    alice, bob = table.players
    admin = fake.add_user("root", admin=True)
    await (await fake.slash(alice, table.channel, "game new takeoff")).response()
    await (await fake.slash(bob, table.channel, "game join")).response()
    mark = fake.mark()
    await (await fake.slash(alice, table.channel, "game start")).response()
    await fake.wait_for_message(table.channel, lambda m: bool(m.attachments), after=mark)
    rng = random.Random(seed)
    for _ in range(steps):
        await step(table, rng, quick_policy)
    return table, admin, rng


async def test_admin_hands_a_seat_to_an_ai_and_back(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """bob's seat goes to an AI mid-game (it plays his turns), then back to bob."""
    table, admin, rng = await _takeoff_under_way(fake, bots, tmp_path, "admin", seed=4, steps=4)
    alice, bob = table.players

    mark = fake.mark()
    text = await _admin(fake, admin, table, "ai", player=bob.id, level="easy")
    assert "Easy AI" in text
    await fake.wait_for_message(table.channel, lambda m: "takes over bob" in m.content, after=mark)
    table.players = [alice]
    for _ in range(6):  # alice plays; the AI answers in bob's seat
        board = await settled_board(table)
        await step(table, rng, quick_policy)
    board = await settled_board(table)
    assert "🤖 Easy AI" in description(board)
    assert "✅" in await _admin(fake, admin, table, "verify")
    export = await (await fake.slash(admin, table.channel, "admin export")).response()
    data = json.loads(export.attachments[0].data)
    ai_moves = [a for a in data["actions"] if a["seat"] == 1 and a["user_id"] is None]
    assert ai_moves, "the AI's moves are in the log like any other"

    seat = 2  # bob sat second
    mark = fake.mark()
    assert "handed to a player" in await _admin(
        fake, admin, table, "human", seat=seat, player=bob.id
    )
    await fake.wait_for_message(
        table.channel, lambda m: "takes over seat 2" in m.content, after=mark
    )
    mark = fake.mark()
    await (await fake.slash(alice, table.channel, "game status")).response()
    status = await fake.wait_for_message(table.channel, lambda m: bool(m.attachments), after=mark)
    # The seat is bob's again (scores in the picture's alt text name him); the log keeps who
    # actually played each earlier move, so the AI's past lines still say "Easy AI".
    alt = status.attachments[0].description or ""
    scores = alt.split("Scores:", 1)[1].split(". ", 1)[0]
    assert "bob" in scores and "Easy AI" not in scores
    assert "🤖" not in description(status).rsplit("\n\n", 2)[-2]  # "**alice** to play."


async def test_admin_replace_hands_a_seat_to_an_ai_and_back(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """`/admin replace old:@bob new:ai level:hard` mid-game, then `old:<the AI> new:@bob`; what
    names no seat or no member is refused with the reason and changes nothing."""
    table, admin, rng = await _takeoff_under_way(fake, bots, tmp_path, "replace", seed=9, steps=2)
    alice, bob = table.players

    refused = await _admin(fake, admin, table, "replace", old="ghost", new="ai")
    assert "“ghost” is not a player in this game" in refused
    refused = await _admin(fake, admin, table, "replace", old=bob.mention, new="somebody")
    assert "does not name a member" in refused and "ai" in refused

    mark = fake.mark()
    text = await _admin(fake, admin, table, "replace", old=bob.mention, new="ai", level="hard")
    assert "Hard AI" in text
    await fake.wait_for_message(table.channel, lambda m: "takes over bob" in m.content, after=mark)
    table.players = [alice]
    for _ in range(4):  # alice plays; the hard AI answers in bob's seat
        await settled_board(table)
        await step(table, rng, quick_policy)
    board = await settled_board(table)
    assert "🤖 Hard AI" in description(board)
    again = await _admin(fake, admin, table, "replace", old="Hard AI", new="ai")
    assert "already an AI player" in again

    mark = fake.mark()
    text = await _admin(fake, admin, table, "replace", old="🤖 Hard AI", new=str(bob.id))
    assert "handed to a player" in text
    back = await fake.wait_for_message(table.channel, lambda m: "seat 2" in m.content, after=mark)
    assert bob.mention in back.content
    table.players = [alice, bob]
    mark = fake.mark()
    await (await fake.slash(alice, table.channel, "game status")).response()
    status = await fake.wait_for_message(table.channel, lambda m: bool(m.attachments), after=mark)
    scores = (status.attachments[0].description or "").split("Scores:", 1)[1].split(". ", 1)[0]
    assert "bob" in scores and "Hard AI" not in scores
    assert "✅" in await _admin(fake, admin, table, "verify")


async def test_restart_while_an_ai_is_about_to_move(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """The bot stops before a pending AI turn; after the restart the AI plays it exactly once."""
    table, bot = await _setup(fake, bots, tmp_path, "restart")
    alice = table.players[0]
    table.players = [alice]
    await open_with_ai(fake, table, "game new takeoff", ai_seats=1, ai_level="easy")
    await settled_board(table)  # the AI may have started: it has played its turn by now
    bot.env["AI_MOVE_DELAY"] = "20"  # from now on the AI waits 20 s before each turn
    await bot.restart()
    await fake.wait_ready(60)
    rng = random.Random(5)
    while "Easy AI** to play" not in description(boards(table)[-1]):
        await step(table, rng, quick_policy)  # alice plays until her turn passes to the AI
    pending = boards(table)[-1]
    await bot.stop()
    bot.env["AI_MOVE_DELAY"] = "0"
    await bot.start()
    await fake.wait_ready(60)
    back = await settled_board(table)
    assert alice.name in description(back)
    await asyncio.sleep(1.0)  # a second (duplicate) AI run would post another board by now
    # One board since the pending one (past boards shrink to a line: issue 28.7).
    posted = [m for m in fake.messages(table.channel) if m.id > pending.id]
    assert len(posted) == 1 and posted == boards(table), "the AI turn was played once"
    admin = fake.add_user("root", admin=True)
    assert "✅" in await _admin(fake, admin, table, "verify")


AI_DELAY = 2.0


async def _play_key(fake: FakeDiscord, table: Table, pick: Callable[[list[str]], str]) -> None:
    """The human plays, with /play, the key `pick` chooses among the keys autocomplete offers."""
    human = table.players[0]
    offered = await fake.autocomplete(human, table.channel, "play", option="action")
    values = [str(choice["value"]) for choice in offered]
    keys = [value.split(":", 1)[1] for value in values]
    value = values[keys.index(pick(keys))]
    reply = await (await fake.slash(human, table.channel, "play", action=value)).response(settle=0)
    assert "✅" in reply.all_text, reply.all_text


async def test_ai_move_delay_counts_from_the_humans_move(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """AI_MOVE_DELAY=2: alice starts her turn with a move that keeps it (the AI's wait begins),
    1.5 s later she ends it; the AI answers no sooner than 2 s after her last move's board."""
    table, _ = await _setup(fake, bots, tmp_path, "delay", AI_MOVE_DELAY=str(AI_DELAY))
    table.players = table.players[:1]
    await open_with_ai(fake, table, "game new takeoff", ai_seats=1, ai_level="easy")
    await settled_board(table)  # alice to play (the AI may have opened the game)
    await _play_key(fake, table, lambda keys: next(k for k in keys if k != "end"))
    await asyncio.sleep(AI_DELAY - 0.5)
    while "Easy AI** to play" not in description(boards(table)[-1]):
        await _play_key(fake, table, lambda keys: next(k for k in ("end", "cancel") if k in keys))
    handed = boards(table)[-1]  # alice's last move, published: the AI's turn starts here
    answer = await settled_board(table, timeout=AI_DELAY + 10)
    assert answer.id != handed.id
    waited = answer.created_at - handed.created_at
    assert waited >= AI_DELAY, f"the AI moved {waited:.2f} s after alice's move"
