"""Flight views, options, action shape, prompts and rules text."""

from __future__ import annotations

import random
from typing import get_args

import pytest

from rules.core import IllegalActionError
from rules.flight import GAME, FlightOptions
from rules.flight.state import Obstacle
from tests.rules.flight.helpers import act, flight, rig


def test_options_are_simple_fields_with_defaults_and_descriptions() -> None:
    """The bot builds slash-command options from these fields."""
    assert set(FlightOptions.model_fields) == {"match", "target", "hands", "max_hands"}
    for name, field in FlightOptions.model_fields.items():
        assert field.description and len(field.description) <= 100, name
        assert field.annotation is int or get_args(field.annotation), name
    defaults = FlightOptions()
    assert (defaults.match, defaults.target) == ("target", 100)


def test_public_view_shows_the_table_but_no_hand() -> None:
    """Public: flights, obstacles and cancellations, exposed discard, pack, hand sizes, scores."""
    fog = Obstacle(kind="fog", beside=2, cancelled=True)
    table = [flight("CAN", 3, alternative=[3], obstacles=[fog]), flight("AUS", 1)]
    state = rig(
        [["SAF.1", "SAF.2"], ["IND.1"], []],
        flights=table,
        pack=("SL", "FOG"),
        discards=("PAS", "CUS"),
        scores=(5, -3, 0),
        turn=1,
    )
    view = GAME.view(state, None)
    assert view.players == 3 and view.hand is None and view.viewer is None
    can = view.flights[0]
    assert can.name == "Canada" and can.started and can.next_number == 4
    assert [s.filled for s in can.stops] == ["route", "route", "alternative", None, None]
    assert can.stops[0].town == "Prestwick"
    assert can.obstacles[0].cancelled_by == "Alternative Route" and not can.blocked
    assert view.exposed_discard is not None and view.exposed_discard.name == "Customs"
    assert view.pack_size == 2 and [s.hand_size for s in view.seats] == [2, 1, 0]
    assert view.scores == (5, -3, 0) and view.turn == 1 and view.phase == "draw"
    dumped = view.model_dump_json()
    assert "SAF.1" not in dumped and "rng" not in dumped


def test_public_view_does_not_depend_on_hidden_cards() -> None:
    """Two deals differing only in hidden cards give the same public view."""
    one = rig([["SAF.1", "SAF.2"], ["IND.1"]], pack=("SL", "FOG"))
    two = rig([["ALT", "CAN.4"], ["AUS.A"]], pack=("FOG", "CUS"))
    assert GAME.view(one, None) == GAME.view(two, None)
    assert GAME.view(one, 0) != GAME.view(two, 0)


def test_seat_view_adds_only_that_seats_hand_with_points() -> None:
    """A seat sees its own cards with their penalty values, and its half-chosen play."""
    state = rig([["FOG", "IND.4"], ["SAF.A"]], flights=[flight("CAN", 2), flight("AUS", 2)])
    state, _ = act(state, 0, "draw:pack", "play:FOG")
    mine = GAME.view(state, 0)
    assert mine.hand is not None and {(c.name, c.points) for c in mine.hand} >= {("Fog", 5)}
    assert mine.pending is not None and mine.pending.name == "Fog"
    theirs = GAME.view(state, 1)
    assert theirs.hand is not None and [c.code for c in theirs.hand] == ["SAF.A"]
    assert theirs.pending is None and GAME.view(state, None).pending is None


def test_every_step_fits_one_select_menu_and_the_adapter_limits() -> None:
    """≤ 25 actions, ≤ 5 buttons, short labels and descriptions, across random play."""
    for players in (2, 5):
        state = GAME.new_game(11, players, {"match": "hands", "hands": 2})
        chooser = random.Random(players)
        while GAME.active_players(state):
            seat = GAME.active_players(state)[0]
            actions = GAME.legal_actions(state, seat)
            assert 1 <= len(actions) <= 25
            assert sum(1 for a in actions if not a.group) <= 5
            assert all(len(a.label) <= 80 and len(a.description) <= 100 for a in actions)
            assert GAME.prompt(state, seat)
            state = GAME.apply(state, seat, chooser.choice(actions)).state


def test_rules_text_topics_fit_a_discord_message() -> None:
    """Every topic is under 1800 characters; the overview names the stand-in data."""
    assert "scoring" in GAME.rules_topics()
    for topic in [None, *GAME.rules_topics()]:
        assert 0 < len(GAME.rules_text(topic)) <= 1800
    assert "stand-in" in GAME.rules_text(None)


@pytest.mark.parametrize(
    ("key", "reason"),
    [
        ("to:CAN", "No card is waiting"),
        ("cancel", "No card is waiting"),
        ("play:XYZ", "no card"),
        ("discard:SL", "Draw first"),
        ("discard:FOG", "don't hold"),
        ("done", "nothing to finish"),
    ],
)
def test_refusals_say_why(key: str, reason: str) -> None:
    """explain_illegal gives a player-readable reason for each kind of bad key."""
    state = rig([["SL", "CAN.4"], ["FOG"]])
    with pytest.raises(IllegalActionError, match=reason):
        GAME.apply(state, 0, key)


def test_a_wrong_flight_for_the_chosen_card_is_explained() -> None:
    """In the flight step, a flight that can't take the card is named with the ones that can."""
    state = rig([["FOG", "IND.4"], ["SAF.A"]], flights=[flight("CAN", 2), flight("AUS", 2)])
    state, _ = act(state, 0, "draw:pack", "play:FOG")
    with pytest.raises(IllegalActionError, match="Canada, Australia"):
        GAME.apply(state, 0, "to:IND")


def test_prompts_follow_the_steps() -> None:
    """prompt() tells the active seat what to decide; others wait."""
    state = rig([["CAN.2", "CAN.3"], ["FOG"]], flights=[flight("CAN", 1)])
    assert "Draw" in GAME.prompt(state, 0) and "Wait" in GAME.prompt(state, 1)
    state, _ = act(state, 0, "draw:pack")
    assert "at least one" in GAME.prompt(state, 0)
    state, _ = act(state, 0, "play:CAN.2")
    assert "Done playing" in GAME.prompt(state, 0)
    state, _ = act(state, 0, "done")
    assert "Discard" in GAME.prompt(state, 0)
