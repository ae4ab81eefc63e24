"""The move pipeline: the one path by which a running game's state changes.

A click, `/play`, an AI seat, a timeout and an admin's undo all come here. One transaction
loads the game, checks it (game number, version, turn, legality against the cached legal
actions), applies the move, appends it to the log, stores the snapshot, runs the reactions wired
at start-up (history, clocks, the /mygames listing) and queues the board in the outbox. Nothing
else writes a move (`tests/services/test_pipeline.py`). Deciding a move — an AI thinking — happens
before, on a loaded snapshot and outside any transaction; the version it saw is checked here.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.lru import Lru
from bot.services.boards import BoardLogs, board_lines, move_lines, queue_board
from bot.services.errors import UndoRefusedError
from bot.services.loading import (
    STALE_MESSAGE,
    ActResult,
    Decoder,
    LoadedGame,
    acting_seat,
    check_started,
    held_open_game,
)
from bot.services.replay import refuse_revealing, replay, rng_draws, with_names
from bot.store import Store
from bot.store import repository as repo
from bot.store.cursor import Db
from bot.store.locks import Lock
from rules.core import Action, Event, RulesError, StaleActionError
from rules.core.errors import said

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Committed:
    """What a reaction sees: the game after a change, inside the change's transaction."""

    after: LoadedGame
    previous_active: tuple[int, ...]
    now: float


# A reaction keeps other records in step with a committed change (same transaction, no Discord).
Reaction = Callable[[Db, Committed], Awaitable[None]]
# A guard runs inside the move's transaction before it is applied; it raises to call it off
# (the timeout's claim on the seat's deadline: the move and the claim commit together).
Guard = Callable[[Db, LoadedGame], Awaitable[None]]
# A foresight sees the game as the move will commit it, before the COMMIT, so that work on it (the
# board's picture) overlaps the commit; it returns what to call if the commit then fails.
Foresight = Callable[[LoadedGame], Callable[[], None]]


class Applied(Lru[tuple[int, int, int, str], tuple[Any, Action]]):
    """Moves just applied, by (game, version, seat, key), until the other of a click's two
    appliers takes it: its preview (bot/runtime/preview.py) and its real move. A stored version's
    state never changes and the rules are pure, so both get the very same transition; applying
    it once saves the rules' work, and the board drawn ahead then shares the committed state's
    view (issue 29, target 6). Few entries: only a calm bot previews."""

    def __init__(self, size: int = 8) -> None:
        super().__init__(size)

    def take(self, key: tuple[int, int, int, str]) -> tuple[Any, Action] | None:
        """The transition and action applied for `key`, forgotten as they are handed out."""
        with self._lock:
            return self._items.pop(key, None)


@dataclass(frozen=True)
class ByPlayer:
    """A move a person sent: their seat is looked up and must be to move."""

    user_id: int


@dataclass(frozen=True)
class ByBot:
    """A move the bot plays for `seat` (an AI seat, a timeout)."""

    seat: int


Mover = ByPlayer | ByBot


class Moves:
    """Submit moves, deal and undo; each one transaction, with its reactions and its board."""

    def __init__(
        self,
        store: Store,
        decoder: Decoder,
        board_logs: BoardLogs,
        clock: Callable[[], float],
        reactions: Sequence[Reaction] = (),
    ) -> None:
        self.store = store
        self.decoder = decoder
        self.board_logs = board_logs
        self.clock = clock
        self.reactions: tuple[Reaction, ...] = tuple(reactions)
        self._wired = False
        self._foresight: Foresight | None = None
        self._applied = Applied()

    def foresee(self, foresight: Foresight) -> None:
        """Show each move's new game to `foresight` before it commits (bot/runtime/preview.py
        starts the board's picture there)."""
        self._foresight = foresight

    def wire(self, *reactions: Reaction) -> None:
        """Add the reactions start-up wires (once: a second wiring is a bug)."""
        if self._wired:
            raise RuntimeError("the move pipeline's reactions are wired once, at start-up")
        self.reactions = (*self.reactions, *reactions)
        self._wired = True

    async def play(
        self,
        channel_id: int,
        mover: Mover,
        keys: Sequence[str],
        *,
        version: int | None,
        game_pk: int | None = None,
        guard: Guard | None = None,
    ) -> ActResult:
        """Apply `keys` in order for the mover's seat, as seen at `version` (None: any)."""
        discards: list[Callable[[], None]] = []
        try:
            async with self.store.transaction(lock=Lock.GAMES) as db:
                stored = await held_open_game(db, channel_id)
                if game_pk is not None and stored.record.pk != game_pk:
                    # a component left over from an earlier game
                    raise StaleActionError(STALE_MESSAGE)
                before = self.decoder.decode(stored)
                seat = _seat_of(before, mover, version)
                if guard is not None:
                    await guard(db, before)
                user_id = mover.user_id if isinstance(mover, ByPlayer) else None
                return await self._apply_all(db, before, seat, keys, user_id, discards)
        except BaseException:
            for discard in discards:  # the move did not commit: what was foreseen is not shown
                discard()
            raise

    def _foreseen(self, after: LoadedGame) -> Callable[[], None]:
        """Show `after` to the foresight; what to call if the commit fails (never raises: the
        move must not fail for a picture drawn ahead)."""
        if self._foresight is None:
            return _nothing
        try:
            return self._foresight(after)
        except Exception:
            log.exception("Foreseeing game %s failed", after.record.pk)
            return _nothing

    def preview(self, before: LoadedGame, user_id: int, key: str) -> tuple[LoadedGame, int]:
        """The game as `user_id` playing `key` would leave it, and their seat; nothing stored."""
        seat = acting_seat(before, user_id, before.record.version)
        transition, _ = self._apply(before, seat, key)
        return dataclasses.replace(before, state=transition.state), seat

    async def deal(self, db: Db, lobby: LoadedGame, state: Any) -> ActResult:
        """Store a game's first state (the start) in the caller's transaction."""
        loaded = await self._store(db, lobby, state)
        queued = await self._react(db, (), loaded, ())
        return ActResult(loaded, (), None, (), loaded.outcome is not None, (), queued)

    async def undo(self, channel_id: int) -> ActResult:
        """Take back the last move if it revealed nothing and drew nothing at random."""
        async with self.store.transaction(lock=Lock.GAMES) as db:
            current = self.decoder.decode(await held_open_game(db, channel_id))
            check_started(current.record)
            pk = current.record.pk
            actions = await repo.fetch_actions(db, pk)
            if not actions:
                raise UndoRefusedError(said("There is nothing to undo — nobody has moved yet."))
            last = actions[-1]
            refuse_revealing(await repo.fetch_events(db, pk, last.seq))
            previous = _replay(current, actions[:-1])
            if rng_draws(previous) != rng_draws(current.state):
                raise UndoRefusedError(
                    said(
                        "The last move used a random draw, so taking it back would change the game."
                    )
                )
            await repo.insert_undo(db, pk, undoes=last.seq, user_id=None, now=self.clock())
            log.info("Game %s: move %s (%s) undone", pk, last.seq, last.key)
            after = await self._store(db, current, previous)
            queued = await self._react(db, (), after, ())
            lines = await board_lines(db, pk, current.seats)
        finished = after.outcome is not None
        return ActResult(after, (), last.seat, current.active_seats, finished, lines, queued)

    async def _apply_all(
        self,
        db: Db,
        before: LoadedGame,
        seat: int,
        keys: Sequence[str],
        user_id: int | None,
        discards: list[Callable[[], None]],
    ) -> ActResult:
        """Apply, log and store each key; react and queue one board for them all (`discards`
        gets what to call if the transaction then fails)."""
        current = before
        events: list[Event] = []
        labels: list[str] = []
        for key in keys:
            # Only a committed version may be shared with a preview: a later key applies to a
            # state this transaction has not committed yet (and may roll back).
            if current is before:
                transition, action = self._apply(current, seat, key)
            else:
                transition, action = apply_checked(current, seat, key)
            await repo.insert_action(
                db,
                current.record.pk,
                seat=seat,
                action=action.model_dump(mode="json"),
                user_id=user_id,
                events=[with_names(event, current.names) for event in transition.events],
                now=self.clock(),
            )
            current = await self._store(db, current, transition.state)
            events.extend(transition.events)
            labels.append(action.label)
            if current.outcome is not None:
                # the game is over: nothing more is legal, and its seats' choices are dropped
                seats = (s.seat for s in current.seats)
                self.decoder.legal_cache.forget_game(current.record.pk, seats)
                break
        done = tuple(events)
        # the new state is final here: its board is drawn while reactions run and COMMIT waits
        discards.append(self._foreseen(current))
        queued = await self._react(db, before.active_seats, current, done)
        lines = await move_lines(self.board_logs, db, before, current, done)
        return ActResult(
            current,
            done,
            seat,
            before.active_seats,
            current.outcome is not None,
            lines,
            queued,
            labels[-1] if labels else "",
            tuple(labels),
        )

    def _apply(self, current: LoadedGame, seat: int, key: str) -> tuple[Any, Action]:
        """`apply_checked` once for a click's preview and its real move, whichever comes first
        (the real move's transaction usually applies it before the preview runs)."""
        record = current.record
        memo = (record.pk, record.version, seat, key)
        found = self._applied.take(memo)
        if found is None:
            found = apply_checked(current, seat, key)
            self._applied.put(memo, found)
        return found

    async def _store(self, db: Db, before: LoadedGame, state: Any) -> LoadedGame:
        """Write the new snapshot if the version is still ours; lose the race → StaleActionError."""
        game, version, now = before.game, before.record.version, self.clock()
        status: repo.Status = "finished" if game.outcome(state) is not None else "running"
        kept = await repo.update_snapshot(
            db,
            before.record.pk,
            expected_version=version,
            snapshot=game.dump_state(state),
            status=status,
            now=now,
        )
        if not kept:
            raise StaleActionError(STALE_MESSAGE)
        record = dataclasses.replace(
            before.record, version=version + 1, status=status, updated_at=now
        )
        return dataclasses.replace(before, record=record, state=state)

    async def _react(
        self,
        db: Db,
        previous_active: tuple[int, ...],
        after: LoadedGame,
        events: tuple[Event, ...],
    ) -> Any:
        """Run the wired reactions, then queue the board (returns the queued announcement)."""
        change = Committed(after, previous_active, after.record.updated_at)
        for reaction in self.reactions:
            await reaction(db, change)
        return await queue_board(db, previous_active, after, events, self.clock())


def _nothing() -> None:
    """Nothing to undo."""


def apply_checked(before: LoadedGame, seat: int, key: str) -> tuple[Any, Action]:
    """The transition and the action, checking legality once (against the cached legal actions)."""
    game, state = before.game, before.state
    legal = before.legal_actions(seat)
    action = next((a for a in legal if a.key == key), None)
    if action is None:
        action = game.resolve(state, seat, key)  # raises with the engine's reason
    vouch = getattr(game, "vouch", None)
    if vouch is not None:
        vouch(state, seat, legal)  # apply() need not recompute what we just checked
    return game.apply(state, seat, action), action


def _seat_of(before: LoadedGame, mover: Mover, version: int | None) -> int:
    """The seat that moves, after the checks every move passes before the rules see it."""
    if isinstance(mover, ByPlayer):
        return acting_seat(before, mover.user_id, version)
    check_started(before.record)
    stale = version is not None and version != before.record.version
    if stale or mover.seat not in before.active_seats:
        raise StaleActionError(STALE_MESSAGE)  # the game moved on while the bot decided
    return mover.seat


def _replay(current: LoadedGame, actions: list[repo.ActionRecord]) -> Any:
    """Replay for undo; a log that no longer replays is a refusal, not a crash."""
    try:
        return replay(current.game, current.record, len(current.seats), actions)
    except (RulesError, ValueError) as exc:
        raise UndoRefusedError(
            said("The log does not replay ({reason}) — run /admin verify.", reason=str(exc))
        ) from exc
