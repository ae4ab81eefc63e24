"""View details the pictures need: records per Year, Descend, card kinds, space options, Pilot."""

from __future__ import annotations

from rules.first_in_flight import GAME
from rules.first_in_flight.data import load_data
from rules.first_in_flight.state import Pawn, State
from rules.first_in_flight.turns import settle
from rules.first_in_flight.view import build_view
from tests.rules.first_in_flight.helpers import END, act, flying, keys, own, table, with_seat

DATA = load_data()


def _end_year(state: State) -> State:
    """Every pawn but seat 0 in the start area; seat 0 walks in and ends the Year."""
    pawns = tuple(Pawn(pos=END if a else 35, arrival=300 + a) for a in range(len(state.pawns)))
    state = settle(state.model_copy(update={"pawns": pawns, "steps": ()}))[0]
    return act(state, 0, "start")[0]


def test_records_are_kept_per_year_for_players_and_gustave() -> None:
    """Each finished Year's record, then the current one; Gustave's includes his Year gain."""
    state = with_seat(table(players=2), 0, record=9, record_seq=5, record_year=1)
    state = _end_year(state)
    year_gain = DATA.gustave["standard"].year
    view = build_view(state, None)
    assert view.year == 2
    assert view.seats[0].record_by_year == (9, 9) and view.seats[1].record_by_year == (0, 0)
    assert view.gustave_record_by_year == (year_gain, year_gain)
    state = with_seat(state, 1, record=17, record_seq=9, record_year=2)
    state = _end_year(state)
    view = build_view(state, None)
    assert view.seats[1].record_by_year == (0, 17, 17)
    assert view.gustave_record_by_year == (year_gain, 2 * year_gain, 2 * year_gain)


def test_a_state_stored_before_years_were_tracked_still_loads() -> None:
    """A dump without the new fields loads; past Years show the record once it was set."""
    state = with_seat(table(), 0, record=21, record_seq=4, record_year=2)
    state = state.model_copy(update={"year": 3})
    raw = GAME.dump_state(state)
    for seat in raw["state"]["seats"]:
        del seat["record_by_year"]
    del raw["state"]["gustave_record_by_year"]
    loaded = GAME.load_state(raw)
    assert loaded == state
    assert build_view(loaded, None).seats[0].record_by_year == (0, 21, 21)


def test_descend_position_value_and_landing_draws() -> None:
    """Descend sits after the cards drawn before it and counts its landing value."""
    state = flying(table(), 0, ["power_failure*", "glide", "glide", "glide", "glide"])
    state, _ = act(state, 0, "draw", "draw")
    assert build_view(state, None).flight.descend_at is None  # type: ignore[union-attr]
    state, _ = act(state, 0, "descend")  # landed; the flaw's cleanup keeps the Flight on show
    flight = build_view(state, None).flight
    assert flight is not None and flight.landed and len(flight.row) == 4
    assert flight.descend_at == 2 and flight.landing_left == 0
    assert flight.descend_value == DATA.descend["land"]


def test_crash_while_landing_counts_the_crash_value() -> None:
    """A 4th Problem on the first landing draw: Descend counts its crash value."""
    deck = ["power_failure*", *["basic_problem"] * 4]
    state, _ = act(flying(table(), 0, deck), 0, "draw", "draw", "draw", "descend")
    flight = build_view(state, None).flight
    assert flight is not None and flight.crashed and flight.descend_at == 3
    assert flight.descend_value == DATA.descend["crash"]
    assert flight.landing_left == 1  # the second landing draw never came


def test_cards_looked_at_carry_their_kind_for_that_seat_only() -> None:
    """A seat looking at its top cards gets each card's kind (for colours); others get nothing."""
    state = flying(own(table(), 0, "pull_up"), 0, ["glide", "upgrade_5", "power_failure*", "glide"])
    state, _ = act(state, 0, "menu:skill", "use:pull_up")
    assert build_view(state, 0).looking_at_kinds == ("glide", "upgrade", "flaw")
    assert build_view(state, None).looking_at_kinds == () == build_view(state, 1).looking_at_kinds
    state, _ = act(state, 0, "top:upgrade_5", "top:glide")
    assert build_view(state, 0).known_top_kinds == ("upgrade", "glide", "flaw")
    assert build_view(state, None).known_top_kinds == ()


def test_row_cards_carry_their_kind() -> None:
    """Each revealed card says what it is, for its colour."""
    deck = ["glide", "experience", "upgrade_3", "power_failure*", "basic_problem", "glide"]
    state, _ = act(flying(table(), 0, deck), 0, *["draw"] * 5)
    flight = build_view(state, None).flight
    assert flight is not None
    kinds = [r.kind for r in flight.row]
    assert kinds == ["glide", "experience", "glide", "upgrade", "flaw", "problem"]


def test_action_spaces_list_their_options_and_costs() -> None:
    """Every Action Space lists (action, cost) per option, as in the data file; Time lists none."""
    view = build_view(table(), None)
    board = DATA.board_for(3).spaces
    for space, spec in zip(view.board, board, strict=True):
        assert [k for k, _ in space.options] == [o.action for o in spec.options]
    funding = next(s for s in view.board if s.options and s.options[0][0] == "funding")
    assert funding.options[0][1] == f"+{board[funding.index].options[0].amount}"
    assert all(s.options == () for s in view.board if s.kind == "time")


def test_pilot_text_and_exhaustion_are_public() -> None:
    """The mat shows the Pilot side's text and whether its once-per-Year ability is used."""
    state = table(pilots=("santos_dumont", "wright", "latham"))
    seat = build_view(state, None).seats[0]
    pilot = DATA.pilot("santos_dumont")
    assert seat.pilot_text == pilot.normal[0].text and not seat.pilot_exhausted
    turn = state.steps[-1].seat
    assert turn == 0 and "menu:other" in keys(state)
    state, _ = act(state, 0, "menu:other", "use:pilot")
    assert build_view(state, None).seats[0].pilot_exhausted
    assert not build_view(state, None).seats[1].pilot_exhausted  # nothing to exhaust


def test_winners_and_gustave_level_in_the_view() -> None:
    """Winners appear once the game is over; Gustave's win and his side are shown."""
    state = table(players=2, gustave="advanced")
    view = build_view(state, None)
    gains = DATA.gustave["advanced"]
    assert view.gustave_level == f"Advanced (+{gains.fly} per Fly, +{gains.year} per Year)"
    assert view.winners == () and not view.gustave_won
    over = state.model_copy(update={"over": True, "steps": (), "gustave_record": 44})
    view = build_view(with_seat(over, 1, record=30), None)
    assert view.winners == () and view.gustave_won
    view = build_view(with_seat(over, 1, record=45), None)
    assert view.winners == (1,) and not view.gustave_won
    assert build_view(table(players=3), None).gustave_level == ""
    solo = build_view(table(players=1, solo_expert=True), None)
    assert solo.gustave_level.startswith("Expert")
