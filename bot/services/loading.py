"""Loading games: decoding a stored row through its engine, and the checks every move passes."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.lru import Lru
from bot.services.errors import DamagedGameError, NoGameHereError, NotInGameError, NotStartedError
from bot.store import repository as repo
from bot.store.cursor import Db
from bot.store.outbox import Announcement
from bot.store.repository import GameRecord, SeatRecord, StoredGame
from rules.core import (
    Action,
    Event,
    Game,
    NotYourTurnError,
    Outcome,
    RulesError,
    StaleActionError,
    UnknownGameError,
    messages,
    seat_ref,
)
from rules.core.errors import said

log = logging.getLogger(__name__)

STALE_MESSAGE = messages.STALE
# Games whose state, log and choices a process keeps between moves: a channel where moves follow
# each other is among the last 64 that played; one whose next move is hours away reads them back
# then (~1 ms). Each cache kept per game is sized from it (issue 29: memory flat however many
# channels play).
BUSY_GAMES = 64


class LegalCache(Lru[tuple[int, int], tuple[int, tuple[Action, ...]]]):
    """legal_actions per (game, version, seat): a stored version never changes, so one engine call
    serves the board's buttons, the next click's legality check and the hand panel.

    Only each (game, seat)'s latest version is kept: a move needs the version it acts on, and
    keeping 1,024 past versions of a few games grew memory with every move (issue 29). Two seats
    for each of the BUSY_GAMES: a First in Flight seat's choices are up to ~30 KiB, and 256 of
    them grew a bot serving many channels until ~150 of them had played, for channels whose next
    move is hours away (it is then computed again, once). An ended game's seats are forgotten at
    once (`forget_game`)."""

    def __init__(self, size: int = 2 * BUSY_GAMES) -> None:
        super().__init__(size)

    def forget_game(self, game: int, seats: Iterable[int]) -> None:
        """Drop what is kept of `game`'s seats (it ended: nothing is legal any more)."""
        for seat in seats:
            self.forget((game, seat))

    def get_or_compute(
        self, key: tuple[int, int, int], compute: Callable[[], list[Action]]
    ) -> tuple[Action, ...]:
        """The cached actions for `key` (game, version, seat), computing them once."""
        game, version, seat = key
        found = self.get((game, seat))
        if found is not None and found[0] == version:
            return found[1]
        actions = tuple(compute())
        self.put((game, seat), (version, actions))
        return actions


class ViewCache(Lru[tuple[int, int | None], tuple[Any, Any]]):
    """Views by (state object, viewer): a move's public board was built three times from the
    same state object (drawn before COMMIT, asked for again by the board message, its alt text),
    the largest part of a First in Flight move's own CPU (issue 29, target 6). States and views
    are frozen and `Game.view` is pure, so one view serves every caller of the same state; each
    entry keeps its state alive, so an id is never reused while it is cached; a move needs only
    its last few, so few are kept (memory, issue 29)."""

    def __init__(self, size: int = 16) -> None:
        super().__init__(size)

    def view(self, game: Game, state: Any, viewer: int | None) -> Any:
        """`game.view(state, viewer)`, built once per state object and viewer."""
        key = (id(state), viewer)
        found = self.get(key)
        if found is not None and found[0] is state:
            return found[1]
        view = game.view(state, viewer)
        self.put(key, (state, view))
        return view


VIEWS = ViewCache()


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

    def view(self, viewer: int | None) -> Any:
        """What `viewer` sees (None: the public), built once per state (ViewCache)."""
        return VIEWS.view(self.game, self.state, viewer)

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
    labels: tuple[str, ...] = ()  # every move of the change, in order (a timeout plays a turn)


class Decoder:
    """Engines by game id, and stored rows decoded through them (with one legal-actions cache)."""

    def __init__(self, games: Mapping[str, Game]) -> None:
        self.games = games
        self.legal_cache = LegalCache()

    def engine(self, game_id: str) -> Game:
        """The engine for a game id, or UnknownGameError naming the known ones."""
        try:
            return self.games[game_id]
        except KeyError:
            known = ", ".join(self.games) or "none"
            raise UnknownGameError(
                said("Unknown game {game} (known: {known}).", game=repr(game_id), known=known)
            ) from None

    def decode(self, stored: StoredGame) -> LoadedGame:
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
            raise DamagedGameError(record.pk, record.channel_id, what, said("that game is unknown"))
        if stored.snapshot is None and record.status in ("running", "finished"):
            raise DamagedGameError(
                record.pk, record.channel_id, what, said("its saved state is missing")
            )
        try:
            game.Options.model_validate(record.options)
        except (ValueError, TypeError) as exc:
            log.warning("Game %s: bad options: %s", record.pk, exc)
            reason = said("its options are invalid")
            raise DamagedGameError(record.pk, record.channel_id, what, reason) from None
        try:
            state = None if stored.snapshot is None else game.load_state(stored.snapshot)
        except (ValueError, TypeError, KeyError, AttributeError, RulesError) as exc:
            log.warning("Game %s: unreadable snapshot: %s", record.pk, exc)
            reason = said("its saved state does not match the game's format")
            raise DamagedGameError(record.pk, record.channel_id, what, reason) from None
        return LoadedGame(record, stored.seats, state, game, self.legal_cache)

    async def load_in(self, db: Db, game_pk: int) -> LoadedGame | None:
        """A game by key, read inside the caller's transaction (None if there is none)."""
        stored = await repo.fetch_game(db, game_pk)
        return None if stored is None else self.decode(stored)

    async def reload(self, db: Db, game_pk: int) -> LoadedGame:
        """A game read back inside the transaction that just wrote it."""
        loaded = await self.load_in(db, game_pk)
        assert loaded is not None, "a game row vanished inside its own transaction"
        return loaded


async def open_game(db: Db, channel_id: int) -> StoredGame:
    """The open game in this channel, or NoGameHereError."""
    stored = await repo.fetch_open_game(db, channel_id)
    if stored is None:
        raise NoGameHereError()
    return stored


async def held_open_game(db: Db, channel_id: int) -> StoredGame:
    """The open game in this channel, read after taking its lock (NoGameHereError if none).

    On PostgreSQL each statement sees what was committed before it began, so the game read
    after the lock is the one the previous lock holder left.
    """
    for _ in range(3):  # the channel's game may close and another open while we wait
        pk = await repo.lock_open_game(db, channel_id)
        if pk is None:
            break
        stored = await repo.fetch_open_game(db, channel_id)
        if stored is not None and stored.record.pk == pk:
            return stored
    raise NoGameHereError()


def seat_of(seats: Sequence[SeatRecord], user_id: int | None) -> int | None:
    """The seat number of `user_id`, if seated."""
    return next((s.seat for s in seats if s.user_id == user_id), None)


def check_started(record: GameRecord) -> None:
    """Raise NotStartedError for a lobby."""
    if record.status == "lobby":
        raise NotStartedError(messages.NOT_STARTED)


def turn_message(active: Sequence[int]) -> str:
    """'Not your turn — it is {seat1}'s turn.' with seat placeholders the bot fills in."""
    refs = [seat_ref(seat) for seat in active]
    if not refs:
        return messages.GAME_OVER
    return messages.not_your_turn(messages.join_names(refs))


def acting_seat(loaded: LoadedGame, user_id: int, expected: int | None) -> int:
    """The user's seat, after the checks every move passes before the rules see it."""
    check_started(loaded.record)
    seat = seat_of(loaded.seats, user_id)
    if seat is None:
        raise NotInGameError()
    if expected is not None and expected != loaded.record.version:
        raise StaleActionError(STALE_MESSAGE)
    active = loaded.active_seats
    if seat not in active:
        raise NotYourTurnError(turn_message(active))
    return seat
