"""Takeoff! (Andreas Milde, 2004): the rules engine; `GAME` is the registered instance."""

from __future__ import annotations

from rules.takeoff.engine import TakeoffGame
from rules.takeoff.state import Options, Pending, TakeoffState
from rules.takeoff.view import CardView, PendingView, RowView, TakeoffView

GAME = TakeoffGame()

__all__ = [
    "GAME",
    "CardView",
    "Options",
    "Pending",
    "PendingView",
    "RowView",
    "TakeoffGame",
    "TakeoffState",
    "TakeoffView",
]
