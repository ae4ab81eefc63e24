"""The play-by-post clock with a hand-driven clock: reminders, timeouts, away, downtime, races."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

import rules
from bot.services import GameService
from bot.services.board_notes import BoardNotes
from bot.services.clock import NOT_STARTED_CLOCK, ClockService
from bot.services.errors import NotStartedError, ServiceError
from bot.services.gametime import Clock
from bot.services.listing import store_listing
from bot.services.timeouts import Notice, Timeouts, plan_ai
from bot.store import Store, open_store
from rules.core import StaleActionError
from tests.bot.test_refusals import form_problem
from tests.services.conftest import ALICE, BOB, CHANNEL, GUILD, NAMES
from tests.support.toygame import TOY

HOUR = 3600.0
START = 1_800_000_000.0


class ManualClock:
    """Time that only moves when the test says so."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


class Table:
    """A store, a game service and the clock service over one database file."""

    def __init__(self, store: Store, time: ManualClock) -> None:
        self.store, self.time = store, time
        games = {"toy": TOY, "takeoff": rules.GAMES["takeoff"]}
        self.service = GameService(store, games=games, clock=time)
        self.clocks = ClockService(self.service, Clock(source=time))
        self.notes = BoardNotes(store, self.clocks.clock)
        # Wired as start-up wires them (bot/edge/app.py).
        self.service.moves.wire(self.clocks.on_commit, store_listing)
        self.timeouts = Timeouts(self.clocks, self.service.moves, self.service.decoder)

    async def start(self, game: str = "toy", **table: object) -> None:
        """Alice opens `game` with these table options, Bob joins, Alice starts."""
        lobby = await self.service.lobby.open(GUILD, CHANNEL, game, {}, ALICE, NAMES[ALICE], seed=3)
        await self.clocks.preferences.set_table(lobby.record, dict(table))
        await self.service.lobby.join(CHANNEL, BOB, NAMES[BOB])
        await self.service.lobby.start(CHANNEL, ALICE, is_admin=False)

    async def at(self, hours: float) -> list[Notice]:
        """Move time to `hours` after the start and fire what is due."""
        self.time.now = START + hours * HOUR
        return await self.timeouts.fire_due()

    async def turn_user(self) -> int:
        """Who must act now."""
        loaded = await self.service.load(CHANNEL)
        user = loaded.user_of(loaded.active_seats[0])
        assert user is not None
        return user


@pytest.fixture
async def table(database_url: str) -> AsyncIterator[Table]:
    """A clocked table on a fresh database."""
    store = await open_store(database_url)
    yield Table(store, ManualClock())
    await store.close()


def kinds(notices: list[Notice]) -> list[tuple[str, float]]:
    """(kind, fraction left) of each notice."""
    return [(n.kind, n.left) for n in notices]


async def test_reminders_at_half_and_tenth_once_each_across_a_restart(
    table: Table, database_url: str
) -> None:
    """24 h limit: a reminder at 12 h and at 21.6 h, each once, even after reopening the DB."""
    await table.start(turn_limit="24h", on_timeout="remind")
    assert await table.at(11.9) == []
    first = await table.at(12.0)
    assert kinds(first) == [("remind", 0.5)] and first[0].user_id == ALICE
    assert await table.at(12.5) == []
    await table.store.close()
    restarted = Table(await open_store(database_url), table.time)  # a new bot process, same file
    try:
        assert await restarted.at(13) == []
        second = await restarted.at(21.6)
        assert kinds(second) == [("remind", 0.1)]
        assert second[0].deadline_at == START + 24 * HOUR
        assert await restarted.at(21.7) == []
    finally:
        await restarted.store.close()


async def test_reminder_digest_shows_public_lines_since_last_turn(table: Table) -> None:
    """Bob's reminder lists Alice's move (public text only), not his own earlier ones."""
    await table.start(turn_limit="12h")
    await table.service.act(CHANNEL, ALICE, "bid:2", None)
    await table.service.act(CHANNEL, BOB, "bid:1", None)
    await table.service.act(CHANNEL, ALICE, "draw", None)
    (notice,) = await table.at(6)
    assert notice.user_id == BOB
    assert notice.digest == ("{seat0} drew a card.",)


async def test_remind_policy_timeout_keeps_the_turn_and_absent_after_three(table: Table) -> None:
    """remind: at each deadline nobody moves, a new period starts; the third makes Alice absent."""
    await table.start(turn_limit="12h", on_timeout="remind")
    version = (await table.service.load(CHANNEL)).record.version
    for n in (1, 2, 3):
        notices = await table.at(12 * n)
        timeout = [x for x in notices if x.kind == "timeout"]
        assert len(timeout) == 1 and timeout[0].result is None
        assert timeout[0].timeouts == n and timeout[0].absent == (n == 3)
    loaded = await table.service.load(CHANNEL)
    assert loaded.record.version == version and await table.turn_user() == ALICE
    board = await table.notes.board(loaded)
    assert board.seats[0].absent and board.seats[0].deadline_at is None
    assert await table.at(100) == []  # an absent player is not chased forever


async def test_game_back_restarts_the_clock(table: Table) -> None:
    """After three timeouts, /game back clears absent and gives a full new period."""
    await table.start(turn_limit="12h", on_timeout="remind")
    for n in (1, 2, 3):
        await table.at(12 * n)
    table.time.now = START + 40 * HOUR
    comeback = await table.clocks.back(CHANNEL, ALICE)
    assert comeback.changed and comeback.was_absent and comeback.missed == 3
    clock = comeback.clock
    assert not clock.absent and clock.timeouts == 0
    assert clock.deadline_at == table.time.now + 12 * HOUR
    assert kinds(await table.at(46)) == [("remind", 0.5)]


async def test_game_back_when_not_absent_changes_nothing_and_says_so(table: Table) -> None:
    """A seated player who never missed a turn: /game back reports that nothing changed and
    leaves the running clock exactly as it was."""
    await table.start(turn_limit="12h", on_timeout="remind")
    table.time.now = START + 2 * HOUR
    comeback = await table.clocks.back(CHANNEL, ALICE)
    assert not comeback.changed and not comeback.was_absent and comeback.missed == 0
    assert comeback.clock.deadline_at == START + 12 * HOUR, "the turn's deadline is kept"
    assert kinds(await table.at(6)) == [("remind", 0.5)]


async def test_the_clock_in_a_lobby_says_how_the_game_starts(table: Table) -> None:
    """/admin extend before the start: the game has no clock yet, and the creator starts it."""
    await table.service.lobby.open(GUILD, CHANNEL, "toy", {}, ALICE, NAMES[ALICE], seed=3)
    with pytest.raises(NotStartedError) as refused:
        await table.clocks.extend(CHANNEL, 6)
    assert str(refused.value) == NOT_STARTED_CLOCK and "/game start" in str(refused.value)
    assert form_problem(NOT_STARTED_CLOCK) is None


async def test_playing_clears_absent(table: Table) -> None:
    """A timed-out player who simply plays is no longer counted as absent."""
    await table.start(turn_limit="12h", on_timeout="remind")
    for n in (1, 2, 3):
        await table.at(12 * n)
    await table.service.act(CHANNEL, ALICE, "bid:1", None)
    board = await table.notes.board(await table.service.load(CHANNEL))
    assert not board.seats[0].absent and board.seats[0].timeouts == 0


async def test_ai_policy_plays_the_late_turn_in_takeoff(table: Table) -> None:
    """on_timeout=ai: a normal AI plays the late seat's whole turn through the move path."""
    await table.start("takeoff", turn_limit="24h", on_timeout="ai")
    late = await table.turn_user()
    before = await table.service.load(CHANNEL)
    notices = await table.at(24)
    (timeout,) = [n for n in notices if n.kind == "timeout"]
    assert timeout.result is not None and timeout.user_id == late
    assert timeout.played and timeout.by_ai
    after = await table.service.load(CHANNEL)
    assert after.record.version > before.record.version
    assert await table.turn_user() != late
    board = await table.notes.board(after)
    nxt = after.active_seats[0]
    assert board.seats[nxt].deadline_at == table.time.now + 24 * HOUR
    assert board.seats[1 - nxt].timeouts == 1
    assert (await table.service.admin.verify(CHANNEL)).ok


async def test_ai_policy_falls_back_to_remind_without_a_pass(table: Table) -> None:
    """The toy game has no pass action: the timeout only reminds and the turn stays."""
    await table.start(turn_limit="12h", on_timeout="ai")
    (timeout,) = [n for n in await table.at(12) if n.kind == "timeout"]
    assert timeout.result is None and await table.turn_user() == ALICE


async def test_away_pauses_and_resumes_remaining_time(table: Table) -> None:
    """Away 10 h into a 24 h turn: nothing fires while away; 14 h are left after coming back."""
    await table.start(turn_limit="24h")
    table.time.now = START + 10 * HOUR
    assert await table.clocks.set_away(ALICE, START + 110 * HOUR) == 1
    board = await table.notes.board(await table.service.load(CHANNEL))
    assert board.seats[0].away_until == START + 110 * HOUR and board.seats[0].deadline_at is None
    assert await table.at(50) == []
    table.time.now = START + 60 * HOUR
    assert await table.clocks.away_off(ALICE) == 1
    board = await table.notes.board(await table.service.load(CHANNEL))
    assert board.seats[0].deadline_at == START + 74 * HOUR
    # 2 h had passed of the half: the 50 % reminder comes 2 h after the return.
    assert kinds(await table.at(62)) == [("remind", 0.5)]


async def test_away_ends_by_itself(table: Table) -> None:
    """The scheduler wakes at the end of the away period and the clock runs again."""
    await table.start(turn_limit="24h")
    await table.clocks.set_away(ALICE, START + 5 * HOUR)
    assert await table.at(5) == []  # the wake-up resumes the clock
    board = await table.notes.board(await table.service.load(CHANNEL))
    assert board.seats[0].deadline_at == START + 29 * HOUR


async def test_away_limits(table: Table) -> None:
    """At most 30 days; a past time is refused."""
    with pytest.raises(ServiceError, match="30 days"):
        await table.clocks.set_away(ALICE, START + 31 * 24 * HOUR)
    with pytest.raises(ServiceError, match="already passed"):
        await table.clocks.set_away(ALICE, START - 1)


async def test_downtime_extends_running_clocks(table: Table) -> None:
    """A 5 h outage at 10 h: the 12 h reminder now comes at 17 h, the deadline at 29 h."""
    await table.start(turn_limit="24h")
    await table.clocks.beat()
    table.time.now = START + 10 * HOUR
    await table.clocks.beat()
    table.time.now = START + 15 * HOUR
    assert await table.clocks.recover_downtime(grace=60) == 5 * HOUR
    assert await table.at(16.9) == []
    assert kinds(await table.at(17)) == [("remind", 0.5)]
    board = await table.notes.board(await table.service.load(CHANNEL))
    assert board.seats[0].deadline_at == START + 29 * HOUR


async def test_admin_extend_and_pause(table: Table) -> None:
    """extend moves the deadline; a paused game fires nothing and keeps its remaining time."""
    await table.start(turn_limit="12h")
    await table.clocks.extend(CHANNEL, 6)
    assert await table.at(6) == []
    assert kinds(await table.at(12)) == [("remind", 0.5)]
    await table.clocks.pause(CHANNEL, True)
    assert await table.at(40) == []
    await table.clocks.pause(CHANNEL, False)
    board = await table.notes.board(await table.service.load(CHANNEL))
    assert board.seats[0].deadline_at == START + 40 * HOUR + 6 * HOUR


async def test_turn_limit_off_never_fires(table: Table) -> None:
    """turn_limit=off: no reminders, no timeouts."""
    await table.start(turn_limit="off")
    assert await table.at(1000) == []


async def test_guild_default_limit_applies(table: Table) -> None:
    """A server default of 12 h is used when the creator chose nothing."""
    await table.clocks.preferences.update_guild(GUILD, turn_limit="12h", on_timeout="remind")
    await table.start()
    assert kinds(await table.at(6)) == [("remind", 0.5)]


async def test_move_racing_the_timeout_exactly_one_wins(database_url: str) -> None:
    """A last-second click and the timeout from another process: exactly one is applied."""
    time = ManualClock()
    first = Table(await open_store(database_url), time)
    other_store = await open_store(database_url)
    other = Table(other_store, time)
    try:
        await first.start("takeoff", turn_limit="24h", on_timeout="ai")
        loaded = await first.service.load(CHANNEL)
        late = await first.turn_user()
        time.now = START + 24 * HOUR
        click = first.service.act(CHANNEL, late, "end", loaded.record.version)
        results = await asyncio.gather(click, other.timeouts.fire_due(), return_exceptions=True)
        clicked, fired = results
        human_won = not isinstance(clicked, BaseException)
        assert isinstance(fired, list)
        timeout_won = any(n.kind == "timeout" and n.result is not None for n in fired)
        assert human_won != timeout_won
        if not human_won:
            assert isinstance(clicked, StaleActionError)
        # The click is one action; the timeout plays the late seat's whole turn as the AI plans it.
        turn = plan_ai(loaded.game, loaded.state, loaded.active_seats[0]) or []
        applied = 1 if human_won else len(turn)
        after = await first.service.load(CHANNEL)
        assert after.record.version == loaded.record.version + applied
        assert await first.turn_user() != late
        assert (await first.service.admin.verify(CHANNEL)).ok
    finally:
        await first.store.close()
        await other_store.close()
