"""Scoring versions A and B (rulebook "Count Version A" / "Count Version B")."""

from __future__ import annotations

from functools import lru_cache

from rules.takeoff import board as b
from rules.takeoff.data import DATA


def score(board: b.Board, player: int, version: str, business_rows: int) -> int:
    """Points of `player`: seat values by class and type, plus a bonus per one-colour single row."""
    table = DATA.scoring["A" if version == "A" else "B"]
    total = 0
    for seat, owner in enumerate(board):
        if owner != player:
            continue
        business = b.is_business_row(b.row_of(seat), business_rows)
        total += (table.business if business else table.economy).seat(b.seat_type(seat))
    for row, side in b.protected_rows(board):
        if board[b.single_row(row, side)[0]] == player:
            business = b.is_business_row(row, business_rows)
            total += (table.business if business else table.economy).bonus
    return total


_PARTS = ("seats", "seat_points", "rows", "row_points")  # the figures `score_parts` gives per class


@lru_cache(maxsize=64)
def scores(board: b.Board, version: str, business_rows: int) -> tuple[int, int]:
    """Both players' points (kept for the last boards: a move's board, panels and preview all
    show the same one)."""
    return (
        score(board, 0, version, business_rows),
        score(board, 1, version, business_rows),
    )


def score_parts(board: b.Board, player: int, version: str, business_rows: int) -> dict[str, int]:
    """`player`'s points by source, summing to `score`: seats and one-colour single rows, per
    class ("business_seats" counts seats, "business_seat_points" their points, and so on)."""
    table = DATA.scoring["A" if version == "A" else "B"]
    parts = dict.fromkeys(
        (f"{cls}_{what}" for cls in ("business", "economy") for what in _PARTS), 0
    )
    for seat, owner in enumerate(board):
        if owner != player:
            continue
        cls = "business" if b.is_business_row(b.row_of(seat), business_rows) else "economy"
        parts[f"{cls}_seats"] += 1
        parts[f"{cls}_seat_points"] += getattr(table, cls).seat(b.seat_type(seat))
    for row, side in b.protected_rows(board):
        if board[b.single_row(row, side)[0]] == player:
            cls = "business" if b.is_business_row(row, business_rows) else "economy"
            parts[f"{cls}_rows"] += 1
            parts[f"{cls}_row_points"] += getattr(table, cls).bonus
    return parts
