"""Hidden information in views and events, step sizes, options, and the remaining rulings."""

from __future__ import annotations

import random

import pytest

from rules.core import InvalidOptionsError, RulesError
from rules.first_in_flight import GAME
from rules.first_in_flight.state import Options
from rules.first_in_flight.view import build_view
from tests.rules.first_in_flight.helpers import (
    SMALL,
    act,
    flying,
    keys,
    own,
    place,
    table,
    with_seat,
)

FLAW_NAMES = ("Pitch Instability", "Power Failure", "Delicate Wing", "Elevator Control")


def test_public_view_hides_deck_order_and_unrevealed_flaws() -> None:
    """The public view counts hidden flaws but never names them, and has no deck order or RNG."""
    state = GAME.new_game(3, 3, None)
    public = GAME.view(state, None)
    # the face-up cards' printed texts may name a flaw ("Pitch Instability doesn't affect you")
    raw = public.model_dump_json(exclude={"display_texts"})
    assert not any(name in raw for name in FLAW_NAMES)
    assert '"deck"' not in raw and '"rng"' not in raw
    for seat in public.seats:
        assert seat.deck_size == 9
        assert seat.composition.unrevealed_flaws == 4 and seat.composition.glide == 4
    assert public.players == 3


def test_revealed_flaws_become_public_knowledge() -> None:
    """A flaw drawn into a Flight is named in the deck composition afterwards."""
    state = flying(table(), 0, ["power_failure*", "glide", "glide"])
    state, _ = act(state, 0, "draw", "descend", "done")
    comp = build_view(state, None).seats[0].composition
    assert comp.flaws == (("Power Failure", 1),) and comp.unrevealed_flaws == 0


def test_looked_at_cards_are_seen_only_by_that_seat() -> None:
    """Seat view adds the cards being looked at and the known top; others see neither."""
    state = flying(own(table(), 0, "pull_up"), 0, ["glide", "upgrade_5", "glide", "glide"])
    state, events = act(state, 0, "menu:skill", "use:pull_up")
    looked = next(e for e in events if e.kind == "looked")
    assert looked.visible_to == (0,) and looked.reveals and "Upgrade" not in looked.text
    assert build_view(state, 0).looking_at == ("Glide", "Upgrade 5", "Glide")
    assert build_view(state, 1).looking_at == () and build_view(state, None).looking_at == ()


def test_flight_view_shows_row_problems_distance_and_odds_aid() -> None:
    """The current Flight row, Problems and distance so far; odds only with the option."""
    state = table(odds_aid=True)
    state = flying(state, 0, ["upgrade_3", "basic_problem", "glide", "basic_problem"])
    state, _ = act(state, 0, "draw", "draw")
    flight = build_view(state, None).flight
    assert flight is not None
    assert [r.name for r in flight.row] == ["Upgrade 3", "Basic Flight Problem"]
    assert flight.problems == 1 and flight.distance_so_far == 4 and not flight.descended
    assert flight.problem_cards_left == 1 and flight.cards_left == 2
    plain = flying(table(odds_aid=False), 0, ["glide"])
    assert build_view(plain, None).flight.problem_cards_left is None  # type: ignore[union-attr]


def test_every_step_offers_at_most_25_actions_with_short_keys() -> None:
    """Random play: ≤25 actions per step, ≤5 buttons, labels ≤80, keys unique."""
    for players in (1, 2, 3, 4):
        state = GAME.new_game(players, players, None)
        chooser = random.Random(players)
        while GAME.active_players(state):
            seat = GAME.active_players(state)[0]
            acts = GAME.legal_actions(state, seat)
            assert len(acts) <= 25 and len([a for a in acts if not a.group]) <= 5
            assert all(len(a.label) <= 80 for a in acts)
            state = GAME.apply(state, seat, chooser.choice(acts)).state  # type: ignore[assignment]


def test_bad_input_is_refused_with_a_reason_and_changes_nothing() -> None:
    """Illegal keys raise a readable error; the state is untouched."""
    state = place(table(), SMALL[4], SMALL[7], SMALL[8])
    before = state.model_dump()
    with pytest.raises(RulesError, match="cannot move there"):
        GAME.apply(state, 0, f"move:{SMALL[7]}")
    assert state.model_dump() == before


def test_options_and_data_file_selection() -> None:
    """Options have defaults and descriptions; an unknown data file is refused."""
    for name, field in Options.model_fields.items():
        assert field.description, name
    with pytest.raises((InvalidOptionsError, RulesError)):
        GAME.new_game(1, 2, {"card_data": "../../etc/passwd"})
    assert "stand-in" in GAME.rules_text(None)
    assert build_view(table(), None).stand_in


def test_upgrade_with_few_cards_looks_at_all_of_them() -> None:
    """Ruling 5: fewer than X Upgrade cards → look at all; keep up to 2."""
    state = place(table(), SMALL[4], SMALL[7], SMALL[8])
    state = state.model_copy(update={"upgrade_deck": ("upgrade_4",)})
    state, _ = act(state, 0, f"move:{SMALL[5]}")
    assert [k for k in keys(state) if k.startswith("pay:m")] == ["pay:m2t0x2", "pay:m0t2x2"]
    state, _ = act(state, 0, "pay:m2t0x2")
    assert state.steps[-1].cards == ("upgrade_4",)
    state, _ = act(state, 0, "pick:upgrade_4")
    assert state.upgrade_deck == () and state.seats[0].deck[-1].endswith("*")


def test_upgrade_reshuffles_flaw_discard_or_is_refused_when_flaws_run_out() -> None:
    """Ruling 5: empty Design Flaw deck → shuffle the discard; both empty → no Upgrade."""
    state = place(table(), SMALL[4], SMALL[7], SMALL[8])
    state = state.model_copy(update={"flaw_deck": (), "flaw_discard": ("power_failure",)})
    moved, _ = act(state, 0, f"move:{SMALL[5]}", "pay:m2t0x2", "pick:" + state.upgrade_deck[0])
    if moved.steps[-1].kind == "pick":
        moved, _ = act(moved, 0, keys(moved)[0])
    assert moved.seats[0].deck[-1] == "power_failure*" and moved.flaw_discard == ()
    empty = state.model_copy(update={"flaw_discard": ()})
    empty = place(empty, SMALL[4], SMALL[7], SMALL[8])
    assert f"move:{SMALL[5]}" not in keys(empty)


def test_elevator_repair_bonus_is_a_glide() -> None:
    """Repair Bonus of Unreliable Elevator Control: gain a Glide."""
    state = with_seat(table(), 0, garage=("elevator_control", ""), deck=())
    state = place(state, SMALL[5], SMALL[7], SMALL[8])
    state, _ = act(state, 0, f"move:{SMALL[6]}", "pay:m3t0x0")
    assert sorted(state.seats[0].deck) == ["basic_problem", "glide"]


def test_dev_cards_face_up_or_top_and_not_refilled() -> None:
    """Development spaces: a face-up card or the deck's top; the display is not refilled."""
    state = place(table(), SMALL[2], SMALL[7], SMALL[8])
    shown = state.display[2]
    state, _ = act(state, 0, f"move:{SMALL[3]}", "pay:m2t0x0")
    assert keys(state)[:4] == [f"take:{c}" for c in shown] and keys(state)[-1] == "top"
    state, _ = act(state, 0, f"take:{shown[0]}")
    assert state.display[2] == shown[1:] and state.seats[0].cards[0].card == shown[0]


def test_only_looked_at_cards_make_actions_private() -> None:
    """Action.public: safe to show except where labels name cards only the seat has seen."""
    state = flying(own(table(), 0, "pull_up"), 0, ["glide", "upgrade_5", "glide"])
    assert all(a.public for a in GAME.legal_actions(state, 0))
    state, _ = act(state, 0, "menu:skill", "use:pull_up")
    assert not any(a.public for a in GAME.legal_actions(state, 0))


def test_prompts_name_the_forced_choices() -> None:
    """Prompts say what the deciding seat must do, including forced choices."""
    state, _ = act(flying(table(), 0, ["pitch_instability*", "glide"]), 0, "draw")
    assert "Pitch Instability" in GAME.prompt(state, 0)
    assert GAME.prompt(state, 1) == "Waiting for another player."
    lying = place(table(), SMALL[4], SMALL[7], SMALL[8], standing=(False, True, True))
    assert "Recover" in GAME.prompt(lying, 0)
    assert all(len(GAME.rules_text(t)) <= 1800 for t in [None, *GAME.rules_topics()])
