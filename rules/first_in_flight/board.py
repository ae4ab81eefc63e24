"""The board: spaces, pawn order, Time payments, the start area (rulebook: Action Costs)."""

from __future__ import annotations

from rules.first_in_flight.common import data_of, next_seq
from rules.first_in_flight.data import Space
from rules.first_in_flight.state import START, Pawn, State


def spaces(state: State) -> tuple[Space, ...]:
    """The board side in use (1–3 or 4 players)."""
    return data_of(state).board_for(state.players).spaces


def end_pos(state: State) -> int:
    """The position index of the start area at the end of the Year."""
    return len(spaces(state))


def action_spaces(state: State) -> list[int]:
    """Indexes of all Action Spaces in board order."""
    return [i for i, s in enumerate(spaces(state)) if s.kind == "action"]


def time_target(state: State, pos: int, t: int) -> int | None:
    """Where paying t Time from `pos` ends (None if it would pass the Year's last Time Space)."""
    if t == 0:
        return pos
    seen = 0
    board = spaces(state)
    for i in range(max(pos + 1, 0), len(board)):
        if board[i].kind == "time":
            seen += 1
            if seen == t:
                return i
    return None


def time_available(state: State, pos: int) -> int:
    """How many Time Spaces are left ahead of `pos` this Year."""
    board = spaces(state)
    return sum(1 for space in board[max(pos + 1, 0) :] if space.kind == "time")


def order(state: State) -> list[int]:
    """Pawn indexes in turn order: farthest back first, same space by arrival (rulebook: Time)."""
    return sorted(
        range(len(state.pawns)), key=lambda a: (state.pawns[a].pos, state.pawns[a].arrival)
    )


def current_actor(state: State) -> int | None:
    """The pawn that acts next this Year (None when all are in the start area)."""
    end = end_pos(state)
    waiting = [a for a in order(state) if state.pawns[a].pos < end]
    return waiting[0] if waiting else None


def occupant(state: State, pos: int, besides: int) -> int | None:
    """Another pawn on this Action Space, if any."""
    for a, pawn in enumerate(state.pawns):
        if a != besides and pawn.pos == pos:
            return a
    return None


def set_pawn(state: State, actor: int, **changes: object) -> State:
    """A copy with one pawn changed."""
    pawns = list(state.pawns)
    pawns[actor] = pawns[actor].model_copy(update=changes)
    return state.model_copy(update={"pawns": tuple(pawns)})


def move_pawn(state: State, actor: int, pos: int) -> State:
    """Move a pawn; arriving last puts it in front of pawns already there."""
    seq, state = next_seq(state)
    return set_pawn(state, actor, pos=pos, arrival=seq)


def pay_time(state: State, actor: int, t: int) -> State:
    """Advance a pawn t Time Spaces (the caller checked it is allowed)."""
    if t == 0:
        return state
    target = time_target(state, state.pawns[actor].pos, t)
    assert target is not None
    return move_pawn(state, actor, target)


def enter_start_area(state: State, actor: int) -> State:
    """Move into the start area; the first in takes the leftmost place for next Year."""
    return move_pawn(state, actor, end_pos(state))


def reset_for_new_year(state: State) -> State:
    """Pawns leave the start area in arrival order (leftmost first) for the next Year."""
    ranked = sorted(range(len(state.pawns)), key=lambda a: state.pawns[a].arrival)
    pawns = list(state.pawns)
    for place, a in enumerate(ranked):
        pawns[a] = Pawn(pos=START, arrival=place, standing=pawns[a].standing)
    return state.model_copy(update={"pawns": tuple(pawns)})
