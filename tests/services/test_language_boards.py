"""The board's log lines in the server's language (issue 30): each entry translated before runs
are folded, names put in last, and the kept log (BoardLogs, the pipeline's lines) serving every
language without mixing them."""

from __future__ import annotations

from bot.services import GameService
from bot.services.boards import (
    BOARD_LINES,
    BoardLogs,
    Entry,
    Story,
    lines_in,
    told_entries,
    turn_line,
)
from bot.store.repository import SeatRecord
from rules.core.errors import said
from tests.services.conftest import ALICE, BOB, CHANNEL, started

SEATS = (SeatRecord(0, 1, "Alice"), SeatRecord(1, 2, "Bob"))
# Sentences of the bot's own catalogue (locales/*/LC_MESSAGES/hangar.po), said about seats.
JOINED = said("{player} joined.", player="{seat0}")
LEFT = said("{player} left.", player="{seat1}")
ENTRIES: tuple[Entry, ...] = (("lobby", JOINED, None), ("lobby", LEFT, None))


def test_each_entry_is_told_in_the_language_then_names_go_in() -> None:
    """German, French and Spanish lines; English exactly as before; names never translated."""
    assert told_entries(ENTRIES, SEATS, BOARD_LINES) == ["Alice joined.", "Bob left."]
    assert told_entries(ENTRIES, SEATS, BOARD_LINES, "de") == [
        "Alice ist beigetreten.",
        "Bob ist gegangen.",
    ]
    assert told_entries(ENTRIES, SEATS, BOARD_LINES, "fr") == [
        "Alice a rejoint la partie.",
        "Bob est parti.",
    ]
    assert told_entries(ENTRIES, SEATS, BOARD_LINES, "es")[0] == "Alice se ha unido."


def test_names_of_then_are_kept_in_every_language() -> None:
    """An entry told with the seat holders of its time names them, in German too."""
    entries: tuple[Entry, ...] = (("lobby", JOINED, ("Carol", "Bob")), ENTRIES[1])
    assert told_entries(entries, SEATS, BOARD_LINES, "de") == [
        "Carol ist beigetreten.",
        "Bob ist gegangen.",
    ]


def test_a_story_is_english_and_tells_any_language_without_mixing() -> None:
    """The pipeline's lines: a tuple of English lines (as before) that tells other languages on
    demand; asking for one language never changes what another gets."""
    story = Story(ENTRIES, SEATS, BOARD_LINES)
    assert tuple(story) == ("Alice joined.", "Bob left.")
    german = story.told("de")
    assert story.told("fr") == ["Alice a rejoint la partie.", "Bob est parti."]
    assert story.told("de") == german == ["Alice ist beigetreten.", "Bob ist gegangen."]
    assert story.told("en") == list(story) == ["Alice joined.", "Bob left."]
    assert lines_in(story, "de") == german
    assert lines_in(("told elsewhere.",), "de") == ["told elsewhere."]  # not a Story: as it came


def test_the_kept_log_keeps_sentences_not_one_languages_words() -> None:
    """BoardLogs keeps the entries' Said texts: the same kept log tells German and English."""
    logs = BoardLogs()

    class Record:  # the two fields BoardLogs keys a state by, and the game's pk
        pk, version, updated_at = 7, 3, 1.5

    logs.keep(Record(), ENTRIES)  # type: ignore[arg-type]
    kept = logs.entries(Record())  # type: ignore[arg-type]
    assert kept is not None
    assert told_entries(kept, SEATS, BOARD_LINES, "de")[0] == "Alice ist beigetreten."
    assert told_entries(kept, SEATS, BOARD_LINES) == ["Alice joined.", "Bob left."]


def test_a_turn_told_in_one_line_per_language() -> None:
    """The line a past board shrinks to, from lines told in German; the quiet turn too."""
    german = told_entries(ENTRIES, SEATS, BOARD_LINES, "de")
    assert turn_line(german, ["Alice", "Bob"], language="de") == (
        "Alice ist beigetreten; Bob ist gegangen."
    )
    assert turn_line([], ["Alice"], language="de") == "Das Spiel ging unten weiter."
    assert turn_line([], ["Alice"]) == "The game went on below."


async def test_the_pipelines_lines_and_the_stored_log_agree_in_each_language(
    service: GameService,
) -> None:
    """After moves (the kept log, then a read-back), the lines a board gets tell the same as
    `story` in every language."""
    await started(service)
    for user, key in ((ALICE, "bid:1"), (BOB, "bid:2"), (ALICE, "bid:3")):
        result = await service.act(CHANNEL, user, key, None)
        assert isinstance(result.lines, Story)
        for language in ("en", "de", "fr"):
            stored = await service.boards.story(CHANNEL, None, limit=BOARD_LINES, language=language)
            assert lines_in(result.lines, language) == stored
        assert list(result.lines) == await service.boards.story(CHANNEL, None, limit=BOARD_LINES)
