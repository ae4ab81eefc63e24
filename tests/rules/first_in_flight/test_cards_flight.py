"""Every Technology and Skill (stand-in data), each in a rigged Flight."""

from __future__ import annotations

import pytest

from rules.first_in_flight.state import State
from rules.first_in_flight.view import build_view
from tests.rules.first_in_flight.helpers import act, amount, flying, keys, own, table


def _fly(deck: list[str], *cards: str, pilot: str = "wright") -> State:
    """Seat 0 flying with this deck and these Development cards."""
    state = table(pilots=(pilot, "bleriot", "latham"))
    return flying(own(state, 0, *cards), 0, deck)


def _record(state: State, *keys_: str) -> int:
    """Play keys for seat 0 and return its record."""
    state, _ = act(state, 0, *keys_)
    return state.seats[0].record


def _row(state: State) -> list[str]:
    """Card ids in the Flight row."""
    assert state.flight is not None
    return [rc.card for rc in state.flight.row]


UP = ["upgrade_3", "upgrade_4", "glide"]
G3 = ["glide"] * 3


@pytest.mark.parametrize(
    ("tech", "deck", "plays", "expected"),
    [
        ("dihedral_wing", UP, ("draw", "descend"), 8 + 5 + 2),
        ("hinged_rudder", ["glide"] * 3, ("draw", "descend"), 3 + amount("hinged_rudder")),
        ("launch_rail", ["glide"] * 3, ("draw", "descend"), 3 + 5 + amount("launch_rail")),
        ("radial_engine", UP, ("draw", "descend"), 8 + 5 + amount("radial_engine")),
        ("ailerons", ["glide"] * 6, ("draw",) * 4 + ("descend",), 6 + 5 + 2 * amount("ailerons")),
        ("forward_elevator", G3, ("draw", "descend"), 3 + 5 + amount("forward_elevator")),
        ("tricycle_gear", ["glide"] + ["basic_problem"] * 4, ("draw",) * 3 + ("descend",), 5 + 4),
        ("trussed_biplane", ["delicate_wing*"] + ["basic_problem"] * 2 + ["glide"] * 2,
         ("draw",) * 4 + ("descend",), 5 + 5),
        ("lightweight_engine", ["upgrade_5", "power_failure*", "glide"],
         ("draw", "draw", "descend"), 3 + 1 + 1 + 5),
    ],
)  # fmt: skip
def test_technologies_that_change_distance(
    tech: str, deck: list[str], plays: tuple[str, ...], expected: int
) -> None:
    """Always-on Technologies apply at scoring."""
    assert _record(_fly(deck, tech), *plays) == expected


def test_forward_elevator_needs_no_flaw_when_descending() -> None:
    """Forward Elevator: no bonus when a Design Flaw is in the Flight at Descend."""
    assert (
        _record(_fly(["power_failure*", "glide", "glide"], "forward_elevator"), "draw", "descend")
        == 8
    )


def test_trussed_wings_without_it_delicate_doubles() -> None:
    """Control case for Trussed Biplane Wings: 4 Problems crash while landing."""
    deck = ["delicate_wing*", "basic_problem", "basic_problem", "glide", "glide"]
    state, _ = act(_fly(deck), 0, "draw", "draw")
    assert build_view(state, None).flight.problems == 3  # type: ignore[union-attr]


def test_wing_warping_ignores_pitch_instability() -> None:
    """Wing Warping: Pitch Instability does not force anything."""
    state, _ = act(_fly(["pitch_instability*", "glide", "glide"], "wing_warping"), 0, "draw")
    assert "draw" in keys(state) and "descend" in keys(state)


def test_tetrahedral_kite_cells_first_basic_problem_has_no_icon() -> None:
    """Tetrahedral Kite Cells: the first Basic Flight Problem each Flight has no Problem."""
    state, _ = act(_fly(["basic_problem"] * 3 + ["glide"], "tetrahedral_kites"), 0, "draw", "draw")
    assert build_view(state, None).flight.problems == 1  # type: ignore[union-attr]


def test_wheeled_landing_gear_gains_an_upgrade_on_the_first_safe_landing_each_year() -> None:
    """Wheeled Landing Gear: once per Year, a safe landing gains the top Upgrade (no flaw)."""
    state = _fly(["glide"] * 3, "wheeled_landing_gear")
    top = state.upgrade_deck[0]
    state, _ = act(state, 0, "draw", "descend")
    assert top in state.seats[0].deck and not any(c.endswith("*") for c in state.seats[0].deck)
    assert state.seats[0].cards[0].exhausted


def test_pusher_propeller_and_wind_tunnel_are_action_modifiers() -> None:
    """Pusher Propeller: Repair 1 cheaper. Wind Tunnel Data: Upgrade looks at 2 extra."""
    from tests.rules.first_in_flight.helpers import SMALL, place, with_seat

    state = own(table(), 0, "pusher_propeller", "wind_tunnel")
    state = with_seat(state, 0, garage=("power_failure", ""))
    state = place(state, SMALL[5], SMALL[7], SMALL[8])
    repair, _ = act(state, 0, f"move:{SMALL[6]}")
    assert keys(repair) == ["pay:m2t0x0", "pay:m0t1x0", "cancel"]
    up = place(state, SMALL[4], SMALL[7], SMALL[8])
    up, _ = act(up, 0, f"move:{SMALL[5]}", "pay:m2t0x2")
    assert len(up.steps[-1].cards) == 4


# --- Skills -----------------------------------------------------------------------------------


def test_level_out_and_catch_a_thermal() -> None:
    """Level Out adds Distance; Catch a Thermal gains a Glide into the Flight."""
    assert _record(
        _fly(["glide"] * 3, "level_out"), "draw", "menu:skill", "use:level_out", "descend"
    ) == 3 + 5 + amount("level_out")
    state, _ = act(_fly(["glide"] * 3, "catch_thermal"), 0, "menu:skill", "use:catch_thermal")
    assert _row(state) == ["glide"] and state.seats[0].cards[0].exhausted


def test_skills_are_once_per_flight_and_not_after_descending() -> None:
    """An exhausted Skill leaves the menu."""
    state, _ = act(_fly(["glide"] * 4, "level_out"), 0, "draw", "menu:skill", "use:level_out")
    assert "menu:skill" not in keys(state)


def test_practice_makes_perfect_needs_two_recent_glides() -> None:
    """Practice Makes Perfect: only after 2 Glides in a row."""
    state, _ = act(
        _fly(["glide", "upgrade_2", "glide", "glide", "glide"], "practice_perfect"),
        0,
        "draw",
        "draw",
    )
    assert "menu:skill" not in keys(state)
    state, _ = act(state, 0, "draw", "draw", "menu:skill", "use:practice_perfect")
    assert _row(state)[-1] == "glide" and len(_row(state)) == 5


def test_tilt_the_canard_needs_an_upgrade_last() -> None:
    """Tilt the Canard: +2 if the most recent card is an Upgrade."""
    state = _fly(["upgrade_2", "glide", "glide"], "tilt_canard")
    expected = 2 + 2 + 5 + amount("tilt_canard")
    assert _record(state, "draw", "menu:skill", "use:tilt_canard", "descend") == expected


def test_pull_up_and_read_the_wind_reorder_the_top() -> None:
    """Pull Up / Read the Wind: put the looked-at cards back in a chosen order."""
    state, events = act(
        _fly(["glide", "upgrade_5", "basic_problem", "glide"], "pull_up"),
        0,
        "menu:skill",
        "use:pull_up",
    )
    assert keys(state) == ["top:glide", "top:upgrade_5", "top:basic_problem"]
    assert events[-1].visible_to == (0,) and "upgrade" not in events[-1].text.lower()
    state, _ = act(state, 0, "top:upgrade_5", "top:glide")
    assert state.seats[0].deck == ("upgrade_5", "glide", "basic_problem", "glide")
    assert build_view(state, 0).known_top == ("Upgrade 5", "Glide", "Basic Flight Problem")
    assert build_view(state, None).known_top == ()
    wind, _ = act(
        _fly(["glide", "upgrade_5", "glide"], "read_wind"),
        0,
        "menu:skill",
        "use:read_wind",
        "top:upgrade_5",
    )
    assert wind.seats[0].deck[:2] == ("upgrade_5", "glide")


def test_steady_hands_may_bottom_the_top_card() -> None:
    """Steady Hands: look at the top card, maybe to the bottom."""
    state, _ = act(
        _fly(["basic_problem", "glide", "glide"], "steady_hands"),
        0,
        "menu:skill",
        "use:steady_hands",
    )
    assert keys(state) == ["bottom:basic_problem", "done"]
    state, _ = act(state, 0, "bottom:basic_problem")
    assert state.seats[0].deck == ("glide", "glide", "basic_problem")


def test_roll_control_bottom_one_fly_the_other() -> None:
    """Roll Control (rulebook example): one to the bottom, the other into the Flight."""
    state, _ = act(
        _fly(["basic_problem", "upgrade_5", "glide"], "roll_control"),
        0,
        "menu:skill",
        "use:roll_control",
        "fly:upgrade_5",
    )
    assert _row(state) == ["upgrade_5"] and state.seats[0].deck == ("glide", "basic_problem")


def test_bank_and_turn_puts_the_recent_basic_problem_on_the_bottom() -> None:
    """Bank and Turn: the most recent Basic Flight Problem leaves the Flight."""
    state, _ = act(
        _fly(["basic_problem", "glide", "glide"], "bank_turn"),
        0,
        "draw",
        "menu:skill",
        "use:bank_turn",
    )
    assert _row(state) == [] and state.seats[0].deck[-1] == "basic_problem"


def test_headwind_takeoff_and_barnstorming_check_problems_at_scoring() -> None:
    """Headwind Takeoff: a bonus with 0 Problems; Barnstorming: a bonus with exactly 3."""
    clean = _fly(["glide"] * 3, "headwind_takeoff")
    assert _record(clean, "menu:skill", "use:headwind_takeoff", "draw", "descend") == 8 + amount(
        "headwind_takeoff"
    )
    bumpy = _fly(["basic_problem"] * 3 + ["glide"] * 2, "barnstorming")
    plays = ("draw", "draw", "draw", "menu:skill", "use:barnstorming", "descend")
    assert _record(bumpy, *plays) == 5 + 5 + amount("barnstorming")


def test_trim_the_elevator_cancels_unreliable_elevator_control() -> None:
    """Trim the Elevator: the next Glide is not scrapped."""
    state, _ = act(
        _fly(["elevator_control*", "glide", "glide"], "trim_elevator"),
        0,
        "draw",
        "menu:skill",
        "use:trim_elevator",
        "draw",
    )
    assert _row(state) == ["elevator_control", "glide"]


def test_throttle_up_boosts_the_next_upgrade() -> None:
    """Throttle Up: the next Upgrade counts +1."""
    state = _fly(["upgrade_2", "glide", "glide"], "throttle_up")
    assert _record(state, "menu:skill", "use:throttle_up", "draw", "descend") == 3 + 2 + 5


def test_feather_the_prop_cancels_a_power_failure() -> None:
    """Feather the Prop: a revealed Power Failure has no effect."""
    state = _fly(["upgrade_5", "power_failure*", "glide", "glide"], "feather_prop")
    assert (
        _record(state, "draw", "draw", "menu:skill", "use:feather_prop", "descend") == 5 + 1 + 2 + 5
    )


def test_glide_path_counts_recent_glides() -> None:
    """Glide Path: a bonus per Glide among the 3 most recent cards."""
    state = _fly(["glide", "upgrade_2", "glide", "glide", "glide"], "glide_path")
    assert (
        _record(state, "draw", "draw", "draw", "menu:skill", "use:glide_path", "descend")
        == 4 + 2 + 2 * amount("glide_path") + 5
    )


def test_brace_for_impact_keeps_the_pawn_standing() -> None:
    """Brace for Impact: a crash does not lay the pawn down."""
    state = _fly(["basic_problem"] * 4, "brace_impact")
    state, _ = act(state, 0, "menu:skill", "use:brace_impact", "draw", "draw", "draw", "draw")
    assert state.pawns[0].standing and state.seats[0].record == 4


def test_quick_adjustment_redraws_the_most_recent_card() -> None:
    """Quick Adjustment: shuffle the last card back, draw one."""
    state = _fly(["basic_problem", "basic_problem"], "quick_adjustment")
    state, events = act(state, 0, "draw", "menu:skill", "use:quick_adjustment")
    assert _row(state) == ["basic_problem"] and len(state.seats[0].deck) == 1
    assert any(e.reveals for e in events)


def test_second_wind_refreshes_another_skill() -> None:
    """Second Wind: refresh another exhausted Skill."""
    state = _fly(["glide"] * 4, "level_out", "second_wind")
    state, _ = act(state, 0, "draw", "menu:skill", "use:level_out", "menu:skill", "use:second_wind")
    assert keys(state) == ["refresh:level_out"]
    state, _ = act(state, 0, "refresh:level_out")
    assert not state.seats[0].cards[0].exhausted and state.seats[0].cards[1].exhausted
