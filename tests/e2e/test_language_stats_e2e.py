"""History, stats and /mygames in the reader's language (issue 30): a German-locale player reads
/stats, /leaderboard, /game history and /mygames in German, an English-locale player in English."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from .botproc import BotProcess, bot_env
from .fakediscord import FakeDiscord
from .fakediscord.state import User
from .test_stats_words_e2e import _seed


async def test_stats_history_and_mygames_in_each_readers_language(
    fake: FakeDiscord, bots: Callable[..., BotProcess], tmp_path: Path
) -> None:
    """alice (de) and bob (en-US) ask the same commands after the same finished games."""
    guild = fake.add_guild("Sprachen")
    channel = fake.add_channel(guild, "spiele")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    fake.set_locale(alice, "de")
    fake.set_locale(bob, "en-US")
    database = tmp_path / "hangar.sqlite3"
    await _seed(database, guild.id, alice.id, bob.id)
    await bots(bot_env(fake, guild, database)).start()
    await fake.wait_ready(60)

    async def ask(user: User, command: str, **options: Any) -> str:
        reply = await (await fake.slash(user, channel, command, **options)).response()
        assert reply.ephemeral, command
        footers = [(e.get("footer") or {}).get("text", "") for e in reply.embeds]
        return "\n".join([reply.all_text, *footers])

    german = await ask(alice, "stats")
    assert "Statistik — alice" in german, german
    assert "**2** Spiele" in german and "Spielstärke" in german, german
    assert "(vorläufig bis 5 Spiele)" in german and "Nur beendete Spiele dieses Servers" in german
    assert "games" not in german and "Skill estimate" not in german, german
    english = await ask(bob, "stats")
    assert "Stats — bob" in english and "**1** game ·" in english, english
    assert "Skill estimate" in english and "Spielstärke" not in english, english

    board = await ask(alice, "leaderboard", game="first-in-flight")
    assert "Rangliste — First in Flight" in board, board
    assert "**Automaten und KI-Spieler**" in board and "Vorsichtige Rangfolge" in board, board
    board = await ask(bob, "leaderboard", game="first-in-flight")
    assert "Leaderboard — First in Flight" in board and "**Automata and AI players**" in board

    history = await ask(alice, "game history")
    assert "Beendete Spiele — dieser Server" in history and "Seite 1 von 1 · 2 Spiele" in history
    assert " Züge, " in history and "moves" not in history, history
    history = await ask(bob, "game history")
    assert "Finished games — this server" in history and "Page 1 of 1 · 2 games" in history

    assert "Du bist in keinem Spiel auf diesem Server." in await ask(alice, "mygames")
    assert "You are not in any game on this server." in await ask(bob, "mygames")
    await (await fake.slash(bob, channel, "game new flight")).response()
    await (await fake.slash(alice, channel, "game join")).response()
    assert "Lobby, bisher 2 Spieler — [zum Kanal](" in await ask(alice, "mygames")
    assert "lobby, 2 players so far — [go to the channel](" in await ask(bob, "mygames")
