"""Captions and alt text true for the picture they describe, in players' words (issue 28.9),
through the real bot and the fake Discord."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .botproc import BotProcess
from .driver import (
    Choice,
    Table,
    action_choices,
    active_player,
    boards,
    description,
    key_of,
    open_table,
    prefer_progress,
    start_bot,
    step,
)
from .fakediscord import FakeDiscord
from .fakediscord.state import Message
from .test_flight_e2e import MAX_STEPS, route_builder

# Takeoff! event cards that empty seats (a Stretcher and the like).
EMPTYING = tuple(
    f"play:{card}"
    for card in (
        "drunk",
        "afraid",
        "tired_captain",
        "honeymooners",
        "stretcher",
        "quarrel",
        "swindler",
        "middle_blocked",
    )
)
EMPTIED_LIST = re.compile(r"Seats the last move emptied: (?P<seats>[^.]+)\.")
# What the alt text used to print: an engine step in brackets, or "dave is landed".
FIF_CODE = re.compile(r"is deciding \(|\((?:pick|cleanup|dev|abilities|option|space)\)|is landed")

pytestmark = pytest.mark.long  # each test plays a game through the bot


def alt_of(message: Message, filename: str) -> str:
    """The alt text (Discord's attachment description) of a message's picture."""
    found = [a.description or "" for a in message.attachments if a.filename == filename]
    assert found, f"no {filename} on the message"
    return found[0]


def pinch_and_empty(choices: list[Choice], rng: random.Random) -> Choice:
    """Play Pinch and take a card when possible, else a card that empties seats, else anything."""
    forward = prefer_progress(choices)
    for prefixes in (("play:pinch",), ("take:",), EMPTYING):
        wanted = [c for c in forward if key_of(c).startswith(prefixes)]
        if wanted:
            return rng.choice(wanted)
    return rng.choice(forward)


async def _started(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path, game: str, **options: Any
) -> Table:
    """alice opens `game` (bob joins when it is not solo) and starts; the first board is up."""
    guild = fake.add_guild("Captions")
    channel = fake.add_channel(guild, game)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    players = [alice] if game == "first-in-flight" else [alice, bob]
    await start_bot(fake, bots, guild, tmp_path / "hangar.sqlite3")
    table = await open_table(fake, channel, players, game, **options)
    table.use_board = game == "first-in-flight"
    return table


async def test_takeoff_pinch_and_emptied_seats_are_described_as_they_are(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """A Takeoff! game where every Pinch and seat-emptying card is played: the Pinch look (both
    hands, no plane) is described by what to do with the hands, not by "the 8 places it can
    take"; seats a Stretcher emptied are called emptied, never "Last seats"."""
    table = await _started(fake, bots, tmp_path, "takeoff")
    rng = random.Random(11)
    pinch_alts: list[str] = []
    board_alts: list[tuple[str, str]] = []
    for _ in range(400):
        user = active_player(table, boards(table)[-1])
        assert await step(table, rng, pinch_and_empty)
        latest = boards(table)[-1]
        board_alts.append((alt_of(latest, "board.png"), description(latest)))
        panel = table.fake.message(table.panels[user.id])
        if any(key_of(c).startswith("take:") for c in action_choices(panel)):
            pinch_alts.append(alt_of(panel, "hand.png"))  # the Pinch look: both hands shown
        emptied = [a for a, _ in board_alts if "emptied" in a]
        if pinch_alts and emptied:
            break
    assert pinch_alts, "no Pinch was played"
    for text in pinch_alts:
        assert "your opponent's hand is" in text and "take one of these cards" in text, text
        assert "can take" not in text and "can be played on" not in text, text
    assert not any("Last seats" in a for a, _ in board_alts)
    checked = 0
    for text, log in board_alts:
        listed = EMPTIED_LIST.search(text)
        if listed is None:
            continue
        for seat in listed["seats"].split(", "):  # each one really was emptied, says the log
            assert re.search(rf"emptied [^.]*\b{seat}\b", log), (seat, log)
            checked += 1
    assert checked, "no board described an emptied seat"


async def test_first_in_flight_alt_text_says_what_each_player_is_doing(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """A solo First in Flight game to its end: every board's alt text names what the player is
    doing as the status bar does ("choosing cards"), never the engine's step ("(pick)")."""
    table = await _started(fake, bots, tmp_path, "first-in-flight")
    rng = random.Random(5)
    alts: list[str] = []
    for _ in range(600):
        if not await step(table, rng):
            break
        alts.append(alt_of(boards(table)[-1], "board.png"))
    assert "Game over" in description(boards(table)[-1])
    assert alts and not [a for a in alts if FIF_CODE.search(a)], [
        a for a in alts if FIF_CODE.search(a)
    ][:3]
    assert any("alice is choosing" in a for a in alts), alts[:5]
    assert any("alice's Flight" in a for a in alts), "a Flight is described as whose it is"


async def test_flight_alt_text_and_the_replay_say_what_happened(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """Flight: each board's alt text names every flight's next stop (the orange frame). At the
    end, /game replay's alt text says who won, the final scores and the length; one turn's still
    is described as its own board."""
    table = await _started(fake, bots, tmp_path, "flight", match="hands", hands=1)
    alts: list[str] = []
    rng = random.Random(7)
    for _ in range(MAX_STEPS):
        if not await step(table, rng, route_builder):
            break
        alts.append(alt_of(boards(table)[-1], "board.png"))
    assert any(re.search(r"of 5 stops, next \d \w", a) for a in alts), alts[-3:]

    alice = table.players[0]
    mark = fake.mark()
    reply = await (await fake.slash(alice, table.channel, "game replay")).response(timeout=120)
    assert not reply.failed
    posted = await fake.wait_for_message(
        table.channel,
        lambda m: any(a.filename.endswith(".webp") for a in m.attachments),
        after=mark,
    )
    (webp,) = [a for a in posted.attachments if a.filename.endswith(".webp")]
    text = webp.description or ""
    turns = re.search(r"— (\d+) turns?\.", posted.content)
    assert turns, posted.content
    assert f"Animated replay of Flight game #1, {turns[1]} turns from the deal to the end." in text
    assert re.search(r"(alice|bob) won\. Final scores: (alice|bob) −?\d+ points?, ", text), text
    still = await (await fake.slash(alice, table.channel, "game replay", turn=0)).response()
    assert not still.failed
    (frame,) = [
        a
        for m in fake.messages(table.channel)
        for a in m.attachments
        if a.filename.endswith("-turn-0.png")
    ]
    assert (frame.description or "").startswith("Flight game #1 at turn 0 of "), frame.description
    assert "Flight table, hand 1." in (frame.description or "")
