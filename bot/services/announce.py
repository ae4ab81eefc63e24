"""When a committed change needs a new board message and whom it pings (pure decisions)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.outbox import Announcement

# A past turn's board shrinks to one line of at most this many characters (a phone's glance).
SUMMARY_CHARS = 180


def plan_board(
    *,
    previous_active: Sequence[int],
    active: Sequence[int],
    seats: int,
    milestone: bool,
    finished: bool,
) -> tuple[bool, tuple[int, ...]]:
    """(post a new board?, seats to ping) after a change.

    The end of the game pings everyone; a turn change posts a new board pinging whoever must act
    now; a move within the same turn only updates the board in place, unless a milestone asks for
    a fresh message (without ping).
    """
    if finished:
        return True, tuple(range(seats))
    if set(active) == set(previous_active):
        return milestone, ()
    return True, tuple(active)


def merge(
    old: Announcement | None, new: Announcement, *, active: Sequence[int], finished: bool
) -> Announcement:
    """`new`, keeping what an undelivered `old` still owes: its new board and pings due now.

    A seat pinged by `old` but no longer to act needs no ping any more: it already moved. The
    board on Discord then shrinks to the turns of both (the one `old` ended comes first).
    """
    if old is None:
        return new
    owed = set(new.ping) | (set(old.ping) & set(active))
    ping = tuple(sorted(owed)) if not finished else new.ping
    summary = " ".join(s for s in (old.summary, new.summary) if s)
    new_board = old.new_board or new.new_board
    return Announcement(new.game_pk, new.version, new_board, ping, cut_at_word(summary))


def cut_at_word(text: str, limit: int = SUMMARY_CHARS) -> str:
    """`text` within `limit` characters, cut after a whole word with an ellipsis."""
    if len(text) <= limit:
        return text
    return text[: limit - 1].rsplit(" ", 1)[0].rstrip(" ;:,") + "…"
