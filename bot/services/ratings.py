"""OpenSkill (Plackett–Luce) ratings per server and game, rebuilt from stored results.

Every participant is a player key: `user:<id>` for people, `ai:<level>` for AI seats (one rating
per level), `automa:gustave` for First in Flight's Gustave. Ratings are a pure function of the
results in (finished_at, game) order, so an incremental update after each game and a rebuild
from scratch give the same numbers. Run `python -m bot.services.ratings rebuild` to rebuild.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from itertools import groupby

from openskill.models import PlackettLuce

from bot.store import history as hrepo
from bot.store.cursor import Db
from bot.store.history import RatingRow, ResultRow

MODEL = PlackettLuce()  # defaults: mu 25, sigma 25/3


def fresh(player: str, name: str) -> RatingRow:
    """The rating of a player who has not played yet."""
    return RatingRow(player, name, MODEL.mu, MODEL.sigma, 0, 0)


def is_rated(entries: Sequence[ResultRow]) -> bool:
    """A game counts when at least two different players took part (e.g. one human vs AI)."""
    return len({e.player for e in entries if not e.former}) >= 2


def rate_game(
    entries: Sequence[ResultRow], current: Mapping[str, RatingRow]
) -> tuple[list[ResultRow], dict[str, RatingRow]]:
    """The entries with ratings before/after, and the players' new ratings.

    Two seats of one AI level are two teams with the same prior; the level's new rating is the
    mean of their updates (deterministic, order-free).
    """
    if not is_rated(entries):
        return list(entries), {}
    partial = [e for e in entries if e.former]  # a replaced seat's earlier holder: not rated
    entries = [e for e in entries if not e.former]
    before = [current.get(e.player) or fresh(e.player, e.name) for e in entries]
    teams = [[MODEL.create_rating([b.mu, b.sigma], name=b.player)] for b in before]
    rated = MODEL.rate(teams, ranks=[float(e.place) for e in entries])
    after: dict[str, list[tuple[float, float]]] = {}
    for entry, team in zip(entries, rated, strict=True):
        after.setdefault(entry.player, []).append((team[0].mu, team[0].sigma))
    updated: dict[str, RatingRow] = {}
    for entry, prior in zip(entries, before, strict=True):
        pairs = after[entry.player]
        mu = sum(p[0] for p in pairs) / len(pairs)
        sigma = sum(p[1] for p in pairs) / len(pairs)
        wins = prior.wins + int(any(e.won for e in entries if e.player == entry.player))
        updated[entry.player] = RatingRow(
            entry.player, entry.name, mu, sigma, prior.games + 1, wins
        )
    rows = [
        dataclasses.replace(
            e,
            mu_before=b.mu,
            sigma_before=b.sigma,
            mu_after=updated[e.player].mu,
            sigma_after=updated[e.player].sigma,
            rated_n=updated[e.player].games,
        )
        for e, b in zip(entries, before, strict=True)
    ]
    return sorted(rows + partial, key=lambda r: r.entry), updated


def replay_ratings(
    results: Iterable[ResultRow],
) -> tuple[list[ResultRow], dict[str, RatingRow]]:
    """Rate a sequence of results (ordered by time, then game) from scratch."""
    current: dict[str, RatingRow] = {}
    rows: list[ResultRow] = []
    for _, group in groupby(results, key=lambda r: r.game_pk):
        rated, updated = rate_game(list(group), current)
        current.update(updated)
        rows += rated
    return rows, current


async def record_game(db: Db, entries: Sequence[ResultRow]) -> list[ResultRow]:
    """Rate one just-finished game against the stored ratings and store both (incremental)."""
    if not entries or not is_rated(entries):
        return list(entries)
    guild_id, game_id = entries[0].guild_id, entries[0].game_id
    players = sorted({e.player for e in entries if not e.former})
    current = {r.player: r for r in await hrepo.fetch_ratings(db, guild_id, game_id, players)}
    rows, updated = rate_game(entries, current)
    await hrepo.set_result_ratings(db, rows)
    await hrepo.upsert_ratings(db, guild_id, game_id, updated.values())
    return rows


async def rebuild(db: Db, guild_id: int, game_id: str) -> int:
    """Recompute one game's ratings on a server from its stored results; returns games rated."""
    results = await hrepo.fetch_results(db, guild_id, game_id)
    rows, current = replay_ratings(results)
    await hrepo.set_result_ratings(db, rows)
    await hrepo.delete_ratings(db, guild_id, game_id)
    await hrepo.upsert_ratings(db, guild_id, game_id, current.values())
    return len({r.game_pk for r in rows if r.mu_after is not None})


async def rebuild_all(db: Db) -> int:
    """Rebuild every server's ratings for every game; returns games rated."""
    async with db.execute("SELECT DISTINCT guild_id, game_id FROM results") as cursor:
        pairs = [(int(r[0]), str(r[1])) for r in await cursor.fetchall()]
    async with db.execute("SELECT DISTINCT guild_id, game_id FROM ratings") as cursor:
        stale = [(int(r[0]), str(r[1])) for r in await cursor.fetchall()]
    for guild_id, game_id in stale:  # games whose results were all deleted
        await hrepo.delete_ratings(db, guild_id, game_id)
    return sum([await rebuild(db, guild_id, game_id) for guild_id, game_id in pairs])
