"""The game service: lobbies, moves and admin operations, each one transaction (DESIGN.md §3)."""

from __future__ import annotations

import dataclasses
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import rules
from bot.lru import Lru
from bot.services.announce import merge, plan_board
from bot.services.errors import (
    AlreadyJoinedError,
    AlreadyStartedError,
    ChannelBusyError,
    DamagedGameError,
    GameFullError,
    NoGameHereError,
    NotAllowedError,
    NotInGameError,
    NotStartedError,
    UndoRefusedError,
)
from bot.services.history import record_finished
from bot.services.options import validated_options
from bot.services.replay import (
    differences,
    exported,
    refuse_revealing,
    replay,
    rng_draws,
    stored_event,
    with_names,
)
from bot.store import IntegrityError, Store, outbox
from bot.store import repository as repo
from bot.store.outbox import Announcement
from bot.store.raw import raw_rows
from bot.store.repository import ActionRecord, GameRecord, SeatRecord, StoredGame
from rules.core import (
    Action,
    Event,
    Game,
    InvalidOptionsError,
    NotYourTurnError,
    Outcome,
    RulesError,
    StaleActionError,
    UnknownGameError,
    fill_names,
    messages,
    seat_ref,
)
from rules.core.log import collapse
from rules.core.messages import plural

log = logging.getLogger(__name__)

STALE_MESSAGE = messages.STALE
SEATED_EXPORT = (
    "You play in game #{pk}, which is still going: its export holds the seed, which would show "
    "you every hidden card. Export it once it has ended, or ask an admin who is not playing."
)
# Log lines shown on a board (the presenter shows at most this many).
BOARD_LINES = 12


class LegalCache(Lru[tuple[int, int, int], tuple[Action, ...]]):
    """legal_actions per (game, version, seat): a stored version never changes, so one engine call
    serves the board's buttons, the next click's legality check and the hand panel."""

    def __init__(self, size: int = 1024) -> None:
        super().__init__(size)

    def get_or_compute(
        self, key: tuple[int, int, int], compute: Callable[[], list[Action]]
    ) -> tuple[Action, ...]:
        """The cached actions for `key`, computing them once."""
        found = self.get(key)
        if found is None:
            found = tuple(compute())
            self.put(key, found)
        return found


Entry = tuple[str, str, tuple[str, ...] | None]  # a public log entry: kind, text, names then


@dataclass(frozen=True)
class KeptLog:
    """A game's recent public log entries as of one committed state (version and time)."""

    version: int
    updated_at: float
    entries: tuple[Entry, ...]


class BoardLogs(Lru[int, KeptLog]):
    """The board's recent log per game, as this process last wrote it: the next move appends its
    own events instead of reading back and decoding ~50 stored events (issue 14)."""

    def __init__(self, size: int = 1024) -> None:
        super().__init__(size)

    def entries(self, record: GameRecord) -> tuple[Entry, ...] | None:
        """The entries of `record`'s game, when kept for exactly that state.

        Version and update time together identify a committed state: a move written here and
        then rolled back left an entry no stored state matches.
        """
        kept = self.get(record.pk)
        if kept is None or (kept.version, kept.updated_at) != (record.version, record.updated_at):
            return None
        return kept.entries

    def keep(self, record: GameRecord, entries: tuple[Entry, ...]) -> None:
        """Keep the entries of the state `record` describes."""
        self.put(record.pk, KeptLog(record.version, record.updated_at, entries))


@dataclass(frozen=True)
class LoadedGame:
    """A game as stored: its row, seats, rules state (None in the lobby) and engine."""

    record: GameRecord
    seats: tuple[SeatRecord, ...]
    state: Any
    game: Game
    legal_cache: LegalCache | None = field(default=None, compare=False, repr=False)

    def legal_actions(self, seat: int) -> list[Action]:
        """This seat's legal actions now ([] unless it must act), computed once per version."""
        if self.state is None or seat not in self.active_seats:
            return []
        if self.legal_cache is None:
            return self.game.legal_actions(self.state, seat)
        key = (self.record.pk, self.record.version, seat)
        return list(
            self.legal_cache.get_or_compute(key, lambda: self.game.legal_actions(self.state, seat))
        )

    @property
    def names(self) -> tuple[str, ...]:
        """Seat names in seat order (for filling `{seatN}` placeholders)."""
        return tuple(s.name for s in self.seats)

    def user_of(self, seat: int) -> int | None:
        """The user sitting in `seat`, or None when there is no such seat."""
        return next((s.user_id for s in self.seats if s.seat == seat), None)

    @property
    def active_seats(self) -> tuple[int, ...]:
        """Seats that must act now; () in the lobby and once the game is over."""
        return () if self.state is None else tuple(self.game.active_players(self.state))

    @property
    def outcome(self) -> Outcome | None:
        """The result once the game is over."""
        return None if self.state is None else self.game.outcome(self.state)


@dataclass(frozen=True)
class ActResult:
    """What a committed change did: the game after it and the events to announce."""

    loaded: LoadedGame
    events: tuple[Event, ...]
    acted_seat: int | None
    previous_active: tuple[int, ...]
    finished: bool
    lines: tuple[str, ...] = ()  # the latest public log lines, for the board
    announcement: Announcement | None = None  # the board queued in the same transaction
    label: str = ""  # what the player did, as the engine labels it


@dataclass(frozen=True)
class PendingBoard:
    """An undelivered announcement with the game as it is now and its latest log lines."""

    announcement: Announcement
    loaded: LoadedGame
    lines: tuple[str, ...]


@dataclass(frozen=True)
class VerifyReport:
    """Whether seed + action log replays to the stored snapshot."""

    ok: bool
    actions: int
    detail: str
    differences: tuple[str, ...] = ()

    def __str__(self) -> str:
        """The report as one line for an admin."""
        return ("✅ " if self.ok else "❌ ") + self.detail


def turn_message(active: Sequence[int]) -> str:
    """'Not your turn — it is {seat1}'s turn.' with seat placeholders the bot fills in."""
    refs = [seat_ref(seat) for seat in active]
    if not refs:
        return messages.GAME_OVER
    return messages.not_your_turn(messages.join_names(refs))


# Called inside the transaction of every committed state change (start, move, undo), after the
# new snapshot is written: the clock keeps its deadlines in step with whose turn it is.
CommitHook = Callable[[Any, "LoadedGame"], Awaitable[None]]


class GameService:
    """Everything the Discord layer does to games; nothing returns before its commit."""

    def __init__(
        self,
        store: Store,
        games: Mapping[str, Game] | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.games: Mapping[str, Game] = rules.GAMES if games is None else games
        self.clock = clock
        self.legal_cache = LegalCache()
        self.board_logs = BoardLogs()
        self.commit_hooks: list[CommitHook] = []

    async def new_lobby(
        self,
        guild_id: int,
        channel_id: int,
        game_id: str,
        options: dict[str, Any],
        creator_id: int,
        creator_name: str,
        seed: int | None = None,
    ) -> LoadedGame:
        """Open a lobby in this channel with the creator in seat 0."""
        game = self._engine(game_id)
        clean = _validated_options(game, options)
        seed = secrets.randbelow(2**31) if seed is None else seed
        now = self.clock()
        async with self.store.transaction() as db:
            existing = await repo.fetch_open_game(db, channel_id)
            if existing is not None:
                raise _busy(self._loaded(existing).game)  # or DamagedGameError, saying so
            try:
                pk = await repo.insert_game(
                    db,
                    guild_id=guild_id,
                    channel_id=channel_id,
                    game_id=game_id,
                    options=clean,
                    seed=seed,
                    creator_id=creator_id,
                    now=now,
                )
            except IntegrityError:
                # Another process opened a game here between our check and this insert.
                raise _busy(game) from None
            await repo.replace_seats(db, pk, (SeatRecord(0, creator_id, creator_name),), now)
            return await self._reload(db, pk)

    async def join(self, channel_id: int, user_id: int, name: str) -> LoadedGame:
        """Take the next free seat of the lobby."""
        async with self.store.transaction() as db:
            stored = _in_lobby(await self._open(db, channel_id), "join")
            game = self._engine(stored.record.game_id)
            if _seat(stored.seats, user_id) is not None:
                raise AlreadyJoinedError("You have already joined this game.")
            if len(stored.seats) >= game.max_players:
                raise GameFullError(f"This {game.title} game is full ({game.max_players} players).")
            seats = (*stored.seats, SeatRecord(len(stored.seats), user_id, name))
            await repo.replace_seats(db, stored.record.pk, seats, self.clock())
            return await self._reload(db, stored.record.pk)

    async def leave(self, channel_id: int, user_id: int) -> LoadedGame:
        """Give up a lobby seat; when the creator leaves, the lobby closes."""
        async with self.store.transaction() as db:
            stored = _in_lobby(await self._open(db, channel_id), "leave")
            if _seat(stored.seats, user_id) is None:
                raise NotInGameError()
            pk, now = stored.record.pk, self.clock()
            if user_id == stored.record.creator_id:
                await repo.set_status(db, pk, "abandoned", now)
            else:
                rest = [s for s in stored.seats if s.user_id != user_id]
                seats = tuple(dataclasses.replace(s, seat=i) for i, s in enumerate(rest))
                await repo.replace_seats(db, pk, seats, now)
            return await self._reload(db, pk)

    async def start(self, channel_id: int, user_id: int, is_admin: bool) -> ActResult:
        """Deal the game for the seated players (creator or admin only)."""
        async with self.store.transaction() as db:
            stored = _in_lobby(await self._open(db, channel_id), "start")
            record = stored.record
            if user_id != record.creator_id and not is_admin:
                raise NotAllowedError("Only the player who opened the lobby or an admin can start.")
            game = self._engine(record.game_id)
            _check_player_count(game, len(stored.seats))
            state = _new_game(game, record, len(stored.seats))
            lobby = LoadedGame(record, stored.seats, None, game, self.legal_cache)
            loaded = await self._commit_state(db, lobby, state)
            queued = await self._queue_board(db, (), loaded, ())
        finished = loaded.outcome is not None
        return ActResult(loaded, (), None, (), finished, (), queued)

    async def load(self, channel_id: int) -> LoadedGame:
        """The lobby or running game in this channel."""
        async with self.store.reading(quick=True) as db:
            stored = await self._open(db, channel_id)
        return self._loaded(stored)

    async def load_latest(
        self, channel_id: int, game_pk: int | None = None, guild_id: int | None = None
    ) -> LoadedGame:
        """Game #game_pk of this server when given; else the open game here, else the last
        finished one (it stays visible until a new game starts here)."""
        async with self.store.reading() as db:
            stored = await self._target(db, channel_id, game_pk, guild_id)
        return self._loaded(stored)

    async def act(
        self,
        channel_id: int,
        user_id: int,
        key: str,
        expected_version: int | None,
        *,
        game_pk: int | None = None,
    ) -> ActResult:
        """Apply one player's action in one transaction: check the game number and version, apply,
        log, store, queue the board and read back the log lines the board shows."""
        async with self.store.transaction() as db:
            stored = await self._open(db, channel_id)
            if game_pk is not None and stored.record.pk != game_pk:
                raise StaleActionError(STALE_MESSAGE)  # a component left over from an earlier game
            before = self._loaded(stored)
            seat = self._acting_seat(before, user_id, expected_version)
            return await self.act_in(db, before, seat, key, user_id)

    def preview(self, before: LoadedGame, user_id: int, key: str) -> tuple[LoadedGame, int]:
        """The game as `user_id` playing `key` would leave it, and their seat; nothing is stored
        (the bot draws the pictures ahead while the click is acknowledged). Raises like act."""
        seat = self._acting_seat(before, user_id, before.record.version)
        transition, _ = self._apply(before, seat, key)
        return dataclasses.replace(before, state=transition.state), seat

    async def act_in(
        self, db: Any, before: LoadedGame, seat: int, key: str, user_id: int | None
    ) -> ActResult:
        """Apply, log and store one move inside the caller's transaction (user None: the bot),
        queue its board in the outbox and read back the log lines the board shows."""
        transition, action = self._apply(before, seat, key)
        await repo.insert_action(
            db,
            before.record.pk,
            seat=seat,
            action=action.model_dump(mode="json"),
            user_id=user_id,
            events=[with_names(event, before.names) for event in transition.events],
            now=self.clock(),
        )
        after = await self._commit_state(db, before, transition.state)
        events = tuple(transition.events)
        queued = await self._queue_board(db, before.active_seats, after, events)
        lines = await self._move_lines(db, before, after, events)
        finished = after.outcome is not None
        previous = before.active_seats
        return ActResult(after, events, seat, previous, finished, lines, queued, action.label)

    def _apply(self, before: LoadedGame, seat: int, key: str) -> tuple[Any, Action]:
        """The transition and the action, checking legality once (the cached legal actions)."""
        game, state = before.game, before.state
        legal = before.legal_actions(seat)
        action = next((a for a in legal if a.key == key), None)
        if action is None:
            action = game.resolve(state, seat, key)  # raises with the engine's reason
        vouch = getattr(game, "vouch", None)
        if vouch is not None:
            vouch(state, seat, legal)  # apply() need not recompute what we just checked
        return game.apply(state, seat, action), action

    async def _queue_board(
        self,
        db: Any,
        previous_active: tuple[int, ...],
        after: LoadedGame,
        events: tuple[Event, ...],
    ) -> Announcement:
        """Record in this transaction that the game's board must be posted (the outbox)."""
        finished = after.outcome is not None
        new_board, ping = plan_board(
            previous_active=previous_active,
            active=after.active_seats,
            seats=len(after.seats),
            milestone=any(e.kind in after.game.milestone_kinds for e in events),
            finished=finished,
        )
        pk = after.record.pk
        fresh = Announcement(pk, after.record.version, new_board, ping)
        old = await outbox.fetch(db, pk)
        queued = merge(old, fresh, active=after.active_seats, finished=finished)
        await outbox.put(db, queued, self.clock())
        return queued

    async def _board_lines(
        self, db: Any, game_pk: int, seats: Sequence[SeatRecord]
    ) -> tuple[str, ...]:
        """The public log lines the board shows (as `story` tells them), in this transaction."""
        raw = await repo.fetch_recent_events(db, game_pk, BOARD_LINES * 4)
        return tuple(told(raw, seats, None, BOARD_LINES))

    async def _move_lines(
        self, db: Any, before: LoadedGame, after: LoadedGame, events: tuple[Event, ...]
    ) -> tuple[str, ...]:
        """The board's log lines after a move: the log kept from the game's previous move here
        plus this move's events, or read back when another process (or path) moved last."""
        kept = self.board_logs.entries(before.record)
        if kept is None:  # this move's events are already written: the read includes them
            raw = await repo.fetch_recent_events(db, before.record.pk, BOARD_LINES * 4)
            entries = tuple(public_entry(item) for item in raw)
        else:
            # this move's events, as stored: with the names of the seat holders now
            new = tuple((e.kind, e.line_for(None), before.names) for e in events)
            entries = (kept + new)[-BOARD_LINES * 4 :]
        self.board_logs.keep(after.record, entries)
        return tuple(told_entries(entries, after.seats, BOARD_LINES))

    async def board_delivered(
        self, announcement: Announcement, board_id: int | None, live_id: int | None
    ) -> None:
        """One write after Discord accepted a board: clear its outbox row, record message ids.

        Not waited onto the disk: after a power cut the row is delivered again, and a board that
        was posted is found in the channel's history instead of being posted twice.
        """
        async with self.store.transaction(durable=False) as db:
            await outbox.clear(db, announcement.game_pk, announcement.version)
            if board_id is not None:
                await outbox.set_messages(db, announcement.game_pk, board_id, live_id)

    async def board_reposted(self, game_pk: int, board_id: int, live_id: int | None) -> None:
        """Record a re-posted board (status, resume) as the latest and live one (bookkeeping:
        not waited onto the disk, like `board_delivered`)."""
        async with self.store.transaction(durable=False) as db:
            await outbox.set_messages(db, game_pk, board_id, live_id)

    async def pending_boards(self) -> list[int]:
        """Games whose board is still to be posted (after a crash or a Discord failure)."""
        async with self.store.reading() as db:
            return await outbox.pending(db)

    async def pending_board(self, game_pk: int) -> PendingBoard | None:
        """A game's undelivered board with the game as it is now; None when nothing is owed.

        A board owed for a game that was abandoned meanwhile is dropped, not posted.
        """
        async with self.store.transaction() as db:
            queued = await outbox.fetch(db, game_pk)
            if queued is None:
                return None
            stored = await repo.fetch_game(db, game_pk)
            if stored is None or stored.record.status in ("lobby", "abandoned"):
                await outbox.drop(db, game_pk)
                return None
            lines = await self._board_lines(db, game_pk, stored.seats)
        return PendingBoard(queued, self._loaded(stored), lines)

    async def load_in(self, db: Any, game_pk: int) -> LoadedGame | None:
        """A game by primary key inside the caller's transaction."""
        stored = await repo.fetch_game(db, game_pk)
        return None if stored is None else self._loaded(stored)

    def seat_of(self, loaded: LoadedGame, user_id: int) -> int | None:
        """The seat this user holds in the game, if any."""
        return _seat(loaded.seats, user_id)

    async def recent_events(
        self, channel_id: int, viewer_seat: int | None, limit: int = 15
    ) -> list[str]:
        """The last log lines this viewer may read, oldest first (seat placeholders unfilled).

        After a game ends its log stays readable here until the next game starts.
        """
        async with self.store.reading() as db:
            stored = await repo.fetch_latest_game(db, channel_id)
            if stored is None:
                raise NoGameHereError()
            raw = await repo.fetch_recent_events(db, stored.record.pk, limit)
        return [stored_event(event)[0].line_for(viewer_seat) for event in raw]

    async def story(self, channel_id: int, viewer_seat: int | None, limit: int = 12) -> list[str]:
        """The log as the board tells it: the last `limit` lines after routine ones collapse.

        Each line names the players who held the seats when it happened (after `/admin replace`
        too); lines stored before names were kept use today's names.
        """
        async with self.store.reading() as db:
            stored = await repo.fetch_latest_game(db, channel_id)
            if stored is None:
                raise NoGameHereError()
            raw = await repo.fetch_recent_events(db, stored.record.pk, limit * 4)
        return told(raw, stored.seats, viewer_seat, limit)

    async def games_for_user(self, guild_id: int, user_id: int) -> list[LoadedGame]:
        """Lobby and running games on this server where the user has a seat (damaged ones left
        out: see `user_games`)."""
        return (await self.user_games(guild_id, user_id))[0]

    async def user_games(
        self, guild_id: int, user_id: int
    ) -> tuple[list[LoadedGame], list[DamagedGameError]]:
        """The user's open games on this server: the readable ones, and the damaged ones."""
        async with self.store.reading() as db:
            stored = await repo.fetch_user_games(db, guild_id, user_id)
        games: list[LoadedGame] = []
        damaged: list[DamagedGameError] = []
        for one in stored:
            try:
                games.append(self._loaded(one))
            except DamagedGameError as exc:
                damaged.append(exc)
        return games, damaged

    async def abandon_damaged(self, channel_id: int, user_id: int) -> DamagedGameError:
        """Admin: close the channel's open game without decoding it (it is damaged)."""
        async with self.store.transaction() as db:
            stored = await self._open(db, channel_id)
            try:
                self._loaded(stored)
            except DamagedGameError as damaged:
                await repo.set_status(db, stored.record.pk, "abandoned", self.clock())
                await outbox.drop(db, stored.record.pk)
                log.info("Damaged game %s abandoned by user %s", stored.record.pk, user_id)
                return damaged
        raise NotAllowedError("This game is not damaged — use /admin abandon.")

    async def export_raw(
        self, channel_id: int, game_pk: int | None = None, guild_id: int | None = None
    ) -> dict[str, Any]:
        """A game exactly as stored, chosen like `export` (for a damaged game that cannot
        decode)."""
        async with self.store.reading() as db:
            stored = await self._target(db, channel_id, game_pk, guild_id)
            return await raw_rows(db, stored.record.pk)

    async def set_board_message(self, game_pk: int, message_id: int) -> None:
        """Remember the message that shows the latest board."""
        async with self.store.transaction() as db:
            await repo.set_board_message(db, game_pk, message_id)

    async def set_live_message(self, game_pk: int, message_id: int | None) -> None:
        """Remember (or clear) the live prompt message of the current turn."""
        async with self.store.transaction() as db:
            await repo.set_live_message(db, game_pk, message_id)

    async def abandon(self, channel_id: int, user_id: int, is_admin: bool) -> LoadedGame:
        """Close the game: the creator may close a lobby, an admin any game."""
        async with self.store.transaction() as db:
            stored = await self._open(db, channel_id)
            if not is_admin and user_id != stored.record.creator_id:
                raise NotAllowedError("Only the player who opened the game or an admin can end it.")
            if not is_admin and stored.record.status == "running":
                raise NotAllowedError("The game has started — only an admin can abandon it now.")
            await repo.set_status(db, stored.record.pk, "abandoned", self.clock())
            await outbox.drop(db, stored.record.pk)  # a closed game's board is not posted any more
            log.info("Game %s abandoned by user %s (admin=%s)", stored.record.pk, user_id, is_admin)
            return await self._reload(db, stored.record.pk)

    async def replace(
        self, channel_id: int, old_user_id: int | None, new_user_id: int, new_name: str
    ) -> LoadedGame:
        """Seat another user in place of a player (their seat, hand and turn carry over)."""
        async with self.store.transaction() as db:
            stored = await self._open(db, channel_id)
            seat = _seat(stored.seats, old_user_id)
            if seat is None:
                raise NotInGameError("That player is not in this game.")
            if _seat(stored.seats, new_user_id) is not None:
                raise AlreadyJoinedError("The new player already has a seat in this game.")
            record = stored.record
            creator = new_user_id if record.creator_id == old_user_id else record.creator_id
            seat_record = SeatRecord(seat, new_user_id, new_name)
            await repo.update_seat(db, record.pk, seat_record, creator, self.clock())
            log.info(
                "Game %s seat %s: user %s replaced by %s", record.pk, seat, old_user_id, new_user_id
            )
            return await self._reload(db, record.pk)

    async def undo(self, channel_id: int) -> ActResult:
        """Take back the last move if it revealed nothing and drew nothing at random."""
        async with self.store.transaction() as db:
            current = self._loaded(_started(await self._open(db, channel_id)))
            pk = current.record.pk
            actions = await repo.fetch_actions(db, pk)
            if not actions:
                raise UndoRefusedError("There is nothing to undo — nobody has moved yet.")
            last = actions[-1]
            refuse_revealing(await repo.fetch_events(db, pk, last.seq))
            previous = self._replay(current, actions[:-1])
            if rng_draws(previous) != rng_draws(current.state):
                raise UndoRefusedError(
                    "The last move used a random draw, so taking it back would change the game."
                )
            await repo.insert_undo(db, pk, undoes=last.seq, user_id=None, now=self.clock())
            log.info("Game %s: move %s (%s) undone", pk, last.seq, last.key)
            after = await self._commit_state(db, current, previous)
            queued = await self._queue_board(db, (), after, ())
            lines = await self._board_lines(db, pk, current.seats)
        finished = after.outcome is not None
        return ActResult(after, (), last.seat, current.active_seats, finished, lines, queued)

    async def verify(
        self, channel_id: int, game_pk: int | None = None, guild_id: int | None = None
    ) -> VerifyReport:
        """Replay seed + action log and compare the result with the stored snapshot."""
        async with self.store.reading() as db:
            stored = await self._target(db, channel_id, game_pk, guild_id)
            current = self._loaded(_started(stored))
            actions = await repo.fetch_actions(db, current.record.pk)
        try:
            replayed = replay(current.game, current.record, len(current.seats), actions)
        except (RulesError, ValueError) as exc:
            return VerifyReport(False, len(actions), f"The log does not replay: {exc}")
        diffs = differences(
            current.game.dump_state(current.state), current.game.dump_state(replayed)
        )
        if diffs:
            moves = plural(len(actions), "move")
            detail = f"Replaying {moves} differs from the snapshot at {diffs[0]}."
            return VerifyReport(False, len(actions), detail, tuple(diffs))
        replayed = f"{plural(len(actions), 'move')} replay to the snapshot."
        return VerifyReport(True, len(actions), replayed)

    async def export(
        self,
        channel_id: int,
        game_pk: int | None = None,
        guild_id: int | None = None,
        *,
        asked_by: int | None = None,
    ) -> dict[str, Any]:
        """A JSON-ready replay: game, options, seed, seats and the moves in force. Refused to
        `asked_by` while they play in the game: its seed would show them every hidden card."""
        async with self.store.reading() as db:
            stored = await self._target(db, channel_id, game_pk, guild_id)
            actions = await repo.fetch_actions(db, stored.record.pk)
        seated = asked_by is not None and _seat(stored.seats, asked_by) is not None
        if seated and stored.record.status in repo.OPEN_STATUSES:
            raise NotAllowedError(SEATED_EXPORT.format(pk=stored.record.pk))
        loaded = self._loaded(stored)
        outcome = loaded.outcome
        record = loaded.record
        return {
            "format": "hangar-replay/1",
            "game": {
                "pk": record.pk,
                "id": record.game_id,
                "title": loaded.game.title,
                "status": record.status,
                "version": record.version,
                "guild_id": record.guild_id,
                "channel_id": record.channel_id,
                "created_at": record.created_at,
            },
            "options": record.options,
            "seed": record.seed,
            "seats": [dataclasses.asdict(seat) for seat in loaded.seats],
            "actions": [exported(action) for action in actions],
            "outcome": outcome.model_dump(mode="json") if outcome is not None else None,
        }

    def _engine(self, game_id: str) -> Game:
        """The engine for a game id, or UnknownGameError naming the known ones."""
        try:
            return self.games[game_id]
        except KeyError:
            known = ", ".join(self.games) or "none"
            raise UnknownGameError(f"Unknown game {game_id!r} (known: {known}).") from None

    def decode(self, stored: StoredGame) -> LoadedGame:
        """A stored game decoded (DamagedGameError when it cannot be)."""
        return self._loaded(stored)

    def _loaded(self, stored: StoredGame) -> LoadedGame:
        """Decode a stored game through its engine (upgrading old snapshots).

        A row that cannot be decoded raises DamagedGameError naming the game, so that one bad
        row blocks neither its channel's admin tools nor anybody's other games.
        """
        record = stored.record
        game = self.games.get(record.game_id)
        what = game.title if game is not None else repr(record.game_id)
        if stored.damage is not None:
            raise DamagedGameError(record.pk, record.channel_id, what, stored.damage)
        if game is None:
            raise DamagedGameError(record.pk, record.channel_id, what, "that game is unknown")
        if stored.snapshot is None and record.status in ("running", "finished"):
            raise DamagedGameError(record.pk, record.channel_id, what, "its saved state is missing")
        try:
            _options(game, record)
        except (ValueError, TypeError) as exc:
            log.warning("Game %s: bad options: %s", record.pk, exc)
            reason = "its options are invalid"
            raise DamagedGameError(record.pk, record.channel_id, what, reason) from None
        try:
            state = None if stored.snapshot is None else game.load_state(stored.snapshot)
        except (ValueError, TypeError, KeyError, AttributeError, RulesError) as exc:
            log.warning("Game %s: unreadable snapshot: %s", record.pk, exc)
            reason = "its saved state does not match the game's format"
            raise DamagedGameError(record.pk, record.channel_id, what, reason) from None
        return LoadedGame(record, stored.seats, state, game, self.legal_cache)

    def _replay(self, current: LoadedGame, actions: list[ActionRecord]) -> Any:
        """Replay for undo; a log that no longer replays is a refusal, not a crash."""
        try:
            return replay(current.game, current.record, len(current.seats), actions)
        except (RulesError, ValueError) as exc:
            raise UndoRefusedError(f"The log does not replay ({exc}) — run /admin verify.") from exc

    async def _open(self, db: Any, channel_id: int) -> StoredGame:
        """The open game in this channel, or NoGameHereError."""
        stored = await repo.fetch_open_game(db, channel_id)
        if stored is None:
            raise NoGameHereError()
        return stored

    async def _latest(self, db: Any, channel_id: int) -> StoredGame:
        """The open game here, else the last finished one; an abandoned one counts as none."""
        stored = await repo.fetch_latest_game(db, channel_id)
        if stored is None or stored.record.status == "abandoned":
            raise NoGameHereError()
        return stored

    async def _target(
        self, db: Any, channel_id: int, game_pk: int | None, guild_id: int | None
    ) -> StoredGame:
        """Game #game_pk of this server when given, else this channel's latest game."""
        if game_pk is None:
            return await self._latest(db, channel_id)
        stored = await repo.fetch_game(db, game_pk)
        if stored is None or stored.record.guild_id != guild_id:
            raise NoGameHereError(f"There is no game #{game_pk} on this server.")
        return stored

    async def _reload(self, db: Any, pk: int) -> LoadedGame:
        """Read a game back inside the current transaction."""
        stored = await repo.fetch_game(db, pk)
        assert stored is not None, "a game row vanished inside its own transaction"
        return self._loaded(stored)

    def _acting_seat(self, loaded: LoadedGame, user_id: int, expected: int | None) -> int:
        """The user's seat, after the checks every move passes before the rules see it."""
        _check_started(loaded.record)
        seat = _seat(loaded.seats, user_id)
        if seat is None:
            raise NotInGameError()
        if expected is not None and expected != loaded.record.version:
            raise StaleActionError(STALE_MESSAGE)
        active = loaded.active_seats
        if seat not in active:
            raise NotYourTurnError(turn_message(active))
        return seat

    async def _commit_state(self, db: Any, before: LoadedGame, state: Any) -> LoadedGame:
        """Write the new snapshot if the version is still ours; lose the race → StaleActionError."""
        game, version, now = before.game, before.record.version, self.clock()
        status: repo.Status = "finished" if game.outcome(state) is not None else "running"
        snapshot = game.dump_state(state)
        kept = await repo.update_snapshot(
            db,
            before.record.pk,
            expected_version=version,
            snapshot=snapshot,
            status=status,
            now=now,
        )
        if not kept:
            raise StaleActionError(STALE_MESSAGE)
        record = dataclasses.replace(
            before.record, version=version + 1, status=status, updated_at=now
        )
        if status == "finished":  # history, stats and ratings (same transaction)
            await record_finished(db, record, game, state, now)
        after = LoadedGame(record, before.seats, state, game, self.legal_cache)
        for hook in self.commit_hooks:
            await hook(db, after)
        return after


def told(
    raw: list[dict[str, Any]], seats: Sequence[SeatRecord], viewer_seat: int | None, limit: int
) -> list[str]:
    """The log as the board tells it: routine runs collapsed, the seat holders' names put in."""
    return told_entries([public_entry(item, viewer_seat) for item in raw], seats, limit)


def public_entry(item: dict[str, Any], viewer_seat: int | None = None) -> Entry:
    """A stored event as `viewer_seat` reads it (None: everyone), with the names of then."""
    event, names = stored_event(item)
    return event.kind, event.line_for(viewer_seat), names


def told_entries(entries: Sequence[Entry], seats: Sequence[SeatRecord], limit: int) -> list[str]:
    """Log entries as the board tells them (see `told`)."""
    today = tuple(s.name for s in seats)
    # Collapse runs told with the same seat holders, then put in those holders' names.
    runs: list[tuple[tuple[str, ...], list[tuple[str, str]]]] = []
    for kind, text, names in entries:
        if runs and runs[-1][0] == (names or today):
            runs[-1][1].append((kind, text))
        else:
            runs.append((names or today, [(kind, text)]))
    lines = [(line, names) for names, run in runs for line in collapse(run)][-limit:]
    return [fill_names(line, names) for line, names in lines]


def _seat(seats: Sequence[SeatRecord], user_id: int | None) -> int | None:
    """The seat number of `user_id`, if seated."""
    return next((s.seat for s in seats if s.user_id == user_id), None)


def _busy(game: Game) -> ChannelBusyError:
    """The refusal for a second game in one channel."""
    return ChannelBusyError(
        f"This channel already has a {game.title} game — finish or abandon it first "
        "(or start a thread for another game)."
    )


def _in_lobby(stored: StoredGame, what: str) -> StoredGame:
    """Refuse lobby operations once the game has started."""
    if stored.record.status != "lobby":
        raise AlreadyStartedError(f"The game has already started — you can't {what} now.")
    return stored


def _started(stored: StoredGame) -> StoredGame:
    """Refuse game operations while the game is still a lobby."""
    _check_started(stored.record)
    return stored


def _check_started(record: GameRecord) -> None:
    """Raise NotStartedError for a lobby."""
    if record.status == "lobby":
        raise NotStartedError(messages.NOT_STARTED)


def _validated_options(game: Game, options: dict[str, Any] | None) -> dict[str, Any]:
    """Options checked against the game's model and a dry set-up, with defaults filled in."""
    return validated_options(game, options)


def _new_game(game: Game, record: GameRecord, players: int) -> Any:
    """Deal the game; options that cannot set it up (e.g. a missing data file) are a refusal."""
    try:
        return game.new_game(record.seed, players, _options(game, record))
    except RulesError:
        raise
    except (OSError, ValueError) as exc:
        log.warning("Game %s cannot start with its options: %s", record.pk, exc)
        raise InvalidOptionsError(
            f"Invalid options for {game.title}: the game cannot be set up with them "
            "(check file names and values), so it was not started."
        ) from None


def _options(game: Game, record: GameRecord) -> Any:
    """The stored options as the game's Options model."""
    return game.Options.model_validate(record.options)


def _check_player_count(game: Game, players: int) -> None:
    """Refuse to start with too few (or, after data edits, too many) players."""
    if players < game.min_players:
        raise InvalidOptionsError(
            f"{game.title} needs at least {game.min_players} players — {players} seated so far."
        )
    if players > game.max_players:
        raise InvalidOptionsError(f"{game.title} takes at most {game.max_players} players.")
