"""The private panel's and the board's components in the reader's language (issue 30): rules
texts (Said) translated, the bot's own labels from the catalogue, Discord's limits kept after
translation (cut at a word)."""

from __future__ import annotations

from typing import Any

from bot.edge.components import (
    MAX_LABEL,
    MAX_OPTION,
    CoachButton,
    HandButton,
    LobbyButton,
    action_items,
)
from bot.edge.present import name_list, points, your_turn
from rules.core import Action
from rules.core.errors import said
from rules.core.messages import join_names

# Sentences of the bot's own catalogue (hangar.po), standing in for a game's labels.
JOINED = said("{player} joined.", player="hanna")
LEFT = said("{player} left.", player="emma")


def button_labels(items: list[Any]) -> list[str]:
    """The labels of buttons among built items."""
    return [item.item.label for item in items if hasattr(item.item, "label")]


def test_action_buttons_and_menus_are_told_in_the_readers_language() -> None:
    """Buttons, a select's placeholder, option labels and descriptions: German for "de",
    English exactly as the engine said it otherwise."""
    actions = [
        Action(key="a", label=JOINED),
        Action(key="b", label=LEFT, group=said("Lobby opened."), description=JOINED),
        Action(key="c", label=JOINED, group=said("Lobby opened.")),
    ]
    german = action_items(1, 2, actions, rows=5, locale="de")
    assert button_labels(german) == ["hanna ist beigetreten."]
    menu = german[1].item
    assert menu.placeholder == "Lobby eröffnet."
    assert [(o.label, o.description) for o in menu.options] == [
        ("emma ist gegangen.", "hanna ist beigetreten."),
        ("hanna ist beigetreten.", None),
    ]
    english = action_items(1, 2, actions, rows=5)
    assert button_labels(english) == ["hanna joined."]
    assert english[1].item.placeholder == "Lobby opened."


def test_labels_keep_discords_limits_after_translation() -> None:
    """A label that grows past 80 (a button) or 100 (an option) characters is cut at a word."""
    long_name = " ".join(["Langname"] * 12)  # a name is never translated, only its sentence
    action = Action(key="a", label=said("{player} joined.", player=long_name))
    button = action_items(1, 2, [action], rows=5, locale="de")[0].item
    assert len(button.label) <= MAX_LABEL and button.label.endswith("…")
    assert button.label.removesuffix("…").split()[-1] == "Langname"  # whole words only
    grouped = Action(key="a", label=action.label, group=said("Lobby opened."))
    option = action_items(1, 2, [grouped], rows=5, locale="fr")[0].item.options[0]
    assert len(option.label) <= MAX_OPTION


def test_the_bots_own_buttons_speak_the_readers_language() -> None:
    """My hand & moves, Whole table, the lobby's and the coach's buttons."""
    assert HandButton(1, locale="de").item.label == "Meine Hand & Züge"
    assert HandButton(1, "t", locale="fr").item.label == "Toute la table"
    assert HandButton(1).item.label == "My hand & moves"
    assert LobbyButton(1, "join", locale="es").item.label == "Unirse"
    assert CoachButton(1, "last", locale="de").item.label == "Letzter Zug?"
    assert CoachButton(1, "hint").item.label == "Hint"


def test_small_words_per_language() -> None:
    """ "and" between names, points, the turn line; English as before."""
    assert name_list(["a", "b", "c"]) == "a, b and c"
    assert name_list(["a", "b"], "de") == "a und b"
    assert join_names(["{seat0}", "{seat1}"]) == "{seat0} and {seat1}"
    assert points(1, "de") == "1 Punkt" and points(-3) == "\u22123 points"
    assert points(2, "fr") == "2 points" and points(1, "es") == "1 punto"
    assert your_turn("fr", "x") == "**À vous de jouer** — x"
