"""Refusals in the player's language (issue 30): rules and services say which sentence, the
edge says it in the reader's Discord language, English where a translation is missing."""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.edge.errors import explain
from bot.i18n import lookup, shipped, translate_parts
from bot.i18n.tools import source_strings
from bot.services import AlreadyJoinedError, GameService
from rules import get_game
from rules.core import IllegalActionError, NotYourTurnError, PlayerError, messages
from rules.core.errors import said
from tests.services.conftest import ALICE, BOB, CHANNEL, open_lobby, started

ROOT = Path(__file__).resolve().parents[2]
# The modules whose refusals were converted to `said(...)`: each template must be extractable.
CONVERTED = (
    "rules/core/messages.py",
    "bot/services/errors.py",
    "bot/services/lobby.py",
    "bot/services/ai.py",
    "bot/services/admin.py",
    "bot/services/clock.py",
    "bot/services/hints.py",
    "bot/services/learn.py",
    "bot/services/preferences.py",
    "bot/services/timeline.py",
    "bot/services/history.py",
    "bot/services/replay.py",
    "bot/edge/errors.py",
    "bot/edge/commands/admin.py",
    "bot/edge/commands/clock.py",
    "bot/edge/commands/game.py",
    "bot/edge/commands/learn.py",
    "bot/edge/commands/play.py",
    "bot/edge/commands/stats.py",
)
GERMAN_NOT_AVAILABLE = "Dieser Zug ist gerade nicht möglich."
GERMAN_PICK = "Wähle eine der angebotenen Aktionen (Meine Hand & Züge oder /play)."


def interaction(locale: discord.Locale) -> Any:
    """What `explain` reads of an interaction: the user's locale, and no channel to fill seats."""
    return SimpleNamespace(locale=locale, channel_id=None)


def illegal_move() -> IllegalActionError:
    """A real rules engine refusing a move that is no action of the game."""
    game = get_game("takeoff")
    state = game.new_game(1, 2, game.Options())
    with pytest.raises(IllegalActionError) as caught:
        game.resolve(state, game.active_players(state)[0], "no-such-move")
    return caught.value


async def test_a_rules_refusal_is_german_for_a_german_user_and_english_for_en_us() -> None:
    """The same refusal, raised once by the engine, read in each user's own language."""
    error = illegal_move()
    german = await explain(interaction(discord.Locale.german), error)
    english = await explain(interaction(discord.Locale.american_english), error)
    assert german == f"{GERMAN_NOT_AVAILABLE} {GERMAN_PICK}"
    assert english == str(error) == messages.NOT_A_MOVE


def test_str_of_a_refusal_stays_the_english_sentence() -> None:
    """Logs and tests keep reading English: the message ids ride along, unseen."""
    error = IllegalActionError(messages.refusal("You need a Glide card for that."))
    assert str(error) == "That move is not available now. You need a Glide card for that."
    assert error.args[0] == str(error)
    assert str(NotYourTurnError(messages.not_your_turn("alice"))) == (
        "Not your turn — it is alice's turn."
    )


def test_each_part_of_a_composed_refusal_is_translated_and_names_survive() -> None:
    """The shared opening and the game's reason are translated apart; names are never looked up."""
    refused = messages.refusal(messages.not_your_turn("Start"))
    assert translate_parts("de", refused.parts) == (
        f"{GERMAN_NOT_AVAILABLE} Du bist nicht dran — Start ist am Zug."
    )
    seat = messages.not_your_turn("{seat1}")
    french = translate_parts("fr", seat.parts)
    assert french == "Ce n'est pas votre tour — c'est au tour de {seat1}."


def test_a_missing_translation_falls_back_to_english_with_its_values() -> None:
    """A sentence no catalogue has yet reads in English, its placeholders filled."""
    refused = messages.refusal("A reason nobody has translated yet.")
    assert translate_parts("de", refused.parts) == (
        f"{GERMAN_NOT_AVAILABLE} A reason nobody has translated yet."
    )
    untranslated = said("Only {count} seats left for {name}.", count=2, name="Bob")
    assert translate_parts("es", untranslated.parts) == "Only 2 seats left for Bob."


async def test_a_service_refusal_is_german_for_a_german_user(service: GameService) -> None:
    """Joining twice: the service's refusal in German for "de", in English for "en-US"."""
    await open_lobby(service, ALICE, BOB)
    with pytest.raises(AlreadyJoinedError) as caught:
        await service.lobby.join(CHANNEL, BOB, "Bob")
    german = await explain(interaction(discord.Locale.german), caught.value)
    english = await explain(interaction(discord.Locale.american_english), caught.value)
    assert german == "Du bist diesem Spiel schon beigetreten."
    assert english == str(caught.value) == "You have already joined this game."


async def test_not_your_turn_from_the_service_keeps_the_seat_to_mention(
    service: GameService,
) -> None:
    """The seat placeholder survives translation, so the edge can still make it a mention."""
    loaded = await started(service)
    waiting = loaded.user_of(next(s for s in (0, 1) if s not in loaded.active_seats))
    key = loaded.game.legal_actions(loaded.state, loaded.active_seats[0])[0].key
    with pytest.raises(NotYourTurnError) as caught:
        await service.act(CHANNEL, waiting, key, loaded.record.version)
    error: PlayerError = caught.value
    (part,) = error.parts
    who = part[1]["who"]
    assert translate_parts("de", error.parts) == f"Du bist nicht dran — {who} ist am Zug."
    assert "{seat" in str(part[1]["who"])


def said_templates(path: Path) -> list[str]:
    """Every `said("…")` literal a module raises or keeps as a refusal."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "said"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            found.append(str(node.args[0].value))
    return found


def test_every_converted_template_is_extracted_and_translated() -> None:
    """`extract` finds each refusal template, and every shipped language translates it."""
    extracted = {message for context, message, _ in source_strings() if context is None}
    templates = [t for module in CONVERTED for t in said_templates(ROOT / module)]
    assert len(templates) > 60
    assert [t for t in templates if t not in extracted] == []
    for language in shipped():
        assert [t for t in templates if lookup(language, t) is None] == [], language


def test_no_converted_module_raises_a_bare_sentence() -> None:
    """A refusal raised as a plain literal could never be translated: none is left."""
    bare = []
    for module in CONVERTED:
        for node in ast.walk(ast.parse((ROOT / module).read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                first = node.exc.args[0] if node.exc.args else None
                if isinstance(first, ast.Constant | ast.JoinedStr):
                    bare.append(f"{module}:{node.lineno}")
    assert bare == []
