"""Every refusal the bot can send says what happened and what to do (issue 28, point 8).

The rule each refusal is checked against (the form):
- it is sentences: it starts with a capital letter (after an emoji or a quoted excerpt) and ends
  with ".", "!" or "?";
- it gives a next step: it names a command ("/game new", "/away off"…), or says what to do with
  one of NEXT_STEP_WORDS ("try again", "wait", "ask an admin", "pick one"…), or, for a turn
  refusal, whose turn it is ("it is alice's turn": wait for them).

Openings that the games complete with their own reason (`messages.NOT_AVAILABLE` + a reason or
`PICK_OFFERED`) are checked in their completed form, `messages.refusal()`. A game's own specific
reason replaces PICK_OFFERED unchanged (issue 15): the reason itself is the game's (rules/*/), so
here only its sentence form is checked (`test_a_game_reason_keeps_the_sentence_form`).
"""

from __future__ import annotations

import re

import pytest

from bot.edge import errors as edge_errors
from bot.edge.commands import clock as clock_cmd
from bot.edge.commands import play as play_cmd
from bot.edge.commands.admin import NotServerManagerError
from bot.services import errors as service_errors
from bot.services.loading import turn_message
from bot.services.options import NEXT_STEP, validated_options
from rules import GAMES
from rules.core import InvalidOptionsError, PlayerError, messages
from rules.first_in_flight import keys as fif_keys
from rules.flight import keys as flight_keys
from rules.takeoff import keys as takeoff_keys

NEXT_STEP_WORDS = (
    "try",
    "wait",
    "ask",
    "pick",
    "start",
    "join",
    "use",
    "press",
    "choose",
    "type",
    "leave",
)
_COMMAND = re.compile(r"(?:^|[\s`(])/[a-z]")
_WORD = re.compile(r"\b(?:" + "|".join(NEXT_STEP_WORDS) + r")\b", re.IGNORECASE)
_WHOSE_TURN = re.compile(r"it is .+'s turn", re.IGNORECASE)
# Openings completed by a reason before anyone reads them (see the module docstring).
OPENINGS = {"NOT_AVAILABLE", "PICK_OFFERED"}


def form_problem(text: str) -> str | None:
    """Why `text` is not a well-formed refusal, or None."""
    body = text.strip()
    first = next((ch for ch in body if ch.isalnum() or ch in "“/"), "")
    if not (first.isupper() or first in "“/"):
        return "does not start a sentence"
    if not body.endswith((".", "!", "?")):
        return "does not end a sentence"
    if not (_COMMAND.search(body) or _WORD.search(body) or _WHOSE_TURN.search(body)):
        return "gives no next step"
    return None


def message_constants() -> dict[str, str]:
    """Every sentence constant of rules/core/messages.py, openings completed."""
    found = {
        name: value
        for name, value in vars(messages).items()
        if name.isupper() and isinstance(value, str) and name not in OPENINGS
    }
    found["refusal()"] = messages.refusal()
    found["not_your_turn(who)"] = messages.not_your_turn("alice")
    found["turn_message"] = turn_message((0, 2))
    return found


def service_defaults() -> dict[str, str]:
    """The default message of every service error that has one."""
    found = {}
    for name, value in vars(service_errors).items():
        if isinstance(value, type) and issubclass(value, service_errors.ServiceError):
            try:
                text = str(value())
            except TypeError:  # no default: every raise site gives its own message
                continue
            if text:  # "" = no default message (each raise site words its own)
                found[name] = text
    found["DamagedGameError"] = str(service_errors.DamagedGameError(1, 2, "Flight", "bad JSON"))
    return found


def edge_refusals() -> dict[str, str]:
    """What the edge itself refuses with."""
    names = ("APOLOGY", "MOVE_NOT_SAVED", "NOT_SAVED", "NOT_READ", "NOT_ADMIN")
    found = {name: getattr(edge_errors, name) for name in names}
    found["MISSING_PERMISSIONS"] = edge_errors.MISSING_PERMISSIONS
    found["play.NOT_A_MOVE"] = play_cmd.NOT_A_MOVE
    found["clock.NOT_ABSENT"] = clock_cmd.NOT_ABSENT
    found["NotServerManagerError"] = str(NotServerManagerError())
    return found


ALL = {**message_constants(), **service_defaults(), **edge_refusals()}


@pytest.mark.parametrize("name", sorted(ALL))
def test_every_refusal_says_what_happened_and_what_to_do(name: str) -> None:
    """One test per refusal, so a failure names it."""
    assert form_problem(ALL[name]) is None, f"{name}: {ALL[name]!r}"


def test_a_game_reason_keeps_the_sentence_form() -> None:
    """The shared opening plus a game's reason is still whole sentences."""
    text = messages.refusal("There is no card 'x' in Flight.")
    assert form_problem(text) in (None, "gives no next step")


def test_the_form_rule_refuses_what_issue_28_found() -> None:
    """The old wordings fail the rule; the new ones pass."""
    assert form_problem("You are not in this game.") == "gives no next step"
    assert form_problem("The game has not started yet.") == "gives no next step"
    assert form_problem("nothing here") == "does not start a sentence"
    assert form_problem(messages.NOT_STARTED) is None
    assert form_problem(messages.NOT_IN_GAME) is None


def test_the_service_defaults_are_the_shared_sentences() -> None:
    """No game here / not in this game read the same from every service."""
    assert str(service_errors.NoGameHereError()) == messages.NO_GAME_HERE
    assert str(service_errors.NotInGameError()) == messages.NOT_IN_GAME
    assert "/game start" in messages.NOT_STARTED
    assert "/game join" in messages.NOT_IN_GAME and "/admin replace" in messages.NOT_IN_GAME
    assert "/game new" in messages.GAME_ENDED


@pytest.mark.parametrize("codec", [flight_keys.CODEC, takeoff_keys.CODEC, fif_keys.CODEC])
def test_one_wording_for_text_that_is_no_move_in_every_game(codec: object) -> None:
    """Each game's codec refuses unknown text with the one shared sentence."""
    assert getattr(codec, "refusal")("zzz") == messages.NOT_A_MOVE  # noqa: B009


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_bad_key_reads_the_same_in_every_game(game_id: str) -> None:
    """The same nonsense text in every game gets the same sentence."""
    game = GAMES[game_id]
    state = game.new_game(1, game.min_players, None)
    seat = game.active_players(state)[0]
    with pytest.raises(PlayerError) as err:
        game.resolve(state, seat, "zzz")
    assert str(err.value) == messages.NOT_A_MOVE


def test_option_refusals_show_no_file_paths_and_say_what_to_do() -> None:
    """A missing card data file is named, never the folder it was looked for in."""
    game = GAMES["first-in-flight"]
    with pytest.raises(InvalidOptionsError) as err:
        validated_options(game, {"card_data": "nope.json"})
    text = str(err.value)
    assert "no card data file" in text and "assets/" not in text and "cards/" not in text
    assert text.endswith(NEXT_STEP) and form_problem(text) is None
