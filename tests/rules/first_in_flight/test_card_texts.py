"""Choose with the card in front of you (issue 15): short texts on options, full texts in view."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest
from pydantic import ValidationError

from rules.core import Action
from rules.core.text_fit import shorten
from rules.first_in_flight import GAME
from rules.first_in_flight.common import card_short
from rules.first_in_flight.data import DevCard, load_data
from rules.first_in_flight.menus import ability_text
from rules.first_in_flight.state import State


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


# ---------------------------------------------------------------- plain words (issue 28.1, 28.2)


def test_shorten_cuts_at_a_word_with_an_ellipsis() -> None:
    """The one shortening helper: whole texts stay, long ones end on a whole word and '…'."""
    assert shorten("Use a Friend or Skill ability", 100) == "Use a Friend or Skill ability"
    assert shorten("Use a Friend or Skill ability", 26) == "Use a Friend or Skill…"
    assert shorten("Use a Friend, or Skill ability", 16) == "Use a Friend…"
    assert len(shorten("x" * 120, 100)) == 100


def _every_offered_action(players: int, seed: int) -> Iterator[tuple[State, Action]]:
    """Every action offered along one seeded random game."""
    state = GAME.new_game(seed, players, None)
    rng = random.Random(seed)
    while GAME.active_players(state):
        seat = GAME.active_players(state)[0]
        actions = GAME.legal_actions(state, seat)
        for action in actions:
            yield state, action
        state = GAME.apply(state, seat, rng.choice(actions).key).state


@pytest.mark.parametrize(("players", "seed"), [(1, 3), (2, 5), (4, 7)])
def test_every_menu_option_says_what_it_is_in_words_within_discord_limits(
    players: int, seed: int
) -> None:
    """Each option of a select menu has a description; labels and descriptions fit Discord;
    no cost is written in code ('4M|2t')."""
    coded = re.compile(r"\d+M\b|\d+t\b")
    for _, action in _every_offered_action(players, seed):
        limit = 100 if action.group else 80
        assert len(action.label) <= limit and len(action.description) <= 100, action
        assert not coded.search(action.label + action.description), action
        if action.group:
            assert action.description, f"{action.group}: {action.label} has no description"


def test_a_move_says_what_the_space_does_and_costs_in_money_or_time() -> None:
    """'#7 Friend or Technology (4 Money or 2 Time)' with what taking it does."""
    moves = [a for _, a in _every_offered_action(2, 1) if a.group == "Move to"]
    dev = next(a for a in moves if "Friend or Technology" in a.label)
    assert re.search(r"\(\d+ Money or \d+ Time\)$", dev.label), dev.label
    assert dev.description == "Take a face-up Friend or Technology card, or the top of its deck."
    assert any(a.description.startswith("Pay X (2 or more)") for a in moves)


def test_flight_cards_are_described_from_their_data() -> None:
    """Upgrades and Design Flaws, which print no text, are described in words."""
    state = GAME.new_game(1, 2, None)
    assert card_short(state, "upgrade_3") == "Upgrade card: 3 Distance."
    flaw = card_short(state, "pitch_instability")
    assert "exhaust a Skill or Descend" in flaw and "Repair Bonus: +2 coins" in flaw
    assert all(len(card_short(state, c.id)) <= 100 for c in load_data().flight_cards), (
        "each fits a select option"
    )


def test_a_pilot_ability_is_labelled_by_the_pilot_and_described_by_its_text() -> None:
    """'Pilot: Thérèse Peltier' — never the ability text sliced mid-word into the label."""
    state = GAME.new_game(1, 2, None)
    data = load_data()
    peltier = data.pilot("peltier")
    ability = peltier.normal[0]
    assert ability_text(state, "pilot", ability) == shorten(ability.text, 100)
    assert ability_text(state, "roll_control", data.dev("roll_control").abilities[0]).startswith(
        "Skill · look at your top 2"
    )
