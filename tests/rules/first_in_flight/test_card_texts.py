"""Choose with the card in front of you (issue 15): short texts on options, full texts in view."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from rules.first_in_flight import GAME
from rules.first_in_flight.data import DevCard, load_data


def test_every_pilot_and_development_card_has_a_short_text() -> None:
    """The shipped data gives each card a short form that fits a select option (100)."""
    data = load_data()
    for card in (*data.pilots, *data.development):
        assert 0 < len(card.short) <= 100, card.id


def test_a_short_text_over_100_characters_is_refused_by_the_data_model() -> None:
    """The data model validates the length."""
    with pytest.raises(ValidationError):
        DevCard(id="x", name="X", short="y" * 101, type="skill", abilities=())


def test_the_pilot_draft_shows_each_pilot_short_text_and_the_chooser_sees_full_texts() -> None:
    """Options carry the short text; the deciding seat's view lists the full texts."""
    state = GAME.new_game(4, 2, None)
    seat = GAME.active_players(state)[0]
    data = load_data()
    actions = GAME.legal_actions(state, seat)
    assert actions and all(a.description == data.pilot(a.key[6:]).short for a in actions)
    texts = dict(GAME.view(state, seat).card_texts)
    assert texts == {data.pilot(a.key[6:]).name: data.pilot(a.key[6:]).text for a in actions}
    assert GAME.view(state, None).card_texts == ()
    assert GAME.view(state, 1 - seat).card_texts == ()
