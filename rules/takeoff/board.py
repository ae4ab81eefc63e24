"""The plane's geometry: seats, numbered and single rows, neighbours and protected rows."""

from __future__ import annotations

import re

from rules.takeoff.data import DATA, SeatType

ROWS = DATA.board.rows
LETTERS = DATA.board.letters
WIDTH = len(LETTERS)
SEATS = ROWS * WIDTH
EMPTY = -1
Board = tuple[int, ...]
_SEAT_RE = re.compile(r"^(\d{1,2})([A-F])$")


def seat_index(row: int, letter: str) -> int:
    """Index of seat `letter` in numbered row `row` (1-based)."""
    return (row - 1) * WIDTH + LETTERS.index(letter)


def row_of(seat: int) -> int:
    """The numbered row (1-based) of a seat index."""
    return seat // WIDTH + 1


def letter_of(seat: int) -> str:
    """The seat letter of a seat index."""
    return LETTERS[seat % WIDTH]


def side_of(seat: int) -> int:
    """0 for the left single row (A B C), 1 for the right (D E F)."""
    return (seat % WIDTH) // 3


def seat_label(seat: int) -> str:
    """Like '4C'."""
    return f"{row_of(seat)}{letter_of(seat)}"


def parse_seat(label: str) -> int | None:
    """The seat index for a label like '4C', or None."""
    match = _SEAT_RE.match(label)
    if not match or not 1 <= int(match.group(1)) <= ROWS:
        return None
    return seat_index(int(match.group(1)), match.group(2))


def seat_type(seat: int) -> SeatType:
    """Window, middle or aisle."""
    return DATA.board.seat_types[letter_of(seat)]


def is_business_row(row: int, business_rows: int) -> bool:
    """Rows 1..business_rows have the red carpet."""
    return row <= business_rows


def in_area(seat: int, area: str, business_rows: int) -> bool:
    """Whether a seat lies in 'economy', 'business' or 'any'."""
    if area == "any":
        return True
    return is_business_row(row_of(seat), business_rows) == (area == "business")


def area_rows(area: str, business_rows: int) -> tuple[int, ...]:
    """The numbered rows of an area, front to back."""
    return tuple(r for r in range(1, ROWS + 1) if in_area(seat_index(r, "A"), area, business_rows))


def single_row(row: int, side: int) -> tuple[int, int, int]:
    """The three seats of a single row (A B C or D E F)."""
    first = (row - 1) * WIDTH + 3 * side
    return (first, first + 1, first + 2)


def single_row_label(row: int, side: int) -> str:
    """Like '4ABC'."""
    return f"{row}{LETTERS[3 * side : 3 * side + 3]}"


def is_protected(board: Board, row: int, side: int) -> bool:
    """A single row filled by one colour: events without ✔ may not break it (rulebook §1)."""
    first, second, third = single_row(row, side)
    owner = board[first]
    return owner != EMPTY and board[second] == owner and board[third] == owner


def in_protected_row(board: Board, seat: int) -> bool:
    """Whether a seat belongs to a protected single row."""
    return is_protected(board, row_of(seat), side_of(seat))


def protected_rows(board: Board) -> tuple[tuple[int, int], ...]:
    """All protected single rows as (row, side)."""
    return tuple((r, s) for r in range(1, ROWS + 1) for s in (0, 1) if is_protected(board, r, s))


def neighbour_pairs(row: int, *, across_aisle: bool) -> tuple[tuple[int, int], ...]:
    """Side-by-side seat pairs of a row: A+B, B+C, D+E, E+F (and C+D when across_aisle)."""
    a = (row - 1) * WIDTH
    pairs = [(a, a + 1), (a + 1, a + 2), (a + 3, a + 4), (a + 4, a + 5)]
    if across_aisle:
        pairs.insert(2, (a + 2, a + 3))
    return tuple(pairs)


def row_key(seat: int, rule: str) -> int:
    """What the different-rows rule counts: the numbered row, or the single row (2·row + side)."""
    if rule == "single":
        return 2 * row_of(seat) + side_of(seat)
    return row_of(seat)


def with_owner(board: Board, seats: tuple[int, ...], owner: int) -> Board:
    """A copy of the board with `seats` set to `owner` (EMPTY to clear)."""
    cells = list(board)
    for seat in seats:
        cells[seat] = owner
    return tuple(cells)


def empty_board() -> Board:
    """72 free seats."""
    return (EMPTY,) * SEATS
