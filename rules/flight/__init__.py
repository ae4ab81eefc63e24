"""Flight (Pepys, 1954): the rules engine. `GAME` is the registered instance."""

from rules.flight.engine import FlightGame
from rules.flight.state import FlightOptions, FlightState
from rules.flight.view import FlightGameView

GAME = FlightGame()

__all__ = ["GAME", "FlightGame", "FlightGameView", "FlightOptions", "FlightState"]
