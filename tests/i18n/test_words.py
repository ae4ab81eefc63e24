"""Rules' words kept as message ids through models and storage, told in each reader's language."""

from __future__ import annotations

import pickle

from bot.i18n import say
from rules.core.log import collapse
from rules.core.model import Action, Event
from rules.core.words import Said, lines, said


def test_an_event_said_in_parts_is_stored_and_read_back_with_them() -> None:
    """The stored JSON carries the template and values; reading it back gives the same parts."""
    text = said("{who} played {card}.", who="{seat1}", card=said("Middle seat"))
    event = Event(kind="card_played", text=text, private_text=said("You drew {n} cards.", n=2))
    stored = event.model_dump(mode="json")
    assert stored["text"] == "{seat1} played Middle seat."
    again = Event.model_validate(stored)
    line = again.line_for(None)
    assert isinstance(line, Said) and line == "{seat1} played Middle seat."
    assert line.parts[0][0] == "{who} played {card}."
    assert again.line_for(1) == "{seat1} played Middle seat."
    old = Event.model_validate({"kind": "x", "text": "bob did it."})  # stored before parts
    assert not isinstance(old.line_for(None), Said) and old.line_for(None) == "bob did it."


def test_an_action_label_keeps_its_parts_and_pickles() -> None:
    """Labels stay Said in memory (and across a render worker's pickle); JSON is the English."""
    action = Action(key="end", label=said("End turn"), description=said("Draw {n}.", n=1))
    assert isinstance(action.label, Said) and isinstance(action.description, Said)
    assert action.model_dump(mode="json")["label"] == "End turn"
    assert pickle.loads(pickle.dumps(action.description)).parts == action.description.parts


def test_say_translates_nested_values_but_never_plain_text() -> None:
    """Pseudo shows each part translated; a plain name or an English reader is left alone."""
    text = said("{who} played {card}.", who="Start", card=said("Middle seat"))
    assert say("en-US", text) == "Start played Middle seat."
    pseudo = say("pseudo", text)
    assert "Start" in pseudo and "Middle seat" not in pseudo and pseudo.startswith("[")
    assert say("pseudo", "Start") == "Start"


def test_another_language_keeps_each_sentence_when_a_turn_is_grouped() -> None:
    """English joins predicates with "and"; other languages keep whole sentences."""
    entries = [("turn_ended", "{seat0} ended their turn."), ("card_drawn", "{seat0} drew a card.")]
    assert collapse(entries) == ["{seat0} ended their turn and drew a card."]
    german = [("turn_ended", "{seat0} beendet den Zug."), ("card_drawn", "{seat0} zieht.")]
    assert collapse(german, english=False) == ["{seat0} beendet den Zug. {seat0} zieht."]


def test_a_page_of_paragraphs_keeps_its_lines_in_every_language() -> None:
    """`lines` breaks where the English breaks, blank lines included."""
    page = lines(said("Title"), "", said("First {n}.", n=1), said("Second."))
    assert page == "Title\n\nFirst 1.\nSecond."
    assert say("pseudo", page).count("\n") == 3
    assert say("pseudo", page).split("\n")[1] == ""


def test_a_forced_language_is_everyones_until_switched_off() -> None:
    """HANGAR_FORCE_LANGUAGE=pseudo: a German and an English reader both get the pseudo-locale."""
    from bot import i18n

    i18n.force("pseudo")
    try:
        assert i18n.normalise("de") == i18n.normalise("en-US") == "pseudo"
        assert say("en-US", said("End turn")).startswith("[")
    finally:
        i18n.force(None)
    assert i18n.normalise("de-DE") == "de" and i18n.normalise(None) == "en"
