"""The rulebook's worked examples, replayed with rigged decks."""

from __future__ import annotations

from rules.first_in_flight.state import Pawn
from rules.first_in_flight.view import build_view
from tests.rules.first_in_flight.helpers import (
    END,
    SMALL,
    act,
    flying,
    keys,
    own,
    pilot_amount,
    place,
    reseed,
    table,
    texts,
    with_seat,
)


def _sami_until_descend() -> object:
    """Example Flight (rulebook: Fly Action): Sami flies with Roll Control and Dihedral Wing."""
    state = table(pilots=("wright", "bleriot", "latham"))
    state = own(state, 0, "roll_control", "dihedral_wing")
    deck = [
        "glide", "experience", "glide", "upgrade_3",  # 7 Distance so far (with the gained Glide)
        "basic_problem", "upgrade_5",  # Roll Control: the Problem to the bottom, the 5 played
        "delicate_wing*", "basic_problem",  # 3 Problems: Delicate Wing counts double
        "glide", "basic_problem",  # left for the landing draws
    ]  # fmt: skip
    state = flying(state, 0, deck)
    state, _ = act(state, 0, "draw", "draw", "draw", "draw")
    state, events = act(state, 0, "menu:skill", "use:roll_control")
    assert keys(state) == ["fly:basic_problem", "fly:upgrade_5"]
    assert "You looked at: Basic Flight Problem, Upgrade 5." in [e.private_text for e in events]
    state, _ = act(state, 0, "fly:upgrade_5", "draw", "draw")
    return state


def test_example_flight_scores_20_with_dihedral_wing_design() -> None:
    """16 printed + crashed Descend 2 + Dihedral +2 for two Upgrades = 20; record 20, Famous."""
    base = _sami_until_descend()
    assert base.flight is not None and len(base.flight.row) == 8
    for seed in range(50):  # pick a landing shuffle that reveals the Glide, then the 4th Problem
        state, events = act(reseed(base, seed), 0, "descend")
        assert state.flight is not None
        if [rc.card for rc in state.flight.row][-2:] == ["glide", "basic_problem"]:
            break
    log = texts(events)
    assert "crashed" in log and "20 Distance" in log
    mat = state.seats[0]
    assert mat.record == 20 and mat.famous
    assert mat.coins == 6 + pilot_amount("wright") + 3  # Wright: tracker moved, Fame Benefit +3
    assert state.pawns[0].standing is False
    # cleanup: the revealed Delicate Wing may go to the left Garage slot
    assert keys(state) == ["garage:delicate_wing", "done"]
    state, _ = act(state, 0, "garage:delicate_wing", "done")
    assert state.seats[0].garage == ("delicate_wing", "")
    assert state.flight is None


def test_repair_example_via_any_action_costs_1_money_and_2_time() -> None:
    """Asher repairs Power Failure at the Any space: 1 Money surcharge + 2 Time (ruling 1)."""
    state = table(pilots=("wright", "bleriot", "latham"))
    state = with_seat(state, 0, garage=("power_failure", "elevator_control"), deck=("glide",))
    state = place(state, SMALL[9], SMALL[11], SMALL[12])
    coins = state.seats[0].coins
    state, _ = act(state, 0, f"move:{SMALL[10]}", f"copy:{SMALL[6]}")
    assert keys(state) == ["slot:0", "slot:1", "cancel"]
    state, _ = act(state, 0, "slot:0")
    assert keys(state) == ["pay:m4t0x0", "pay:m1t2x0", "cancel"]
    state, events = act(state, 0, "pay:m1t2x0")
    mat = state.seats[0]
    assert mat.coins == coins - 1
    assert state.pawns[0].pos == SMALL[10] + 3  # two Time Spaces past the Any space
    assert mat.garage == ("", "elevator_control")
    assert "power_failure" in state.flaw_discard
    assert "basic_problem" in mat.deck
    assert any(c.startswith("upgrade_") for c in mat.deck)  # Repair Bonus: the top Upgrade
    assert "repaired Power Failure" in texts(events)


def test_right_garage_slot_costs_one_more_time() -> None:
    """Repairing the right slot: +1 Time on top of the chosen payment."""
    state = table(pilots=("wright", "bleriot", "latham"))
    state = with_seat(state, 0, garage=("power_failure", "elevator_control"))
    state = place(state, SMALL[5], SMALL[9], SMALL[10])
    state, _ = act(state, 0, f"move:{SMALL[6]}", "slot:1")
    assert keys(state) == ["pay:m3t1x0", "pay:m0t3x0", "cancel"]


def test_upgrade_example_pay_4_look_at_4_keep_2_gain_a_hidden_flaw() -> None:
    """Crystal pays 4 Money, sees 4 Upgrades, keeps the 3 and the 5, gains a face-down flaw."""
    state = table(pilots=("wright", "bleriot", "latham"))
    top = ("upgrade_2", "upgrade_3", "upgrade_4", "upgrade_5")
    state = state.model_copy(update={"upgrade_deck": top + state.upgrade_deck[4:]})
    state = with_seat(state, 0, coins=6, deck=())
    state, events = act(state, 0, f"move:{SMALL[5]}", "pay:m4t0x4")
    assert state.steps[-1].cards == top
    seen = "You saw: Upgrade 2, Upgrade 3, Upgrade 4, Upgrade 5."
    assert seen in [e.private_text for e in events]
    assert all(e.reveals for e in events if e.kind == "looked")
    state, events = act(state, 0, "pick:upgrade_3", "pick:upgrade_5")
    mat = state.seats[0]
    assert mat.coins == 2
    assert mat.deck[:2] == ("upgrade_3", "upgrade_5")
    assert len(mat.deck) == 3 and mat.deck[2].endswith("*")  # hidden Design Flaw
    assert len(state.upgrade_deck) == 32 - 2
    view = build_view(state, None).seats[0].composition
    assert view.unrevealed_flaws == 1 and view.flaws == ()


def test_time_space_arrival_order() -> None:
    """Asher then Crystal pay 2 Time to the same Time Space: Crystal in front, Asher acts first."""
    state = table(pilots=("wright", "bleriot", "latham"))
    state = with_seat(state, 0, garage=("power_failure", ""))
    state = with_seat(state, 1, garage=("pitch_instability", ""))
    state = place(state, SMALL[4], SMALL[5], SMALL[9] + 3)  # Sami already on a later Time Space
    state, _ = act(state, 0, f"move:{SMALL[6]}", "pay:m0t2x0")  # Asher: 2 Time
    assert state.steps[-1].seat == 1  # Crystal is now farthest back
    state, _ = act(state, 1, f"move:{SMALL[6]}", "pay:m0t2x0")  # the Repair space is free again
    assert state.pawns[0].pos == state.pawns[1].pos == SMALL[6] + 3
    assert state.pawns[1].arrival > state.pawns[0].arrival
    assert state.steps[-1].seat == 0  # Asher arrived first, so he is farther back
    pawns = build_view(state, None).pawns
    assert pawns[0].turn_order < pawns[1].turn_order


def test_year_end_example_first_into_the_start_area_goes_first_next_year() -> None:
    """Asher cannot pay for a Skill, jumps to the start area, and starts Year 2."""
    state = table(pilots=("wright", "bleriot", "latham"))
    state = with_seat(state, 0, coins=0)
    state = place(state, SMALL[15] + 1, END, END)
    state = state.model_copy(
        update={
            "pawns": (
                Pawn(pos=SMALL[15] + 1, arrival=300),
                Pawn(pos=END, arrival=301),
                Pawn(pos=END, arrival=302),
            )
        }
    )
    state = place(state, SMALL[15] + 1, SMALL[15] + 2, SMALL[15] + 2)
    assert f"move:{SMALL[16]}" not in keys(state)  # 3 Money, Asher has 0
    state, _ = act(state, 0, "start")
    state, _ = act(state, 1, "start")
    state, events = act(state, 2, "start")
    assert state.year == 2
    assert "Year 1 ended" in texts(events)
    assert state.steps[-1].seat == 0  # Asher entered first: leftmost, first turn of Year 2
    assert [p.pos for p in state.pawns] == [-1, -1, -1]
