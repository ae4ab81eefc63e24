"""Flight scoring (rule 11) and the match: target, fixed hands, ties, dealer rotation."""

from __future__ import annotations

import random

import pytest

from rules.flight import GAME
from rules.flight.data import hand_points
from rules.flight.scoring import hand_score
from tests.rules.flight.helpers import act, flight, kinds, rig


def _land(hand0: list[str], others: list[list[str]], **kw: object) -> tuple[object, list]:
    """Seat 0 takes the exposed Safe Landing and lands the finished Canada flight."""
    kw.setdefault("flights", [flight("CAN", 5)])
    state = rig([hand0, *others], discards=("PAS", "SL"), **kw)  # type: ignore[arg-type]
    return act(state, 0, "draw:discard", "play:SL")


def test_card_values_come_from_the_data_file() -> None:
    """Stand-in values: Route n = n, Aeroplane 10, Safe Landing 10, specials 5."""
    assert hand_points(("CAN.1", "AUS.4")) == 5
    assert hand_points(("IND.A", "SL")) == 20
    assert hand_points(("FOG", "ALT", "CUS", "PAS")) == 20


def test_first_safe_landing_scores_25_and_the_others_pay_for_their_cards() -> None:
    """Rule 11: +25 to the lander, who is not penalised; everyone else loses their hand."""
    state, events = _land(["IND.4", "FOG"], [["CAN.1", "AUS.4"], ["SAF.A"]])
    result = state.results[0]  # type: ignore[attr-defined]
    assert result.points == (25, -5, -10)
    assert result.penalties == (0, 5, 10)
    assert state.scores == (25, -5, -10)  # type: ignore[attr-defined]
    assert "hand_scored" in kinds(events)


def test_first_player_out_scores_20_but_pays_for_cards_held_at_the_end() -> None:
    """Rule 11: +20 to the first player out, less what they hold when the hand ends."""
    state, _ = _land(["IND.4", "FOG"], [["CAN.1", "CAN.2"], ["AUS.3"]], first_out=1)
    assert state.results[0].points == (25, 20 - 3, -3)  # type: ignore[attr-defined]


def test_first_out_and_first_landing_by_one_player_scores_50() -> None:
    """Rule 11: both by the same player: +5 bonus, 50 in all."""
    state, _ = _land(["IND.4"], [["CAN.1"]], first_out=0)
    assert state.results[0].points[0] == 50  # type: ignore[attr-defined]


def test_landing_with_the_last_card_makes_the_lander_first_out_too() -> None:
    """Rules 2 and 11: playing the Safe Landing as the last card disposes of the hand."""
    state = rig([["CAN.5"], ["AUS.2"]], flights=[flight("CAN", 4)], discards=("PAS", "SL"))
    state, events = act(state, 0, "draw:discard", "play:CAN.5", "play:SL")
    assert state.results[0].first_out == 0 and state.results[0].points == (50, -2)
    assert "first_out" in kinds(events)


def test_hand_score_function_matches_the_printed_examples() -> None:
    """'bound to score 25' / '20 ... may have to deduct' / 'bonus of 5 points, making 50'."""
    hands = (("SL",), ("CAN.5",), ())
    assert hand_score(hands, 0, None) == ((0, 5, 0), (25, -5, 0))
    assert hand_score(hands, 0, 1) == ((0, 5, 0), (25, 15, 0))
    assert hand_score(hands, 2, 2) == ((10, 5, 0), (-10, -5, 50))


def test_a_new_hand_is_dealt_by_the_next_player_to_the_left() -> None:
    """Match: the deal passes left; the table is cleared and 7 cards dealt again."""
    state, events = _land(["IND.4", "FOG"], [["CAN.1"], ["AUS.4"]], turn=0, dealer=2)
    assert state.hand_number == 2 and state.dealer == 0 and state.turn == 1  # type: ignore[attr-defined]
    assert all(len(h) == 7 for h in state.hands)  # type: ignore[attr-defined]
    assert not any(f.started for f in state.flights)  # type: ignore[attr-defined]
    dealt = [e for e in events if e.kind == "hand_dealt"]
    assert dealt and dealt[0].reveals
    assert GAME.outcome(state) is None  # type: ignore[arg-type]


def test_reaching_the_target_wins_the_match() -> None:
    """Match to a target: the first hand that brings a sole leader to the target ends it."""
    state, events = _land(["IND.4"], [["CAN.1"]], scores=(80, 60))
    assert state.over and state.winners == (0,)  # type: ignore[attr-defined]
    outcome = GAME.outcome(state)  # type: ignore[arg-type]
    assert outcome is not None and outcome.scores == (105, 59) and outcome.winners == (0,)
    assert kinds(events)[-1] == "match_won"
    assert GAME.active_players(state) == ()  # type: ignore[arg-type]


def test_a_tie_at_the_target_plays_another_hand() -> None:
    """Ruling: leaders tied at or above the target → another hand."""
    state, _ = _land(["IND.4"], [["CAN.1"]], scores=(80, 106))
    assert state.scores == (105, 105) and not state.over  # type: ignore[attr-defined]
    assert state.hand_number == 2  # type: ignore[attr-defined]


def test_a_custom_target() -> None:
    """Option `target`: a lower target ends the match sooner."""
    state, _ = _land(["IND.4"], [["CAN.1"]], options={"target": 25})
    assert state.over and state.winners == (0,)  # type: ignore[attr-defined]


def test_a_fixed_number_of_hands_ends_after_the_last_hand() -> None:
    """Option match='hands': the match ends after that many hands; the leader wins."""
    opts = {"match": "hands", "hands": 2}
    state, _ = _land(["IND.4"], [["CAN.1"]], options=opts)
    assert not state.over and state.hand_number == 2  # type: ignore[attr-defined]
    again = rig([["IND.4"], ["CAN.1", "AUS.A"]], discards=("PAS", "SL"), flights=[flight("AUS", 5)])
    state = state.model_copy(  # type: ignore[attr-defined]
        update={k: getattr(again, k) for k in ("hands", "discards", "flights", "turn", "step")}
    )
    state, _ = act(state, 0, "draw:discard", "play:SL")
    assert state.over and state.winners == (0,) and len(state.results) == 2
    assert state.scores == (50, -12)


def test_fixed_hands_counts_played_hands_and_ties_share_the_win() -> None:
    """Option match='hands': tied leaders after the last hand share the win."""
    opts = {"match": "hands", "hands": 1}
    state, _ = _land(["IND.4"], [["CAN.1"]], options=opts, scores=(-25, 1))
    assert state.over and state.winners == (0, 1)  # type: ignore[attr-defined]
    outcome = GAME.outcome(state)  # type: ignore[arg-type]
    assert outcome is not None and outcome.is_draw and outcome.ranks == (1, 1)


def test_target_mode_stops_at_the_hand_limit() -> None:
    """House limit (option max_hands): a target match cannot run for ever."""
    state, _ = _land(["IND.4"], [["CAN.1"]], options={"max_hands": 1}, scores=(-100, 0))
    assert state.over and state.winners == (1,)  # type: ignore[attr-defined]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_match_totals_are_the_sum_of_the_hand_results(players: int) -> None:
    """Across a random match, every hand scores by rule 11 and the totals add up."""
    state = GAME.new_game(players, players, None)
    chooser = random.Random(players)
    while GAME.active_players(state):
        seat = GAME.active_players(state)[0]
        state = GAME.apply(state, seat, chooser.choice(GAME.legal_actions(state, seat))).state
    running = [0] * players
    for number, result in enumerate(state.results, start=1):
        assert result.number == number and result.penalties[result.lander] == 0
        bonus = 5 if result.first_out == result.lander else 0
        out = 20 if result.first_out is not None else 0
        assert sum(result.points) == 25 + out + bonus - sum(result.penalties)
        running = [r + p for r, p in zip(running, result.points, strict=True)]
        assert tuple(running) == result.totals
    assert state.scores == tuple(running)
    dealers = [r.dealer for r in state.results]
    assert dealers == [(players - 1 + i) % players for i in range(len(dealers))]


def test_the_hand_limit_is_a_house_rule_and_0_plays_the_rulebook_game() -> None:
    """max_hands (default 15) ends a target match with the leader; 0 = off (issue 15)."""
    from rules.flight import GAME
    from rules.flight.scoring import match_winners
    from rules.flight.state import FlightOptions

    default = FlightOptions()
    assert default.max_hands == 15
    assert match_winners(default, (40, 60), 15) == (1,)
    assert match_winners(default, (40, 60), 14) == ()
    assert match_winners(FlightOptions(max_hands=0), (40, 60), 500) == ()
    assert "House rule" in GAME.rules_text("match") and "max_hands:0" in GAME.rules_text("match")
    assert GAME.lobby_notes(default) == [
        "House rule: after 15 hands the leader wins (`max_hands:0` = off)."
    ]
