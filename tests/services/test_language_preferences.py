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


async def test_a_users_locale_is_stored_and_outlives_other_preferences(store: Store) -> None:
    """DMs and reminders after a restart read the stored locale; `/notify` keeps it."""
    prefs = Preferences(store, Clock(1.0))
    assert (await prefs.prefs(42)).locale == ""  # never seen: English
    await prefs.remember_locale(42, "de")
    assert (await prefs.prefs(42)).locale == "de"
    await prefs.set_notify(42, "dm")
    kept = await prefs.prefs(42)
    assert kept.locale == "de" and kept.notify == "dm"
    await prefs.remember_locale(42, "fr")
    assert (await prefs.prefs(42)).locale == "fr" and (await prefs.prefs(42)).notify == "dm"


def test_a_dm_speaks_the_stored_locale_when_memory_has_none() -> None:
    """After a restart (nothing in memory) the stored locale decides; memory wins when newer."""
    from bot.edge.locale import SEEN_USERS, user_locale

    assert user_locale(7_000_001, stored="de") == "de"
    assert user_locale(7_000_001) == "en"
    SEEN_USERS.put(7_000_002, "es-ES")
    assert user_locale(7_000_002, stored="de") == "es"
