"""Stats in a player's words (issue 28): a skill estimate, a provisional mark, people apart from
automata and AIs, and plurals right on 0, 1 and 2."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.edge.commands.stats import bold_count, leaderboard_text, skill
from bot.services import GameService
from bot.store import open_store
from bot.store.history import RatingRow

from .botproc import BotProcess, bot_env
from .fakediscord import FakeDiscord

FLIGHT_ONE_HAND = {"match": "hands", "hands": 1}


@pytest.mark.parametrize(
    ("n", "expected"), [(0, "**0** games"), (1, "**1** game"), (2, "**2** games")]
)
def test_bold_count_plurals(n: int, expected: str) -> None:
    """'**1** game', never '**1** games'."""
    assert bold_count(n, "game") == expected


@pytest.mark.parametrize(
    ("games", "expected"),
    [
        (0, "Skill estimate 21 (provisional until 5 games)"),
        (1, "Skill estimate 21 (provisional until 5 games)"),
        (5, "Skill estimate 21"),
    ],
)
def test_skill_words(games: int, expected: str) -> None:
    """μ is a skill estimate; σ becomes 'provisional' until five rated games."""
    assert skill(RatingRow("user:1", "alice", 21.4, 8.1, games, 0)) == expected


def test_leaderboard_lists_people_then_automata_and_ais() -> None:
    """Medals are for people; Gustave and AI levels come in their own section below."""
    people = [RatingRow("user:1", "alice", 27.0, 6.0, 2, 1)]
    others = [
        RatingRow("automa:gustave", "Gustave", 30.0, 5.0, 1, 1),
        RatingRow("ai:hard", "🤖 Hard AI", 24.0, 7.0, 0, 0),
    ]
    text = leaderboard_text(people, others)
    assert text.index("🥇 **alice**") < text.index("Automata and AI players")
    assert text.index("Automata and AI players") < text.index("**Gustave**")
    assert "🥇 **Gustave**" not in text
    assert "2 games, 1 win" in text and "1 game, 1 win" in text and "0 games, 0 wins" in text
    assert "μ" not in text and "σ" not in text


async def _seed(path: Path, guild_id: int, alice: int, bob: int) -> None:
    """One Flight game alice–bob and one solo First in Flight game of alice against Gustave."""
    store = await open_store(path)
    service = GameService(store)
    rng = random.Random(3)
    try:
        for channel, game, options, players in (
            (900_001, "flight", FLIGHT_ONE_HAND, ((alice, "alice"), (bob, "bob"))),
            (900_002, "first-in-flight", {}, ((alice, "alice"),)),
        ):
            await service.lobby.open(guild_id, channel, game, options, alice, "alice")
            for user, name in players[1:]:
                await service.lobby.join(channel, user, name)
            loaded = (await service.lobby.start(channel, alice, is_admin=False)).loaded
            while loaded.outcome is None:
                seat = loaded.active_seats[0]
                action = rng.choice(loaded.game.legal_actions(loaded.state, seat))
                user_id = loaded.user_of(seat)
                assert user_id is not None
                loaded = (await service.act(channel, user_id, action.key, None)).loaded
    finally:
        await store.close()


async def test_stats_and_leaderboard_speak_a_players_words(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """After one game bob reads '**1** game', a provisional skill estimate and no μ/σ; the First
    in Flight leaderboard ranks alice and lists Gustave apart."""
    guild = fake.add_guild("Words")
    channel = fake.add_channel(guild, "stats")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    database = tmp_path / "hangar.sqlite3"
    await _seed(database, guild.id, alice.id, bob.id)
    bot = bots(bot_env(fake, guild, database))
    await bot.start()
    await fake.wait_ready(60)

    stats = (await (await fake.slash(bob, channel, "stats")).response()).all_text
    assert "**1** game ·" in stats and "1 games" not in stats, stats
    assert "Skill estimate" in stats and "(provisional until 5 games)" in stats
    assert "μ" not in stats and "σ" not in stats and "Rating " not in stats
    assert "1 game, " in stats

    board = (
        await (await fake.slash(alice, channel, "leaderboard", game="first-in-flight")).response()
    ).all_text
    assert "🥇 **alice**" in board, board
    assert board.index("Automata and AI players") < board.index("**Gustave**")
    assert "🥇 **Gustave**" not in board and "μ" not in board

    history = (await (await fake.slash(alice, channel, "game history")).response()).all_text
    assert " moves, " in history and " 1 moves" not in history
