"""First in Flight in plain words (issue 28.1, 28.2): every choice that names a space or a card
says, in a select option's description, what it does and what it costs — read from the panels a
player really gets through the fake Discord; and the Whole table reads on a phone (28.6)."""

from __future__ import annotations

import random
import re
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .botproc import BotProcess, bot_env
from .driver import PNG_MAGIC, Choice, Table, boards, is_over, key_of, prefer_progress, step
from .fakediscord import FakeDiscord
from .fakediscord.state import Message
from .test_first_in_flight_e2e import _open_and_start

MAX_STEPS = 700
GAMES = 6
LABEL_MAX = DESCRIPTION_MAX = 100  # Discord's select option limits
# The menus the issue names, by the start of their select's placeholder.
WANTED = ("Move to", "Use an ability", "Gain a card", "Garage")
CODED_COST = re.compile(r"\d+M\b|\d+t\b|M\|")  # '4M|2t', '3M', '1t': costs in code
MONEY_OR_TIME = re.compile(r"\b(Money|Time|coins?|free)\b")
PHONE_WIDTH, PHONE_ASPECT = 640, 1.8  # First in Flight's phone pictures; the phone rule's ratio


def _selects(message: Message) -> list[dict[str, Any]]:
    """The select menus of a panel or board."""
    return [c for c in message.iter_components() if c.get("type") == 3]


def _labels(message: Message) -> dict[str, str]:
    """What a player reads for each choice key of a panel (buttons and select options)."""
    out = {}
    for comp in message.iter_components():
        if comp.get("type") == 3:
            out.update({o["value"]: o["label"] for o in comp.get("options", [])})
        elif str(comp.get("custom_id", "")).startswith("hg:b:"):
            out[comp["custom_id"].split(":", 4)[4]] = str(comp.get("label", ""))
    return out


def _words_policy(table: Table, seen: dict[str, list[dict[str, Any]]]) -> Callable[..., Choice]:
    """Random play that seeks the menus still unseen: abilities, then Upgrades, then Flights."""

    def unseen(prefix: str) -> bool:
        return not any(t.startswith(prefix) for t in seen)

    def policy(choices: list[Choice], rng: random.Random) -> Choice:
        forward = prefer_progress(choices)
        labels: dict[str, str] = {}
        for panel in table.panels.values():
            labels.update(_labels(table.fake.message(panel)))
        wishes = [("menu:", ""), ("move:", "Skill")] if unseen("Use an ability") else []
        if unseen("Gain a card"):
            wishes.append(("move:", "Upgrade"))
        wishes += [("move:", " Fly"), ("draw", "")]
        for prefix, word in wishes:
            hits = [
                c
                for c in forward
                if key_of(c).startswith(prefix) and word in labels.get(key_of(c), "")
            ]
            if hits:
                return rng.choice(hits)
        return rng.choice(forward)

    return policy


def _record(message: Message, seen: dict[str, list[dict[str, Any]]]) -> None:
    """Keep every select option shown, by the select's placeholder."""
    for select in _selects(message):
        title = str(select.get("placeholder", ""))
        seen.setdefault(title, []).extend(select.get("options", []))


async def test_every_space_and_card_choice_says_what_it_does_and_costs_in_words(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """Solo against Gustave, played from the panels: Move to options say the cost in Money and
    Time and what the space does; ability, Skill, Garage and card choices carry the card's text;
    labels and descriptions fit Discord and are never cut mid-word."""
    guild = fake.add_guild("Words")
    bot = bots(bot_env(fake, guild, tmp_path / "hangar.sqlite3"))
    await bot.start()
    await fake.wait_ready(60)
    seen: dict[str, list[dict[str, Any]]] = {}
    rng = random.Random(28)
    for game in range(GAMES):  # the bot deals at random: another game until each menu came up
        if all(any(t.startswith(w) for t in seen) for w in WANTED):
            break
        channel = fake.add_channel(guild, f"fif-words-{game}")
        pilot = fake.add_user(f"amelia{game}")
        table = Table(fake, channel, [pilot], stranger=fake.add_user(f"kibitzer{game}"))
        await _open_and_start(fake, channel, [pilot])
        await _play_and_record(table, rng, seen)
    missing = [w for w in WANTED if not any(t.startswith(w) for t in seen)]
    assert not missing, f"the game never offered {missing}; seen: {sorted(seen)}"

    for title, options in seen.items():
        for option in options:
            label, description = option["label"], option.get("description") or ""
            where = f"{title!r}: {label!r} / {description!r}"
            assert description, f"no description: {where}"
            assert len(label) <= LABEL_MAX and len(description) <= DESCRIPTION_MAX, where
            for text in (label, description):
                assert not CODED_COST.search(text), f"a cost in code, not words: {where}"
                # a text filling a limit exactly without an ellipsis was sliced, maybe mid-word
                assert len(text) not in (80, 100) or text.endswith("…"), f"sliced: {where}"
                assert "…" not in text[:-1], f"an ellipsis inside: {where}"
    for option in _all(seen, "Move to"):
        label = option["label"]
        if not label.endswith(" Fly"):  # Fly is free: it has no cost to spell out
            assert MONEY_OR_TIME.search(label), f"the cost is not in words: {label!r}"
        assert len(option["description"].split()) >= 3, f"not a sentence: {option!r}"
    for option in _all(seen, "Gain a card"):
        assert re.search(r"Distance|Problem|Friend|Skill|Technology", option["description"])
    for option in _all(seen, "Use an ability"):
        assert not option["label"].endswith(("abilit", "…")), option["label"]


async def _play_and_record(
    table: Table, rng: random.Random, seen: dict[str, list[dict[str, Any]]]
) -> None:
    """Play one game from the panel, keeping every select option the player is shown."""
    policy = _words_policy(table, seen)
    for _ in range(MAX_STEPS):
        if all(any(t.startswith(w) for t in seen) for w in WANTED):
            return
        if is_over(boards(table)[-1]) or not await step(table, rng, policy):
            return
        for panel in table.panels.values():  # the player's panel, showing the next choice
            _record(table.fake.message(panel), seen)


def _all(seen: dict[str, list[dict[str, Any]]], prefix: str) -> list[dict[str, Any]]:
    """Every option of the selects whose placeholder starts with `prefix`."""
    return [o for title, options in seen.items() if title.startswith(prefix) for o in options]


def _png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header."""
    assert data.startswith(PNG_MAGIC)
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


async def test_whole_table_comes_in_pages_that_fit_a_phone(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """Four players a few turns in: "Whole table" answers with every page of the table, each
    a phone-sized picture (640 px wide, at most 1.8 times as tall), to anyone who asks."""
    guild = fake.add_guild("Table")
    channel = fake.add_channel(guild, "fif-table")
    players = [fake.add_user(n) for n in ("ada", "bea", "cyd", "dot")]
    stranger = fake.add_user("kibitzer")
    table = Table(fake, channel, players, stranger=stranger)
    bot = bots(bot_env(fake, guild, tmp_path / "hangar.sqlite3"))
    await bot.start()
    await fake.wait_ready(60)
    await _open_and_start(fake, channel, players)
    rng = random.Random(6)
    for _ in range(24):
        await step(table, rng)

    board = boards(table)[-1]
    button = next(
        c["custom_id"] for c in board.iter_components() if c["custom_id"].startswith("hg:t:")
    )
    reply = await (await fake.click(stranger, board, button)).response()
    assert not reply.failed
    answer = reply.followups[-1] if reply.followups else reply.message
    assert answer is not None and answer.ephemeral
    pictures = [a for a in answer.attachments if a.data.startswith(PNG_MAGIC)]
    assert 2 <= len(pictures) <= 10, f"the whole table in pages: {len(pictures)} pictures"
    for picture in pictures:
        width, height = _png_size(picture.data)
        assert width == PHONE_WIDTH and height <= PHONE_ASPECT * width, (width, height)
        assert picture.description, "every page has its alt text"
