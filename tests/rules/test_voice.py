"""One voice (issue 15): the same refusal sentence in every game, and plurals done right."""

from __future__ import annotations

import pytest

from rules import GAMES
from rules.core import IllegalActionError, messages
from rules.core.messages import plural, refusal


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_an_unknown_move_gets_the_same_sentence_in_every_game(game_id: str) -> None:
    """`xyzzy` is refused with exactly the shared sentence, whatever the game."""
    game = GAMES[game_id]
    state = game.new_game(3, max(game.min_players, 2), None)
    seat = game.active_players(state)[0]
    with pytest.raises(IllegalActionError) as err:
        game.apply(state, seat, "xyzzy")
    assert str(err.value) == f"{messages.NOT_AVAILABLE} {messages.PICK_OFFERED}"


def test_a_game_reason_is_appended_to_the_shared_sentence() -> None:
    """A specific reason follows the shared opening, unchanged."""
    assert (
        refusal("You do not hold Pinch.")
        == "That move is not available now. You do not hold Pinch."
    )
    assert refusal("") == refusal() == f"{messages.NOT_AVAILABLE} {messages.PICK_OFFERED}"


@pytest.mark.parametrize(
    ("n", "word", "expected"),
    [
        (1, "card", "1 card"),
        (0, "card", "0 cards"),
        (2, "coin", "2 coins"),
        (3, "pass", "3 passes"),
        (2, "city", "2 cities"),
        (2, "day", "2 days"),
        (1, "Upgrade card", "1 Upgrade card"),
        (4, "Upgrade card", "4 Upgrade cards"),
    ],
)
def test_plural(n: int, word: str, expected: str) -> None:
    """'1 card', never '1 cards'."""
    assert plural(n, word) == expected


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_rules_pages_have_one_shape(game_id: str) -> None:
    """Text, then the topic list, then footnotes (small print); an unknown topic lists topics."""
    game = GAMES[game_id]
    listed = " · ".join(f"`{t}`" for t in game.rules_topics())
    for topic in [None, *game.rules_topics()]:
        page = messages.rules_page(game, topic)
        assert len(page) <= 1900
        lines = page.split("\n")
        at = next(i for i, line in enumerate(lines) if line.startswith("Topics: "))
        assert listed in lines[at]
        assert all(line.startswith("-# ") for line in lines[at + 1 :])
        assert not any(line.startswith("-# ") for line in lines[:at])
        assert sum(line.startswith("Topics") for line in lines) == 1
    unknown = messages.rules_page(game, "weather")
    assert unknown == f"There is no “weather” topic in the {game.title} rules. Topics: {listed}."
    assert messages.rules_page(game, "OVERVIEW") == messages.rules_page(game, None)
