"""A server's language for public messages, known without a query after its first read (every
board asks for it: issue 29 measures the move path) and kept in step with `/admin settings`."""

from __future__ import annotations

from bot.services.gametime import Clock
from bot.services.preferences import Preferences
from bot.store import Store
from tests.services.conftest import GUILD


async def test_the_language_is_read_once_then_known_and_follows_the_setting(store: Store) -> None:
    """First read from the database; afterwards from memory (the store may even be closed);
    a change through the service is what the next board gets."""
    prefs = Preferences(store, Clock(1.0))
    assert prefs.known_language(GUILD) is None  # nothing read yet: pictures drawn ahead say en
    assert await prefs.language(GUILD) == ""  # the server's Discord locale decides
    assert prefs.known_language(GUILD) == ""
    await prefs.update_guild(GUILD, language="fr")
    assert prefs.known_language(GUILD) == "fr"
    await store.close()  # no query is left to make: a board still knows its language
    assert await prefs.language(GUILD) == "fr"
