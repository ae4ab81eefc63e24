"""Flight plays on the table: Route cards, obstacles, cancellations, Safe Landing (rules 4–8)."""

from __future__ import annotations

import pytest

from rules.core import IllegalActionError
from rules.flight import GAME
from rules.flight.state import Obstacle
from tests.rules.flight.helpers import act, flight, keys, kinds, rig

FOG_ON_2 = Obstacle(kind="fog", beside=2)
CUSTOMS_ON_2 = Obstacle(kind="customs", beside=2)


def _playing(hand: list[str], flights: list, **kw: object) -> object:
    """Seat 0 has drawn (India 5 from the pack) and is choosing plays."""
    state = rig([hand, ["AUS.5"]], flights=flights, pack=("IND.5",), **kw)  # type: ignore[arg-type]
    state, _ = act(state, 0, "draw:pack")
    return state


def test_route_cards_need_their_aeroplane_first() -> None:
    """Rule 4: Route cards follow the Aeroplane of their own colour."""
    state = _playing(["CAN.1", "IND.4"], [flight("AUS", 0)])
    assert "Canada Aeroplane is not on the table" in (GAME.why_unplayable(state, 0, "CAN.1") or "")


def test_route_cards_go_in_numerical_order() -> None:
    """Rule 4: in numerical order beside the Aeroplane."""
    state = _playing(["CAN.3", "CAN.2", "SAF.4"], [flight("CAN", 1)])
    assert keys(state) == ["play:CAN.2"]
    assert "needs Canada 2 next" in (GAME.why_unplayable(state, 0, "CAN.3") or "")
    state, _ = act(state, 0, "play:CAN.2")
    assert "play:CAN.3" in keys(state)


def test_route_cards_go_on_only_one_flight_per_turn() -> None:
    """Rule 4: 'Players may only play ROUTE cards on one Flight at any one time.'"""
    state = _playing(["CAN.2", "AUS.1", "SAF.4"], [flight("CAN", 1), flight("AUS")])
    assert keys(state) == ["play:CAN.2", "play:AUS.1"]
    state, _ = act(state, 0, "play:CAN.2")
    reason = GAME.why_unplayable(state, 0, "AUS.1") or ""
    assert "only one flight per turn" in reason and "Canada" in reason
    with pytest.raises(IllegalActionError, match="one flight per turn"):
        GAME.apply(state, 0, "play:AUS.1")


def test_flights_are_shared_by_all_players() -> None:
    """Rule 4 (ruling): anyone may extend a flight another player started."""
    state = rig([["CAN.A", "SAF.5"], ["CAN.1", "IND.3"]], pack=("FOG", "FOG"))
    state, _ = act(state, 0, "draw:pack", "play:CAN.A", "discard:FOG")
    state, events = act(state, 1, "draw:pack", "play:CAN.1")
    assert [s.number for s in state.flight("CAN").stops] == [1]
    assert "Canada 1" in events[-1].text


def test_only_one_fog_customs_alternative_or_passport_per_turn() -> None:
    """Rule 7: one of these per turn, but Route cards may still be played."""
    hand = ["FOG", "CUS", "SAF.3", "IND.4"]
    state = _playing(hand, [flight("CAN", 2), flight("SAF", 2)])
    state, _ = act(state, 0, "play:CUS", "to:CAN")
    assert "Only one Fog, Customs" in (GAME.why_unplayable(state, 0, "FOG") or "")
    assert "play:SAF.3" in keys(state)


def test_fog_and_customs_go_beside_a_route_card_only() -> None:
    """Rule 5: not beside a bare Aeroplane."""
    state = _playing(["FOG", "CUS", "IND.4"], [flight("CAN", 0)])
    assert not [k for k in keys(state) if k.startswith("play:")]
    assert state.step.phase == "discard"
    state = state.model_copy(update={"step": state.step.model_copy(update={"phase": "play"})})
    assert "beside the last Route card" in (GAME.why_unplayable(state, 0, "CUS") or "")


def test_fog_never_beside_route_five_but_customs_may() -> None:
    """Rules 5 and 8: Fog cannot be laid beside Route 5; Customs can."""
    state = _playing(["FOG", "CUS", "IND.4"], [flight("CAN", 5)])
    assert keys(state) == ["play:CUS"]
    assert "never beside Route 5" in (GAME.why_unplayable(state, 0, "FOG") or "")


def test_one_obstacle_per_flight_at_a_time() -> None:
    """Ruling 6: a flight already held up takes no second obstacle."""
    state = _playing(["CUS", "IND.4"], [flight("CAN", 2, obstacles=[FOG_ON_2])])
    assert "not already held up" in (GAME.why_unplayable(state, 0, "CUS") or "")


def test_an_obstacle_blocks_route_cards_until_cancelled() -> None:
    """Rule 6(a): no further Route card on that flight until the obstacle is cleared."""
    state = _playing(["CAN.3", "IND.4"], [flight("CAN", 2, obstacles=[CUSTOMS_ON_2])])
    reason = GAME.why_unplayable(state, 0, "CAN.3") or ""
    assert "held up by Customs" in reason and "Passport" in reason


def test_alternative_route_on_fog_replaces_the_next_number() -> None:
    """Rule 6(b): the Alternative Route replaces the next Route card; that number is skipped."""
    state = _playing(["ALT", "CAN.3", "CAN.4", "IND.3"], [flight("CAN", 2, obstacles=[FOG_ON_2])])
    state, events = act(state, 0, "play:ALT")
    can = state.flight("CAN")
    assert can.stops[-1].number == 3 and can.stops[-1].by == "alternative"
    assert can.obstacles[0].cancelled and "replaces Route 3" in events[-1].text
    assert "already filled" in (GAME.why_unplayable(state, 0, "CAN.3") or "")
    state, _ = act(state, 0, "play:CAN.4")
    assert [s.number for s in state.flight("CAN").stops] == [1, 2, 3, 4]


def test_passport_on_customs_continues_the_numbering() -> None:
    """Rule 6(b): after a Passport the next Route card follows in unbroken order."""
    state = _playing(
        ["PAS", "CAN.3", "CAN.4", "IND.3"], [flight("CAN", 2, obstacles=[CUSTOMS_ON_2])]
    )
    state, _ = act(state, 0, "play:PAS")
    assert state.flight("CAN").open_obstacle is None
    assert "play:CAN.3" in keys(state) and "play:CAN.4" not in keys(state)
    state, _ = act(state, 0, "play:CAN.3")
    assert [s.by for s in state.flight("CAN").stops] == ["route"] * 3


def test_each_cancellation_fits_only_its_own_obstacle() -> None:
    """Rule 6(a): Alternative Route cancels Fog, Passport cancels Customs."""
    state = _playing(["ALT", "IND.3"], [flight("CAN", 2, obstacles=[CUSTOMS_ON_2])])
    assert "uncancelled Fog" in (GAME.why_unplayable(state, 0, "ALT") or "")
    state = _playing(["PAS", "IND.3"], [flight("CAN", 2, obstacles=[FOG_ON_2])])
    assert "uncancelled Customs" in (GAME.why_unplayable(state, 0, "PAS") or "")


def test_a_card_with_several_places_asks_where_and_can_be_cancelled() -> None:
    """Steps: choose the card, then the flight; cancel returns the card to the hand."""
    state = _playing(["FOG", "IND.3"], [flight("CAN", 2), flight("SAF", 3)])
    state, events = act(state, 0, "play:FOG")
    assert events == [] and state.step.phase == "target"
    assert keys(state) == ["to:CAN", "to:SAF", "cancel"]
    assert "Fog" in GAME.prompt(state, 0)
    back, _ = act(state, 0, "cancel")
    assert back.step.phase == "play" and "FOG" in back.hands[0]
    state, events = act(state, 0, "to:SAF")
    assert state.flight("SAF").obstacles == (Obstacle(kind="fog", beside=3),)
    assert "beside Route 3" in events[0].text


def test_safe_landing_after_five_route_cards_ends_the_hand() -> None:
    """Rules 8 and 10: the first Safe Landing ends the hand."""
    state = _playing(["SL", "IND.3"], [flight("CAN", 5)], discards=("PAS",))
    state, events = act(state, 0, "play:SL")
    assert kinds(events)[:2] == ["card_played", "hand_scored"]
    assert state.results[0].lander == 0 and state.results[0].route == "CAN"
    assert state.hand_number == 2


def test_safe_landing_after_route_four_fog_and_alternative_route() -> None:
    """Rule 8: Route cards 1–4 followed by Fog and Alternative Route also land."""
    fog = Obstacle(kind="fog", beside=4, cancelled=True)
    state = _playing(["SL", "IND.3"], [flight("CAN", 5, alternative=[5], obstacles=[fog])])
    assert "play:SL" in keys(state)


def test_safe_landing_needs_all_five_positions() -> None:
    """Rule 8: not before position 5 is filled."""
    state = _playing(["SL", "IND.3"], [flight("CAN", 4)])
    assert "positions 1–5" in (GAME.why_unplayable(state, 0, "SL") or "")


def test_customs_after_route_five_needs_a_passport_before_landing() -> None:
    """Rule 8: 'Should a CUSTOMS card be laid after the No. 5 ROUTE card a PASSPORT ... first'."""
    customs = Obstacle(kind="customs", beside=5)
    state = _playing(["SL", "PAS", "IND.3"], [flight("CAN", 5, obstacles=[customs])])
    assert keys(state) == ["play:PAS"]
    state, _ = act(state, 0, "play:PAS", "play:SL")
    assert state.results[0].lander == 0


def test_safe_landing_with_several_finished_flights_asks_which() -> None:
    """Safe Landings are interchangeable: any finished flight may take one."""
    state = _playing(["SL", "IND.3"], [flight("CAN", 5), flight("AUS", 5)])
    state, _ = act(state, 0, "play:SL")
    assert keys(state) == ["to:CAN", "to:AUS", "cancel"]
    state, _ = act(state, 0, "to:AUS")
    assert state.results[0].route == "AUS"


def test_obstacles_and_route_limits_do_not_stop_a_safe_landing() -> None:
    """Rules 4 and 7: a Safe Landing may follow a special card or Route cards on another flight."""
    state = _playing(["CAN.3", "CUS", "SL", "IND.3"], [flight("CAN", 2), flight("AUS", 5)])
    state, _ = act(state, 0, "play:CAN.3", "play:CUS", "to:CAN")
    assert state.step.special and state.step.route_flight == "CAN"
    assert "play:SL" in keys(state)
    state, _ = act(state, 0, "play:SL")
    assert state.results[0].route == "AUS"


def test_no_obstacle_beside_an_alternative_route() -> None:
    """Rule 5: Fog and Customs go beside Route cards only, not beside an Alternative Route."""
    fog = Obstacle(kind="fog", beside=2, cancelled=True)
    state = _playing(["CUS", "IND.3"], [flight("CAN", 3, alternative=[3], obstacles=[fog])])
    assert "beside the last Route card" in (GAME.why_unplayable(state, 0, "CUS") or "")


def test_a_cancelled_obstacle_frees_the_flight_for_another() -> None:
    """Ruling 6: one obstacle *at a time* — once cancelled, a new one may be laid."""
    customs = Obstacle(kind="customs", beside=2, cancelled=True)
    state = _playing(["FOG", "IND.3"], [flight("CAN", 2, obstacles=[customs])])
    state, _ = act(state, 0, "play:FOG")
    assert state.flight("CAN").open_obstacle == Obstacle(kind="fog", beside=2)
