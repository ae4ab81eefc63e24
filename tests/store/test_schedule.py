"""claim_due: each due item goes to exactly one claimer, and comes back if its lease runs out."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.store import open_store
from bot.store import repository as repo
from bot.store.schedule import claim_due

NOW = 1_000.0


async def _games_with_deadlines(store: Any, deadlines: list[float | None]) -> list[int]:
    """One lobby per deadline (in its own channel); returns their pks."""
    pks = []
    async with store.transaction() as db:
        for channel, deadline in enumerate(deadlines, start=1):
            pk = await repo.insert_game(
                db,
                guild_id=1,
                channel_id=channel,
                game_id="toy",
                options={},
                seed=1,
                creator_id=1,
                now=0.0,
            )
            await db.execute("UPDATE games SET deadline_at = ? WHERE pk = ?", (deadline, pk))
            pks.append(pk)
    return pks


async def _claim(store: Any, now: float = NOW, limit: int = 20) -> list[int]:
    """Claim due games."""
    return await claim_due(
        store, "games", key="pk", due="deadline_at", now=now, limit=limit, lease=60
    )


async def test_due_items_are_claimed_once_until_the_lease_runs_out(database_url: str) -> None:
    """Only due rows, oldest first; claimed rows are skipped until their lease has passed."""
    store = await open_store(database_url)
    try:
        pks = await _games_with_deadlines(store, [NOW - 5, NOW + 30, None, NOW - 10, NOW])
        assert await _claim(store) == [pks[3], pks[0], pks[4]]
        assert await _claim(store) == []
        assert await _claim(store, now=NOW + 45) == [pks[1]]
        assert sorted(await _claim(store, now=NOW + 61)) == sorted([pks[0], pks[3], pks[4]])
    finally:
        await store.close()


async def test_two_processes_claiming_together_split_the_work(database_url: str) -> None:
    """Two stores (as two processes) claiming at once: every due item exactly once."""
    first, second = await open_store(database_url), await open_store(database_url)
    try:
        pks = await _games_with_deadlines(first, [NOW - i for i in range(30)])
        rounds = await asyncio.gather(*[_claim(s, limit=4) for s in (first, second) * 5])
        claimed = [pk for batch in rounds for pk in batch]
        assert len(claimed) == len(set(claimed)) == 30, "nothing claimed twice, nothing missed"
        assert set(claimed) == set(pks) and await _claim(second) == []
    finally:
        await first.close()
        await second.close()
