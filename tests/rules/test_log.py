"""The board's log tells the story: routine lines of a turn collapse (issue 15)."""

from __future__ import annotations

from rules.core.log import collapse


def test_takeoff_routine_lines_collapse_into_one_per_turn() -> None:
    """'ended their turn' + 'drew a card' become one line per player, after the play."""
    lines = collapse(
        [
            ("card_played", "{seat0} played Window seat: seat 3A."),
            ("turn_ended", "{seat0} ended their turn."),
            ("card_drawn", "{seat0} drew a card."),
            ("turn_ended", "{seat1} ended their turn."),
            ("card_drawn", "{seat1} drew a card."),
        ]
    )
    assert lines == [
        "{seat0} played Window seat: seat 3A, ended their turn and drew a card.",
        "{seat1} ended their turn and drew a card.",
    ]


def test_each_play_keeps_its_own_line_and_lines_without_a_player_stay() -> None:
    """Two plays are two lines; a draw joins the first, a discard the second."""
    lines = collapse(
        [
            ("cards_drawn", "{seat1} drew 1 card from the pack."),
            ("route", "{seat1} played Canada 3 on the Canada flight."),
            ("route", "{seat1} played Canada 4 on the Canada flight."),
            ("card_discarded", "{seat1} discarded Fog."),
            ("pack_reshuffled", "The pack ran out: 3 discards shuffled into a new pack."),
        ]
    )
    assert lines == [
        "{seat1} drew 1 card from the pack and played Canada 3 on the Canada flight.",
        "{seat1} played Canada 4 on the Canada flight and discarded Fog.",
        "The pack ran out: 3 discards shuffled into a new pack.",
    ]


def test_draws_into_a_flight_share_one_verb() -> None:
    """Consecutive draws read 'drew Glide + Upgrade 3 into the Flight'; '!' is kept."""
    lines = collapse(
        [
            ("flight_started", "{seat0} shuffled their deck and began a Flight."),
            ("card_added", "{seat0} drew Glide into the Flight."),
            ("card_added", "{seat0} drew Upgrade 3 into the Flight."),
            ("landed", "{seat0} landed safely!"),
            ("card_drawn", "{seat1} drew a card."),
        ]
    )
    assert lines == [
        "{seat0} shuffled their deck and began a Flight, then drew Glide + Upgrade 3 into the "
        "Flight.",
        "{seat0} landed safely!",
        "{seat1} drew a card.",
    ]
