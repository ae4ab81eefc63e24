"""Names are free text: the bot's messages never ping @everyone, @here or a role by default."""

from __future__ import annotations

from pathlib import Path

import discord

from bot.edge.app import HangarBot
from bot.settings import Settings


async def test_no_message_pings_everyone_or_a_role_unless_it_says_so(tmp_path: Path) -> None:
    """The client's default, merged into every message: a player named "@everyone" whose name is
    echoed in a message that names no mentions pings nobody but the users it lists."""
    url = str(tmp_path / "h.sqlite3")
    bot = HangarBot(Settings(_env_file=None, database_url=url))  # type: ignore[call-arg]
    default = bot.allowed_mentions
    assert default is not None and default.everyone is False and default.roles is False
    merged = default.merge(discord.AllowedMentions(users=[discord.Object(id=1)]))
    sent = merged.to_dict()
    assert sent["parse"] == [] and sent["users"] == [1], "only the listed user is pinged"
    await bot.close()
