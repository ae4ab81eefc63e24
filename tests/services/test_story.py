"""The board's log (GameService.story): history keeps who made each move (issue 15), and each
past turn's board shrinks to one line telling that turn (issue 28.7)."""

from __future__ import annotations

from collections.abc import Callable

from bot.services import ActResult, GameService, LoadedGame
from bot.services.announce import merge
from bot.services.boards import QUIET_TURN, turn_line
from bot.services.games import BOARD_LINES
from bot.store import outbox
from bot.store import repository as repo
from bot.store.outbox import Announcement
from tests.services.conftest import (
    ALICE,
    BOB,
    CHANNEL,
    DAVE,
    GUILD,
    NAMES,
    FakeClock,
    started,
)


async def test_a_replaced_seat_keeps_its_old_lines_under_the_old_name(
    service: GameService,
) -> None:
    """Bob's bid stays Bob's after Dave takes his seat; Dave's own move is Dave's."""
    await started(service)
    await service.act(CHANNEL, ALICE, "bid:1", None)
    await service.act(CHANNEL, BOB, "bid:2", None)
    await service.admin.replace(CHANNEL, BOB, DAVE, "Dave")
    await service.act(CHANNEL, ALICE, "bid:3", None)
    await service.act(CHANNEL, DAVE, "bid:1", None)
    assert await service.boards.story(CHANNEL, None) == [
        "Alice bid 1.",
        "Bob bid 2.",
        "Alice bid 3.",
        "Dave bid 1.",
    ]


async def test_private_lines_and_older_rows_without_names(service: GameService) -> None:
    """A drawer reads their own card; rows stored without names use today's names."""
    loaded = await started(service)
    async with service.store.transaction() as db:  # a row as stored before names were kept
        await repo.insert_action(
            db,
            loaded.record.pk,
            seat=0,
            action={"key": "bid:1", "label": "Bid 1"},
            user_id=ALICE,
            events=[{"kind": "bid", "text": "{seat0} bid 1."}],
            now=1.0,
        )
    drawn = (await service.act(CHANNEL, ALICE, "draw", None)).events[0]
    assert await service.boards.story(CHANNEL, None) == ["Alice bid 1.", "Alice drew a card."]
    own = await service.boards.story(CHANNEL, 0)
    assert own[-1] == drawn.private_text and own[-1].startswith("You drew a ")


async def test_each_boards_lines_match_the_log_read_back(service: GameService) -> None:
    """A move's board lines come from the log this process kept since its last move; they must
    read exactly like the log read back from the database — across a move made by another
    process on the same database, an undo and a replaced seat."""
    await service.lobby.open(GUILD, CHANNEL, "toy", {"rounds": 6}, ALICE, NAMES[ALICE])
    await service.lobby.join(CHANNEL, BOB, NAMES[BOB])
    await service.lobby.start(CHANNEL, ALICE, is_admin=False)
    elsewhere = GameService(service.store, games=service.games, clock=FakeClock())
    steps = [
        (service, ALICE, "bid:1"),
        (service, BOB, "draw"),
        (service, ALICE, "bid:2"),
        (elsewhere, BOB, "bid:3"),  # the kept log of `service` no longer describes the game
        (service, ALICE, "roll"),
        (service, BOB, "bid:1"),
        ("undo", None, None),
        (service, BOB, "bid:2"),
        ("replace", None, None),
        (service, ALICE, "bid:3"),
        (service, DAVE, "draw"),
    ]
    kept = 0
    for who, user, key in steps:
        if who == "undo":
            await service.moves.undo(CHANNEL)
            continue
        if who == "replace":
            await service.admin.replace(CHANNEL, BOB, DAVE, "Dave")
            continue
        assert isinstance(who, GameService) and user is not None and key is not None
        before = await who.load(CHANNEL)
        kept += who.board_logs.entries(before.record) is not None
        result = await who.act(CHANNEL, user, key, None)
        assert list(result.lines) == await service.boards.story(CHANNEL, None, limit=BOARD_LINES)
    assert kept >= 3  # the moves right after this process's own move used the kept log


async def test_a_turn_that_ends_queues_the_line_its_board_shrinks_to(
    service: GameService,
) -> None:
    """Each turn change queues one line telling the turn that ended (public words only), which
    the outbox keeps for a restart; the first board has nothing before it to tell."""
    loaded = await started(service)
    async with service.store.reading() as db:
        first = await outbox.fetch(db, loaded.record.pk)
    assert first is not None and first.summary == ""
    await service.boards.delivered(first, 500, 500)  # as the bot does once it is posted
    bid = await service.act(CHANNEL, ALICE, "bid:1", None)
    assert bid.announcement is not None and bid.announcement.summary == "Alice bid 1."
    await service.boards.delivered(bid.announcement, 501, 501)
    drew = await service.act(CHANNEL, BOB, "draw", None)
    assert drew.announcement is not None
    assert drew.announcement.summary == "Bob drew a card.", "a private card stays private"
    owed = await service.boards.pending_board(loaded.record.pk)
    assert owed is not None and owed.announcement.summary == "Bob drew a card."


def test_a_turn_reads_as_one_line_naming_its_player_once() -> None:
    """A run of one player's lines names them once; a long turn is cut at a word."""
    names = ["bob", "bobby"]
    lines = ["bob played Aisle seat: seated a passenger on 10C.", "bob ended their turn."]
    assert turn_line(lines, names) == (
        "bob played Aisle seat: seated a passenger on 10C; ended their turn."
    )
    assert turn_line(["bobby scored 3.", "bob wins!"], names) == "bobby scored 3; bob wins!"
    assert turn_line([], names) == QUIET_TURN
    turn = [f"bob seated a passenger on {n}A." for n in range(40)]
    whole = turn_line(turn, names, limit=10_000)
    cut = turn_line(turn, names, limit=60)
    assert len(cut) <= 60 and cut.endswith("…")
    assert whole.startswith(cut.removesuffix("…") + " ") or whole.startswith(
        cut.removesuffix("…") + ";"
    ), "cut after a whole word"


def test_a_board_never_posted_adds_its_turn_to_the_line() -> None:
    """Two turn changes delivered as one board: the board before it tells both turns."""
    old = Announcement(1, 5, True, (1,), "Alice bid 1.")
    new = Announcement(1, 6, True, (0,), "Bob bid 2.")
    assert merge(old, new, active=(0,), finished=False).summary == "Alice bid 1. Bob bid 2."
    same_turn = Announcement(1, 7, False, ())
    assert merge(old, same_turn, active=(1,), finished=False).summary == "Alice bid 1."


async def play_to_end(
    service: GameService, loaded: LoadedGame, check: Callable[[LoadedGame, int], None]
) -> ActResult:
    """Each active seat plays its first legal move until the game ends; `check` looks at the
    game and the seat about to move, once its choices were asked for. The last move's result."""
    while True:
        seat = loaded.active_seats[0]
        user = loaded.user_of(seat)
        assert user is not None
        key = loaded.legal_actions(seat)[0].key
        check(loaded, seat)
        result = await service.act(CHANNEL, user, key, None)
        loaded = result.loaded
        if loaded.outcome is not None:
            return result


async def test_an_ended_games_board_log_is_not_kept(service: GameService) -> None:
    """Nothing is appended to a finished game's log: its last board still reads like the log
    read back, and this process keeps no copy of it waiting to be evicted."""
    loaded = await started(service, ALICE, BOB)
    pk = loaded.record.pk

    def kept(now: LoadedGame, _seat: int) -> None:
        assert service.board_logs.get(pk) is not None or now.record.version == 1

    result = await play_to_end(service, loaded, kept)
    assert list(result.lines) == await service.boards.story(CHANNEL, None, limit=BOARD_LINES)
    assert service.board_logs.get(pk) is None


async def test_an_ended_games_legal_actions_are_not_kept(service: GameService) -> None:
    """While a game runs, each seat's choices are kept for the next click; once it ends,
    nothing of it stays in the cache waiting to be evicted (memory of a busy host)."""
    loaded = await started(service, ALICE, BOB)
    pk = loaded.record.pk

    def kept(_now: LoadedGame, seat: int) -> None:
        assert service.legal_cache.get((pk, seat)) is not None

    loaded = (await play_to_end(service, loaded, kept)).loaded
    assert all(service.legal_cache.get((pk, s.seat)) is None for s in loaded.seats)
    assert loaded.legal_actions(0) == [] and service.legal_cache.get((pk, 0)) is None
