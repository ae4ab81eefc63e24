"""Every game played to its end in the pseudo-locale (issue 30): English made ~40 % longer,
accented and bracketed, so any text that overflows, is cut mid-word, breaks a Discord limit or
never went through the catalogue shows. The fake Discord refuses any payload over Discord's
limits; this test also reads every text and picture the bot sent."""

from __future__ import annotations

import asyncio
import io
import json
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PIL import Image

from bot.render.common import PHONE_ASPECT

from .botproc import REPO, BotProcess, bot_env
from .driver import Choice, Table, action_choices, boards, current_panel, key_of, wait_edited
from .fakediscord import FakeDiscord
from .fakediscord.state import Message

MAX_HUMAN_STEPS = 700
SETTLE = 120.0
# A word a player reads in English: four ASCII letters or more (pseudo text is accented).
ENGLISH_WORD = re.compile(r"(?<![\w/`<@#:])[A-Za-z]{4,}(?![\w`>])")
# What stays as it is in every language: names, commands, mentions, custom emoji, links.
KEPT = re.compile(r"`[^`]*`|<[^<>]*>|https?://\S+|/[a-z][a-z -]*")


def english_left(text: str, names: set[str]) -> list[str]:
    """English words in a pseudo-localised text (player names and commands aside)."""
    stripped = KEPT.sub(" ", text)
    for name in sorted(names, key=len, reverse=True):  # "🤖 Easy AI" before a cut "🤖 Easy…"
        stripped = stripped.replace(name, " ")
    return ENGLISH_WORD.findall(stripped)


def towns() -> set[str]:
    """Every town of Flight's routes (the data file's spelling)."""
    data = json.loads((REPO / "assets" / "cards" / "flight.json").read_text(encoding="utf-8"))
    return {stop["town"] for route in data["routes"] for stop in route["stops"]}


def visible_texts(message: Message) -> Iterator[str]:
    """Every text a player reads on a message: content, embeds, buttons, menus."""
    if message.content:
        yield message.content
    for embed in message.embeds:
        yield from (str(embed.get(k, "")) for k in ("title", "description") if embed.get(k))
        for item in embed.get("fields", []):
            yield from (str(item.get("name", "")), str(item.get("value", "")))
        if embed.get("footer"):
            yield str(embed["footer"].get("text", ""))
    for component in message.iter_components():
        yield from (str(component[k]) for k in ("label", "placeholder") if component.get(k))
        for option in component.get("options", []):
            yield from (str(option.get(k, "")) for k in ("label", "description") if option.get(k))


def quick(choices: list[Choice], rng: random.Random) -> Choice:
    """End the turn whenever possible, else a random move: a short whole game."""
    ending = [c for c in choices if key_of(c) == "end"]
    return ending[0] if ending else rng.choice(choices)


async def humans_turn(table: Table) -> Message | None:
    """The latest board once the human is pinged to play or it has stood still for a second
    (a solo player is not pinged for their own next turn); None once the game is over."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + SETTLE
    human = table.players[0]
    since: tuple[int, float] | None = None
    while True:
        found = boards(table)
        if found:
            board = found[-1]
            hand = [c for c in board.iter_components() if c["custom_id"].startswith("hg:h:")]
            if not hand:
                return None  # the final board offers no hand: the game is over
            if human.id in board.mentions:
                return board
            if since is None or since[0] != board.id:
                since = (board.id, loop.time())
            elif loop.time() - since[1] > 1.0:
                return board
        assert loop.time() < deadline, "the turn never came back to the human"
        await asyncio.sleep(0.05)


async def play_to_the_end(table: Table, rng: random.Random, seen: list[str]) -> None:
    """The human acts through the panel whenever pinged, until the game ends; every board and
    panel read on the way goes into `seen` (messages are edited later: read them now)."""
    human = table.players[0]
    for _ in range(MAX_HUMAN_STEPS):
        board = await humans_turn(table)
        if board is None:
            return
        panel = await current_panel(table, human, board)
        seen += [*visible_texts(board), *visible_texts(panel)]
        choices = action_choices(panel)
        if not choices:  # an AI seat is still thinking: look again
            await asyncio.sleep(0.2)
            continue
        custom_id, value = quick(choices, rng)
        edits = panel.edits
        if value is None:
            handle = await table.fake.click(human, panel, custom_id)
        else:
            handle = await table.fake.select(human, panel, custom_id, [value])
        reply = await handle.response(settle=0.0)
        assert not reply.failed, f"interaction failed on {custom_id} {value}"
        await wait_edited(table.fake, panel.id, edits)
    raise AssertionError("the game did not finish")


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("takeoff", {"ai_seats": 1, "ai_level": "easy"}),
        ("flight", {"ai_seats": 1, "ai_level": "easy", "match": "hands", "hands": 1}),
        ("first-in-flight", {}),
    ],
)
async def test_a_whole_game_in_the_pseudo_locale(
    fake: FakeDiscord,
    bots: Callable[..., BotProcess],
    tmp_path: Path,
    game: str,
    options: dict[str, object],
) -> None:
    """Every message fits Discord, reads pseudo (no English left), every picture is phone-sized."""
    guild = fake.add_guild("Pseudo")
    channel = fake.add_channel(guild, "lounge")
    alice = fake.add_user("alice")
    env = {**bot_env(fake, guild, tmp_path / "hangar.sqlite3"), "HANGAR_FORCE_LANGUAGE": "pseudo"}
    bot = bots(env)
    await bot.start()
    await fake.wait_ready(60)
    table = Table(fake, channel, [alice], stranger=fake.add_user("carol"))
    mark = fake.mark()
    opened = await (await fake.slash(alice, channel, f"game new {game}", **options)).response()
    assert not opened.failed, opened.all_text
    lobby = await fake.wait_for_message(
        channel,
        lambda m: any(c["custom_id"].endswith(":start") for c in m.iter_components()),
        after=mark,
    )
    start = next(
        c["custom_id"] for c in lobby.iter_components() if c["custom_id"].endswith(":start")
    )
    mark = fake.mark()
    assert not (await (await fake.click(alice, lobby, start)).response()).failed
    await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)

    seen: list[str] = []
    await play_to_the_end(table, random.Random(7), seen)

    # Names stay as they are: players', the AI seats' ("🤖 Easy AI" is a seat's name, kept in
    # history and /stats), Gustave, the bot's, and the games' published titles.
    names = {
        "alice",
        "carol",
        "🤖 Easy AI",
        "🤖 Easy…",
        "Gustave",
        "Hangar",
        "Takeoff!",
        "First in Flight",
    }
    names.add("Flight" if game == "flight" else "Takeoff!")
    names |= towns()  # Flight's towns are kept as printed on the 1954 cards
    sent = [m for m in fake.world.messages.values() if m.author.id == fake.world.bot.id]
    seen += [text for m in sent for text in visible_texts(m)]
    leftovers = sorted({word for text in seen for word in english_left(text, names)})
    assert not leftovers, f"English left in a pseudo-locale game: {leftovers}"
    for message in sent:
        for attachment in message.attachments:
            if attachment.filename.endswith(".png"):
                width, height = Image.open(io.BytesIO(attachment.data)).size
                assert height <= PHONE_ASPECT * width * 1.01, (attachment.filename, width, height)
