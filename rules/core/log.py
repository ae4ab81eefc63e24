"""The board's log as a story: routine lines of one player's turn collapse into one line.

"bob ended their turn." + "bob drew a card." reads "bob ended their turn and drew a card.";
three Flight draws read "alice drew Glide + Glide + Upgrade 3 into the Flight." Lines that
matter on their own (a play, a landing, a score) still start their own line, so the log tells
the story instead of repeating "drew a card" (issue 15). Pure: texts and event kinds only.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

# Event kinds that only keep the game going; they join the line of the same player's turn.
ROUTINE_KINDS = frozenset(
    {
        "turn_ended",  # Takeoff!
        "card_drawn",
        "cards_drawn",  # Flight
        "card_discarded",
        "discard_taken",
        "card_added",  # First in Flight: a card drawn into the Flight
        "coins",
        "gained",
        "start_area",
    }
)
# "{seat1} drew a card." / "You drew Fog." / "Gustave moved to #3." → subject, predicate
_SUBJECT = re.compile(r"^(?P<who>\{seat\d+\}|You|Gustave) (?P<rest>[^\n]+?)\.?$")


@dataclass
class _Line:
    """One output line: a subject and what they did, or a plain text line."""

    who: str
    parts: list[str] = field(default_factory=list)
    story: bool = False  # holds a line that matters on its own
    text: str = ""  # a line without a subject, kept as it is
    sentences: list[str] = field(default_factory=list)  # the entries as they were said

    def render(self, english: bool) -> str:
        """The line as players read it."""
        if not self.who:
            return self.text
        if not english:  # another language's grammar: the sentences one after another
            return " ".join(self.sentences)
        return _told(self.who, tuple(self.parts))


def collapse(entries: Iterable[tuple[str, str]], *, english: bool = True) -> list[str]:
    """(kind, text) log entries, oldest first → lines with routine ones folded in.

    Entries already told in another language (`english=False`) are grouped the same way, but
    each keeps its own sentence: joining predicates with "and" is English grammar.
    """
    lines: list[_Line] = []
    for kind, text in entries:
        split = _subject(text)
        routine = kind in ROUTINE_KINDS
        last = lines[-1] if lines else None
        if split is None:
            lines.append(_Line("", text=text))
            continue
        who, rest = split
        joins = last is not None and last.who == who and (routine or not last.story)
        if joins and last is not None:
            last.parts.append(rest)
            last.sentences.append(text.strip())
            last.story = last.story or not routine
        else:
            lines.append(_Line(who, [rest], story=not routine, sentences=[text.strip()]))
    return [line.render(english) for line in lines]


# A board tells the same recent entries after every move: each entry is split, and each line
# told, once (bounded caches of pure functions).
@functools.lru_cache(maxsize=4096)
def _subject(text: str) -> tuple[str, str] | None:
    """(subject, predicate) of a log text, or None for a line without a subject."""
    match = _SUBJECT.match(text.strip())
    return None if match is None else (match["who"], match["rest"])


@functools.lru_cache(maxsize=4096)
def _told(who: str, parts: tuple[str, ...]) -> str:
    """One subject's parts as a sentence."""
    text = f"{who} {_join(_merge_verbs(parts))}"
    return text if text.endswith(("!", "?")) else text + "."


def _merge_verbs(parts: Sequence[str]) -> list[str]:
    """Neighbouring parts with the same verb and ending share them: 'drew A + B into the Flight'."""
    merged: list[str] = []
    for part in parts:
        if merged and _same_frame(merged[-1], part):
            head, tail = _frame(merged[-1])
            obj = _frame(part)[0].split(" ", 1)[-1]
            merged[-1] = f"{head} + {obj}{tail}"
        else:
            merged.append(part)
    return merged


_TAILS = (" into the Flight", " from the pack", " into their deck")


def _frame(part: str) -> tuple[str, str]:
    """(part without its fixed ending, the ending) — e.g. ('drew Glide', ' into the Flight')."""
    for tail in _TAILS:
        if part.endswith(tail):
            return part.removesuffix(tail), tail
    return part, ""


def _same_frame(previous: str, part: str) -> bool:
    """Same verb and the same fixed ending ('drew … into the Flight')."""
    prev_head, prev_tail = _frame(previous)
    head, tail = _frame(part)
    return (
        prev_tail == tail
        and prev_tail != ""
        and prev_head.split(" ", 1)[0] == head.split(" ", 1)[0]
    )


def _join(parts: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c' ('…, then c' after a part that has its own 'and')."""
    if len(parts) <= 1:
        return "".join(parts)
    glue = ", then " if " and " in parts[-2] else " and "
    return ", ".join(parts[:-1]) + glue + parts[-1]
