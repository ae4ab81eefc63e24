"""Flight speaks German, French and Spanish (issue 30): every sentence the engine says — log lines,
moves, prompts, refusals, explanations, rules pages — goes through the catalogue, part by part."""

from __future__ import annotations

import random
import re
from collections import Counter
from functools import cache

import pytest

from bot.i18n import PSEUDO, say, translate
from rules.core import Event
from rules.core.errors import IllegalActionError
from rules.core.explain import explain_options, hint, score_changes
from rules.core.words import Said
from rules.flight import GAME, FlightGame, actions
from rules.flight.data import catalogue, route_ids
from rules.flight.state import FlightOptions

LANGUAGES = ("de", "fr", "es")
GAMES = 4  # whole random games (seeded), 2–5 players
SEAT = re.compile(r"\{seat\d+\}")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
ENGLISH_RUN = re.compile(r"[A-Za-z]{4,}")  # a plain English word the catalogue never saw
CODE = re.compile(r"`[^`]*`")  # option names (`max_hands:0`) stay as they are in every language
# Typed keys a player might send at any moment: every refusal reason is told too.
KEYS = (
    "draw:pack",
    "draw:discard",
    "draw:pack3",
    "draw:pack2+discard",
    "done",
    "cancel",
    "to:XYZ",
    "play:NOPE",
    *(f"to:{route}" for route in route_ids()),
    *(f"play:{code}" for code in catalogue()),
    *(f"discard:{code}" for code in catalogue()),
)


def _game() -> FlightGame:
    """The Flight engine."""
    return GAME


@cache
def _texts() -> dict[str, list[str]]:
    """Every text whole random games say, by kind (one of each distinct English text)."""
    game = _game()
    found: dict[str, dict[str, str]] = {}

    def keep(kind: str, text: str | None) -> None:
        if text:
            found.setdefault(kind, {}).setdefault(str(text), text)

    for seed in range(GAMES):
        rng = random.Random(f"flight-words:{seed}")
        players = 2 + seed % 4
        options = {"max_hands": 2} if seed % 2 else {"match": "hands", "hands": 1}
        state = game.new_game(seed, players, options)
        for note in game.lobby_notes(FlightOptions(**options)):
            keep("lobby note", note)
        step = 0
        while active := game.active_players(state):
            seat, step = active[0], step + 1
            legal = game.legal_actions(state, seat)
            for action in legal:
                keep("label", action.label)
                keep("description", action.description)
            for other in range(players):
                keep("prompt", game.prompt(state, other))
            if step % 4 == 0:
                for _, text in explain_options(game, state, seat):
                    keep("explanation", text)
                for key in KEYS:
                    keep("refusal", game.explain_illegal(state, seat, key))
            after = game.apply(state, seat, rng.choice(legal).key)
            for event in after.events:
                keep("log line", event.text)
                keep("private line", event.private_text)
            for line in score_changes(game, state, after.state):
                keep("score change", line)
            state = after.state
        outcome = game.outcome(state)
        assert outcome is not None and outcome.ending is not None
        keep("ending", outcome.ending.text)
        for line in game.score_breakdown(state):
            keep("score breakdown", line)
        keep("data note", game.data_note(state))
    return {kind: list(texts.values()) for kind, texts in found.items()}


def _plain_values(text: object) -> list[str]:
    """The values a Said fills in as they are (names, seat placeholders, numbers, towns)."""
    values: list[str] = []
    for _, args in getattr(text, "parts", ()):
        for value in args.values():
            if isinstance(value, Said):
                values += _plain_values(value)
            else:
                values.append(str(value))
    return values


def _only_values(text: str) -> bool:
    """True when a text is made of names and numbers only (nothing to translate)."""
    rest = str(text)
    for value in sorted(_plain_values(text), key=len, reverse=True):
        rest = rest.replace(value, "")
    return not re.search(r"[A-Za-z]", rest)


def test_whole_games_say_every_kind_of_text() -> None:
    """The games reach every kind of text the test reads (a blind spot would pass silently)."""
    kinds = set(_texts())
    wanted = {"label", "description", "prompt", "explanation", "refusal", "log line"}
    wanted |= {"private line", "score change", "ending", "score breakdown", "lobby note"}
    assert wanted <= kinds, wanted - kinds
    assert sum(len(texts) for texts in _texts().values()) > 500


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_text_of_whole_games_is_told_in_the_language(language: str) -> None:
    """Each text is a Said; told in the language it reads differently from the English, with
    every placeholder but the seat names filled in."""
    plain, same, unfilled = [], [], []
    for kind, texts in _texts().items():
        for text in texts:
            if not isinstance(text, Said):
                plain.append((kind, text))
                continue
            told = say(language, text)
            assert say("en", text) == str(text)
            if told == str(text) and not _only_values(text):
                same.append((kind, text))
            if set(PLACEHOLDER.findall(told)) - set(SEAT.findall(told)):
                unfilled.append((kind, told))
    assert not plain, plain[:10]
    assert not same, same[:10]
    assert not unfilled, unfilled[:10]


def test_the_pseudo_locale_shows_no_english_word_outside_the_values() -> None:
    """Pseudo-localised, no plain English word is left except the values filled in (names,
    towns, seat placeholders): every part of every text went through the catalogue."""
    leaks = []
    for kind, texts in _texts().items():
        for text in texts:
            told = CODE.sub("", str(say(PSEUDO, text)))
            for value in sorted(_plain_values(text), key=len, reverse=True):
                told = told.replace(value, "")
            if ENGLISH_RUN.search(told):
                leaks.append((kind, str(text), told))
    assert not leaks, leaks[:10]


def test_select_menu_titles_are_message_ids_of_the_catalogue() -> None:
    """Action.group is a plain str: the bot looks the menu title up in the catalogue."""
    for title in (actions.PLAY_GROUP, actions.DISCARD_GROUP):
        for language in LANGUAGES:
            assert translate(language, str(title)) != str(title), (language, title)


@pytest.mark.parametrize("language", LANGUAGES)
def test_rules_pages_say_the_same_numbers_in_as_many_paragraphs(language: str) -> None:
    """Each topic's page, told in the language, keeps the English page's numbers (the multiset
    of digit runs) and its paragraphs (one line each)."""
    game = _game()
    for topic in [None, *game.rules_topics()]:
        page = game.rules_text(topic)
        assert isinstance(page, Said)
        told = say(language, page)
        english = str(page)
        assert told != english
        assert told.count("\n") == english.count("\n"), (topic, told)
        assert Counter(re.findall(r"\d+", told)) == Counter(re.findall(r"\d+", english)), (
            topic,
            told,
        )
        assert not PLACEHOLDER.search(told), told
        footnotes = [line for line in told.split("\n") if line.startswith("-# ")]
        assert len(footnotes) == (1 if topic in (None, "overview", "scoring") else 0), told


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_stored_event_is_still_told_in_the_language(language: str) -> None:
    """Log lines are stored: an event dumped to JSON and read back tells the same sentence,
    public and private, nested card names included."""
    game = _game()
    state = game.new_game(5, 3, None)
    seat = game.active_players(state)[0]
    events = list(game.apply(state, seat, "draw:pack").events)
    assert any(e.private_text for e in events)
    for event in events:
        stored = Event.model_validate_json(event.model_dump_json())
        for viewer in (None, seat):
            said = event.line_for(viewer)
            again = stored.line_for(viewer)
            assert isinstance(again, Said)
            assert say(language, again) == say(language, said) != str(said)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_refused_move_is_told_in_the_language(language: str) -> None:
    """A refusal (the shared opening, then Flight's own reason) is told part by part."""
    game = _game()
    state = game.new_game(3, 2, None)
    seat = game.active_players(state)[0]
    with pytest.raises(IllegalActionError) as refused:
        game.resolve(state, seat, "done")
    message = refused.value.args[0]
    assert isinstance(message, Said)
    told = say(language, message)
    assert "There is nothing to finish" in str(message)
    assert "nothing to finish" not in told and "Draw the top card" not in told, told
    assert not PLACEHOLDER.search(told)


def test_a_hint_is_told_in_the_language() -> None:
    """The hard AI's hint: the move, its numbers and why, each part in the language."""
    game = _game()
    state = game.new_game(11, 2, None)
    seat = game.active_players(state)[0]
    found = hint(game, state, seat, seed=11, version=0)
    assert isinstance(found.text, Said)
    for language in LANGUAGES:
        told = say(language, found.text)
        assert "Expected" not in told and "Rules:" not in told, told
    leftover = str(say(PSEUDO, found.text))
    for value in _plain_values(found.text):
        leftover = leftover.replace(value, "")
    assert not ENGLISH_RUN.search(leftover), leftover
