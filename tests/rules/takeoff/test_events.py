"""Every event card with its exact targeting (rulebook "Appendix – eventcards" and §1)."""

from __future__ import annotations

import pytest

from rules.core import IllegalActionError
from rules.takeoff import GAME

from .helpers import BL, Y, fill_row, keys, occupied, owner, play, rig


def targets(state_keys: list[str], prefix: str) -> set[str]:
    """The offered keys with one prefix."""
    return {k for k in state_keys if k.startswith(prefix)}


@pytest.mark.parametrize("card", ["child_alone", "businessman_economy"])
def test_place_one_economy_event(card: str) -> None:
    """Events 1 and 4: a free Economy seat, no seat card needed; Business rows not offered."""
    state, _ = play(rig(hands=((card,), ())), Y, f"play:{card}")
    assert targets(keys(state), "row:") == {f"row:{r}" for r in range(4, 13)}
    state, events = play(state, Y, "row:9", "seat:9B")
    assert occupied(state) == {"9B": Y}
    assert state.discard == (card,) and events[0].kind == "card_played"


@pytest.mark.parametrize("card", ["drunk", "afraid"])
def test_remove_one_economy_event_hits_own_stones_but_not_protected_rows(card: str) -> None:
    """Events 2 and 3: remove any Economy passenger (own too), never from a protected row."""
    stones = {"7C": BL, "8A": Y, "2A": BL, **fill_row(9, BL, "ABC")}
    state, _ = play(rig(hands=((card,), ()), stones=stones), Y, f"play:{card}")
    assert targets(keys(state), "seat:") == {"seat:7C", "seat:8A"}
    with pytest.raises(IllegalActionError, match="protected"):
        GAME.apply(state, Y, "seat:9A")
    with pytest.raises(IllegalActionError, match="only in Economy"):
        GAME.apply(state, Y, "seat:2A")
    state, _ = play(state, Y, "seat:8A")
    assert owner(state, "8A") == -1


def test_remove_event_not_playable_when_nothing_to_remove() -> None:
    """§1: events may only be played if their action can be carried out."""
    state = rig(hands=(("drunk",), ()), stones={"2A": BL, **fill_row(9, BL, "DEF")})
    assert "play:drunk" not in keys(state)
    with pytest.raises(IllegalActionError, match="cannot be carried out"):
        GAME.apply(state, Y, "play:drunk")


def test_young_family_fills_a_completely_free_single_row_as_one_placement() -> None:
    """Event 5: three passengers on A+B+C or D+E+F of Economy; it counts as one placement."""
    state = rig(hands=(("family", "window"), ()), stones={"4A": BL})
    state, _ = play(state, Y, "play:family")
    offered = targets(keys(state), "side:")
    assert "side:4ABC" not in offered and "side:4DEF" in offered and "side:1ABC" not in offered
    state, _ = play(state, Y, "side:5DEF")
    assert occupied(state) == {"4A": BL, "5D": Y, "5E": Y, "5F": Y}
    assert state.rows_used == (5,)


def test_tired_captain_empties_even_a_protected_row() -> None:
    """Event 6 (✔): empty one single row, also a fully occupied one-colour row."""
    stones = {**fill_row(6, BL, "ABC"), "7E": Y}
    state, _ = play(rig(hands=(("tired_captain",), ()), stones=stones), Y, "play:tired_captain")
    assert targets(keys(state), "side:") == {"side:6ABC", "side:7DEF"}
    state, _ = play(state, Y, "side:6ABC")
    assert occupied(state) == {"7E": Y}


def test_honeymooners_remove_two_side_by_side_not_across_the_aisle() -> None:
    """Event 7: two neighbouring passengers; C+D are not neighbours for this card."""
    stones = {"5C": BL, "5D": BL, "8A": Y, **fill_row(10, Y, "ABC")}
    state, _ = play(rig(hands=(("honeymooners",), ()), stones=stones), Y, "play:honeymooners")
    assert targets(keys(state), "pair:") == {"pair:5BC", "pair:5DE", "pair:8AB"}
    state, _ = play(state, Y, "pair:5BC")
    assert occupied(state) == {"5D": BL, "8A": Y, **fill_row(10, Y, "ABC")}


def test_two_old_friends_may_sit_across_the_aisle() -> None:
    """Event 8: two free neighbouring Economy seats — two aisle seats C+D count."""
    stones = {f"{r}{c}": BL for r in range(4, 13) for c in "ABEF"}
    state, _ = play(rig(hands=(("old_friends",), ()), stones=stones), Y, "play:old_friends")
    assert targets(keys(state), "pair:") == {f"pair:{r}CD" for r in range(4, 13)}
    state, _ = play(state, Y, "pair:7CD")
    assert owner(state, "7C") == Y and owner(state, "7D") == Y


def test_stretcher_empties_three_consecutive_rows_even_protected() -> None:
    """Event 9 (✔): seats E+F in three consecutive rows, own, full and free seats alike."""
    stones = {**fill_row(10, BL, "DEF"), "11E": Y, "12A": BL, "3E": BL}
    state, _ = play(rig(hands=(("stretcher",), ()), stones=stones), Y, "play:stretcher")
    offered = targets(keys(state), "block:")
    assert "block:10EF" in offered and "block:11EF" not in offered and "block:2EF" not in offered
    assert "block:10AB" in offered and "block:4AB" not in offered
    state, events = play(state, Y, "block:10EF")
    assert occupied(state) == {"10D": BL, "12A": BL, "3E": BL}
    assert "10E" in events[0].text


@pytest.mark.parametrize("card", ["food", "overbooked"])
def test_turn_one_opponent_economy_stone_but_not_in_a_protected_row(card: str) -> None:
    """Events 10 and 11: turn over an opponent stone in Economy; turning breaks, so protected
    single rows cannot be turned."""
    stones = {"5A": BL, "5B": Y, "2C": BL, **fill_row(7, BL, "DEF")}
    state, _ = play(rig(hands=((card,), ()), stones=stones), Y, f"play:{card}")
    assert targets(keys(state), "seat:") == {"seat:5A"}
    with pytest.raises(IllegalActionError, match="protected"):
        GAME.apply(state, Y, "seat:7D")
    with pytest.raises(IllegalActionError, match="opponent"):
        GAME.apply(state, Y, "seat:5B")
    state, _ = play(state, Y, "seat:5A")
    assert owner(state, "5A") == Y


def test_long_wait_moves_an_opponent_stone_to_business_turned() -> None:
    """Event 12: take an opponent Economy stone, turn it, seat it on a free Business seat."""
    stones = {"6B": BL, **fill_row(1, BL), **fill_row(2, Y), **fill_row(3, Y, "ABCDE")}
    state, _ = play(rig(hands=(("long_wait",), ()), stones=stones), Y, "play:long_wait")
    assert targets(keys(state), "seat:") == {"seat:6B"}
    state, _ = play(state, Y, "seat:6B")
    assert targets(keys(state), "seat:") == {"seat:3F"}
    state, _ = play(state, Y, "seat:3F")
    assert owner(state, "6B") == -1 and owner(state, "3F") == Y


def test_long_wait_needs_a_free_business_seat() -> None:
    """Event 12 cannot be played when Business is full (its action cannot be carried out)."""
    stones = {"6B": BL, **fill_row(1, BL), **fill_row(2, Y), **fill_row(3, Y)}
    assert "play:long_wait" not in keys(rig(hands=(("long_wait",), ()), stones=stones))


def test_golden_wedding_places_two_neighbours_in_business() -> None:
    """Event 13: two free neighbouring Business seats (not across the aisle)."""
    stones = {f"{r}{c}": BL for r in range(1, 4) for c in "ABEF"}
    stones.update({"2B": -1, "2A": -1})
    state, _ = play(rig(hands=(("golden_wedding",), ()), stones=stones), Y, "play:golden_wedding")
    assert targets(keys(state), "pair:") == {"pair:2AB", "pair:2BC"}  # 2C+2D free, not offered
    state, _ = play(state, Y, "pair:2AB")
    assert owner(state, "2A") == Y and owner(state, "2B") == Y


def test_quarrelling_neighbours_remove_a_business_pair() -> None:
    """Event 14: two neighbouring passengers in Business; protected rows excluded."""
    stones = {"1A": BL, "1B": Y, **fill_row(2, BL, "DEF"), "5A": BL, "5B": BL}
    state, _ = play(rig(hands=(("quarrel",), ()), stones=stones), Y, "play:quarrel")
    assert targets(keys(state), "pair:") == {"pair:1AB", "pair:1BC"}
    state, _ = play(state, Y, "pair:1AB")
    assert owner(state, "1A") == -1 and owner(state, "1B") == -1


def test_businessman_from_another_airline_needs_no_business_card() -> None:
    """Event 15: a free Business seat; placements by events need no red card."""
    state, _ = play(rig(hands=(("other_airline",), ())), Y, "play:other_airline")
    offered = targets(keys(state), "seat:")
    assert len(offered) == 18 and "seat:3F" in offered
    state, _ = play(state, Y, "seat:3F")
    assert owner(state, "3F") == Y


def test_swindler_arrested_removes_from_business_only() -> None:
    """Event 16: remove one passenger from Business."""
    stones = {"2D": BL, "7D": BL}
    state, _ = play(rig(hands=(("swindler",), ()), stones=stones), Y, "play:swindler")
    assert targets(keys(state), "seat:") == {"seat:2D"}
    state, _ = play(state, Y, "seat:2D")
    assert occupied(state) == {"7D": BL}


def test_middle_seats_blocked_empties_business_b_and_e_at_once() -> None:
    """Event 17 (✔): all Business seats B and E, full rows included; no target to choose."""
    stones = {**fill_row(1, BL, "ABC"), "2E": Y, "5B": BL}
    state = rig(hands=(("middle_blocked",), ()), stones=stones)
    state, events = play(state, Y, "play:middle_blocked")
    assert occupied(state) == {"1A": BL, "1C": BL, "5B": BL}
    assert state.pending is None and "1B" in events[0].text


def test_middle_seats_blocked_needs_a_passenger_there() -> None:
    """Event 17 is unplayable when no Business middle seat is taken."""
    assert "play:middle_blocked" not in keys(rig(hands=(("middle_blocked",), ()), stones={"5B": 1}))


def test_pinch_shows_the_hand_privately_and_the_card_can_be_played_at_once() -> None:
    """Event 18: discard it; the opponent shows their hand (to you only); take 1 and play it."""
    state = rig(hands=(("pinch",), ("window", "drunk")))
    state, events = play(state, Y, "play:pinch")
    reveal = next(e for e in events if e.kind == "hand_shown")
    assert reveal.reveals and reveal.visible_to == (Y,)
    assert "Window seat" in (reveal.private_text or "") and "Window" not in reveal.text
    assert [c.id for c in GAME.view(state, Y).shown_hand] == ["window", "drunk"]
    assert GAME.view(state, BL).shown_hand == () and GAME.view(state, None).shown_hand == ()
    assert keys(state) == ["take:window", "take:drunk"]
    with pytest.raises(IllegalActionError, match="cannot be cancelled"):
        GAME.apply(state, Y, "cancel")
    state, events = play(state, Y, "take:window")
    assert state.hands == (("window",), ("drunk",)) and state.discard == ("pinch",)
    assert events[0].visible_to == (Y, BL)
    state, _ = play(state, Y, "play:window", "seat:4A")
    assert owner(state, "4A") == Y


def test_pinch_needs_cards_in_the_opponents_hand() -> None:
    """Event 18 cannot be played against an empty hand."""
    assert "play:pinch" not in keys(rig(hands=(("pinch",), ())))
