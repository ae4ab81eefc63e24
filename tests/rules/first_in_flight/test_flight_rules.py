"""Fly Action rules and Design Flaws (rulebook: Fly Action, The Flight Cards, Clarifications)."""

from __future__ import annotations

from rules.first_in_flight.state import State
from rules.first_in_flight.view import build_view
from tests.rules.first_in_flight.helpers import act, flying, keys, own, table, texts


def _fly(deck: list[str], *cards: str, pilot: str = "wright") -> State:
    """Seat 0 flying with this deck and these Development cards."""
    state = table(pilots=(pilot, "bleriot", "latham"))
    return flying(own(state, 0, *cards), 0, deck)


def _row(state: State) -> list[str]:
    """Card ids in the Flight row."""
    assert state.flight is not None
    return [rc.card for rc in state.flight.row]


def test_four_problems_crash_and_the_pawn_lies_down() -> None:
    """A 4th Problem ends the Flight at once; Distance still scores (no Descend played)."""
    state, events = act(_fly(["basic_problem"] * 4 + ["glide"]), 0, *["draw"] * 4)
    assert "crashed" in texts(events)
    assert state.seats[0].record == 4 and not state.pawns[0].standing
    assert state.seats[0].deck.count("basic_problem") == 4  # the Flight's cards went back


def test_descend_needs_one_draw_first() -> None:
    """You must draw at least 1 card before playing Descend."""
    state = _fly(["glide", "glide", "glide"])
    assert "descend" not in keys(state)
    state, _ = act(state, 0, "draw")
    assert "descend" in keys(state)


def test_landing_counts_descend_5_and_draws_exactly_2() -> None:
    """Descend: draw exactly 2 more, land safely, Descend adds 5."""
    state, events = act(_fly(["glide"] * 5), 0, "draw", "descend")
    assert "landed safely" in texts(events)
    assert state.seats[0].record == 3 + 5
    assert len(state.seats[0].deck) == 5


def test_experience_glides_do_not_count_toward_the_two_landing_draws() -> None:
    """Cards added by effects while landing are extra: 2 Experiences drawn bring 2 Glides."""
    state, _ = act(_fly(["glide", "experience", "experience", "experience"]), 0, "draw", "descend")
    assert state.seats[0].record == 1 + 2 + 2 + 5  # 1 + two Experiences + two gained Glides + 5


def test_an_empty_deck_forces_descend_and_lands_with_what_is_left() -> None:
    """Ruling 4: deck runs out before Descending → only Descend; landing draws 0."""
    state, _ = act(_fly(["glide", "glide"]), 0, "draw", "draw")
    assert keys(state) == ["descend"]
    state, _ = act(state, 0, "descend")
    assert state.seats[0].record == 2 + 5


def test_delicate_wing_counts_double_only_as_the_first_problem() -> None:
    """Delicate Wing Structure = 2 Problems when it is the Flight's first Problem."""
    first, _ = act(_fly(["delicate_wing*", "basic_problem", "glide"]), 0, "draw", "draw")
    later, _ = act(_fly(["basic_problem", "delicate_wing*", "glide"]), 0, "draw", "draw")
    assert build_view(first, None).flight.problems == 3  # type: ignore[union-attr]
    assert build_view(later, None).flight.problems == 2  # type: ignore[union-attr]


def test_pitch_instability_forces_exhausting_a_skill_or_descending() -> None:
    """Pitch Instability: exhaust a Skill (no effect) or Descend."""
    state, _ = act(_fly(["pitch_instability*", "glide", "glide"], "level_out"), 0, "draw")
    assert keys(state) == ["exhaust:level_out", "descend"]
    state, _ = act(state, 0, "exhaust:level_out")
    assert state.seats[0].cards[0].exhausted
    assert "menu:skill" not in keys(state) and "draw" in keys(state)
    bare, _ = act(_fly(["pitch_instability*", "glide", "glide"]), 0, "draw")
    assert keys(bare) == ["descend"]


def test_pitch_instability_after_descending_does_nothing() -> None:
    """Drawn while landing, Pitch Instability has no effect."""
    state, _ = act(_fly(["glide", "pitch_instability*"]), 0, "draw", "descend")
    assert state.seats[0].record == 1 + 1 + 5


def test_power_failure_reduces_the_largest_upgrade_to_2() -> None:
    """Each Power Failure reduces the largest remaining Upgrade to 2 at scoring."""
    deck = ["upgrade_5", "upgrade_3", "power_failure*", "power_failure*", "upgrade_4"]
    state, _ = act(_fly(deck), 0, "draw", "draw", "draw", "draw", "descend")
    # 5→2 and 4→2 (two Power Failures), 3 stays; flaws 1 each; Descend 5
    assert state.seats[0].record == 2 + 3 + 1 + 1 + 2 + 5


def test_unreliable_elevator_control_scraps_a_following_glide() -> None:
    """If the next card added is a Glide it is scrapped (returned to the supply)."""
    state = _fly(["elevator_control*", "glide", "glide", "glide"])
    supply = state.supply[0]
    state, events = act(state, 0, "draw", "draw")
    assert _row(state) == ["elevator_control"]
    assert "scrapped a Glide" in texts(events) and state.supply[0] == supply + 1
    state, _ = act(state, 0, "draw")
    assert _row(state) == ["elevator_control", "glide"]


def test_unreliable_elevator_control_ignores_other_cards() -> None:
    """Any other next card (Upgrade, Problem, Experience) is unaffected."""
    state, _ = act(_fly(["elevator_control*", "upgrade_2", "glide"]), 0, "draw", "draw", "draw")
    assert _row(state) == ["elevator_control", "upgrade_2", "glide"]


def test_descend_right_after_elevator_control_protects_the_landing_glide() -> None:
    """Clarification: if the next card after Elevator Control is Descend, nothing is scrapped."""
    state, _ = act(_fly(["elevator_control*", "glide"]), 0, "draw", "descend", "done")
    assert state.seats[0].record == 1 + 1 + 5
    assert sorted(state.seats[0].deck) == ["elevator_control", "glide"]


def test_cleanup_moves_up_to_two_flaws_to_the_garage_and_they_fly_again() -> None:
    """Cleanup: up to 2 revealed flaws to the Garage (left first); the next Fly reshuffles them."""
    deck = ["pitch_instability*", "power_failure*", "elevator_control*", "upgrade_2"]
    state = _fly(deck, "level_out")
    state, _ = act(state, 0, "draw", "exhaust:level_out", "draw", "draw", "descend")
    assert set(keys(state)) == {
        "garage:pitch_instability",
        "garage:power_failure",
        "garage:elevator_control",
        "done",
    }
    state, _ = act(state, 0, "garage:power_failure", "garage:elevator_control")
    mat = state.seats[0]
    assert mat.garage == ("power_failure", "elevator_control")
    assert sorted(mat.deck) == ["pitch_instability", "upgrade_2"]
    from rules.first_in_flight.flight import start_flight

    state, _ = start_flight(state.model_copy(update={"steps": ()}), 0, final=False)
    assert state.seats[0].garage == ("", "") and len(state.seats[0].deck) == 4


def test_skills_reset_when_a_flight_starts() -> None:
    """Skills are straightened at the start of each Fly."""
    state = own(table(), 0, "level_out", exhausted=True)
    from rules.first_in_flight.flight import start_flight

    state, events = start_flight(state, 0, final=False)
    assert not state.seats[0].cards[0].exhausted
    assert events[0].reveals  # shuffling is a random result


def test_record_is_the_best_single_flight_and_15_makes_you_famous() -> None:
    """The record only moves up; 15+ flips the Pilot and gives the Fame Benefit."""
    state = table(pilots=("latham", "bleriot", "wright"))
    state = state.model_copy(update={"upgrade_deck": ("upgrade_5",) * 3})
    state = flying(state, 0, ["upgrade_5", "upgrade_5", "upgrade_3"])
    state, events = act(state, 0, "draw", "descend")
    assert state.seats[0].record == 18 and state.seats[0].famous
    assert "became Famous" in texts(events)
    assert len(state.seats[0].cards) == 1  # Latham's Fame Benefit: the top Skill
    lower = flying(state.model_copy(update={"steps": ()}), 0, ["glide", "glide", "glide"])
    lower, _ = act(lower, 0, "draw", "descend")
    assert lower.seats[0].record == 18


def test_a_record_of_40_triggers_final_flights_for_everyone() -> None:
    """40+: every player takes one final Flight, the trigger too; then the game ends."""
    state = table(pilots=("wright", "bleriot", "latham"))
    state = state.model_copy(
        update={"seats": tuple(m.model_copy(update={"famous": True}) for m in state.seats)}
    )
    state = flying(state, 0, ["upgrade_5"] * 8 + ["glide", "glide"])
    state, events = act(state, 0, *["draw"] * 8, "descend")
    assert "final Flight" in texts(events) and state.end_trigger == 0
    assert state.flight is not None and state.flight.final
    for _ in range(3):
        seat = state.steps[-1].seat
        state, _ = act(state, seat, "draw", "descend")
    assert state.over
    from rules.first_in_flight import GAME

    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0,)
