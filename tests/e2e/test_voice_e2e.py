"""One voice (issue 15) through the fake Discord: card texts, /card, refusals, /help, rules, log."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rules.core import messages
from rules.first_in_flight.data import load_data

from .botproc import BotProcess, bot_env
from .driver import PNG_MAGIC, Table, active_player, boards, description, open_panel
from .fakediscord import FakeDiscord
from .fakediscord.state import Channel, Guild, User

XYZZY = f"{messages.NOT_AVAILABLE} {messages.PICK_OFFERED}"


async def _start(fake: FakeDiscord, channel: Channel, game: str, players: list[User]) -> None:
    """The first player opens `game`, the others join, the creator starts; the board is posted."""
    await (await fake.slash(players[0], channel, f"game new {game}")).response()
    for user in players[1:]:
        await (await fake.slash(user, channel, "game join")).response()
    mark = fake.mark()
    await (await fake.slash(players[0], channel, "game start")).response()
    await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)


async def _bot(fake: FakeDiscord, bots: Callable[..., BotProcess], guild: Guild, db: Path) -> None:
    """Start the real bot against the fake Discord."""
    await bots(bot_env(fake, guild, db)).start()
    await fake.wait_ready(60)


async def test_card_texts_refusals_help_and_rules(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """Pilot texts where they are chosen; /card; one refusal in every game; /help; /game rules."""
    guild = fake.add_guild("Voice")
    fif, takeoff, flight, empty = (
        fake.add_channel(guild, name) for name in ("fif", "takeoff", "flight", "quiet")
    )
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    await _bot(fake, bots, guild, tmp_path / "hangar.sqlite3")

    # First in Flight: the Pilot draft offers each Pilot with its short text; the private panel
    # has the full texts.
    await _start(fake, fif, "first-in-flight", [carol])
    board = boards(Table(fake, fif, [carol], stranger=alice))[-1]
    options = [o for c in board.iter_components() for o in c.get("options", [])]
    data = load_data()
    shorts = {p.name: p.short for p in data.pilots}
    assert options and all(o["description"] == shorts[o["label"]] for o in options)
    panel = await open_panel(Table(fake, fif, [carol], stranger=alice), carol, board)
    pilot = data.pilot(options[0]["value"].split(":", 1)[1])
    assert f"**{pilot.name}** — {pilot.text}" in description(panel)

    # /card: autocomplete finds any game's card; the answer is private, with text and picture.
    choices = await fake.autocomplete(alice, empty, "card", option="name", value="tired")
    assert [c["value"] for c in choices] == ["takeoff:tired_captain"]
    shown = await (await fake.slash(alice, empty, "card", name=choices[0]["value"])).response()
    assert shown.ephemeral and "Tired captain" in shown.all_text and "Economy" in shown.all_text
    (picture,) = shown.attachments
    assert picture.data.startswith(PNG_MAGIC) and picture.description
    assert "Tired captain" in picture.description
    bessie = await (await fake.slash(alice, empty, "card", name="Bessie Coleman")).response()
    assert bessie.ephemeral and data.pilot("coleman").text in bessie.all_text
    unknown = await (await fake.slash(alice, empty, "card", name="Sopwith Camel")).response()
    assert unknown.ephemeral and "There is no card called “Sopwith Camel”" in unknown.all_text

    # The same mistake gets the same sentence in all three games.
    await _start(fake, takeoff, "takeoff", [alice, bob])
    await _start(fake, flight, "flight", [bob, alice])
    answers = []
    for channel, players in ((fif, [carol]), (takeoff, [alice, bob]), (flight, [bob, alice])):
        table = Table(fake, channel, players, stranger=carol)
        mover = active_player(table, boards(table)[-1])
        reply = await (await fake.slash(mover, channel, "play", action="xyzzy")).response()
        assert reply.ephemeral
        answers.append(reply.all_text)
    assert answers == [XYZZY] * 3

    # /help: what Hangar is, how to start, the commands and links — privately.
    helped = await (await fake.slash(bob, empty, "help")).response()
    assert helped.ephemeral and "**Hangar**" in helped.all_text
    assert "/game new takeoff" in helped.all_text and "/card" in helped.all_text
    assert "](https://" in helped.all_text

    # /game rules: an unknown topic says so and lists the topics; no game here → which game?
    odd = await (await fake.slash(bob, flight, "game rules", topic="weather")).response()
    assert odd.ephemeral and "There is no “weather” topic in the Flight rules" in odd.all_text
    assert "`scoring`" in odd.all_text and "`match`" in odd.all_text
    match = await (await fake.slash(bob, flight, "game rules", topic="match")).response()
    assert "House rule" in match.all_text and "after 15 hands the leader wins" in match.all_text
    which = await (await fake.slash(bob, empty, "game rules")).response()
    assert "which game" in which.all_text and "Takeoff!" in which.all_text
    assert "Flight" in which.all_text and "**Takeoff!** (Andreas Milde" not in which.all_text


async def test_a_replaced_seat_keeps_its_old_log_lines(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """After /admin replace, the board's log still names who made the earlier moves."""
    guild = fake.add_guild("Replace")
    channel = fake.add_channel(guild, "takeoff")
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    admin = fake.add_user("root", admin=True)
    await _bot(fake, bots, guild, tmp_path / "hangar.sqlite3")
    await _start(fake, channel, "takeoff", [alice, bob])
    table = Table(fake, channel, [alice, bob], stranger=carol)

    first = active_player(table, boards(table)[-1])
    other = bob if first is alice else alice
    for user in (first, other):
        reply = await (await fake.slash(user, channel, "play", action="end")).response()
        assert "✅" in reply.all_text, reply.all_text
    said = f"{first.name} ended their turn and drew a card."
    assert said in description(boards(table)[-1]), "routine lines of a turn are one line"

    mark = fake.mark()
    await (await fake.slash(admin, channel, "admin replace", old=first.id, new=carol.id)).response()
    await fake.wait_for_message(channel, lambda m: "takes over" in m.content, after=mark)
    mark = fake.mark()
    await (await fake.slash(admin, channel, "admin resume")).response()
    resumed = await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
    text = description(resumed)
    assert said in text and "carol ended their turn" not in text
    assert "**carol** to play." in text
    log = await (await fake.slash(other, channel, "game log")).response()
    assert said in log.all_text
    mine = await (await fake.slash(carol, channel, "mygames")).response()
    assert "**your turn** — " in mine.all_text and "Your turn: " not in mine.all_text
    theirs = await (await fake.slash(other, channel, "mygames")).response()
    assert (
        "**carol** to play." in theirs.all_text and "[go to the board](https://" in theirs.all_text
    )
