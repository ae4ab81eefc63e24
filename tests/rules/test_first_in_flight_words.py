"""First in Flight speaks every shipped language (issue 30): each text the engine hands the bot —
log lines, private lines, labels, descriptions, prompts, explanations, refusals, the ending and
the rules pages — is a `Said` whose every part is in the catalogue, so German, French and
Spanish readers get whole sentences in their language, with no English left over."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from functools import cache

import pytest

from bot.i18n import lookup, say
from rules.core import Event
from rules.core.explain import explain_options
from rules.core.words import Said, dump_parts
from rules.first_in_flight import GAME
from rules.first_in_flight.keys import Descend, Draw, Key, Move, StartArea, format_key
from rules.first_in_flight.state import State

LANGUAGES = ("de", "fr", "es")
GAMES = ((1, 1), (2, 2), (3, 3), (4, 4), (5, 2))  # (seed, players): Gustave plays with 1 and 2
SEAT = re.compile(r"\{seat\d+\}")
ENGLISH_WORD = re.compile(r"[A-Za-z]{4,}")  # a run of plain letters: English the catalogue missed


def _offered(state: State, seat: int) -> Iterator[str]:
    """The prompt, every offered move's label, description and explanation, and refusals."""
    yield GAME.prompt(state, seat)
    for other in range(state.players):
        if other != seat:
            yield GAME.prompt(state, other)  # "Waiting for another player."
    legal = GAME.legal_actions(state, seat)
    for action in legal:
        yield action.label
        yield action.description
    for _action, text in explain_options(GAME, state, seat):
        yield text
    for name, text in GAME.view(state, seat).card_texts:  # the private panel's card texts
        yield name
        yield text
    keys = {a.key for a in legal}
    probes: list[Key] = [Move(p) for p in range(0, 40, 7)]
    probes += [Descend(), Draw(), StartArea()]
    for key in (format_key(k) for k in probes):
        if key not in keys:
            yield GAME.explain_illegal(state, seat, key)


@cache
def _played() -> tuple[tuple[str, ...], tuple[Event, ...]]:
    """Every text and every event of a few whole random games (seeded)."""
    texts: list[str] = []
    events: list[Event] = []
    for seed, players in GAMES:
        rng = random.Random(f"words:{seed}")
        state = GAME.new_game(seed, players, None)
        while active := GAME.active_players(state):
            seat = active[0]
            texts += _offered(state, seat)
            legal = GAME.legal_actions(state, seat)
            moved = GAME.apply(state, seat, rng.choice(legal).key)
            events += moved.events
            state = moved.state
        outcome = GAME.outcome(state)
        assert outcome is not None
        texts += [outcome.reason, GAME.data_note(state), GAME.prompt(state, 0)]
    for event in events:
        texts.append(event.text)
        if event.private_text is not None:
            texts.append(event.private_text)
    return tuple(t for t in texts if t), tuple(events)


@cache
def _distinct() -> tuple[str, ...]:
    """The played texts, each sentence (English and its parts) once."""
    seen: dict[str, str] = {}
    for text in _played()[0]:
        key = json.dumps(dump_parts(text), sort_keys=True, default=str) + str(text)
        seen.setdefault(key, text)
    return tuple(seen.values())


def _leaves(text: object) -> Iterator[tuple[str, bool]]:
    """(message id, True) of every part told through the catalogue, nested values included, and
    (plain value, False) for values said as they are (seats, numbers, names)."""
    if not isinstance(text, Said):
        yield str(text), False
        return
    for msgid, args in text.parts:
        if msgid.strip():
            yield msgid, True
        for value in args.values():
            yield from _leaves(value)


def _told(text: str, language: str) -> bool:
    """Whether `text` reads differently in `language`, or is only names and numbers (parts the
    catalogue keeps as they are)."""
    ids = [leaf for leaf, told in _leaves(text) if told]
    return say(language, text) != str(text) or all(lookup(language, m) == m for m in ids)


def test_every_text_of_whole_games_is_said() -> None:
    """No player-facing text is plain English any more (plain text is never translated)."""
    plain = sorted({str(t) for t in _distinct() if not isinstance(t, Said)})
    assert len(_distinct()) > 300
    assert not plain, plain[:20]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_text_is_told_in_the_language_with_nothing_left_over(language: str) -> None:
    """Each part has a translation; the told text differs from the English (unless it is only
    names and numbers), and keeps no `{placeholder}` but the seats the bot fills in."""
    untranslated: set[str] = set()
    same: list[str] = []
    unfilled: list[str] = []
    for text in _distinct():
        assert isinstance(text, Said), text  # plain text would be shown in English
        ids = [leaf for leaf, told in _leaves(text) if told]
        untranslated |= {m for m in ids if lookup(language, m) is None}
        told = say(language, text)
        if not _told(text, language):
            same.append(str(text))
        if "{" in SEAT.sub("", told) or "}" in SEAT.sub("", told):
            unfilled.append(told)
    assert not untranslated, sorted(untranslated)[:20]
    assert not same, same[:20]
    assert not unfilled, unfilled[:20]


def test_the_pseudo_locale_leaves_no_english_outside_values() -> None:
    """Pseudo-localised, every catalogue part is accented: a plain English word left in a text
    would be one that never went through the catalogue (values — names, seats — excepted)."""
    leftovers: dict[str, list[str]] = {}
    for text in _distinct():
        assert isinstance(text, Said), text
        told = SEAT.sub("", say("pseudo", text))
        for value in (leaf for leaf, said in _leaves(text) if not said):
            told = told.replace(value, "")
        if words := ENGLISH_WORD.findall(told):
            leftovers[str(text)] = words
    assert not leftovers, list(leftovers.items())[:10]


def _digits(text: str) -> list[str]:
    return sorted(re.findall(r"\d+", text))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("topic", [None, *GAME.rules_topics()])
def test_rules_pages_keep_their_numbers_and_paragraphs(topic: str | None, language: str) -> None:
    """A translated rules page has the English page's numbers and its line breaks."""
    english = GAME.rules_text(topic)
    told = say(language, english)
    assert isinstance(english, Said)
    assert told != english
    assert _digits(told) == _digits(english)
    assert len(told.split("\n")) == len(english.split("\n"))
    assert told.split("\n")[-1].startswith("-# ")  # the footnote stays a footnote


def test_stored_events_are_told_in_every_language_after_a_round_trip() -> None:
    """A log line is stored as JSON and read back long after the move: it still translates,
    exactly as the event's own sentence did in memory (its private line too)."""
    events = _played()[1]
    assert any(e.private_text for e in events)
    for event in events:
        stored = Event.model_validate_json(event.model_dump_json())
        lines: list[tuple[int | None, str]] = [(None, event.text)]
        if event.visible_to and event.private_text:
            lines.append((event.visible_to[0], event.private_text))
        for viewer, said_then in lines:
            read_back = stored.line_for(viewer)
            assert isinstance(read_back, Said) and read_back == said_then
            for language in LANGUAGES:
                assert say(language, read_back) == say(language, said_then)
                assert _told(said_then, language), said_then


def test_english_reads_exactly_as_before() -> None:
    """A Said is its English: a few sentences checked word for word."""
    state = GAME.new_game(3, 2, None)
    prompt = GAME.prompt(state, state.steps[-1].seat)
    assert isinstance(prompt, Said) and prompt == "Choose your Pilot."
    assert GAME.rules_text("flaws").endswith("\n-# Card data: unofficial stand-in set.")
    seat = state.steps[-1].seat
    event = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0].key).events[0]
    assert re.fullmatch(r"\{seat\d\} chose [A-Z][\w .&'-]+\.", event.text)
