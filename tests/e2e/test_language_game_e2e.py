"""One game, three languages (issue 30), through the fake Discord: a German-locale and an
English-locale player play Takeoff! together; each one's private panel (buttons, menus, prompt)
is in their own language, while the public board (embed, log lines, buttons, pings) follows the
server: English by default, French once an admin chooses it, and French again for a server whose
Discord locale is French and that chose nothing."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.i18n import translate

from .botproc import BotProcess, bot_env
from .driver import (
    PNG_MAGIC,
    Table,
    action_choices,
    boards,
    description,
    hand_button_id,
    open_table,
    prefer_progress,
    wait_edited,
)
from .fakediscord import FakeDiscord
from .fakediscord.state import Message, User

STEPS = 3  # moves per phase: enough for each player's panel and a turn change


def pattern(language: str, msgid: str) -> re.Pattern[str]:
    """A sentence of the catalogue in `language`, each `{placeholder}` captured by name."""
    told = re.escape(translate(language, msgid))
    return re.compile(re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>.+?)", told))


def to_play(language: str) -> re.Pattern[str]:
    """The board's "**alice** to play." in `language`, the name captured."""
    return pattern(language, "**{players}** to play.")


def footer(message: Message) -> str:
    """The first embed's footer."""
    return str(message.embeds[0].get("footer", {}).get("text", "")) if message.embeds else ""


def labels(message: Message) -> dict[str, str]:
    """Every component's visible words by what it does: a button's label by its custom_id, a
    select's placeholder by its custom_id, an option's label and description by its value."""
    shown: dict[str, str] = {}
    for component in message.iter_components():
        custom_id = str(component.get("custom_id", ""))
        if "label" in component:
            shown[custom_id] = str(component["label"])
        if "placeholder" in component:
            shown[custom_id] = str(component["placeholder"])
        for option in component.get("options") or []:
            words = f"{option['label']} | {option.get('description') or ''}"
            shown[f"option:{option['value']}"] = words
    return shown


def button_label(message: Message, prefix: str) -> str:
    """The label of the button whose custom_id starts with `prefix`."""
    return next(
        str(c.get("label", ""))
        for c in message.iter_components()
        if str(c.get("custom_id", "")).startswith(prefix)
    )


async def panel_of(fake: FakeDiscord, user: User, board: Message) -> Message:
    """The user presses the board's My hand button; their private panel."""
    reply = await (await fake.click(user, board, hand_button_id(board))).response(settle=0.05)
    assert not reply.failed
    panel = reply.followups[-1] if reply.followups else reply.message
    assert panel is not None and panel.ephemeral and panel.visible_to == user.id
    assert any(a.filename == "hand.png" and a.data.startswith(PNG_MAGIC) for a in panel.attachments)
    return panel


def assert_board_in(board: Message, language: str, players: list[User]) -> User:
    """The board speaks `language` (status, footer, buttons); returns the player to act."""
    text = description(board)
    found = to_play(language).search(text)
    assert found, f"no {language} turn line on the board: {text!r}"
    move = pattern(language, "{title} · game #{number} · move {version}")
    assert move.fullmatch(footer(board)), footer(board)
    assert button_label(board, "hg:h:") == translate(language, "My hand & moves")
    if language != "en":
        assert to_play("en").search(text) is None
        assert "· move " not in footer(board)
    name = found["players"]
    return next(u for u in players if u.name == name)


def assert_panel_in(panel: Message, language: str, *, acting: bool) -> None:
    """A private panel in `language`: its title, footer and (when acting) prompt."""
    embed: dict[str, Any] = panel.embeds[0]
    assert embed["title"] == translate(language, "Your view — {title}", title="Takeoff!")
    mine = translate(language, "{footer} · only you can see this", footer="")
    assert footer(panel).endswith(mine.strip()), footer(panel)
    if acting:
        head = translate(language, "**Your turn** — {prompt}", prompt="")
        assert str(embed["description"]).startswith(head), embed["description"]


async def play_steps(
    fake: FakeDiscord,
    table: Table,
    language: str,
    rng: random.Random,
    steps: int,
    *,
    before: str | None = None,
) -> None:
    """`steps` moves from the acting player's panel; each board checked in `language` (the
    first one in `before`: it was posted before the server changed its language)."""
    for step in range(steps):
        board = boards(table)[-1]
        reading = before if step == 0 and before is not None else language
        user = assert_board_in(board, reading, table.players)
        panel = await panel_of(fake, user, board)
        assert_panel_in(panel, LOCALES[user.name], acting=True)
        choices = action_choices(panel)
        assert choices
        custom_id, value = rng.choice(prefer_progress(choices))
        edits = panel.edits
        if value is None:
            handle = await fake.click(user, panel, custom_id)
        else:
            handle = await fake.select(user, panel, custom_id, [value])
        reply = await handle.response(settle=0.0)
        assert not reply.failed and not [m for m in reply.followups if m.ephemeral and m.content]
        await wait_edited(fake, panel.id, edits)


LOCALES = {"hanna": "de", "emma": "en"}


async def test_private_panels_in_each_language_and_the_board_in_the_servers(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """German and English panels at one table; English, then French, then French-by-locale
    boards."""
    guild = fake.add_guild("Sprachen")
    channel = fake.add_channel(guild, "takeoff")
    hanna, emma = fake.add_user("hanna"), fake.add_user("emma")
    admin = fake.add_user("root", admin=True)
    fake.set_locale(hanna, "de")
    fake.set_locale(emma, "en-US")
    bot = bots(bot_env(fake, guild, tmp_path / "hangar.sqlite3"))
    await bot.start()
    await fake.wait_ready(60)
    rng = random.Random(30)

    # The lobby is public: the server's language (English), whoever opened it.
    table = await open_table(fake, channel, [hanna, emma], "takeoff")
    lobby = next(m for m in fake.messages(channel) if " lobby (" in m.content)
    assert "; options: " in lobby.content and "Join with the button" in lobby.content

    # English board; each player's panel in their own language, the same seat's moves shown
    # in German to hanna and in English to her when her client speaks English.
    board = boards(table)[-1]
    acting = assert_board_in(board, "en", table.players)
    for user in (hanna, emma):
        panel = await panel_of(fake, user, board)
        assert_panel_in(panel, LOCALES[user.name], acting=user is acting)
    own = await panel_of(fake, hanna, board)
    assert own.embeds[0]["title"] == "Deine Ansicht — Takeoff!"  # the catalogue's, checked above
    # The acting seat's moves, told to the same player in German and then in English.
    fake.set_locale(acting, "de")
    german = labels(await panel_of(fake, acting, board))
    fake.set_locale(acting, "en-US")
    english = labels(await panel_of(fake, acting, board))
    fake.set_locale(acting, "de" if acting is hanna else "en-US")
    assert german and german.keys() == english.keys()
    for key, words in english.items():  # a label that is one catalogue entry: its German
        label = words.split(" | ")[0]
        wanted = translate("de", label)
        if wanted != label:
            assert german[key].split(" | ")[0] == wanted, (key, german[key], wanted)
    # Labels made of parts ("Play {card}") are told part by part: the words differ, the seat
    # codes and numbers (7A, 12) do not.
    told = [key for key, words in english.items() if german[key] != words]
    assert told, f"no label of the panel was told in German: {german}"
    await play_steps(fake, table, "en", rng, STEPS)
    english_log = description(boards(table)[-1])

    # French once the admin chooses it: the next board is French (status, footer, buttons);
    # the panels still follow each reader.
    await (await fake.slash(admin, channel, "admin settings", language="fr")).response()
    await play_steps(fake, table, "fr", rng, STEPS, before="en")
    board = boards(table)[-1]
    assert_board_in(board, "fr", table.players)
    assert "Ma main et mes coups" in labels(board).values()
    assert " de jouer." in description(board) and " · coup " in footer(board)
    assert description(board) != english_log
    for user in (hanna, emma):
        assert_panel_in(await panel_of(fake, user, board), LOCALES[user.name], acting=False)

    # English again by the setting, although the server's Discord locale is French …
    fake.set_locale(guild, "fr")
    await (await fake.slash(admin, channel, "admin settings", language="en")).response()
    await play_steps(fake, table, "en", rng, 2, before="fr")
    # … and French again when the server follows its Discord locale (no setting of its own).
    await (await fake.slash(admin, channel, "admin settings", language="server")).response()
    await play_steps(fake, table, "fr", rng, STEPS, before="en")
    assert_board_in(boards(table)[-1], "fr", table.players)
    assert fake.violations == []
