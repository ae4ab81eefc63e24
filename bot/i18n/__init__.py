"""Hangar's message catalogue: gettext `.po` files, one folder per language (issue 30).

Message ids are the English source strings, so a missing translation falls back to English by
construction (never to a key) and translators see the sentence they translate. Placeholders are
named (`{player}`), plurals go through `ntranslate`. Pure: no discord, no database, so services
and render may use it. A language's catalogue is read from its `.po` the first time it is asked
for (Babel parses it once; only a dict of its strings stays in memory).

Refusals come from pure code (rules engines, services) as `rules.core.errors.said(template,
**args)`: the English sentence plus its message id and values; `translate_parts` says it in the
reader's language, and `extract` collects every `said("…")` literal into the template.
"""

from __future__ import annotations

import gettext
import re
import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

ENGLISH = "en"
PSEUDO = "pseudo"  # not a language: English, ~40 % longer and accented, to find overflow
DOMAIN = "hangar"  # the bot's own words; each game's words and the pictures' have their own file
LOCALES = Path(__file__).resolve().parents[2] / "locales"
TEMPLATE = LOCALES / f"{DOMAIN}.pot"
# Source folder → catalogue file, so a game's words (and its translators) stay in one file.
DOMAINS: dict[str, str] = {
    "rules/takeoff": "takeoff",
    "rules/flight": "flight",
    "rules/first_in_flight": "first_in_flight",
    "bot/render": "pictures",
}

Key = tuple[str | None, str]  # (context, English singular)
NAME_CONTEXTS = ("command", "option")  # names Discord restricts: lowercase, no spaces, ≤ 32


@dataclass(frozen=True)
class Catalogue:
    """One language's translated strings and its plural rule."""

    singles: Mapping[Key, str]
    plurals: Mapping[Key, tuple[str, ...]]
    plural_index: Callable[[int], int]


def po_path(language: str, domain: str = DOMAIN) -> Path:
    """Where one file of a language's catalogue lives."""
    return LOCALES / language / "LC_MESSAGES" / f"{domain}.po"


def domain_of(source: str) -> str:
    """The catalogue file a source file's strings go to ("rules/flight/text.py" → "flight")."""
    path = source.replace("\\", "/")
    return next((d for folder, d in DOMAINS.items() if path.startswith(folder + "/")), DOMAIN)


def domains() -> tuple[str, ...]:
    """Every catalogue file name, the bot's own first."""
    return (DOMAIN, *dict.fromkeys(DOMAINS.values()))


@cache
def shipped() -> tuple[str, ...]:
    """The languages with a catalogue folder (adding a language is adding its folder)."""
    if not LOCALES.is_dir():
        return ()
    return tuple(sorted(p.name for p in LOCALES.iterdir() if po_path(p.name).is_file()))


_forced: str | None = None  # HANGAR_FORCE_LANGUAGE: one language for every reader


def force(language: str | None) -> None:
    """Make every reader's language `language` (the pseudo-locale finds overflow; None: off)."""
    global _forced
    _forced = None if language is None else _shipped_language(language)


def normalise(locale: str | None) -> str:
    """A shipped language for a Discord locale: "de", "fr", "es-ES" → "es", else English."""
    return _forced if _forced is not None else _shipped_language(locale)


def _shipped_language(locale: str | None) -> str:
    """`normalise` without the forced language."""
    if not locale:
        return ENGLISH
    tag = _tag(locale)
    if tag == PSEUDO or tag in shipped():
        return tag
    return ENGLISH


@lru_cache(maxsize=128)
def _tag(locale: str) -> str:
    """A locale's language subtag: "en-US" → "en" (asked ~100 times a move: kept)."""
    return locale.replace("_", "-").split("-")[0].strip().lower()


@cache
def catalogue(language: str) -> Catalogue:
    """A shipped language's strings, read once from its `.po` (fuzzy and empty ones left out)."""
    singles: dict[Key, str] = {}
    plurals: dict[Key, tuple[str, ...]] = {}
    plural_expr = "(n != 1)"
    for domain in domains():  # a file not translated yet is simply absent: English
        if po_path(language, domain).is_file():
            plural_expr = _read_po(po_path(language, domain), singles, plurals) or plural_expr
    return Catalogue(singles, plurals, gettext.c2py(plural_expr))


# Every bot process reads all catalogues at start-up (the slash commands are localised in each
# sync). Babel's general parser took ~0.25 s of CPU for the 15 files; the running bot reads
# only msgctxt/msgid/msgid_plural/msgstr[n] and the fuzzy flag, so it reads them itself (~4×
# faster). `python -m bot.i18n` still writes and checks the files with Babel.
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}
_ESCAPE = re.compile(r"\\(.)")


def _unquote(text: str) -> str:
    """The value of one quoted .po string."""
    inner = text.strip()[1:-1]
    return _ESCAPE.sub(lambda m: _ESCAPES.get(m[1], m[0]), inner) if "\\" in inner else inner


def _read_po(
    path: Path, singles: dict[Key, str], plurals: dict[Key, tuple[str, ...]]
) -> str | None:
    """Add a .po file's complete, non-fuzzy entries; return its plural expression (header)."""
    entry: dict[str, str] = {}
    fuzzy, field, plural_expr = False, "", None

    def keep() -> None:
        nonlocal plural_expr
        context, msgid = entry.get("msgctxt"), entry.get("msgid")
        if msgid == "":  # the header
            found = re.search(r"^Plural-Forms:.*\bplural=([^;]+)", entry.get("msgstr", ""), re.M)
            plural_expr = found[1].strip() if found else plural_expr
        elif msgid is None or fuzzy:
            return
        elif "msgid_plural" in entry:
            forms = [entry[k] for k in sorted(k for k in entry if k.startswith("msgstr["))]
            if forms and all(forms):
                plurals[(context, msgid)] = tuple(forms)
        elif entry.get("msgstr"):
            singles[(context, msgid)] = entry["msgstr"]

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#~"):  # blank, or an obsolete entry
            continue
        if line.startswith('"'):  # the next piece of a long string
            entry[field] += _unquote(line)
            continue
        keyword = line.split(" ", 1)[0]
        if field.startswith("msgstr") and (line.startswith("#") or keyword in ("msgctxt", "msgid")):
            keep()  # the entry before this one is complete
            entry, fuzzy, field = {}, False, ""
        if line.startswith("#"):
            fuzzy = fuzzy or (line.startswith("#,") and "fuzzy" in line)
            continue
        field = keyword
        entry[field] = _unquote(line[len(keyword) :])
    keep()
    return plural_expr


def _format(text: str, english: str, args: Mapping[str, object]) -> str:
    """Fill named placeholders; a translation naming an unknown one falls back to English."""
    try:
        return text.format_map(args)
    except (KeyError, IndexError, ValueError):
        return english.format_map(args)


def lookup(language: str, msgid: str, context: str | None = None) -> str | None:
    """The translation of `msgid` in a shipped language, or None where it has none."""
    if language in (ENGLISH, PSEUDO) or language not in shipped():
        return None
    return catalogue(language).singles.get((context, msgid))


def translate(locale: str | None, msgid: str, **args: object) -> str:
    """`msgid` (English) in `locale`'s language, placeholders filled; English where missing."""
    return ptranslate(locale, None, msgid, **args)


def ptranslate(locale: str | None, context: str | None, msgid: str, **args: object) -> str:
    """`translate` for a string whose meaning depends on `context` (a command name, …)."""
    language = normalise(locale)
    found = lookup(language, msgid, context) or msgid
    if language == PSEUDO:  # before the placeholders are filled: names stay as they are
        found = pseudo_name(found) if context in NAME_CONTEXTS else pseudo(found)
    return _format(found, msgid, args) if args else found


def translate_parts(locale: str | None, parts: Iterable[tuple[str, Mapping[str, object]]]) -> str:
    """A sentence said in parts (msgid, args), each translated on its own, joined by a space.

    The arguments are filled in as they are: names and `{seatN}` placeholders are never looked
    up, so a player called "Start" stays "Start"; only a value that is itself a `Said` (a card's
    name in a log line) is translated.
    """
    told = ""
    for msgid, args in parts:
        if not msgid.strip():  # a line break between paragraphs: nothing to translate
            piece = msgid
        else:
            piece = translate(locale, msgid, **{k: say(locale, v) for k, v in args.items()})
        # Sentences share a line, separated by a space; a "\n" part (`lines`) breaks the line.
        glue = "" if not told or told.endswith("\n") or piece.startswith("\n") else " "
        told += glue + piece
    return told


def say(locale: str | None, text: T) -> T | str:
    """Rules' words in `locale`'s language: a `Said` translated part by part; anything else as is.

    The one call the bot makes on every text a rules engine hands it (labels, log lines, prompts).
    """
    parts = getattr(text, "parts", None)
    if parts is None or not isinstance(text, str):
        return text
    if normalise(locale) == ENGLISH:
        return str(text)
    return translate_parts(locale, parts)


def ntranslate(locale: str | None, singular: str, plural: str, count: int, **args: object) -> str:
    """The form of a message for `count` (placeholder `{count}`), in `locale`'s language."""
    language = normalise(locale)
    values = {"count": count, **args}
    english = singular if count == 1 else plural
    forms: tuple[str, ...] | None = None
    if language not in (ENGLISH, PSEUDO) and language in shipped():
        book = catalogue(language)
        forms = book.plurals.get((None, singular))
        if forms is not None:
            index = book.plural_index(count)
            return _format(forms[min(index, len(forms) - 1)], english, values)
    return _format(pseudo(english) if language == PSEUDO else english, english, values)


# --- the pseudo-locale -------------------------------------------------------------------------

ACCENTED = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "åƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ",
)
# Kept as they are: placeholders, code spans (command names), mentions and link targets.
PROTECTED = re.compile(r"\{[^{}]*\}|`[^`]*`|<[^<>]*>|\]\([^()]*\)|https?://\S+")
GROWTH = 1.4  # German runs ~30 % longer than English; test with more


def accent(text: str) -> str:
    """Every ASCII letter accented, protected spans left alone."""
    out: list[str] = []
    last = 0
    for match in PROTECTED.finditer(text):
        out.append(text[last : match.start()].translate(ACCENTED))
        out.append(match.group())
        last = match.end()
    out.append(text[last:].translate(ACCENTED))
    return "".join(out)


def pseudo(text: str, limit: int | None = None) -> str:
    """`[Ŵéļçöɱé ţö Ĥåñĝåŕ ~~~~]`: ~40 % longer, accented, bracketed, within `limit`."""
    body = accent(text)
    target = round(len(text) * GROWTH)
    if limit is not None:
        target = min(target, limit)
    padding = max(0, target - len(body) - 3)
    framed = f"[{body} {'~' * padding}]" if padding else f"[{body}]"
    if limit is not None and len(framed) > limit:
        return body[:limit]
    return framed


def pseudo_name(name: str, limit: int = 32) -> str:
    """A command or option name, pseudo-localised: still lowercase letters, `-` and `_`."""
    body = name.translate(ACCENTED)
    target = min(limit, round(len(name) * GROWTH))
    return (body + "_" * max(0, target - len(body)))[:limit]


def placeholders(text: str) -> set[str]:
    """The named placeholders of a message (`{player}` → "player")."""
    try:
        return {field for _, field, _, _ in string.Formatter().parse(text) if field}
    except ValueError:
        return {"<unbalanced braces>"}
