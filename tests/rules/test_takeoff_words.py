"""Takeoff! speaks every shipped language (issue 30): each text the engine hands the bot — log
lines, private lines, labels, menu titles, descriptions, prompts, explanations, refusals, the
score breakdown, the ending and the rules pages — is a `Said` whose every part is in the
catalogue, so German, French and Spanish readers get whole sentences with no English left over."""

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
from rules.takeoff import GAME, TakeoffState
from rules.takeoff.explain import why

LANGUAGES = ("de", "fr", "es")
# (seed, options): both scorings, narrow and wide Business, both row rules.
GAMES: tuple[tuple[int, dict[str, object]], ...] = (
    (1, {}),
    (2, {"scoring": "A", "business_rows": 1, "row_rule": "single"}),
    (3, {"business_rows": 6}),
)
EXPLAIN_EVERY = 4  # explanations cost a look-ahead each: every 4th decision is plenty
# Keys that are often illegal, each refused with a reason of its own.
PROBES = (
    *("play:window", "play:middle", "play:aisle", "play:business", "play:pinch", "play:family"),
    *("play:stretcher", "play:long_wait", "play:food", "play:swindler", "play:old_friends"),
    *("change:window", "ticket", "end", "decline", "seat:1A", "seat:12F", "seat:13Z"),
    *("row:3", "back", "take:window", "pair:4AB", "play:nothing"),
)
SEAT = re.compile(r"\{seat\d+\}")
ENGLISH_WORD = re.compile(r"[A-Za-z]{4,}")  # a run of plain letters: English the catalogue missed


def _offered(state: TakeoffState, seat: int, explain: bool) -> Iterator[str]:
    """The prompts, every offered move's label, menu title, description and explanation, and
    the refusals of the probe keys."""
    yield GAME.prompt(state, seat)
    yield GAME.prompt(state, 1 - seat)  # "Waiting for {seat1}."
    legal = GAME.legal_actions(state, seat)
    for action in legal:
        yield action.label
        yield action.description
    if explain:
        for _action, text in explain_options(GAME, state, seat):
            yield text
    keys = {a.key for a in legal}
    for key in PROBES:
        if key not in keys:
            yield GAME.explain_illegal(state, seat, key)


@cache
def _played() -> tuple[tuple[str, ...], tuple[Event, ...], frozenset[str]]:
    """Every text, every event and every menu title of a few whole random games (seeded)."""
    texts: list[str] = []
    events: list[Event] = []
    groups: set[str] = set()
    for seed, options in GAMES:
        rng = random.Random(f"words:{seed}")
        state = GAME.new_game(seed, 2, options)
        decision = 0
        while active := GAME.active_players(state):
            seat = active[0]
            texts += _offered(state, seat, decision % EXPLAIN_EVERY == 0)
            legal = GAME.legal_actions(state, seat)
            groups |= {a.group for a in legal if a.group}
            moved = GAME.apply(state, seat, rng.choice(legal).key)
            texts.append(why(state, moved.state, seat))
            events += moved.events
            state, decision = moved.state, decision + 1
        outcome = GAME.outcome(state)
        assert outcome is not None
        texts += [outcome.reason, GAME.prompt(state, 0), *GAME.score_breakdown(state)]
    for event in events:
        texts.append(event.text)
        if event.private_text is not None:
            texts.append(event.private_text)
    return tuple(t for t in texts if t), tuple(events), frozenset(groups)


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
    # The shared words of rules/core (e.g. "(Rules: {topic}.)") live in the bot's own file.
    own = {m for m in untranslated if lookup(language, m) is None and _is_takeoffs(m)}
    assert not own, sorted(own)[:20]
    assert not same, same[:20]
    assert not unfilled, unfilled[:20]


def _is_takeoffs(msgid: str) -> bool:
    """Whether a message id is in Takeoff!'s own catalogue file (locales/takeoff.pot)."""
    return msgid in _takeoff_ids()


@cache
def _takeoff_ids() -> frozenset[str]:
    from babel.messages.pofile import read_po

    from bot.i18n.tools import template_path

    with template_path("takeoff").open("rb") as handle:
        return frozenset(str(m.id) for m in read_po(handle) if m.id)


@pytest.mark.parametrize("language", LANGUAGES)
def test_menu_titles_are_in_the_catalogue(language: str) -> None:
    """Each select menu's title (an action's group) is a message id with a translation."""
    groups = _played()[2]
    assert len(groups) >= 5
    missing = sorted(g for g in groups if g not in _takeoff_ids() or not lookup(language, g))
    assert not missing, missing


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
    if "\n-# " in english:  # the footnote stays a footnote, last
        assert told.split("\n")[-1].startswith("-# ")


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


@pytest.mark.parametrize(
    "reason",
    [
        "The draw pile ran out for the third time; both players have had their last turn.",
        "The draw pile ran out for the third time; then {seat1} declined a last turn.",
        "Neither player can move any more, even by changing cards.",
        "All 72 seats are filled — ready for takeoff!",
    ],
)
def test_a_stored_games_ending_is_told_in_every_language(reason: str) -> None:
    """The state stores why the game ended as English text; a game loaded from the database
    still ends with a sentence each language tells (the seat left for the bot to fill)."""
    state = GAME.new_game(5, 2, None).model_copy(update={"over": True, "end_reason": reason})
    loaded = GAME.load_state(json.loads(json.dumps(GAME.dump_state(state))))
    outcome = GAME.outcome(loaded)
    assert outcome is not None and outcome.reason == reason
    assert outcome.ending is not None and isinstance(outcome.ending.text, Said)
    for language in LANGUAGES:
        said_now = say(language, outcome.reason)
        assert said_now != reason and "{" not in SEAT.sub("", said_now)
        assert SEAT.findall(said_now) == SEAT.findall(reason)
        assert say(language, GAME.prompt(loaded, 0)) != str(GAME.prompt(loaded, 0))


def test_english_reads_exactly_as_before() -> None:
    """A Said is its English: a few sentences checked word for word."""
    state = GAME.new_game(3, 2, None)
    seat = state.turn
    prompt = GAME.prompt(state, seat)
    assert isinstance(prompt, Said)
    assert prompt == "Your turn: play cards or a ticket, then end your turn — or change a card."
    assert GAME.prompt(state, 1 - seat) == f"Waiting for {{seat{seat}}}."
    end = GAME.apply(state, seat, "end").events
    assert [e.text for e in end] == [
        f"{{seat{seat}}} ended their turn.",
        f"{{seat{seat}}} drew a card.",
    ]
    assert GAME.rules_text("tickets").startswith("**Captain's tickets** — 4 per player")
    assert GAME.rules_text(None).endswith("card names are our stand-ins.")
