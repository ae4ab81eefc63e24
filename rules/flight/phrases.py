"""Small phrases Flight's sentences are built from: counted nouns and lists (issue 30).

Each phrase is a `Said`, so it is translated inside the sentence that holds it. Counted nouns
have a singular and a plural message id (a `Said` has no plural forms): the English chooses,
as `rules.core.messages.plural` does.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.core.words import Said, said

MINUS = "\u2212"  # a real minus sign: "−3", never "-3"


def n_points(n: int, shown: object = None) -> Said:
    """'1 point', '25 points' (`shown`: the number as written, e.g. with a minus sign)."""
    # Not "{count} point": that id is the bot's plural entry (ntranslate), a different kind; so
    # every counted noun here says {number}.
    number = n if shown is None else shown
    if n == 1:
        return said("{number} point", number=number)
    return said("{number} points", number=number)


def n_pts(n: int) -> Said:
    """'10 pts in hand' (a select option's description)."""
    return (
        said("{number} pt in hand", number=n) if n == 1 else said("{number} pts in hand", number=n)
    )


def n_hands(n: int) -> Said:
    """'1 hand', '15 hands' (hands of a match)."""
    return said("{number} hand", number=n) if n == 1 else said("{number} hands", number=n)


def n_cards(n: int) -> Said:
    """'1 card', '3 cards'."""
    return said("{number} card", number=n) if n == 1 else said("{number} cards", number=n)


def n_discards(n: int) -> Said:
    """'1 discard', '12 discards'."""
    return said("{number} discard", number=n) if n == 1 else said("{number} discards", number=n)


def n_landings(n: int) -> Said:
    """'1 Safe Landing', '2 Safe Landings'."""
    if n == 1:
        return said("{number} Safe Landing", number=n)
    return said("{number} Safe Landings", number=n)


def n_times(n: int) -> Said:
    """'1 time', '3 times'."""
    return said("{number} time", number=n) if n == 1 else said("{number} times", number=n)


def listing(items: Sequence[str]) -> str:
    """'Canada, India': each item told on its own ("" for none)."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return said("{first}, {rest}", first=items[0], rest=listing(items[1:]))


def semicolons(items: Sequence[str]) -> str:
    """'A; B; C': each item told on its own ("" for none)."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return said("{first}; {rest}", first=items[0], rest=semicolons(items[1:]))


def and_names(names: Sequence[str]) -> str:
    """'{seat0} and {seat2}' (seat placeholders: never translated, only the 'and')."""
    if len(names) <= 1:
        return "".join(names)
    return said("{first} and {rest}", first=names[0], rest=and_names(names[1:]))
