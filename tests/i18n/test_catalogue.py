"""The message catalogue (issue 30): languages, English fallback, plurals and placeholders."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import bot.i18n as i18n
from bot.i18n import ENGLISH, normalise, ntranslate, pseudo, ptranslate, translate

PO = r"""
msgid ""
msgstr ""
"Language: {lang}\n"
"Plural-Forms: nplurals=2; plural={rule};\n"
"Content-Type: text/plain; charset=utf-8\n"

msgid "Hello, {{player}}!"
msgstr "{hello}, {{player}}!"

msgid "Bad {{player}}"
msgstr "Schlecht {{spieler}}"

msgid "Fuzzy one"
msgstr ""

#, fuzzy
msgid "Unsure"
msgstr "Unsicher"

msgctxt "command"
msgid "game"
msgstr "{game}"

msgid "{{count}} seat left"
msgid_plural "{{count}} seats left"
msgstr[0] "{one}"
msgstr[1] "{many}"
"""


@pytest.fixture
def catalogues(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A German and a French catalogue in a folder of their own."""
    languages = {
        "de": ("(n != 1)", "Hallo", "spiel", "noch {count} Platz", "noch {count} Plätze"),
        "fr": ("(n > 1)", "Bonjour", "partie", "{count} siège libre", "{count} sièges libres"),
    }
    for lang, (rule, hello, game, one, many) in languages.items():
        path = tmp_path / lang / "LC_MESSAGES" / "hangar.po"
        path.parent.mkdir(parents=True)
        text = PO.format(lang=lang, rule=rule, hello=hello, game=game, one=one, many=many)
        path.write_text(text, encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALES", tmp_path)
    i18n.shipped.cache_clear()
    i18n.catalogue.cache_clear()
    yield tmp_path
    i18n.shipped.cache_clear()
    i18n.catalogue.cache_clear()


def test_discord_locales_map_to_shipped_languages(catalogues: Path) -> None:
    """de, fr; es-ES would be Spanish; English variants and unknown languages read English."""
    assert normalise("de") == "de"
    assert normalise("fr") == "fr"
    assert normalise("en-US") == normalise("en-GB") == ENGLISH
    assert normalise("pt-BR") == ENGLISH  # not shipped here: English, never nothing
    assert normalise(None) == normalise("") == ENGLISH


def test_spanish_variants_read_spanish() -> None:
    """The shipped catalogues: Spain's and Latin America's Spanish both read Spanish."""
    assert normalise("es-ES") == normalise("es-419") == "es"


def test_translation_with_named_placeholders(catalogues: Path) -> None:
    """The German and French sentences with the player's name put in."""
    assert translate("de", "Hello, {player}!", player="Anna") == "Hallo, Anna!"
    assert translate("fr", "Hello, {player}!", player="Anna") == "Bonjour, Anna!"
    assert translate("en-US", "Hello, {player}!", player="Anna") == "Hello, Anna!"


def test_missing_fuzzy_or_broken_translations_fall_back_to_english(catalogues: Path) -> None:
    """Never a message id, never an empty string, never a KeyError."""
    assert translate("de", "Not in the catalogue") == "Not in the catalogue"
    assert translate("de", "Fuzzy one") == "Fuzzy one"
    assert translate("de", "Unsure") == "Unsure"  # a fuzzy entry waits for a translator
    assert translate("de", "Bad {player}", player="Anna") == "Bad Anna"
    assert translate("it", "Hello, {player}!", player="Anna") == "Hello, Anna!"


def test_context_tells_a_command_name_from_a_word(catalogues: Path) -> None:
    """'game' the command name is translated; the same word without context is not."""
    assert ptranslate("de", "command", "game") == "spiel"
    assert translate("de", "game") == "game"


def test_plurals_follow_each_language_rule(catalogues: Path) -> None:
    """French counts 0 as singular, German and English do not."""
    one, many = "{count} seat left", "{count} seats left"
    assert ntranslate("de", one, many, 1) == "noch 1 Platz"
    assert ntranslate("de", one, many, 0) == "noch 0 Plätze"
    assert ntranslate("fr", one, many, 0) == "0 siège libre"
    assert ntranslate("fr", one, many, 2) == "2 sièges libres"
    assert ntranslate("en", one, many, 0) == "0 seats left"
    assert ntranslate("en", one, many, 1) == "1 seat left"


def test_pseudo_locale_is_longer_accented_and_keeps_placeholders() -> None:
    """The example of the issue, and placeholders, code spans and links left untouched."""
    assert pseudo("Welcome to Hangar") == "[Ŵéļçöɱé ţö Ĥåñĝåŕ ~~~~]"
    text = "Hello {player}, use `/game new` or [this](https://x.y/z)"
    made = pseudo(text)
    assert "{player}" in made and "`/game new`" in made and "(https://x.y/z)" in made
    assert len(made) >= 1.35 * len(text)
    assert translate("pseudo", "Hello, {player}!", player="Anna").startswith("[Ĥéļļö, Anna!")
    assert len(pseudo("x" * 99, limit=100)) <= 100


def test_the_bots_own_po_reader_agrees_with_babel() -> None:
    """The running bot reads `.po` files itself (4× faster at start-up): same strings as Babel."""
    from babel.messages.pofile import read_po

    for language in i18n.shipped():
        for domain in i18n.domains():
            path = i18n.po_path(language, domain)
            if not path.is_file():
                continue
            singles: dict[i18n.Key, str] = {}
            plurals: dict[i18n.Key, tuple[str, ...]] = {}
            expr = i18n._read_po(path, singles, plurals)
            with path.open("rb") as handle:
                parsed = read_po(handle, locale=language, domain=domain)
            want_singles = {
                (m.context, m.id): m.string
                for m in parsed
                if m.id and isinstance(m.id, str) and not m.fuzzy and m.string
            }
            want_plurals = {
                (m.context, m.id[0]): tuple(m.string)
                for m in parsed
                if m.id and not isinstance(m.id, str) and not m.fuzzy and all(m.string)
            }
            assert singles == want_singles, (language, domain)
            assert plurals == want_plurals, (language, domain)
            assert expr == parsed.plural_expr, (language, domain)
