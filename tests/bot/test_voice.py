"""What players read around the rules (issue 15): status, standings, lobby, /mygames, /help."""

from __future__ import annotations

from typing import Any

from bot.edge.commands.game import mygames_line
from bot.edge.commands.help import help_text
from bot.edge.present import lobby_text, standings, status_line
from bot.services.games import LoadedGame
from bot.store.repository import GameRecord, SeatRecord
from rules import GAMES
from tests.bot.test_help import registered_commands
from tests.rules.first_in_flight.helpers import table, with_seat
from tests.rules.takeoff.helpers import play, rig

NAMES = ("alice", "bob")


def loaded(game_id: str, state: Any, options: dict[str, Any] | None = None) -> LoadedGame:
    """A stored game as the bot sees it, with alice and bob in seats 0 and 1."""
    game = GAMES[game_id]
    record = GameRecord(
        pk=5, guild_id=1, channel_id=2, game_id=game_id,
        options=options if options is not None else game.Options().model_dump(mode="json"),
        seed=1, status="running" if state is not None else "lobby", version=3, creator_id=11,
        board_message_id=77, live_message_id=77, created_at=0.0, updated_at=0.0,
    )  # fmt: skip
    seats = tuple(SeatRecord(i, 11 + i, n) for i, n in enumerate(NAMES))
    return LoadedGame(record, seats, state, game)


def test_the_active_player_reads_their_prompt_once_and_others_read_whose_turn() -> None:
    """'Your turn — …' for alice (no 'Your turn: Your turn'); bob reads 'alice to play.'."""
    game = loaded("takeoff", rig(hands=(("window",), ("aisle",))))
    mine = status_line(game, 0)
    assert mine.startswith("**Your turn** — Play cards") and "Your turn: " not in mine
    assert status_line(game, 1) == status_line(game, None) == "**alice** to play."


def test_mygames_is_worded_for_the_reader_with_a_markdown_link() -> None:
    """alice: her turn and what to do; bob: whose turn, never alice's own prompt."""
    game = loaded("takeoff", rig(hands=(("window",), ("aisle",))))
    alice, bob = mygames_line(game, 0), mygames_line(game, 1)
    assert "**your turn** — Play cards" in alice
    assert "**alice** to play." in bob and "Play cards" not in bob
    assert "[go to the board](https://discord.com/channels/1/2/77)" in alice


def test_the_lobby_shows_the_player_count_and_human_option_labels() -> None:
    """'2 players' not '2–2 players'; 'Business-class rows 3' not 'business_rows=3'."""
    text = lobby_text(loaded("takeoff", None))
    assert "(2 players;" in text and "2–2" not in text
    assert "Business-class rows 3" in text and "business_rows" not in text
    flight = lobby_text(loaded("flight", None))
    assert "House rule: after 15 hands the leader wins" in flight
    off = GAMES["flight"].Options(max_hands=0).model_dump(mode="json")
    assert "1954 rulebook game" in lobby_text(loaded("flight", None, off))


def test_takeoff_ends_leading_with_the_cause_not_three_declines() -> None:
    """The end text starts with the third run-out of the pile; 'declined' is said once."""
    state = rig(hands=(("window",), ("aisle",)), deck=("aisle",), pass_number=3)
    state, events = play(state, 0, "end")
    state, more = play(state, 1, "decline")
    text = standings(loaded("takeoff", state))
    assert text.startswith("The draw pile ran out for the third time")
    log = [e.text for e in (*events, *more)]
    assert sum("declined" in line for line in [*log, text]) == 2  # the move, and the cause
    assert not any("declined" in line for line in log if line.startswith("Game over"))


def test_gustave_is_listed_first_when_he_wins() -> None:
    """'🏆 1. Gustave — record 40', then the players from 2nd place."""
    state = table(players=2).model_copy(
        update={"over": True, "steps": (), "gustave_record": 40, "end_trigger": 2}
    )
    state = with_seat(with_seat(state, 0, record=31), 1, record=35)
    rows = standings(loaded("first-in-flight", state)).split("\n")
    first = next(i for i, r in enumerate(rows) if "1. Gustave — record 40" in r)
    assert rows[first + 1].startswith("2. bob") and rows[first + 2].startswith("3. alice")


def test_help_says_what_hangar_is_how_to_start_and_lists_the_commands() -> None:
    """Every game with its /game new, the commands including /card, and links."""
    text = help_text(registered_commands())
    assert len(text) <= 4096 and "Hangar" in text  # one embed description
    for game in GAMES.values():
        assert f"/game new {game.id}" in text
    for command in ("/play", "/card", "/game rules", "/mygames", "/game hand"):
        assert command in text
    assert "](https://" in text
