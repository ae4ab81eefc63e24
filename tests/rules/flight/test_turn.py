"""Flight turn structure: deal, draw, the Aeroplane rule, must-play, discard (rules 1–3, 9)."""

from __future__ import annotations

from collections import Counter

import pytest

from rules.core import IllegalActionError
from rules.flight import GAME
from rules.flight.data import full_deck
from tests.rules.flight.helpers import act, flight, keys, kinds, rig


def test_the_deck_has_44_cards_in_the_printed_mix() -> None:
    """Description: 4 × (Aeroplane, Route 1–5, Safe Landing) + 4 each of the four specials."""
    deck = Counter(full_deck())
    assert sum(deck.values()) == 44
    assert deck["SL"] == deck["FOG"] == deck["ALT"] == deck["CUS"] == deck["PAS"] == 4
    for route in ("CAN", "AUS", "SAF", "IND"):
        assert all(deck[f"{route}.{x}"] == 1 for x in ("A", "1", "2", "3", "4", "5"))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_deal_gives_seven_each_and_turns_up_one(players: int) -> None:
    """Rule 1: 7 cards each, the rest face down with the top card turned up beside it."""
    state = GAME.new_game(3, players, None)
    assert all(len(hand) == 7 for hand in state.hands)
    assert len(state.discards) == 1
    assert len(state.pack) == 44 - 7 * players - 1
    everything = [c for h in state.hands for c in h] + list(state.pack) + list(state.discards)
    assert Counter(everything) == Counter(full_deck())


def test_the_player_left_of_the_dealer_starts() -> None:
    """Rule 2: play starts left of the dealer."""
    state = GAME.new_game(3, 4, None)
    assert state.turn == (state.dealer + 1) % 4
    assert GAME.active_players(state) == (state.turn,)


def test_drawing_from_the_pack_takes_its_top_card_privately() -> None:
    """Rule 2: draw the top card of the pack; only the drawer learns what it was."""
    state = rig([["CAN.3", "AUS.4"], ["FOG"]], pack=("IND.5", "SAF.2"), discards=("PAS",))
    state, events = act(state, 0, "draw:pack")
    assert "IND.5" in state.hands[0] and state.pack == ("SAF.2",)
    drawn = events[0]
    assert drawn.reveals and drawn.visible_to == (0,)
    assert "India 5" in (drawn.private_text or "") and "India" not in drawn.text


def test_taking_the_exposed_discard() -> None:
    """Rule 2: or take the exposed card; everyone saw it, so no reveal."""
    state = rig([["CAN.3", "AUS.4"], ["FOG"]], discards=("CUS", "SAF.1"))
    state, events = act(state, 0, "draw:discard")
    assert "SAF.1" in state.hands[0] and state.discards == ("CUS",)
    assert not events[0].reveals and "South Africa 1" in events[0].text


def test_only_one_draw_per_turn() -> None:
    """Rule 2: after drawing the player plays; a second draw is refused with a reason."""
    state = rig([["CAN.3", "AUS.4"], ["FOG"]])
    state, _ = act(state, 0, "draw:pack")
    assert not any(k.startswith("draw:") for k in keys(state))
    with pytest.raises(IllegalActionError, match="already drawn"):
        GAME.apply(state, 0, "draw:pack")


def test_holding_an_aeroplane_forces_one_aeroplane_and_nothing_else() -> None:
    """Rule 3(a): with an Aeroplane in hand, play one Aeroplane and no other card."""
    table = [flight("AUS", 2)]
    state = rig([["CAN.A", "AUS.3", "SAF.A", "FOG"], ["FOG"]], flights=table, discards=("ALT",))
    state, _ = act(state, 0, "draw:discard")
    assert keys(state) == ["play:CAN.A", "play:SAF.A"]
    reason = GAME.why_unplayable(state, 0, "AUS.3")
    assert reason is not None and "Aeroplane" in reason
    with pytest.raises(IllegalActionError, match="Aeroplane"):
        GAME.apply(state, 0, "play:AUS.3")
    state, events = act(state, 0, "play:SAF.A")
    assert state.flight("SAF").started and "taken off" in events[0].text
    assert state.step.phase == "discard"
    assert all(k.startswith("discard:") for k in keys(state))
    assert "play nothing else" in (GAME.why_unplayable(state, 0, "CAN.A") or "")


def test_a_player_must_play_at_least_one_card_when_able() -> None:
    """Rule 3(b): no 'done' before the first play while a card is playable."""
    state = rig([["CAN.2", "CAN.3", "FOG"], ["FOG"]], flights=[flight("CAN", 1)])
    state, _ = act(state, 0, "draw:pack")
    assert "done" not in keys(state)
    with pytest.raises(IllegalActionError, match="at least one"):
        GAME.apply(state, 0, "done")
    with pytest.raises(IllegalActionError, match="at least one"):
        GAME.apply(state, 0, "discard:FOG")
    state, _ = act(state, 0, "play:CAN.2")
    assert "done" in keys(state) and "play:CAN.3" in keys(state)
    state, _ = act(state, 0, "done")
    assert state.step.phase == "discard"


def test_as_many_cards_as_wished_in_one_turn() -> None:
    """Rule 3(b): several cards in one turn (here three Route cards and a Customs)."""
    hand = ["CAN.1", "CAN.2", "CAN.3", "CUS", "AUS.5"]
    state = rig([hand, ["FOG"]], flights=[flight("CAN")])
    state, _ = act(state, 0, "draw:pack", "play:CAN.1", "play:CAN.2", "play:CAN.3", "play:CUS")
    assert [s.number for s in state.flight("CAN").stops] == [1, 2, 3]
    assert state.flight("CAN").open_obstacle is not None
    assert state.step.played == 4


def test_with_nothing_playable_the_turn_goes_straight_to_the_discard() -> None:
    """Rule 3(b): 'if able' — a player who cannot play just discards."""
    state = rig([["CAN.3", "AUS.4"], ["FOG"]], pack=("IND.5",))
    state, _ = act(state, 0, "draw:pack")
    assert state.step.phase == "discard"
    assert keys(state) == ["discard:CAN.3", "discard:AUS.4", "discard:IND.5"]


def test_discarding_ends_the_turn_and_passes_left() -> None:
    """Rule 2: discard one card face up; the next player to the left draws."""
    state = rig([["CAN.3", "AUS.4"], ["FOG"], ["ALT"]], pack=("IND.5",))
    state, events = act(state, 0, "draw:pack", "discard:AUS.4")
    assert state.discards[-1] == "AUS.4" and state.turn == 1
    assert state.step.phase == "draw" and "discarded Australia 4" in events[-1].text


def test_the_last_card_cannot_be_played_it_must_be_discarded() -> None:
    """Rule 2: a player cannot play the last card in hand."""
    state = rig([["CAN.1"], ["FOG"]], flights=[flight("CAN")], discards=("PAS", "CAN.2"))
    state, _ = act(state, 0, "draw:discard", "play:CAN.1")
    assert state.hands[0] == ("CAN.2",)
    assert state.step.phase == "discard"
    reason = GAME.why_unplayable(state, 0, "CAN.2") or ""
    assert "discard" in reason.lower()
    state = state.model_copy(update={"step": state.step.model_copy(update={"phase": "play"})})
    assert "last card" in (GAME.why_unplayable(state, 0, "CAN.2") or "")


def test_a_safe_landing_may_be_played_as_the_last_card() -> None:
    """Rule 2: '... A Safe Landing card can be played, however, when it is a player's last card.'"""
    state = rig([["CAN.5"], ["FOG"]], flights=[flight("CAN", 4)], discards=("PAS", "SL"))
    state, events = act(state, 0, "draw:discard", "play:CAN.5", "play:SL")
    assert "hand_scored" in kinds(events)
    assert state.results[0].lander == 0


def test_an_empty_hand_draws_three_from_the_pack() -> None:
    """Rule 9: with no cards, draw 3 from the top of the pack."""
    state = rig([[], ["FOG"]], pack=("CAN.1", "CAN.2", "CAN.3", "CAN.4"))
    assert keys(state) == ["draw:pack3", "draw:pack2+discard"]
    with pytest.raises(IllegalActionError, match="empty"):
        GAME.apply(state, 0, "draw:pack")
    state, _ = act(state, 0, "draw:pack3")
    assert state.hands[0] == ("CAN.1", "CAN.2", "CAN.3") and state.pack == ("CAN.4",)


def test_an_empty_hand_may_draw_two_and_the_exposed_discard() -> None:
    """Rule 9: or two from the pack and the uppermost discard."""
    state = rig([[], ["FOG"]], pack=("CAN.1", "CAN.2", "CAN.3"), discards=("FOG", "SL"))
    state, _ = act(state, 0, "draw:pack2+discard")
    assert sorted(state.hands[0]) == ["CAN.1", "CAN.2", "SL"]
    assert state.pack == ("CAN.3",) and state.discards == ("FOG",)


def test_emptying_the_hand_by_discarding_marks_the_first_player_out() -> None:
    """Rule 11: the first player to dispose of all cards is remembered (once)."""
    state = rig([["CAN.1"], ["AUS.3"]], flights=[flight("CAN")], discards=("PAS", "IND.4"))
    state, events = act(state, 0, "draw:discard", "play:CAN.1", "discard:IND.4")
    assert state.hands[0] == () and state.first_out == 0
    assert "first_out" in kinds(events)
    state = state.model_copy(update={"hands": (("CAN.2",), ())})
    state, events = act(state, 1, "draw:pack3")
    assert state.first_out == 0


def test_an_empty_pack_is_rebuilt_from_the_discards_except_the_top_one() -> None:
    """Ruling 11: shuffle the discards except the top one into a new pack."""
    state = rig([["CAN.3", "AUS.4"], ["FOG"]], pack=(), discards=("IND.1", "IND.2", "IND.3", "SL"))
    state, events = act(state, 0, "draw:pack")
    assert kinds(events)[0] == "pack_reshuffled" and events[0].reveals
    assert state.discards == ("SL",)
    assert len(state.pack) == 2
    drawn = set(state.hands[0]) - {"CAN.3", "AUS.4"}
    assert drawn | set(state.pack) == {"IND.1", "IND.2", "IND.3"}


def test_with_no_pack_and_a_single_discard_only_the_discard_can_be_drawn() -> None:
    """Ruling 11 edge: nothing to reshuffle, so the exposed card is the only draw."""
    state = rig([["CAN.3", "AUS.4"], ["FOG"]], pack=(), discards=("SL",))
    assert keys(state) == ["draw:discard"]


def test_an_impossible_pack_draw_is_explained() -> None:
    """Ruling 11 edge: with nothing to reshuffle, drawing from the pack is refused with a reason."""
    state = rig([["CAN.3", "AUS.4"], ["FOG"]], pack=(), discards=("SL",))
    with pytest.raises(IllegalActionError, match="pack is empty"):
        GAME.apply(state, 0, "draw:pack")


def test_the_discard_prompt_says_when_nothing_could_be_played() -> None:
    """Rule 3(b): the player is told why the turn skipped to the discard."""
    state = rig([["CAN.3", "AUS.4"], ["FOG"]], pack=("IND.5",))
    state, _ = act(state, 0, "draw:pack")
    assert GAME.prompt(state, 0).startswith("No card can be played")
