"""/mygames from columns: each running game keeps its listing data in `games.listing`.

The listing is rebuilt in the transaction of every state change (a reaction of the move
pipeline, `bot/services/listing.py`) so that /mygames decodes no snapshot; here it is worded for
its reader. A game without one yet (stored before migration 8, or whose seat holders changed) is
decoded once on the next /mygames and its listing stored.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from bot.edge.present import name_list, prompt_text
from bot.i18n import ENGLISH, ntranslate, translate
from bot.services.errors import DamagedGameError
from bot.services.games import GameService
from bot.services.listing import LISTING_FORMAT, listing_of
from bot.store import repository as repo
from bot.store.locks import Lock
from bot.store.repository import ListingRow

log = logging.getLogger(__name__)

SHOWN = 15  # games listed: more would not fit Discord's 2,000 characters anyway


@dataclass(frozen=True)
class Listed:
    """One open game as /mygames shows it to its reader."""

    row: ListingRow
    title: str
    state: str  # "lobby, 2 players so far", "**your turn** — …", "**Bob** to play."


def state_for(listing: str, seat: int, locale: str = ENGLISH) -> str:
    """The listing's line worded for the reader in `seat` ("**your turn** — …", "**Bob** to
    play.") in `locale`'s language."""
    data: dict[str, Any] = json.loads(listing)
    if data.get("v") != LISTING_FORMAT:  # format 1 stored the finished lines
        return str(data["own"].get(str(seat), data["all"]))
    active: list[int] = data["active"]
    names: list[str] = data["names"]
    if not active:
        return translate(locale, "Waiting.")
    if seat in active:
        prompt = first_line(prompt_text(data["prompts"][str(seat)], names, locale))
        return your_turn_inside(locale, prompt)
    players = name_list([names[s] for s in active], locale)
    return first_line(translate(locale, "**{players}** to play.", players=players))


def your_turn_inside(locale: str, prompt: str) -> str:
    """'**your turn** — play cards…' mid-sentence ("Takeoff! in #plane: **your turn** — …")."""
    return translate(locale, "**your turn** — {prompt}", prompt=prompt)


def lobby_state(locale: str, players: int) -> str:
    """'lobby, 2 players so far' in `locale`'s language."""
    return ntranslate(
        locale, "lobby, {count} player so far", "lobby, {count} players so far", players
    )


def first_line(text: str) -> str:
    """The first line of a status (the listing is one line per game)."""
    return text.split("\n")[0]


async def user_listing(
    service: GameService, guild_id: int, user_id: int, locale: str = ENGLISH
) -> tuple[list[Listed], list[DamagedGameError]]:
    """The user's newest open games here (readable, damaged), built from columns only and
    worded in `locale`'s language."""
    async with service.store.reading() as db:
        rows = await repo.fetch_user_listings(db, guild_id, user_id, SHOWN)
    games: list[Listed] = []
    damaged: list[DamagedGameError] = []
    for row in rows:
        try:
            listing = None if row.status == "lobby" else await _listing(service, row)
        except DamagedGameError as exc:
            damaged.append(exc)
            continue
        game = service.games.get(row.game_id)
        if game is not None and (listing is not None or row.status == "lobby"):
            games.append(Listed(row, game.title, _state(row, listing, locale)))
    return games, damaged


def _state(row: ListingRow, listing: str | None, locale: str) -> str:
    """The reader's state text for one game."""
    if listing is None:
        return lobby_state(locale, row.players)
    return state_for(listing, row.seat, locale)


async def _listing(service: GameService, row: ListingRow) -> str | None:
    """The stored listing, else decode the game once and store it (DamagedGameError if it
    cannot be decoded, None if it closed meanwhile)."""
    if row.listing is not None and row.game_id in service.games:
        return row.listing
    async with service.store.transaction(lock=Lock.GAMES) as db:
        await db.hold_game(row.pk)
        stored = await repo.fetch_game(db, row.pk)
        if stored is None or stored.record.status != "running":  # closed since the query
            return None
        loaded = service.decoder.decode(stored)
        listing = listing_of(loaded)
        await repo.set_listing(db, row.pk, loaded.record.version, listing)
    log.info("Game %s: /mygames listing built", row.pk)
    return listing
