"""The /mygames listing kept with every state change: who must act and what they decide.

It is data (active seats, seat names, each active seat's prompt), written by a reaction inside
the change's transaction so /mygames decodes no snapshot; the Discord side words it when read.
"""

from __future__ import annotations

import json

from bot.services.loading import LoadedGame
from bot.services.moves import Committed
from bot.store import repository as repo
from bot.store.cursor import Db

LISTING_FORMAT = 2  # format 1 (before issue 27) held the finished sentences


def listing_of(loaded: LoadedGame) -> str:
    """The stored listing of a running game."""
    active = loaded.active_seats
    prompts = {str(seat): loaded.game.prompt(loaded.state, seat) for seat in active}
    data = {"v": LISTING_FORMAT, "active": list(active), "names": list(loaded.names)}
    data["prompts"] = prompts
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


async def store_listing(db: Db, change: Committed) -> None:
    """Reaction: keep the listing with the state it describes (same transaction)."""
    after = change.after
    if after.record.status == "running":
        await repo.set_listing(db, after.record.pk, after.record.version, listing_of(after))
