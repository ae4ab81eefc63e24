"""Every Pilot and Friend (stand-in data): abilities, Fame Benefits, Famous sides."""

from __future__ import annotations

import pytest

from rules.first_in_flight.state import State
from rules.first_in_flight.view import build_view
from tests.rules.first_in_flight.helpers import (
    SMALL,
    act,
    amount,
    flying,
    keys,
    own,
    pilot_amount,
    place,
    table,
    texts,
    with_seat,
)


def _at(
    pilot: str, *cards: str, positions: tuple[int, int, int] = (SMALL[4], SMALL[7], SMALL[8])
) -> State:
    """Seat 0 with this Pilot and cards, pawns placed, seat 0 to act."""
    state = own(table(pilots=(pilot, "bleriot", "latham")), 0, *cards)
    return place(state, *positions)


def _fly(pilot: str, deck: list[str], *cards: str, famous: bool = False) -> State:
    """Seat 0 flying."""
    state = own(table(pilots=(pilot, "wright", "latham")), 0, *cards)
    return flying(with_seat(state, 0, famous=famous), 0, deck)


# --- Pilots ---------------------------------------------------------------------------------


def test_wright_famous_side_gives_2_coins_per_record() -> None:
    """Wright Brothers (Famous): coins whenever the tracker moves."""
    state, _ = act(_fly("wright", ["glide"] * 3, famous=True), 0, "draw", "descend")
    assert state.seats[0].coins == 6 + pilot_amount("wright", famous=True)


def test_santos_dumont_once_per_year_coins_and_fame_any_action() -> None:
    """Santos-Dumont: coins once per Year; Fame Benefit: an Any Action without surcharge."""
    state = _at("santos_dumont")
    state, _ = act(state, 0, "menu:other", "use:pilot")
    assert state.seats[0].coins == 6 + pilot_amount("santos_dumont")
    assert "menu:other" not in keys(state)
    fame = _fly("santos_dumont", ["upgrade_5", "upgrade_5", "upgrade_5"])
    fame, _ = act(fame, 0, "draw", "descend")
    assert fame.seats[0].famous and fame.steps[-1].kind == "space" and fame.steps[-1].via == "fame"
    fame, _ = act(fame, 0, f"use:{SMALL[1]}")
    assert fame.seats[0].coins == 6 + 2 and fame.pawns[0].pos == -1  # the pawn did not move


def test_santos_dumont_famous_pays_no_any_surcharge() -> None:
    """Santos-Dumont (Famous): the Any space costs only the copied action."""
    state = with_seat(
        _at("santos_dumont", positions=(SMALL[9], SMALL[11], SMALL[12])), 0, famous=True
    )
    state, _ = act(state, 0, f"move:{SMALL[10]}", f"copy:{SMALL[3]}")
    assert keys(state) == ["pay:m2t0x0", "pay:m0t1x0", "cancel"]


def test_latham_crash_coins_and_famous_crashed_descend_4() -> None:
    """Latham: coins on a crash; Famous: a crashed Descend counts 4."""
    state, _ = act(_fly("latham", ["basic_problem"] * 4), 0, *["draw"] * 4)
    assert state.seats[0].coins == 6 + pilot_amount("latham")
    famous = _fly("latham", ["glide"] + ["basic_problem"] * 4, famous=True)
    famous, _ = act(famous, 0, "draw", "draw", "draw", "descend")
    assert famous.seats[0].record == 5 + 4


def test_peltier_copies_another_players_friend_without_exhausting_it() -> None:
    """Peltier: use Hart O. Berg owned by another player; only the Pilot is exhausted."""
    state = own(_at("peltier"), 1, "hart_berg")
    state, events = act(state, 0, "menu:other", "use:pilot", "copy:hart_berg")
    assert state.seats[0].coins == 6 + 3 and not state.seats[1].cards[0].exhausted
    assert state.seats[0].pilot_used == 1 and "copied Hart O. Berg" in texts(events)


def test_peltier_fame_benefit_friend_and_famous_distance_per_friend() -> None:
    """Peltier: Fame Benefit a free Friend; Famous +1 Distance per Friend owned."""
    state, _ = act(_fly("peltier", ["upgrade_5"] * 3), 0, "draw", "descend")
    assert len(state.seats[0].cards) == 1
    famous = _fly("peltier", ["glide"] * 3, "hart_berg", "edith_berg", famous=True)
    famous, _ = act(famous, 0, "draw", "descend")
    assert famous.seats[0].record == 3 + 5 + 2


def test_bleriot_landing_bonus_and_famous_look_plus_one() -> None:
    """Blériot: Distance on a safe landing; Famous 'look at the top X' sees X+1."""
    state, _ = act(_fly("bleriot", ["glide"] * 3), 0, "draw", "descend")
    assert state.seats[0].record == 3 + 5 + pilot_amount("bleriot")
    famous = _fly("bleriot", ["glide"] * 3, "steady_hands", famous=True)
    famous, _ = act(famous, 0, "menu:skill", "use:steady_hands")
    assert len(famous.steps[-1].cards) == 2


def test_langley_looks_at_an_extra_card_when_gaining_from_a_deck() -> None:
    """Langley: Charles Manly's top Upgrade becomes a choice of 2."""
    state = _at("langley", "charles_manly")
    state = state.model_copy(update={"upgrade_deck": ("upgrade_2", "upgrade_5", "upgrade_3")})
    state, _ = act(state, 0, "menu:other", "use:charles_manly")
    assert keys(state) == ["pick:upgrade_2", "pick:upgrade_5"]
    state, _ = act(state, 0, "pick:upgrade_5")
    assert "upgrade_5" in state.seats[0].deck and len(state.upgrade_deck) == 2


def test_todd_takes_the_action_of_a_space_behind_without_moving() -> None:
    """Lilian Todd: once per Year, the action of a space behind (pay its cost; pawn stays)."""
    state = _at("todd", positions=(SMALL[9], SMALL[11], SMALL[12]))
    state, _ = act(state, 0, "menu:other", "use:pilot")
    assert f"use:{SMALL[1]}" in keys(state) and f"use:{SMALL[10]}" not in keys(state)
    state, _ = act(state, 0, f"use:{SMALL[1]}")
    assert state.seats[0].coins == 8 and state.pawns[0].pos == SMALL[9]
    assert state.seats[0].pilot_used == 1


def test_curtiss_upgrade_looks_further() -> None:
    """Curtiss: Upgrade looks at 1 extra (Famous: 2 extra and 1 more)."""
    state, _ = act(_at("curtiss"), 0, f"move:{SMALL[5]}", "pay:m2t0x2")
    assert len(state.steps[-1].cards) == 3
    famous = with_seat(_at("curtiss"), 0, famous=True)
    famous, _ = act(famous, 0, f"move:{SMALL[5]}", "pay:m2t0x2")
    assert len(famous.steps[-1].cards) == 5


def test_coleman_ignores_a_basic_flight_problem() -> None:
    """Bessie Coleman: once per Year, one revealed Basic Flight Problem stops counting."""
    state = _fly("coleman", ["basic_problem"] * 3 + ["glide"] * 3)
    state, _ = act(state, 0, "draw", "draw", "menu:other", "use:pilot", "ignore:basic_problem")
    assert build_view(state, None).flight.problems == 1  # type: ignore[union-attr]
    assert "menu:other" not in keys(state)


def test_bell_pays_less_on_technology_spaces() -> None:
    """Alexander Graham Bell: Technology spaces cost 1 less."""
    state, _ = act(_at("bell", positions=(SMALL[4], SMALL[8], SMALL[9])), 0, f"move:{SMALL[7]}")
    assert keys(state) == ["opt:0", "opt:1", "cancel"]
    state, _ = act(state, 0, "opt:1")
    assert keys(state) == ["pay:m3t0x0", "pay:m0t1x0", "cancel"]


# --- Friends --------------------------------------------------------------------------------


def test_katharine_wright_uses_an_occupied_space_and_goes_in_front() -> None:
    """Katharine Wright: move onto another pawn's space; your pawn goes in front."""
    state = _at("wright", "katharine_wright")
    assert f"move:{SMALL[7]}" in keys(state)
    state, _ = act(state, 0, f"move:{SMALL[8]}")
    assert state.pawns[0].pos == SMALL[8] and state.seats[0].cards[0].exhausted
    assert state.pawns[0].arrival > state.pawns[2].arrival


def test_edith_berg_and_dunbar_reduce_costs() -> None:
    """Edith Berg: Money cost −3 (affordable with 0 coins); Dunbar: Time cost −2."""
    state = with_seat(_at("wright", "edith_berg", "paul_dunbar"), 0, coins=0)
    state = with_seat(state, 0, garage=("power_failure", ""))
    state, _ = act(state, 0, f"move:{SMALL[6]}")
    assert keys(state) == [
        "pay:m0t0x0:edith_berg",
        "pay:m0t2x0",
        "pay:m0t0x0:paul_dunbar",
        "cancel",
    ]
    state, _ = act(state, 0, "pay:m0t0x0:paul_dunbar")
    assert state.pawns[0].pos == SMALL[6] and state.seats[0].cards[1].exhausted


def test_hart_berg_manly_aida_gain_on_your_turn() -> None:
    """Hart O. Berg +3 coins; Charles Manly the top Upgrade; Aida de Acosta an Experience."""
    state = _at("wright", "hart_berg", "charles_manly", "aida_de_acosta")
    top = state.upgrade_deck[0]
    state, _ = act(state, 0, "menu:other", "use:hart_berg", "menu:other", "use:charles_manly")
    state, _ = act(state, 0, "menu:other", "use:aida_de_acosta")
    mat = state.seats[0]
    assert mat.coins == 9 and top in mat.deck and mat.deck.count("experience") == 2
    assert all(o.exhausted for o in mat.cards) and "menu:other" not in keys(state)


def test_manly_during_a_flight_adds_the_upgrade_to_the_flight() -> None:
    """Gaining a card while flying adds it to the Flight."""
    state = _fly("wright", ["glide"] * 3, "charles_manly")
    top = state.upgrade_deck[0]
    state, _ = act(state, 0, "menu:other", "use:charles_manly")
    assert state.flight is not None and [rc.card for rc in state.flight.row] == [top]


def test_bollee_repairs_both_garage_flaws() -> None:
    """Léon Bollée: one Repair fixes both Garage flaws (both bonuses)."""
    state = with_seat(
        _at("wright", "leon_bollee"), 0, garage=("pitch_instability", "delicate_wing")
    )
    state, _ = act(state, 0, f"move:{SMALL[6]}", "slot:0+1", "pay:m3t1x0")
    mat = state.seats[0]
    assert mat.garage == ("", "") and mat.deck.count("basic_problem") == 2
    assert mat.coins == 6 - 3 + 2 and "experience" in mat.deck


def test_chanute_and_furnas_in_flight() -> None:
    """Octave Chanute: a revealed Problem stops counting; Charley Furnas adds Distance."""
    state = _fly("wright", ["delicate_wing*", "glide", "glide"], "octave_chanute", "charley_furnas")
    state, _ = act(state, 0, "draw", "menu:other", "use:octave_chanute", "ignore:delicate_wing")
    assert build_view(state, None).flight.problems == 0  # type: ignore[union-attr]
    state, _ = act(state, 0, "menu:other", "use:charley_furnas", "descend")
    assert state.seats[0].record == 3 + 5 + amount("charley_furnas")


def test_talpade_looks_at_the_top_3_at_the_start_of_a_flight() -> None:
    """Shivkar Talpade: at the start of a Flight, any of the top 3 to the bottom."""
    state = _fly("wright", ["basic_problem", "glide", "basic_problem", "glide"], "shivkar_talpade")
    state, _ = act(
        state,
        0,
        "menu:other",
        "use:shivkar_talpade",
        "bottom:basic_problem",
        "bottom:basic_problem",
        "done",
    )
    assert state.seats[0].deck == ("glide", "glide", "basic_problem", "basic_problem")
    state, _ = act(state, 0, "draw")
    assert "menu:other" not in keys(state)


@pytest.mark.parametrize(
    ("pilot", "check"),
    [
        ("bleriot", lambda m: [o.card for o in m.cards] != []),  # the top Skill
        ("langley", lambda m: any(c.startswith("upgrade_") for c in m.deck)),  # (after a choice)
        ("todd", lambda m: m.deck.count("experience") == 1),
        ("curtiss", lambda m: sum(c.startswith("upgrade_") for c in m.deck) == 4),
        ("coleman", lambda m: m.coins == 8 and len(m.cards) == 1),
        ("bell", lambda m: len(m.cards) == 1),
    ],
)
def test_fame_benefits(pilot: str, check: object) -> None:
    """Each Pilot's Fame Benefit arrives when the record first reaches 15."""
    state = _fly(pilot, ["upgrade_5", "upgrade_5", "upgrade_5"])
    state, events = act(state, 0, "draw", "descend")
    assert "became Famous" in texts(events)
    while state.steps and state.steps[-1].kind == "pick":
        state, _ = act(state, 0, keys(state)[0])
    assert state.seats[0].famous and check(state.seats[0])  # type: ignore[operator]
