"""Setup, the turn loop, Year end, Michelin Cup, Gustave and the end of the game."""

from __future__ import annotations

from rules.first_in_flight import GAME
from rules.first_in_flight.state import Pawn, State
from rules.first_in_flight.turns import cup_ranking, michelin_cup, settle
from tests.rules.first_in_flight.helpers import (
    END,
    SMALL,
    act,
    flying,
    keys,
    own,
    place,
    table,
    texts,
    with_seat,
)


def test_setup_coins_decks_display_and_draft() -> None:
    """Coins 6/7/8/9 by place, 9-card decks with 4 hidden flaws, 2/2/4 display, players+1 Pilots."""
    state = GAME.new_game(5, 4, None)
    coins = sorted(m.coins for m in state.seats)
    assert coins == [6, 7, 8, 9]
    first = min(range(4), key=lambda s: state.pawns[s].arrival)
    assert state.seats[first].coins == 6
    for mat in state.seats:
        assert len(mat.deck) == 9 and sum(c.endswith("*") for c in mat.deck) == 4
    assert [len(d) for d in state.display] == [2, 2, 4]
    assert len(state.pilot_offer) == 5
    front = max(range(4), key=lambda s: state.pawns[s].arrival)
    assert GAME.active_players(state) == (front,)  # reverse turn order: front-most picks first
    pick = keys(state, front)[0]
    state = GAME.apply(state, front, pick).state  # type: ignore[assignment]
    assert len(state.pilot_offer) == 4 and state.seats[front].pilot == pick.split(":")[1]


def test_two_players_add_gustave_and_the_large_board_serves_four() -> None:
    """2 players: Gustave is a third pawn; 4 players use the 4-player side."""
    two = GAME.new_game(1, 2, None)
    assert two.gustave and len(two.pawns) == 3
    assert sorted(m.coins for m in two.seats) != []
    four = GAME.view(GAME.new_game(1, 4, None), None)
    assert four.players == 4 and len([s for s in four.board if s.kind == "action"]) == 19


def test_the_farthest_back_pawn_acts_even_twice_in_a_row() -> None:
    """Crystal skips ahead; Asher moves one space and is still last, so he goes again."""
    state = place(table(), SMALL[1], SMALL[2], SMALL[3])
    assert state.steps[-1].seat == 0
    state, _ = act(state, 0, f"move:{SMALL[9]}")  # Fly (free): a Flight starts
    assert state.steps[-1].kind == "flight"


def test_occupied_spaces_are_not_offered() -> None:
    """You may not use a space occupied by another pawn, even a crashed one."""
    state = place(table(), SMALL[1], SMALL[4], SMALL[6], standing=(True, False, True))
    assert f"move:{SMALL[4]}" not in keys(state) and f"move:{SMALL[6]}" not in keys(state)
    assert f"move:{SMALL[5]}" in keys(state) and "start" in keys(state)


def test_lying_pawns_must_recover_paying_2_time() -> None:
    """A crashed pawn's only action is Recover: 2 Time, then stand."""
    state = place(table(), SMALL[4], SMALL[6], SMALL[7], standing=(False, True, True))
    assert keys(state) == ["recover"]
    state, _ = act(state, 0, "recover")
    assert state.pawns[0].standing and state.pawns[0].pos == SMALL[4] + 2  # the two Time Spaces


def test_recover_near_the_year_end_stops_at_the_last_time_space() -> None:
    """Ruling 3: Recover advances as far as allowed, then stands."""
    state = place(table(), 34, END, END, standing=(False, True, True))
    state, _ = act(state, 0, "recover")
    assert state.pawns[0].pos == 35 and state.pawns[0].standing


def test_time_may_not_pass_the_last_time_space() -> None:
    """An Upgrade late in the Year can only pay Time up to the Time left."""
    state = place(table(), SMALL[12] - 1, END, END)
    state = with_seat(state, 0, coins=0)
    state, _ = act(state, 0, f"move:{SMALL[12]}")
    time_keys = [k for k in keys(state) if k.startswith("pay:m0")]
    assert time_keys == [f"pay:m0t{x}x{x}" for x in range(2, 8)]  # 11 Time Spaces remain
    late = place(table(), 31, END, END)
    late = with_seat(late, 0, coins=0)
    assert keys(late) == ["start"]  # Skill at #16 costs 3 Money only


def test_money_or_time_is_never_split() -> None:
    """A Skill (2M|1t) offers exactly 2 Money or 1 Time."""
    state = place(table(), SMALL[2], SMALL[4] + 1, SMALL[5])
    state, _ = act(state, 0, f"move:{SMALL[3]}")
    assert keys(state) == ["pay:m2t0x0", "pay:m0t1x0", "cancel"]
    state, _ = act(state, 0, "cancel")
    assert state.steps[-1].kind == "turn"


def test_michelin_cup_ties_go_to_the_earliest_record_and_unflown_get_4() -> None:
    """Cup 7/5/4; equal records: the earlier wins (ruling 9); never flown → 4."""
    state = table(players=3)
    state = with_seat(state, 0, record=12, record_seq=50, coins=0)
    state = with_seat(state, 1, record=12, record_seq=40, coins=0)
    state = with_seat(state, 2, coins=0)
    assert cup_ranking(state) == [1, 0]
    state, _ = michelin_cup(state)
    assert [m.coins for m in state.seats] == [5, 7, 4]


def test_gustave_ranks_for_the_cup_but_takes_no_coins() -> None:
    """Ruling 7: prizes by rank; Gustave's prize is simply not paid."""
    state = table(players=2)
    state = state.model_copy(update={"gustave_record": 20, "gustave_record_seq": 10})
    state = with_seat(state, 0, record=10, record_seq=20, coins=0)
    state = with_seat(state, 1, coins=0)
    state, _ = michelin_cup(state)
    assert [m.coins for m in state.seats] == [5, 4]


def _all_home(state: State) -> State:
    """Every pawn but seat 0 already in the start area; seat 0 about to enter it."""
    pawns = tuple(Pawn(pos=END if a else 35, arrival=300 + a) for a in range(len(state.pawns)))
    return settle(state.model_copy(update={"pawns": pawns, "steps": ()}))[0]


def test_year_end_redeals_the_display_and_refreshes_cards() -> None:
    """Year end: new face-up cards, exhausted Friends/Pilots refresh, Year advances."""
    state = own(table(), 0, "hart_berg", exhausted=True)
    state = with_seat(state, 0, pilot_used=1)
    old = state.display
    state, events = act(_all_home(state), 0, "start")
    assert state.year == 2 and state.display != old
    assert not state.seats[0].cards[0].exhausted and state.seats[0].pilot_used == 0
    assert "Michelin Cup" in texts(events)


def test_year_4_ends_the_game_with_final_flights_and_no_cup() -> None:
    """After Year 4: no Cup, everyone flies once; Pilots and Friends are not refreshed."""
    state = own(table(), 0, "hart_berg", exhausted=True)
    state = state.model_copy(update={"year": 4})
    coins = [m.coins for m in state.seats]
    state, events = act(_all_home(state), 0, "start")
    assert "Michelin Cup" not in texts(events) and state.end_trigger == -1
    assert state.flight is not None and state.flight.final
    assert [m.coins for m in state.seats] == coins
    assert state.seats[0].cards[0].exhausted


def test_a_lying_pawn_still_takes_its_final_flight() -> None:
    """Ruling 8: final Flights in turn order; a crashed pawn flies too."""
    state = table()
    state = state.model_copy(update={"year": 4})
    pawns = (
        Pawn(pos=35, arrival=300, standing=False),
        Pawn(pos=END, arrival=301),
        Pawn(pos=END, arrival=302),
    )
    state = settle(state.model_copy(update={"pawns": pawns, "steps": ()}))[0]
    state, _ = act(state, 0, "recover", "start")
    assert state.flight is not None and state.flight.seat == 0


def test_ties_go_to_the_player_who_reached_40_else_shared() -> None:
    """The triggering player wins a tie; otherwise the victory is shared."""
    state = table().model_copy(update={"over": True, "end_trigger": 1, "steps": ()})
    state = with_seat(with_seat(state, 0, record=41), 1, record=41)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (1,) and outcome.ranks[:2] == (2, 1)
    shared = GAME.outcome(state.model_copy(update={"end_trigger": -1}))
    assert shared is not None and shared.winners == (0, 1)


def test_gustave_moves_to_the_next_free_space_and_flies() -> None:
    """Gustave (last) moves to the next available space: Fly → +3 (Standard)."""
    state = table(players=2)
    pawns = (
        Pawn(pos=SMALL[5], arrival=1),
        Pawn(pos=SMALL[6], arrival=2),
        Pawn(pos=SMALL[3], arrival=0),
    )
    state, events = settle(state.model_copy(update={"pawns": pawns, "steps": ()}))
    # #4 Fly: +3; still last, so on to #7 (Friend or Technology), past the occupied #5 and #6
    assert state.gustave_record == 3 and state.pawns[2].pos == SMALL[7]
    assert "Gustave flew" in texts(events)


def test_gustave_takes_technology_over_friend_and_the_last_dealt() -> None:
    """Ruling 6: on a Friend-or-Technology space he removes the last face-up Technology."""
    state = table(players=2)
    tech_before = state.display[1]
    pawns = (
        Pawn(pos=SMALL[7] - 1, arrival=1),
        Pawn(pos=SMALL[8], arrival=2),
        Pawn(pos=SMALL[6], arrival=0),
    )
    state, _ = settle(state.model_copy(update={"pawns": pawns, "steps": ()}))
    assert state.pawns[2].pos == SMALL[7]
    assert state.gustave_cards == (tech_before[-1],) and state.display[1] == tech_before[:-1]


def test_gustave_levels_and_year_end_gain() -> None:
    """Standard +3/+4, Advanced +4/+6; solo Advanced, expert +5/+7."""
    from rules.first_in_flight.gustave import level

    assert level(table(players=2)).model_dump() == {"fly": 3, "year": 4}
    assert level(table(players=2, gustave="advanced")).model_dump() == {"fly": 4, "year": 6}
    assert level(table(players=1)).model_dump() == {"fly": 4, "year": 6}
    assert level(table(players=1, solo_expert=True)).model_dump() == {"fly": 5, "year": 7}


def test_gustave_reaching_40_ends_the_game_and_can_win() -> None:
    """Gustave at 40 triggers the end; with the highest record he wins (reason says so)."""
    state = table(players=1).model_copy(update={"gustave_record": 38})
    pawns = (Pawn(pos=SMALL[16], arrival=1), Pawn(pos=SMALL[14], arrival=0))
    state, events = settle(state.model_copy(update={"pawns": pawns, "steps": ()}))
    log = texts(events)
    assert "record rose to 42" in log and "Gustave reached 40" in log
    assert state.gustave_record == 46  # he is behind, so his final Fly comes first (ruling 8)
    assert state.flight is not None and state.flight.final
    state, _ = act(state, 0, "draw", "descend")
    assert state.over
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == () and outcome.ranks == (2,)
    assert outcome.reason.startswith(f"Gustave won with a record of {state.gustave_record}.")


def _ended(players: int, records: tuple[int, ...], gustave: int, trigger: int = -1) -> State:
    """A finished game with these records and end trigger (-1 = Year 4 ended)."""
    state = table(players=players).model_copy(
        update={"over": True, "steps": (), "gustave_record": gustave, "end_trigger": trigger}
    )
    for seat, record in enumerate(records):
        state = with_seat(state, seat, record=record)
    return state


def test_gustave_with_the_highest_record_wins_and_players_compete_for_second() -> None:
    """2-Player Rules: Gustave wins, nobody wins among the seats, the players rank from 2."""
    outcome = GAME.outcome(_ended(2, (31, 35), 40, trigger=2))
    assert outcome is not None and outcome.winners == ()
    assert outcome.ranks == (3, 2) and outcome.scores == (31, 35)
    assert outcome.reason.startswith("Gustave won with a record of 40.")
    assert "35 by {seat1}" in outcome.reason


def test_ties_with_gustave_follow_the_trigger_rule() -> None:
    """Gustave's 40-trigger wins a tie for him; a player's for the player; else shared."""
    gustave = GAME.outcome(_ended(2, (40, 12), 40, trigger=2))
    assert gustave is not None and gustave.winners == () and gustave.ranks == (2, 3)
    player = GAME.outcome(_ended(2, (40, 12), 40, trigger=0))
    assert player is not None and player.winners == (0,) and "Gustave" not in player.reason
    shared = GAME.outcome(_ended(2, (33, 12), 33))
    assert shared is not None and shared.winners == (0,) and "shares" in shared.reason


def test_solo_tie_goes_to_gustave_unless_the_player_triggered() -> None:
    """Ruling 10: the solo player must beat Gustave; reaching 40 first still wins a tie."""
    tie = GAME.outcome(_ended(1, (30,), 30))
    assert tie is not None and tie.winners == () and tie.ranks == (2,)
    mine = GAME.outcome(_ended(1, (41,), 41, trigger=0))
    assert mine is not None and mine.winners == (0,)


def test_solo_player_beating_gustave_wins() -> None:
    """Ruling 10: the solo player wins with a higher record than Gustave."""
    state = table(players=1).model_copy(update={"over": True, "gustave_record": 30, "steps": ()})
    state = with_seat(state, 0, record=41)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0,) and "Gustave" not in outcome.reason


def test_final_flight_of_the_trigger_counts() -> None:
    """The triggering player flies again in the final round too."""
    state = flying(table(), 0, ["glide"] * 3, final=True)
    state, _ = act(state, 0, "draw", "descend")
    assert state.flight is None or state.flight.seat != 0


def test_gustave_gains_nothing_at_the_end_of_year_4() -> None:
    """Ruling (../shared/docs/games/first-in-flight.md): at the end of Year 4 "the Game will
    immediately end" — no Year-end steps run, so Gustave's Year gain (+4 Standard) is not added;
    at the end of Year 3 it is."""
    from rules.first_in_flight.turns import end_year

    duo = table(players=2).model_copy(update={"gustave_record": 20})
    after_3, _ = end_year(duo.model_copy(update={"year": 3}))
    assert after_3.gustave_record == 24
    after_4, events = end_year(duo.model_copy(update={"year": 4}))
    assert after_4.gustave_record == 20 and after_4.end_trigger == -1
    assert "Gustave" not in texts(events)
    assert "Gustave gains nothing" in GAME.rules_text(None)
