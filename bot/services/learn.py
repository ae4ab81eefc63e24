"""Practice tables (/game learn): one learner against AI seats, every option explained.

A practice table is an ordinary game in its own thread with a flag (migration 10, `game_flags`):
history, stats and ratings skip it, it has no turn limit, and the learner may leave it at any
time. The explanations come from the rules (`rules.core.explain`), computed off the event loop.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from bot.i18n import ENGLISH, ntranslate, say, translate
from bot.lru import Lru
from bot.services.ai import add_ai_seat
from bot.services.errors import NotAllowedError, NotInGameError
from bot.services.games import GameService
from bot.services.loading import LoadedGame, held_open_game, seat_of
from bot.services.preferences import Preferences
from bot.services.replay import replay_states
from bot.store import outbox
from bot.store import repository as repo
from bot.store.locks import Lock
from bot.store.repository import ActionRecord, TableFlags
from rules.core.errors import said
from rules.core.explain import explain_options, score_changes

log = logging.getLogger(__name__)

# The AI seats a learner plays against fill the game's smallest table (First in Flight: solo,
# against its Gustave automa).
AI_LEVEL = "normal"
PRACTICE_TABLE = {"turn_limit": "off", "on_timeout": "remind", "thread": True}
FLAGS_KEPT = 4096  # games whose flags this process remembers (they never change once set)


@dataclass(frozen=True)
class Coaching:
    """What a seat's panel explains: each offered move's label and explanation."""

    options: tuple[tuple[str, str], ...]


class Flags:
    """Each game's table flags, read once per process (they are set before the game starts)."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self._known: Lru[int, TableFlags] = Lru(FLAGS_KEPT)

    def known(self, pk: int) -> TableFlags | None:
        """The flags if this process has read them (no database trip)."""
        return self._known.get(pk)

    async def of(self, pk: int) -> TableFlags:
        """A game's flags (cached)."""
        found = self._known.get(pk)
        if found is None:
            async with self.service.store.reading(quick=True) as db:
                found = await repo.fetch_flags(db, pk)
            self._known.put(pk, found)
        return found

    async def put(self, pk: int, flags: TableFlags) -> None:
        """Set a game's flags."""
        async with self.service.store.transaction(lock=Lock.GAMES) as db:
            await db.hold_game(pk)
            await repo.put_flags(db, pk, flags)
        self._known.put(pk, flags)


class LearnService:
    """Open, explain and leave practice tables."""

    def __init__(self, service: GameService, preferences: Preferences) -> None:
        self.service = service
        self.preferences = preferences
        self.flags = Flags(service)

    async def open(
        self, guild_id: int, channel_id: int, game_id: str, user_id: int, name: str
    ) -> LoadedGame:
        """A practice lobby in `channel_id` (the learner's thread) with its AI seats, flagged."""
        game = self.service.decoder.engine(game_id)
        loaded = await self.service.lobby.open(guild_id, channel_id, game_id, {}, user_id, name)
        await self.preferences.set_table(loaded.record, dict(PRACTICE_TABLE))
        await self.flags.put(loaded.record.pk, TableFlags(practice=True, hints=True))
        for _ in range(game.min_players - 1):  # First in Flight: solo against Gustave
            loaded = await add_ai_seat(self.service, channel_id, user_id, False, AI_LEVEL)
        return loaded

    async def leave(self, channel_id: int, user_id: int) -> LoadedGame:
        """The learner closes their practice table (nothing is recorded)."""
        async with self.service.store.transaction(lock=Lock.GAMES) as db:
            stored = await held_open_game(db, channel_id)
            flags = await repo.fetch_flags(db, stored.record.pk)
            if not flags.practice:
                raise NotAllowedError(
                    said(
                        "This is not a practice table — leave a game with `/game leave` (lobby) or "
                        "ask an admin to `/admin replace` you."
                    )
                )
            if seat_of(stored.seats, user_id) is None:
                raise NotInGameError(
                    said(
                        "Only the learner at this practice table can close it — start your own "
                        "with `/game learn`."
                    )
                )
            await repo.set_status(db, stored.record.pk, "abandoned", self.service.clock())
            await outbox.drop(db, stored.record.pk)
            log.info("Practice game %s left by user %s", stored.record.pk, user_id)
            return await self.service.decoder.reload(db, stored.record.pk)

    async def last_move(self, loaded: LoadedGame, seat: int | None, locale: str = ENGLISH) -> str:
        """What the last turn did and why the scores moved — for anyone who asks, in `locale`."""
        if loaded.state is None:
            return translate(locale, "The game has not started yet: there is no move to explain.")
        async with self.service.store.reading() as db:
            actions = await repo.fetch_actions(db, loaded.record.pk)
        if not actions:
            return translate(locale, "Nobody has moved yet: there is no move to explain.")
        lines = await self.service.boards.story(
            loaded.record.channel_id, seat, limit=LAST_LINES, language=locale
        )
        changes = await asyncio.to_thread(last_changes, loaded, actions)
        run = sum(1 for _ in _last_run(actions))
        # `{seatN}` stays a placeholder: the edge fills in the name of who held the seat.
        head = translate(
            locale,
            "❔ **The last move** — {mover}, {choices}:",
            mover="{seat" + str(actions[-1].seat) + "}",
            choices=ntranslate(locale, "{count} choice", "{count} choices", run),
        )
        told = [
            translate(locale, "Latest on the board:"),
            *(f"• {say(locale, line)}" for line in lines),
        ]
        scores = (
            [translate(locale, "**Scores:**"), *(f"• {say(locale, c)}" for c in changes)]
            if changes
            else [
                translate(
                    locale, "No score changed: the points come when a play is complete or scored."
                )
            ]
        )
        return "\n".join([head, *told, *scores])

    async def coaching(self, loaded: LoadedGame, seat: int) -> Coaching | None:
        """The explanations for `seat`'s panel at a practice table (None elsewhere or off turn)."""
        if loaded.state is None or seat not in loaded.active_seats:
            return None
        if not (await self.flags.of(loaded.record.pk)).practice:
            return None
        return await asyncio.to_thread(coaching_of, loaded, seat)


LAST_LINES = 6  # log lines the last-move answer quotes


def _last_run(actions: list[ActionRecord]) -> list[ActionRecord]:
    """The last turn: the moves at the end of the log made by the same seat."""
    seat = actions[-1].seat
    run: list[ActionRecord] = []
    for action in reversed(actions):
        if action.seat != seat:
            break
        run.append(action)
    return run


def last_changes(loaded: LoadedGame, actions: list[ActionRecord]) -> list[str]:
    """Score lines of the last turn, by replaying the log up to before it (pure, slow-ish)."""
    run = len(_last_run(actions))
    states = list(replay_states(loaded.game, loaded.record, len(loaded.seats), actions))
    return score_changes(loaded.game, states[-run - 1], states[-1])


def coaching_of(loaded: LoadedGame, seat: int) -> Coaching:
    """Each legal move of `seat` with its explanation (pure: the rules explain)."""
    pairs = explain_options(loaded.game, loaded.state, seat)
    return Coaching(options=tuple((a.label, text) for a, text in pairs))
