"""First in Flight: the rules engine (deck-building push-your-luck race to fly 40)."""

from rules.first_in_flight.engine import FirstInFlight

GAME = FirstInFlight()

__all__ = ["GAME", "FirstInFlight"]
