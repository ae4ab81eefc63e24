"""Languages through the fake Discord (issue 30): localised slash commands, /help in the reader's
language, and the server's language for public messages (`/admin settings language:`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .botproc import BotProcess, bot_env
from .fakediscord import FakeDiscord
from .fakediscord.commands import DISCORD_LOCALES

SHIPPED_LOCALES = ("de", "fr", "es-ES")


def nodes(command: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """A registered command and every subcommand and option under it."""
    stack = [command]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.get("options") or [])


def embed_text(reply: Any) -> str:
    """Title and description of a reply's embeds."""
    return "\n".join(f"{e.get('title', '')}\n{e.get('description', '')}" for e in reply.embeds)


async def test_languages(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """German, French and Spanish command names; /help per reader; the server's language."""
    guild = fake.add_guild("Languages")
    channel = fake.add_channel(guild, "games")
    hanna, emma = fake.add_user("hanna"), fake.add_user("emma")
    admin = fake.add_user("root", admin=True)
    fake.set_locale(hanna, "de")
    fake.set_locale(emma, "en-US")
    bot = bots(bot_env(fake, guild, tmp_path / "hangar.sqlite3"))
    await bot.start()
    await fake.wait_ready(60)

    # Every command carries de, fr and es-ES names and descriptions Discord accepts.
    commands = {c["name"]: c for c in fake.commands}
    assert fake.violations == []
    for locale in SHIPPED_LOCALES:  # every command, subcommand, option and choice
        for command in commands.values():
            for node in nodes(command):
                assert locale in node["name_localizations"], (node["name"], locale)
                assert locale in node["description_localizations"], (node["name"], locale)
                for choice in node.get("choices") or []:
                    assert locale in choice["name_localizations"], (choice["name"], locale)
    assert commands["game"]["name_localizations"]["de"] == "spiel"
    assert commands["game"]["name_localizations"]["fr"] == "partie"
    assert commands["help"]["description_localizations"]["es-ES"].startswith("Qué es Hangar")
    for command in commands.values():
        for node in nodes(command):
            for locale, name in (node.get("name_localizations") or {}).items():
                assert locale in DISCORD_LOCALES
                assert name == name.lower() and " " not in name and 1 <= len(name) <= 32
            for text in (node.get("description_localizations") or {}).values():
                assert 1 <= len(text) <= 100

    # /help answers each reader privately in their own Discord language.
    german = await (await fake.slash(hanna, channel, "help")).response()
    assert german.ephemeral
    assert "Hangar — Hilfe" in embed_text(german)
    assert "`/spiel beitreten` — Einen Platz in der Lobby dieses Kanals nehmen" in embed_text(
        german
    )
    assert "Server verwalten" in embed_text(german)
    english = await (await fake.slash(emma, channel, "help")).response()
    assert "Hangar — help" in embed_text(english)
    assert "`/game join` — Take a seat in this channel's lobby" in embed_text(english)
    assert "Hilfe" not in embed_text(english)

    # The server's language: its Discord locale until an admin chooses one; the choice is told
    # publicly in the new language and shown in the (private, admin's language) settings.
    fake.set_locale(guild, "fr")
    shown = await (await fake.slash(admin, channel, "admin settings")).response()
    assert shown.ephemeral and "public messages in **server default (Français)**" in shown.all_text
    mark = fake.mark()
    chosen = await (await fake.slash(admin, channel, "admin settings", language="de")).response()
    assert "public messages in **Deutsch**" in chosen.all_text
    told = await fake.wait_for_message(channel, lambda m: "🌐" in m.content, after=mark)
    assert "Hangars öffentlichen Nachrichten auf diesem Server ist jetzt Deutsch" in told.content
    fake.set_locale(admin, "es-ES")
    again = await (await fake.slash(admin, channel, "admin settings")).response()
    assert "mensajes públicos en **Deutsch**" in again.all_text
    mark = fake.mark()
    await (await fake.slash(admin, channel, "admin settings", language="server")).response()
    told = await fake.wait_for_message(channel, lambda m: "🌐" in m.content, after=mark)
    assert "de Hangar sur ce serveur est désormais : Français" in told.content
    assert fake.violations == []
