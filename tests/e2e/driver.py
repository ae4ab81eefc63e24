"""Drives a whole game through the fake Discord the way players would: boards, My hand, clicks."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.services import GameService
from bot.store import open_store

from .botproc import BotProcess, bot_env
from .fakediscord import FakeDiscord
from .fakediscord.state import Channel, Guild, Message, User

TO_PLAY = re.compile(r"\*\*(?P<who>.+?)\*\* to play")
# The footer's last number is the move ("… · move N", "… · Zug N", pseudo "ɱöṽé N ~~]").
MOVE = re.compile(r"(?P<n>\d+)\D*$")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@dataclass
class Table:
    """A channel with its players (in seat order) and what the driver has seen."""

    fake: FakeDiscord
    channel: Channel
    players: list[User]
    stranger: User  # a member of the server who is not in the game
    panels: dict[int, int] = field(default_factory=dict)  # user id → ephemeral panel message id
    steps: int = 0
    use_board: bool = False  # act with the public board's buttons when it offers any

    def by_name(self, name: str) -> User:
        """The player whose display name is `name`."""
        return next(u for u in self.players if u.name == name)


async def start_bot(
    fake: FakeDiscord, bots: Callable[..., BotProcess], guild: Guild, database: Path
) -> BotProcess:
    """The real bot for `guild`, its data in `database`; returns once it is ready."""
    bot = bots(bot_env(fake, guild, database))
    await bot.start()
    await fake.wait_ready(60)
    return bot


async def open_table(
    fake: FakeDiscord, channel: Channel, players: list[User], game: str, **options: Any
) -> Table:
    """The first player opens `game` with `options`, the others join, the first starts; returns
    once the first board is up."""
    host, *others = players
    # No quiet time after each answer: the next command needs only what it committed.
    await (await fake.slash(host, channel, f"game new {game}", **options)).response(settle=0)
    for user in others:
        await (await fake.slash(user, channel, "game join")).response(settle=0)
    mark = fake.mark()
    await (await fake.slash(host, channel, "game start")).response(settle=0)
    await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
    return Table(fake, channel, list(players), stranger=fake.add_user("carol"))


async def seed_nearly_over(
    database: Path,
    guild_id: int,
    channel_id: int,
    players: list[User],
    game: str,
    options: dict[str, Any],
    seed: int,
) -> None:
    """A game of `players` in `channel_id`, dealt and played at random straight through the game
    service (no Discord, no pictures) until one more move could end it; start the bot after."""
    store = await open_store(database)
    service = GameService(store)
    rng = random.Random(seed)
    host, *others = players
    try:
        await service.lobby.open(guild_id, channel_id, game, options, host.id, host.name)
        for user in others:
            await service.lobby.join(channel_id, user.id, user.name)
        loaded = (await service.lobby.start(channel_id, host.id, is_admin=False)).loaded
        while True:
            seat = loaded.active_seats[0]
            action = rng.choice(loaded.game.legal_actions(loaded.state, seat))
            if loaded.game.outcome(loaded.game.apply(loaded.state, seat, action).state):
                return
            user_id = next(s.user_id for s in loaded.seats if s.seat == seat)
            assert user_id is not None, "only people sit at a seeded table"
            loaded = (await service.act(channel_id, user_id, action.key, None)).loaded
    finally:
        await store.close()


def boards(table: Table) -> list[Message]:
    """Public board messages (those with a board.png), oldest first."""
    return [
        m
        for m in table.fake.messages(table.channel)
        if any(a.filename == "board.png" for a in m.attachments)
    ]


def description(message: Message) -> str:
    """The first embed's description."""
    return str(message.embeds[0].get("description", "")) if message.embeds else ""


def is_over(board: Message) -> bool:
    """True when the board reports the end of the game."""
    return "Game over" in description(board)


def active_player(table: Table, board: Message) -> User:
    """The player the board says must act."""
    match = TO_PLAY.search(description(board))
    assert match, f"board names nobody to play: {description(board)!r}"
    return table.by_name(match["who"].split(",")[0].split(" and ")[0])


def hand_button_id(board: Message) -> str:
    """custom_id of the board's My hand button."""
    return next(
        c["custom_id"] for c in board.iter_components() if c["custom_id"].startswith("hg:h:")
    )


def action_choices(message: Message) -> list[tuple[str, str | None]]:
    """(custom_id, select value or None) for every action a panel offers."""
    choices: list[tuple[str, str | None]] = []
    for comp in message.iter_components():
        cid = comp.get("custom_id", "")
        if cid.startswith("hg:b:"):
            choices.append((cid, None))
        elif cid.startswith("hg:s:"):
            choices.extend((cid, opt["value"]) for opt in comp.get("options", []))
    return choices


Choice = tuple[str, str | None]
Policy = Callable[[list[Choice], random.Random], Choice]


def key_of(choice: Choice) -> str:
    """The action key behind a button (end of its custom_id) or a select option (its value)."""
    custom_id, value = choice
    return value if value is not None else custom_id.split(":", 4)[4]


def prefer_progress(choices: list[Choice]) -> list[Choice]:
    """Drop cancel/back choices when something else is possible, so random play moves on."""
    forward = [c for c in choices if key_of(c) not in ("cancel", "back")]
    return forward or choices


def random_policy(choices: list[Choice], rng: random.Random) -> Choice:
    """Any forward choice, at random."""
    return rng.choice(prefer_progress(choices))


async def wait_edited(
    fake: FakeDiscord, message_id: int, edits_before: int, timeout: float = 20
) -> None:
    """Wait until a message has been edited since `edits_before`."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while fake.message(message_id).edits <= edits_before:
        assert loop.time() < deadline, "the bot did not update the panel"
        await asyncio.sleep(0.02)


async def open_panel(table: Table, user: User, board: Message) -> Message:
    """Press My hand on the board; return the ephemeral panel."""
    reply = await (await table.fake.click(user, board, hand_button_id(board))).response(settle=0.05)
    assert not reply.failed, "My hand failed"
    panel = reply.followups[-1] if reply.followups else reply.message
    assert panel is not None and panel.ephemeral and panel.visible_to == user.id
    assert any(a.filename == "hand.png" and a.data.startswith(PNG_MAGIC) for a in panel.attachments)
    table.panels[user.id] = panel.id
    return panel


def board_version(board: Message) -> int:
    """The game version the board shows in its footer ("… · move N", in any language)."""
    footer = str(board.embeds[0].get("footer", {}).get("text", "")) if board.embeds else ""
    match = MOVE.search(footer)
    assert match, f"board footer without a move number: {footer!r}"
    return int(match["n"])


def choices_version(message: Message) -> int | None:
    """The game version a panel's components were built for (None without components)."""
    choices = action_choices(message)
    return int(choices[0][0].split(":")[3]) if choices else None


async def current_panel(table: Table, user: User, board: Message) -> Message:
    """The player's panel: the last one if it is up to date, else a freshly opened one.

    A panel goes stale when moves are made elsewhere (on the public board); clicking it would
    rightly be refused as out of date, so a player opens a new one.
    """
    known = table.panels.get(user.id)
    if known is not None:
        panel = table.fake.message(known)
        if choices_version(panel) == board_version(board):
            return panel
    return await open_panel(table, user, board)


async def step(table: Table, rng: random.Random, policy: Policy = random_policy) -> bool:
    """One action by whoever must act; False once the game is over."""
    board = boards(table)[-1]
    if is_over(board):
        return False
    user = active_player(table, board)
    on_board = table.use_board and bool(action_choices(board))
    panel = board if on_board else await current_panel(table, user, board)
    choices = action_choices(panel)
    assert choices, f"{user.name} must act but the panel offers nothing: {description(panel)}"
    custom_id, value = policy(choices, rng)
    edits = panel.edits
    if value is None:
        handle = await table.fake.click(user, panel, custom_id)
    else:
        handle = await table.fake.select(user, panel, custom_id, [value])
    reply = await handle.response(settle=0.0)
    assert not reply.failed, f"interaction failed on {custom_id} {value}"
    errors = [m.content for m in reply.followups if m.ephemeral and m.content]
    assert not errors, f"the bot refused a legal move {custom_id} {value}: {errors}"
    await wait_edited(table.fake, panel.id, edits)  # a new board also retires the old one
    table.steps += 1
    return True


async def play(
    table: Table, rng: random.Random, *, max_steps: int, policy: Policy = random_policy
) -> bool:
    """Play up to `max_steps` actions; True when the game ended."""
    for _ in range(max_steps):
        if not await step(table, rng, policy):
            return True
    return is_over(boards(table)[-1])


def embed_text(message: Message) -> str:
    """All visible text of a message."""
    parts: list[Any] = [message.content]
    for embed in message.embeds:
        parts += [embed.get("title", ""), embed.get("description", "")]
    return "\n".join(str(p) for p in parts if p)
