"""Boards: the outbox row a change queues, the log lines a board shows, and their bookkeeping."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n import ENGLISH, say
from bot.lru import Lru
from bot.services.announce import SUMMARY_CHARS, cut_at_word, merge, plan_board
from bot.services.errors import NoGameHereError
from bot.services.loading import BUSY_GAMES, Decoder, LoadedGame
from bot.services.replay import stored_event
from bot.store import Store, outbox
from bot.store import repository as repo
from bot.store.cursor import Db
from bot.store.locks import Lock
from bot.store.outbox import Announcement
from bot.store.repository import GameRecord, SeatRecord
from rules.core import Event, fill_names
from rules.core.errors import said
from rules.core.log import collapse

# Log lines shown on a board (the presenter shows at most this many).
BOARD_LINES = 12
# Events of one turn read for its summary (a long turn is told by its newest ones).
TURN_EVENTS = 40
# The line of a turn that left nothing in the public log (never expected: every move is told).
QUIET_TURN = said("The game went on below.")


# A public log entry: kind, text (a Said keeps its parts: told in any language), names then.
Entry = tuple[str, str, tuple[str, ...] | None]


@dataclass(frozen=True)
class KeptLog:
    """A game's recent public log entries as of one committed state (version and time)."""

    version: int
    updated_at: float
    entries: tuple[Entry, ...]


class BoardLogs(Lru[int, KeptLog]):
    """The board's recent log per game, as this process last wrote it: the next move appends its
    own events instead of reading back and decoding ~50 stored events (issue 14), for the
    BUSY_GAMES (128 filled until ~150 channels had played)."""

    def __init__(self, size: int = BUSY_GAMES) -> None:
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


class Story(tuple[str, ...]):
    """A board's log lines in English, keeping the entries they were told from, so the edge can
    tell them in the server's language without reading the log again (`lines_in`)."""

    entries: tuple[Entry, ...]
    seats: tuple[SeatRecord, ...]
    limit: int

    def __new__(cls, entries: Sequence[Entry], seats: Sequence[SeatRecord], limit: int) -> Story:
        """The English lines of `entries` (the board's own words until a language is asked)."""
        made = super().__new__(cls, told_entries(entries, seats, limit))
        made.entries, made.seats, made.limit = tuple(entries), tuple(seats), limit
        return made

    def told(self, language: str) -> list[str]:
        """The same lines in `language` (each entry translated before runs are folded)."""
        if language == ENGLISH:
            return list(self)
        return told_entries(self.entries, self.seats, self.limit, language)


def lines_in(lines: Sequence[str], language: str) -> list[str]:
    """Board lines in `language`: a `Story` is told again; other lines are as they came."""
    return lines.told(language) if isinstance(lines, Story) else list(lines)


@dataclass(frozen=True)
class PendingBoard:
    """An undelivered announcement with the game as it is now and its latest log lines."""

    announcement: Announcement
    loaded: LoadedGame
    lines: tuple[str, ...]  # a Story: English, and any language through `lines_in`


def told(
    raw: list[dict[str, Any]],
    seats: Sequence[SeatRecord],
    viewer_seat: int | None,
    limit: int,
    language: str = ENGLISH,
) -> list[str]:
    """The log as the board tells it in `language`: routine runs collapsed, the seat holders'
    names put in."""
    return told_entries([public_entry(item, viewer_seat) for item in raw], seats, limit, language)


def public_entry(item: dict[str, Any], viewer_seat: int | None = None) -> Entry:
    """A stored event as `viewer_seat` reads it (None: everyone), with the names of then."""
    event, names = stored_event(item)
    return event.kind, event.line_for(viewer_seat), names


def told_entries(
    entries: Sequence[Entry], seats: Sequence[SeatRecord], limit: int, language: str = ENGLISH
) -> list[str]:
    """Log entries as the board tells them in `language` (see `told`).

    Each entry is translated before runs are folded: outside English, folding keeps whole
    sentences (joining predicates with "and" is English grammar). Names go in last.
    """
    today = tuple(s.name for s in seats)
    english = language == ENGLISH
    # Collapse runs told with the same seat holders, then put in those holders' names.
    runs: list[tuple[tuple[str, ...], list[tuple[str, str]]]] = []
    for kind, text, names in entries:
        said = str(say(language, text))
        if runs and runs[-1][0] == (names or today):
            runs[-1][1].append((kind, said))
        else:
            runs.append((names or today, [(kind, said)]))
    folded = [(line, names) for names, run in runs for line in collapse(run, english=english)]
    return [fill_names(line, names) for line, names in folded[-limit:]]


def turn_line(
    lines: Sequence[str], names: Sequence[str], limit: int = SUMMARY_CHARS, language: str = ENGLISH
) -> str:
    """A turn's told lines as one line: a player named once for a run of their own lines
    ("bob played Aisle seat: …; ended their turn and drew a card."), cut at a word."""
    parts: list[str] = []
    speaker: str | None = None
    longest_first = sorted(names, key=len, reverse=True)  # "bob" must not cut "bobby"
    for line in lines:
        text = line.strip().rstrip(".")
        who = next((n for n in longest_first if text.startswith(n + " ")), None)
        if who is not None and who == speaker:
            text = text[len(who) + 1 :]
        speaker = who
        parts.append(text)
    told = "; ".join(p for p in parts if p)
    if not told:
        return str(say(language, QUIET_TURN))
    return cut_at_word(told if told.endswith(("!", "?")) else told + ".", limit)


async def queue_board(
    db: Db,
    previous_active: tuple[int, ...],
    after: LoadedGame,
    events: tuple[Event, ...],
    now: float,
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
    # The turn that just ended, told now: the board before the new one shrinks to this line.
    summary = await turn_summary(db, pk, after.seats) if new_board else ""
    fresh = Announcement(pk, after.record.version, new_board, ping, summary)
    old = await outbox.fetch(db, pk)
    queued = merge(old, fresh, active=after.active_seats, finished=finished)
    await outbox.put(db, queued, now)
    return queued


async def turn_summary(db: Db, game_pk: int, seats: Sequence[SeatRecord]) -> str:
    """The latest turn (the moves since another seat last moved) told in one line; '' before
    any move."""
    raw = await repo.fetch_turn_events(db, game_pk, TURN_EVENTS)
    return turn_line(told(raw, seats, None, TURN_EVENTS), [s.name for s in seats]) if raw else ""


async def board_lines(db: Db, game_pk: int, seats: Sequence[SeatRecord]) -> Story:
    """The public log lines the board shows (as `story` tells them), in this transaction."""
    raw = await repo.fetch_recent_events(db, game_pk, BOARD_LINES * 4)
    return Story([public_entry(item) for item in raw], seats, BOARD_LINES)


async def move_lines(
    logs: BoardLogs, db: Db, before: LoadedGame, after: LoadedGame, events: tuple[Event, ...]
) -> tuple[str, ...]:
    """The board's log lines after a move: the log kept from the game's previous move here
    plus this move's events, or read back when another process (or path) moved last."""
    kept = logs.entries(before.record)
    if kept is None:  # this move's events are already written: the read includes them
        raw = await repo.fetch_recent_events(db, before.record.pk, BOARD_LINES * 4)
        entries = tuple(public_entry(item) for item in raw)
    else:
        # this move's events, as stored: with the names of the seat holders now
        new = tuple((e.kind, e.line_for(None), before.names) for e in events)
        entries = (kept + new)[-BOARD_LINES * 4 :]
    if after.outcome is None:
        logs.keep(after.record, entries)  # Said texts: the kept log serves every language
    else:  # nothing is appended to an ended game's log: its entries would only wait for eviction
        logs.forget(after.record.pk)
    return Story(entries, after.seats, BOARD_LINES)


class Boards:
    """What the outbox still owes, what was delivered, and the log a board or `/game log` tells."""

    def __init__(self, store: Store, decoder: Decoder, clock: Callable[[], float]) -> None:
        self.store = store
        self.decoder = decoder
        self.clock = clock

    async def delivered(
        self, announcement: Announcement, board_id: int | None, live_id: int | None
    ) -> None:
        """One write after Discord accepted a board: clear its outbox row, record message ids.

        Not waited onto the disk: after a power cut the row is delivered again, and a board that
        was posted is found in the channel's history instead of being posted twice. Each
        statement touches one game's rows on its own, so no game lock is needed.
        """
        async with self.store.transaction(durable=False, lock=Lock.NONE) as db:
            await outbox.clear(db, announcement.game_pk, announcement.version)
            if board_id is not None:
                await outbox.set_messages(db, announcement.game_pk, board_id, live_id)

    async def reposted(self, game_pk: int, board_id: int, live_id: int | None) -> None:
        """Record a re-posted board (status, resume) as the latest and live one (bookkeeping:
        not waited onto the disk, like `delivered`)."""
        async with self.store.transaction(durable=False, lock=Lock.NONE) as db:
            await outbox.set_messages(db, game_pk, board_id, live_id)

    async def pending(self) -> list[int]:
        """Games whose board is still to be posted (after a crash or a Discord failure)."""
        async with self.store.reading() as db:
            return await outbox.pending(db)

    async def pending_board(self, game_pk: int) -> PendingBoard | None:
        """A game's undelivered board with the game as it is now; None when nothing is owed.

        A board owed for a game that was abandoned meanwhile is dropped, not posted.
        """
        async with self.store.transaction(lock=Lock.GAMES) as db:
            await db.hold_game(game_pk)
            queued = await outbox.fetch(db, game_pk)
            if queued is None:
                return None
            stored = await repo.fetch_game(db, game_pk)
            if stored is None or stored.record.status in ("lobby", "abandoned"):
                await outbox.drop(db, game_pk)
                return None
            lines = await board_lines(db, game_pk, stored.seats)
        return PendingBoard(queued, self.decoder.decode(stored), lines)

    async def set_board_message(self, game_pk: int, message_id: int) -> None:
        """Remember the message that shows the latest board."""
        async with self.store.transaction(lock=Lock.NONE) as db:
            await repo.set_board_message(db, game_pk, message_id)

    async def set_live_message(self, game_pk: int, message_id: int | None) -> None:
        """Remember (or clear) the live prompt message of the current turn."""
        async with self.store.transaction(lock=Lock.NONE) as db:
            await repo.set_live_message(db, game_pk, message_id)

    async def story(
        self, channel_id: int, viewer_seat: int | None, limit: int = 12, language: str = ENGLISH
    ) -> list[str]:
        """The log as the board tells it in `language`: the last `limit` lines after routine ones
        collapse.

        Each line names the players who held the seats when it happened (after `/admin replace`
        too); lines stored before names were kept use today's names.
        """
        async with self.store.reading() as db:
            stored = await repo.fetch_latest_game(db, channel_id)
            if stored is None:
                raise NoGameHereError()
            raw = await repo.fetch_recent_events(db, stored.record.pk, limit * 4)
        return told(raw, stored.seats, viewer_seat, limit, language)

    async def turn_summary(self, game_pk: int, language: str) -> str:
        """The latest turn told in one line in `language` (the outbox keeps it in English only:
        a board of a server in another language tells it again when it tidies)."""
        async with self.store.reading() as db:
            stored = await repo.fetch_game(db, game_pk)
            raw = await repo.fetch_turn_events(db, game_pk, TURN_EVENTS)
        if stored is None or not raw:
            return str(say(language, QUIET_TURN))
        seats = stored.seats
        lines = told(raw, seats, None, TURN_EVENTS, language)
        return turn_line(lines, [s.name for s in seats], language=language)
