"""Issue 28 through the real bot and the fake Discord: /card gives every game's card a sharp
picture (drawn at the size it is shown, text whole), and the end-of-game and /stats charts are
posted in players' words and pass the phone rule."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image

from bot.render.card import CARD_WIDTH, card_image, card_png
from bot.render.charts import WIDTH, scores_chart, skill_chart
from bot.render.common import PHONE_ASPECT
from rules.catalogue import find
from tests.render.test_card import drawn_texts, uncut
from tests.render.test_phone_more import assert_phone_rule

from .botproc import BotProcess
from .driver import Table, play, seed_nearly_over, start_bot
from .fakediscord import FakeDiscord
from .fakediscord.state import Message
from .test_flight_e2e import MAX_STEPS, route_builder
from .test_stats_words_e2e import _seed

ONE_HAND: dict[str, Any] = {"match": "hands", "hands": 1}
# Takeoff!'s cut "EVENT · ECONOM…", a Flight route card and a First in Flight pilot (no picture)
CARDS = ("takeoff:long_wait", "flight:AUS.1", "first-in-flight:wright")


def _picture(messages: list[Message], name: str) -> tuple[Image.Image, bytes, str]:
    """The first attachment called `name`: decoded, its bytes and its alt text."""
    for message in messages:
        for attachment in message.attachments:
            if attachment.filename == name:
                image = Image.open(io.BytesIO(attachment.data)).convert("RGB")
                return image, attachment.data, attachment.description or ""
    raise AssertionError(f"no {name} attached")


async def test_card_pictures_are_sharp_and_whole(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """/card for a card of each game answers with its picture: the drawing itself at 400 px
    (not a 2× enlargement), every word of the card on it, First in Flight's pilot included."""
    guild = fake.add_guild("Cards")
    channel = fake.add_channel(guild, "cards")
    alice = fake.add_user("alice")
    await start_bot(fake, bots, guild, tmp_path / "hangar.sqlite3")

    for key in CARDS:
        entry = find(key)
        assert entry is not None
        reply = await (await fake.slash(alice, channel, "card", name=key)).response()
        assert reply.ephemeral and entry.name in reply.all_text
        image, data, alt = _picture(reply.messages, "card.png")
        with drawn_texts() as texts:
            drawn = card_image(entry)
        assert image.size == drawn.size and image.width == CARD_WIDTH, (key, image.size)
        assert data == card_png(entry), f"{key}: the picture is not the drawing as drawn"
        uncut(entry, texts)
        assert entry.name in alt


async def test_end_of_game_chart_reads_on_a_phone(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """A one-hand Flight game ends with 'Flight — score after each hand': a chart a phone
    shows with readable text, one line per player named in the legend. (The game is played up
    to its last moves beforehand, in the bot's database: the chart comes with the last move.)"""
    guild = fake.add_guild("Charts")
    channel = fake.add_channel(guild, "flight")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    database = tmp_path / "hangar.sqlite3"
    await seed_nearly_over(database, guild.id, channel.id, [alice, bob], "flight", ONE_HAND, 5)
    await start_bot(fake, bots, guild, database)

    table = Table(fake, channel, [alice, bob], stranger=fake.add_user("carol"))
    mark = fake.mark()
    await (await fake.slash(alice, channel, "game status")).response()  # the board to play on
    await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
    assert await play(table, random.Random(5), max_steps=MAX_STEPS, policy=route_builder)
    posted = await fake.wait_for_message(
        channel, lambda m: any(a.filename == "chart.png" for a in m.attachments), after=mark
    )
    assert posted.embeds[0]["title"] == "Flight — score after each hand", posted.embeds[0]
    image, _, alt = _picture([posted], "chart.png")
    assert alt.startswith("Chart of the score after each hand; final: alice "), alt
    assert image.width == WIDTH and image.height <= PHONE_ASPECT * image.width, image.size
    same = assert_phone_rule(  # the same chart drawn here, its fonts traced
        "end chart",
        lambda: scores_chart("Score after each hand", ["Hand 1"], [(0, 0)], ["alice", "bob"]),
    )
    assert same.size == image.size


async def test_stats_chart_speaks_of_a_skill_estimate(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """/stats after one game shows a 'skill estimate' chart (never 'Rating'), phone-readable."""
    guild = fake.add_guild("Stats chart")
    channel = fake.add_channel(guild, "stats")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    database = tmp_path / "hangar.sqlite3"
    await _seed(database, guild.id, alice.id, bob.id)
    await start_bot(fake, bots, guild, database)

    reply = await (await fake.slash(bob, channel, "stats")).response()
    image, _, alt = _picture(reply.messages, "skill-estimate.png")
    assert alt.startswith("Chart of bob's skill estimate after each game: Flight "), alt
    assert alt.endswith(" after 1 game") and "Rating" not in alt, alt
    assert image.width == WIDTH and image.height <= PHONE_ASPECT * image.width, image.size
    same = assert_phone_rule("stats chart", lambda: skill_chart([("Flight", [25.0])]))
    assert same.size == image.size


async def test_first_in_flight_ends_with_a_record_chart(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """A solo game's last move posts 'First in Flight — record after each Year': the pilot and
    Gustave each as a named line, readable on a phone."""
    guild = fake.add_guild("Solo chart")
    channel = fake.add_channel(guild, "fif-solo")
    pilot = fake.add_user("wilbur")
    database = tmp_path / "hangar.sqlite3"
    await seed_nearly_over(database, guild.id, channel.id, [pilot], "first-in-flight", {}, 11)
    table = Table(fake, channel, [pilot], stranger=fake.add_user("kibitzer"))
    await start_bot(fake, bots, guild, database)

    mark = fake.mark()
    await (await fake.slash(pilot, channel, "game status")).response()  # the board to play on
    await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
    assert await play(table, random.Random(5), max_steps=50), "the solo game did not end"
    posted = await fake.wait_for_message(
        channel, lambda m: any(a.filename == "chart.png" for a in m.attachments), after=mark
    )
    assert posted.embeds[0]["title"] == "First in Flight — record after each Year"
    image, _, alt = _picture([posted], "chart.png")
    assert alt.startswith("Chart of the record after each Year; final: wilbur "), alt
    assert ", Gustave " in alt, alt
    assert image.width == WIDTH and image.height <= PHONE_ASPECT * image.width, image.size
