"""Sentence pieces First in Flight composes its texts from, each said to be translated (issue 30).

Lists, counts and shortened texts keep their parts, so the bot tells every piece in the reader's
language while the English reads exactly as before.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.core.text_fit import shorten
from rules.core.words import Said, parts_of, said


def either(items: Sequence[str]) -> str:
    """'Friend or Technology': alternatives, each told on its own ("" for none)."""
    if not items:
        return ""
    told = items[0]
    for item in items[1:]:
        told = said("{first} or {second}", first=told, second=item)
    return told


def listed(items: Sequence[str]) -> str:
    """'Glide, Upgrade 3, Pitch Instability': names in a row ("" for none)."""
    if not items:
        return ""
    told = items[0]
    for item in items[1:]:
        told = said("{first}, {second}", first=told, second=item)
    return told


def fit(text: str, limit: int) -> str:
    """`text` within `limit` characters in English; a Said keeps its parts (the bot shortens
    each language's own words to the limit)."""
    short = shorten(text, limit)
    if not isinstance(text, Said):
        return short
    return text if short == str(text) else Said(short, parts_of(text))


def coins(n: int) -> Said:
    """'1 coin', '3 coins'."""
    return said("{n} coin", n=n) if n == 1 else said("{n} coins", n=n)


def cards(n: int) -> Said:
    """'1 card', '3 cards'."""
    return said("{n} card", n=n) if n == 1 else said("{n} cards", n=n)


def upgrade_cards(n: int) -> Said:
    """'1 Upgrade card', '3 Upgrade cards'."""
    return said("{n} Upgrade card", n=n) if n == 1 else said("{n} Upgrade cards", n=n)


def problems(n: int) -> Said:
    """'1 Problem', '2 Problems'."""
    return said("{n} Problem", n=n) if n == 1 else said("{n} Problems", n=n)


def dev_cards(n: int, kind: str) -> Said:
    """'2 skill cards': cards of a deck, its kind as the engine names it (lowercase)."""
    if kind == "friend":
        return said("{n} friend card", n=n) if n == 1 else said("{n} friend cards", n=n)
    if kind == "technology":
        return said("{n} technology card", n=n) if n == 1 else said("{n} technology cards", n=n)
    if kind == "upgrade":
        return said("{n} upgrade card", n=n) if n == 1 else said("{n} upgrade cards", n=n)
    return said("{n} skill card", n=n) if n == 1 else said("{n} skill cards", n=n)


def no_card_left(kind: str) -> Said:
    """'No skill card was left to gain.' (the deck and its discards are empty)."""
    if kind == "friend":
        return said("No friend card was left to gain.")
    if kind == "technology":
        return said("No technology card was left to gain.")
    if kind == "upgrade":
        return said("No upgrade card was left to gain.")
    return said("No skill card was left to gain.")
