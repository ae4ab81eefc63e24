"""`python -m bot.i18n`: completeness per language, stale and broken entries, the pseudo-locale,
and the slash commands' translator (issue 30)."""

from __future__ import annotations

import shutil
from pathlib import Path

import discord
import pytest
from babel.messages.catalog import Catalog
from discord import app_commands
from discord.app_commands import TranslationContext
from discord.app_commands import TranslationContextLocation as Where

import bot.i18n as i18n
from bot.edge.app import registered_command_strings
from bot.edge.locale import HangarTranslator
from bot.i18n import placeholders, tools
from bot.i18n.__main__ import main

SHIPPED = ("de", "es", "fr")


@pytest.fixture(scope="module")
def templates() -> dict[str, Catalog]:
    """The English templates, freshly extracted from the commands and the code."""
    return tools.build_templates(registered_command_strings())


@pytest.fixture(scope="module")
def template(templates: dict[str, Catalog]) -> Catalog:
    """The bot's own template (commands, /help, the services' refusals)."""
    return templates[i18n.DOMAIN]


def test_german_french_and_spanish_are_complete(templates: dict[str, Catalog]) -> None:
    """Every English string has a usable translation in each shipped language (CI fails if not)."""
    assert set(SHIPPED) <= set(i18n.shipped())
    for report in tools.check_all(templates):
        assert report.missing == [], (report.language, report.missing)
        assert report.broken == [], (report.language, report.broken)
        assert report.fuzzy == [] and report.stale == [], report.language


def test_the_template_holds_every_command_text_and_marked_string(template: Catalog) -> None:
    """Command names (with their context), descriptions, choices and /help's own sentences."""
    assert template.get("game", "command") is not None
    assert template.get("turn_limit", "option") is not None
    assert template.get("server default", "choice") is not None
    assert template.get("Take a seat in this channel's lobby") is not None
    assert template.get("Hangar — help") is not None
    assert len(template) > 200


def test_the_command_line_check_fails_when_a_language_lacks_a_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A German catalogue with one key removed, one wrong placeholder and one left-over entry."""
    german = (i18n.po_path("de")).read_text(encoding="utf-8")
    german = german.replace('msgstr "Ein Spiel in diesem Kanal spielen"', 'msgstr ""')
    german = german.replace("auf **{language}**", "auf **{sprache}**")
    german += '\nmsgid "A sentence the code no longer says"\nmsgstr "Ein alter Satz"\n'
    shutil.copytree(i18n.po_path("de").parent, tmp_path / "de" / "LC_MESSAGES")
    path = tmp_path / "de" / "LC_MESSAGES" / "hangar.po"
    path.write_text(german, encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALES", tmp_path)
    i18n.shipped.cache_clear()
    try:
        assert main(["check"]) == 1
    finally:
        i18n.shipped.cache_clear()
    out = capsys.readouterr().out
    assert "de: INCOMPLETE" in out
    assert "Play a game in this channel" in out.split("missing:")[1].split("unusable")[0]
    assert "1 unusable:" in out and "{sprache}" in out
    assert "stale" in out and "A sentence the code no longer says" in out


def test_each_game_and_the_pictures_have_their_own_file(templates: dict[str, Catalog]) -> None:
    """A string goes to its folder's file; one the bot already says is not asked twice."""
    assert i18n.domain_of("rules/flight/text.py") == "flight"
    assert i18n.domain_of("rules/core/messages.py") == i18n.DOMAIN
    assert i18n.domain_of("bot/render/takeoff.py") == "pictures"
    assert set(templates) == set(i18n.domains())
    bot_ids = {(m.context, m.id) for m in templates[i18n.DOMAIN] if m.id}
    for domain, found in templates.items():
        for message in found:
            if message.id and domain != i18n.DOMAIN:
                assert (message.context, message.id) not in bot_ids, message.id
                assert all(
                    i18n.domain_of(path) == domain or path.startswith("assets/cards/")
                    for path, _ in message.locations
                )


def test_the_pseudo_catalogue_keeps_placeholders_and_discord_limits(
    templates: dict[str, Catalog],
) -> None:
    """Each pseudo string is accented and longer; names stay valid, descriptions ≤ 100."""
    fake = tools.pseudo_catalogue(templates)
    assert len(fake) == sum(len(t) for t in templates.values())
    for message in fake:
        if not message.id:
            continue
        english = message.id if isinstance(message.id, str) else message.id[0]
        text = message.string if isinstance(message.string, str) else message.string[0]
        assert placeholders(text) == placeholders(english), english
        if message.context in ("command", "option"):
            assert tools.valid_command_name(text), text
        elif "slash command" in message.auto_comments:
            assert 1 <= len(text) <= 100, text
        if i18n.accent(english) != english:  # some letter outside the placeholders
            assert text != english, english


def context(where: Where) -> TranslationContext[Where, None]:
    """A translation context of one kind."""
    return TranslationContext(where, None)  # type: ignore[arg-type]


async def test_the_translator_gives_discord_each_language() -> None:
    """German, French and Spanish (Spain and Latin America); None for English or unknown."""
    translator = HangarTranslator()
    game = app_commands.locale_str("game")
    name = context(Where.command_name)
    assert await translator.translate(game, discord.Locale.german, name) == "spiel"
    assert await translator.translate(game, discord.Locale.french, name) == "partie"
    assert await translator.translate(game, discord.Locale.spain_spanish, name) == "partida"
    assert (
        await translator.translate(game, discord.Locale.latin_american_spanish, name) == "partida"
    )
    assert await translator.translate(game, discord.Locale.american_english, name) is None
    assert await translator.translate(game, discord.Locale.japanese, name) is None
    unknown = app_commands.locale_str("A description nobody translated")
    described = context(Where.command_description)
    assert await translator.translate(unknown, discord.Locale.german, described) is None
