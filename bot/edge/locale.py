"""Who reads which language (issue 30): private answers in the user's Discord locale, public
messages in the server's chosen language, and the slash commands' own localisations.

Discord tells each interaction the user's locale and the server's; a server may choose another
language for its public messages with `/admin settings language:`.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import ENGLISH, lookup, normalise, ptranslate, translate, translate_parts
from bot.lru import Lru
from bot.store.clocks import GuildSettings
from rules.core.errors import Said

if TYPE_CHECKING:
    from bot.edge.app import HangarBot

log = logging.getLogger(__name__)

# A name's meaning depends on what it names ("ai" the command, the option, the choice), so names
# carry a gettext context; descriptions are sentences and are shared with /help.
NAME_CONTEXTS: dict[Where, str] = {
    Where.command_name: "command",
    Where.group_name: "command",
    Where.parameter_name: "option",
    Where.choice_name: "choice",
}
# Discord's rule for command and option names (lowercase where a letter has a lowercase form).
VALID_NAME = re.compile(r"^[-_\w]{1,32}$")
MAX_NAME = 32
MAX_DESCRIPTION = 100
MAX_CHOICE_NAME = 100

# The languages a server can choose for its public messages: the value stored, the name shown.
LANGUAGES: dict[str, str] = {
    "": "server default",
    "en": "English",
    "de": "Deutsch",
    "fr": "Français",
    "es": "Español",
}


# The last Discord locale seen per user and per server (interactions tell them): a DM or a
# reminder has no interaction to ask, and a board posted after a timeout has no guild_locale.
# Known in memory, bounded so a busy bot does not grow; a user's locale is also stored (one write
# when it first differs from what this process knows), so DMs and reminders after a restart still
# speak the user's language.
SEEN_USERS: Lru[int, str] = Lru(65_536)
SEEN_GUILDS: Lru[int, str] = Lru(16_384)
_WRITES: set[asyncio.Task[None]] = set()  # kept until done (the loop holds tasks weakly)


def remember(interaction: discord.Interaction[Any]) -> None:
    """Note the user's and the server's Discord locales from an interaction."""
    user, guild_id = getattr(interaction, "user", None), getattr(interaction, "guild_id", None)
    if user is not None:
        seen = str(interaction.locale.value)
        if SEEN_USERS.get(user.id) != seen:
            SEEN_USERS.put(user.id, seen)
            _store_locale(interaction.client, user.id, seen)
    found = getattr(interaction, "guild_locale", None)
    if guild_id is not None and found is not None:
        SEEN_GUILDS.put(guild_id, str(found.value))


def _store_locale(bot: Any, user_id: int, locale: str) -> None:
    """Write the user's locale beside the click, never in its way (a failure is only logged)."""
    preferences = getattr(bot, "preferences", None)  # stripped-down test bots have none
    if preferences is None:
        return

    async def write() -> None:
        try:
            await preferences.remember_locale(user_id, locale)
        except Exception:  # the language of a later DM is not worth a failed click
            log.warning("could not store the locale of user %s", user_id, exc_info=True)

    task = asyncio.get_running_loop().create_task(write())
    _WRITES.add(task)
    task.add_done_callback(_WRITES.discard)


def private_locale(interaction: discord.Interaction[Any] | None) -> str:
    """The language of an answer only this user sees: their Discord client's (no user: English)."""
    if interaction is None:
        return ENGLISH
    remember(interaction)
    return normalise(str(interaction.locale.value))


def user_locale(user_id: int | None, stored: str = "") -> str:
    """A user's language without an interaction (DMs, reminders): the last one they used with
    Hangar — known in memory, else `stored` (their preferences' `locale`), else English."""
    if user_id is None:
        return ENGLISH
    return normalise(SEEN_USERS.get(user_id) or stored)


def in_language(locale: str, text: str) -> str:
    """A `Said` sentence in `locale`'s language (English where missing); plain text as it is."""
    return translate_parts(locale, text.parts) if isinstance(text, Said) else text


def private_text(interaction: discord.Interaction[Any], text: str) -> str:
    """A sentence for this user only, in their Discord language."""
    return in_language(private_locale(interaction), text)


async def public_locale(
    bot: HangarBot, guild_id: int | None, guild_locale: str | None = None
) -> str:
    """The language of a server's public messages: its setting, else its Discord locale.

    The setting is cached by the preferences service (a board costs no query); without a
    `guild_locale` (a board after a timeout, an AI's move) the server's last seen one is used.
    """
    if guild_id is None:
        return normalise(guild_locale)
    preferences = getattr(bot, "preferences", None)  # stripped-down test bots have none
    chosen = await preferences.language(guild_id) if preferences is not None else ""
    if chosen:
        return normalise(chosen)
    return normalise(guild_locale or guild_discord_locale(bot, guild_id))


def known_public_locale(bot: Any, guild_id: int) -> str:
    """A server's public language from memory only (no query; English when unknown): for
    pictures drawn ahead, which must not wait."""
    preferences = getattr(bot, "preferences", None)
    chosen = preferences.known_language(guild_id) if preferences is not None else None
    if chosen:
        return normalise(chosen)
    return normalise(guild_discord_locale(bot, guild_id))


def guild_discord_locale(bot: Any, guild_id: int) -> str | None:
    """A server's Discord locale: as its last interaction told it, else as the gateway did."""
    seen = SEEN_GUILDS.get(guild_id)
    if seen is not None:
        return seen
    get_guild = getattr(bot, "get_guild", None)  # stripped-down test bots have no cache
    guild = get_guild(guild_id) if get_guild is not None else None
    return str(guild.preferred_locale.value) if guild is not None else None


async def interaction_language(interaction: discord.Interaction[HangarBot]) -> str:
    """The language of what an interaction posts publicly (its server's language)."""
    remember(interaction)
    bot = interaction.client
    return await public_locale(bot, interaction.guild_id, interaction_public_locale(interaction))


def interaction_public_locale(interaction: discord.Interaction[HangarBot]) -> str:
    """The server's Discord locale as an interaction tells it (before any setting)."""
    found = interaction.guild_locale
    return str(found.value) if found is not None else ENGLISH


def valid_name(text: str) -> bool:
    """A localised command, group or option name Discord accepts."""
    return bool(VALID_NAME.match(text)) and text == text.lower()


def fits(text: str, where: Where) -> bool:
    """Whether a localised string obeys Discord's rules for its place."""
    if where in (Where.command_name, Where.group_name, Where.parameter_name):
        return valid_name(text)
    limit = MAX_CHOICE_NAME if where is Where.choice_name else MAX_DESCRIPTION
    return 1 <= len(text) <= limit


class HangarTranslator(app_commands.Translator):
    """Command names, descriptions, options and choices from the catalogue (de, fr, es)."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The catalogue's text for `locale`, or None (Discord then shows the English)."""
        language = normalise(str(locale.value))
        if language == ENGLISH:
            return None
        found = lookup(language, string.message, NAME_CONTEXTS.get(context.location))
        if found is None:
            return None
        if not fits(found, context.location):
            log.warning(
                "Dropped %s %r for %s: Discord would refuse it", context.location, found, locale
            )
            return None
        return found


def command_strings(
    commands: list[app_commands.Command[Any, ..., Any] | app_commands.Group | Any],
) -> Iterator[tuple[str | None, str]]:
    """Every (context, English text) the slash commands show: names, descriptions, options."""
    stack = list(commands)
    while stack:
        node = stack.pop(0)
        if isinstance(node, app_commands.Group):
            yield "command", node.name
            yield None, node.description
            stack[:0] = node.commands
        elif isinstance(node, app_commands.Command):
            yield "command", node.name
            yield None, node.description
            for param in node.parameters:
                yield "option", param.display_name
                yield None, param.description
                for choice in param.choices:
                    yield "choice", choice.name


# /admin settings language: — the server's public language (choices shown in the admin's own).
LANGUAGE_CHOICES = [
    app_commands.Choice(name=name, value=code or "server") for code, name in LANGUAGES.items()
]


def stored_language(choice: str | None) -> str | None:
    """The value kept for a `language` choice: '' follows the server's Discord locale."""
    if choice is None:
        return None
    return "" if choice == "server" else choice


def language_name(code: str) -> str:
    """A language by its own name (as language menus show them, whatever the reader's)."""
    return LANGUAGES.get(code) or LANGUAGES[ENGLISH]


def public_language_text(chosen: str, discord_locale: str, locale: str) -> str:
    """'Deutsch', or 'server default (English)' when the server's Discord locale decides."""
    if chosen:
        return language_name(chosen)
    default = ptranslate(locale, "choice", "server default")
    return f"{default} ({language_name(normalise(discord_locale))})"


def settings_text(settings: GuildSettings, discord_locale: str, locale: str) -> str:
    """The /admin settings confirmation, in the admin's language (it is private)."""
    return translate(
        locale,
        "Server defaults: turn limit **{limit}**, on timeout **{timeout}**, reminders "
        "**{reminders}**, a thread per game **{thread}**, public messages in **{language}**.",
        limit=ptranslate(locale, "choice", settings.turn_limit),
        timeout=ptranslate(locale, "choice", settings.on_timeout),
        reminders=translate(locale, "on") if settings.reminders else translate(locale, "off"),
        thread=translate(locale, "yes") if settings.threads else translate(locale, "no"),
        language=public_language_text(settings.language, discord_locale, locale),
    )


async def announce_language(interaction: discord.Interaction[HangarBot]) -> None:
    """Tell the channel, in the new language, that public messages now use it."""
    bot = interaction.client
    discord_locale = interaction_public_locale(interaction)
    language = await public_locale(bot, interaction.guild_id, discord_locale)
    channel = bot.get_partial_messageable(interaction.channel_id or 0)
    text = translate(
        language,
        "🌐 This server's language for Hangar's public messages is now {language}.",
        language=language_name(language),
    )
    try:
        await channel.send(text)
    except discord.HTTPException as exc:  # the setting is kept; only the courtesy note failed
        log.warning("Could not tell channel %s its new language: %s", interaction.channel_id, exc)
