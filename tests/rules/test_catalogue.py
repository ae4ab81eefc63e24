"""/card's catalogue: every card of every game, with its full text."""

from __future__ import annotations

from rules import GAMES
from rules.catalogue import catalogue, find, search


def test_every_game_has_cards_with_texts_and_unique_short_keys() -> None:
    """Keys fit an autocomplete value (100); names and texts are never empty."""
    entries = catalogue()
    assert {e.game for e in entries} == set(GAMES)
    assert len({e.key for e in entries}) == len(entries)
    assert all(len(e.key) <= 100 and e.name and e.text for e in entries)


def test_find_by_key_or_name_and_search_puts_the_channel_game_first() -> None:
    """'takeoff:pinch' and 'Pinch a card' find the same card; unknown names find nothing."""
    pinch = find("takeoff:pinch")
    assert pinch is not None and find(pinch.name.upper()) == pinch
    assert find("Sopwith Camel") is None
    gliders = search("glide", "first-in-flight")
    assert gliders and gliders[0].game == "first-in-flight"
    assert len(search("")) == 25
