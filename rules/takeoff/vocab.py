"""Takeoff!'s small words, said in many sentences: seat types, classes, counted nouns.

Each is a `Said` (rules/core/words.py): English to everything that does not ask, translated by
the bot part by part. Counted nouns pick their English form here, so each form is its own
message id (the languages shipped so far have the same two forms).
"""

from __future__ import annotations

from functools import reduce

from rules.core.words import Said, said

# The seat types as they appear inside sentences ("no {kind} seat is free").
SEAT_TYPES: dict[str, Said] = {
    "window": said("window"),
    "middle": said("middle"),
    "aisle": said("aisle"),
}
BUSINESS = said("Business")
ECONOMY = said("Economy")


def cabin(business: bool) -> Said:
    """The class of a row: Business or Economy."""
    return BUSINESS if business else ECONOMY


def seat_type(kind: str) -> Said:
    """A seat type's word (window, middle, aisle)."""
    return SEAT_TYPES[kind]


def seats(n: int) -> Said:
    """'1 seat', '5 seats'."""
    return said("{n} seat", n=n) if n == 1 else said("{n} seats", n=n)


def points(n: int) -> Said:
    """'1 point', '38 points'."""
    return said("{n} point", n=n) if n == 1 else said("{n} points", n=n)


def one_colour_rows(n: int) -> Said:
    """'1 one-colour row', '2 one-colour rows' (the score breakdown)."""
    if n == 1:
        return said("{n} one-colour row", n=n)
    return said("{n} one-colour rows", n=n)


def single_rows(n: int) -> Said:
    """'1 one-colour single row', '2 one-colour single rows' (what moved a score)."""
    if n == 1:
        return said("{n} one-colour single row", n=n)
    return said("{n} one-colour single rows", n=n)


def passengers(n: int) -> Said:
    """'1 passenger', '3 passengers'."""
    return said("{n} passenger", n=n) if n == 1 else said("{n} passengers", n=n)


def cards(n: int) -> Said:
    """'1 card', '5 cards'."""
    return said("{n} card", n=n) if n == 1 else said("{n} cards", n=n)


def choices(n: int) -> Said:
    """'1 choice in this row', '7 choices in this row' (a row's menu option)."""
    if n == 1:
        return said("{n} choice in this row", n=n)
    return said("{n} choices in this row", n=n)


def in_turn(items: list[Said]) -> Said:
    """Phrases one after another, separated by semicolons ('a; b; c')."""
    return reduce(lambda first, then: said("{first}; {then}", first=first, then=then), items)
