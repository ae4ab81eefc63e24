"""Thérèse Peltier using others' at-use Friends, and the Upgrade Action's open-ended X."""

from __future__ import annotations

from rules.first_in_flight import GAME
from rules.first_in_flight.state import State
from tests.rules.first_in_flight.helpers import (
    END,
    SMALL,
    act,
    keys,
    own,
    place,
    table,
    texts,
    with_seat,
)

REPAIR = SMALL[6]  # Repair: 3 Money or 2 Time


def _peltier(*others: tuple[int, str], positions: tuple[int, ...] = ()) -> State:
    """Seat 0 is Peltier; (seat, card) pairs give other seats cards; seat 0 to act."""
    state = table(pilots=("peltier", "bleriot", "latham"))
    for seat, card in others:
        state = own(state, seat, card)
    return place(state, *(positions or (SMALL[4], SMALL[7], SMALL[8])))


def _labels(state: State, seat: int = 0) -> dict[str, str]:
    """Key → label of the legal actions."""
    return {a.key: a.label for a in GAME.legal_actions(state, seat)}


def test_peltier_uses_katharine_wright_owned_by_another_player() -> None:
    """Katharine via Peltier: onto an occupied space, in front; Peltier's use is spent."""
    state = _peltier((1, "katharine_wright"))
    labels = _labels(state)
    assert labels[f"move:{SMALL[8]}"].endswith("(Katharine Wright (via Peltier))")
    state, events = act(state, 0, f"move:{SMALL[8]}")
    assert state.pawns[0].pos == SMALL[8] and state.pawns[0].arrival > state.pawns[2].arrival
    assert state.seats[0].pilot_used == 1 and not state.seats[1].cards[0].exhausted
    assert "copied Katharine Wright" in texts(events)


def test_katharine_via_peltier_leaves_no_peltier_discount_for_the_same_action() -> None:
    """Her one use goes to Katharine: another's Edith Berg is not offered on that payment."""
    state = _peltier((1, "katharine_wright"), (2, "edith_berg"), positions=(SMALL[4], REPAIR, 30))
    state = with_seat(state, 0, garage=("power_failure", ""))
    state, _ = act(state, 0, f"move:{REPAIR}")
    assert keys(state) == ["pay:m3t0x0", "pay:m0t2x0", "cancel"]


def test_peltier_uses_edith_berg_to_afford_a_space() -> None:
    """Edith Berg via Peltier: −3 Money makes an unaffordable Repair payable with 0 coins."""
    state = _peltier((2, "edith_berg"))
    state = with_seat(state, 0, coins=0, garage=("power_failure", ""))
    assert f"move:{REPAIR}" in keys(state)
    state, _ = act(state, 0, f"move:{REPAIR}")
    labels = _labels(state)
    assert labels["pay:m0t0x0:peltier:edith_berg"] == "Free (with Edith Berg (via Peltier))"
    state, events = act(state, 0, "pay:m0t0x0:peltier:edith_berg")
    assert state.pawns[0].pos == REPAIR and state.seats[0].garage == ("", "")
    assert state.seats[0].pilot_used == 1 and not state.seats[2].cards[0].exhausted
    assert "copied Edith Berg" in texts(events)


def test_peltier_uses_paul_dunbar_to_cut_a_time_cost() -> None:
    """Dunbar via Peltier: the 2-Time Repair costs no Time; the owner's card stays ready."""
    state = _peltier((1, "paul_dunbar"))
    state = with_seat(state, 0, coins=0, garage=("power_failure", ""))
    state, _ = act(state, 0, f"move:{REPAIR}")
    assert keys(state) == ["pay:m0t2x0", "pay:m0t0x0:peltier:paul_dunbar", "cancel"]
    state, _ = act(state, 0, "pay:m0t0x0:peltier:paul_dunbar")
    assert state.pawns[0].pos == REPAIR and state.seats[0].pilot_used == 1
    assert not state.seats[1].cards[0].exhausted


def test_peltier_uses_gustaves_leon_bollee_to_repair_both_flaws() -> None:
    """Bollée (Gustave's) via Peltier: both Garage flaws repaired, both bonuses."""
    state = _peltier().model_copy(update={"gustave_cards": ("leon_bollee",)})
    state = with_seat(state, 0, garage=("pitch_instability", "delicate_wing"))
    state = own(state, 1, "edith_berg")
    state, _ = act(state, 0, f"move:{REPAIR}")
    assert _labels(state)["slot:0+1"].startswith("Repair both (Léon Bollée via Peltier)")
    state, _ = act(state, 0, "slot:0+1")
    assert not any("peltier" in k for k in keys(state))  # her use already goes to Bollée
    state, events = act(state, 0, "pay:m3t1x0")
    mat = state.seats[0]
    assert mat.garage == ("", "") and mat.deck.count("basic_problem") == 2
    assert mat.coins == 6 - 3 + 2 and "experience" in mat.deck and mat.pilot_used == 1
    assert "copied Léon Bollée" in texts(events)


def test_peltier_copy_also_works_on_an_exhausted_card() -> None:
    """The owner's card may be exhausted: Peltier copies the card, not the owner's use."""
    state = table(pilots=("peltier", "bleriot", "latham"))
    state = place(own(state, 1, "edith_berg", exhausted=True), SMALL[4], SMALL[7], SMALL[8])
    state = with_seat(state, 0, coins=0, garage=("power_failure", ""))
    state, _ = act(state, 0, f"move:{REPAIR}")
    assert "pay:m0t0x0:peltier:edith_berg" in keys(state)


def test_peltier_at_use_copies_not_offered_once_her_use_is_spent() -> None:
    """Pilot already used this Year: no occupied space, no copied discount or second repair."""
    state = _peltier((1, "katharine_wright"), (2, "edith_berg"))
    state = state.model_copy(update={"gustave_cards": ("leon_bollee",)})
    state = with_seat(state, 0, pilot_used=1, garage=("pitch_instability", "delicate_wing"))
    assert f"move:{SMALL[8]}" not in keys(state) and f"move:{SMALL[7]}" not in keys(state)
    state, _ = act(state, 0, f"move:{REPAIR}")
    assert "slot:0+1" not in keys(state)
    state, _ = act(state, 0, "slot:0")
    assert not any("peltier" in k for k in keys(state))


def test_peltier_at_use_copies_not_offered_when_nobody_else_owns_the_card() -> None:
    """Only Peltier's own cards (or none): nothing to copy; her own ready card is used."""
    state = _peltier()
    state = with_seat(state, 0, garage=("pitch_instability", "delicate_wing"))
    assert f"move:{SMALL[8]}" not in keys(state)
    state, _ = act(state, 0, f"move:{REPAIR}")
    assert "slot:0+1" not in keys(state)
    state, _ = act(state, 0, "slot:0")
    assert keys(state) == ["pay:m3t0x0", "pay:m0t2x0", "cancel"]
    mine = own(_peltier(), 0, "edith_berg")
    mine = with_seat(mine, 0, coins=0, garage=("power_failure", ""))
    mine, _ = act(mine, 0, f"move:{REPAIR}")
    assert keys(mine) == ["pay:m0t0x0:edith_berg", "pay:m0t2x0", "cancel"]


def test_peltier_activated_copy_menu_still_excludes_at_use_friends() -> None:
    """The ability menu copies activated abilities; at-use Friends come at their moment."""
    state = _peltier((1, "edith_berg"), (2, "hart_berg"))
    state, _ = act(state, 0, "menu:other", "use:pilot")
    assert keys(state) == ["copy:hart_berg", "cancel"]


# --- Upgrade: any amount of Money or Time (minimum 2) ---------------------------------------


def _xs(state: State) -> set[int]:
    """The X values offered at a payment step."""
    return {int(k.split("x")[1].split(":")[0]) for k in keys(state) if k.startswith("pay:")}


def test_a_rich_player_may_pay_more_than_7_for_an_upgrade() -> None:
    """20 coins and a full Upgrade deck: X = 8 and beyond offered, at most 25 actions."""
    state = with_seat(place(table(), SMALL[4], SMALL[7], SMALL[8]), 0, coins=20)
    assert len(state.upgrade_deck) >= 8
    state, _ = act(state, 0, f"move:{SMALL[5]}")
    assert "pay:m8t0x8" in keys(state) and {2, 3, 8} <= _xs(state)
    assert len(keys(state)) <= 25 and len(_xs(state)) <= 20
    state, _ = act(state, 0, "pay:m8t0x8")
    assert len(state.steps[-1].cards) == 8 and state.seats[0].coins == 12


def test_upgrade_x_is_capped_by_the_deck_size() -> None:
    """X beyond the Upgrade deck is pointless: 4 cards left → X from 2 to 4."""
    state = with_seat(place(table(), SMALL[4], SMALL[7], SMALL[8]), 0, coins=20)
    state = state.model_copy(update={"upgrade_deck": state.upgrade_deck[:4]})
    state, _ = act(state, 0, f"move:{SMALL[5]}")
    assert _xs(state) == {2, 3, 4}


def test_three_coins_and_one_time_offer_x_2_or_3() -> None:
    """Todd stands with one Time Space left and 3 coins: X ∈ {2, 3}, paid in Money."""
    state = table(pilots=("todd", "bleriot", "latham"))
    state = with_seat(place(state, 34, END, END), 0, coins=3)
    state, _ = act(state, 0, "menu:other", "use:pilot", f"use:{SMALL[5]}")
    assert keys(state) == ["pay:m2t0x2", "pay:m3t0x3", "cancel"]
    assert _xs(state) == {2, 3}


def test_no_step_offers_more_than_25_actions_with_every_reduction() -> None:
    """Rich, many Time Spaces, Edith and Dunbar both ready: the largest X give way (≤ 25)."""
    state = own(table(), 0, "edith_berg", "paul_dunbar")
    state = with_seat(place(state, SMALL[4], SMALL[7], SMALL[8]), 0, coins=30)
    state, _ = act(state, 0, f"move:{SMALL[5]}")
    assert len(keys(state)) == 25 and _xs(state) == set(range(2, 8))


def test_peltier_cannot_copy_katharine_and_bollee_in_one_action() -> None:
    """Onto an occupied Repair space via her copy of Katharine: no second repair via Bollée."""
    state = _peltier((1, "katharine_wright"), (2, "leon_bollee"), positions=(SMALL[4], REPAIR, 30))
    state = with_seat(state, 0, garage=("pitch_instability", "delicate_wing"))
    state, _ = act(state, 0, f"move:{REPAIR}")
    assert keys(state) == ["slot:0", "slot:1", "cancel"]
    state = _peltier((2, "leon_bollee"), positions=(SMALL[4], SMALL[7], 30))
    state = with_seat(state, 0, garage=("pitch_instability", "delicate_wing"))
    state, _ = act(state, 0, f"move:{REPAIR}")
    assert "slot:0+1" in keys(state)
