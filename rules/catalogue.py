"""Every card of every game with its full text, for `/card` (pure: data files only)."""

from __future__ import annotations

from functools import cache

from rules.core import Frozen
from rules.core.messages import plural


class CardEntry(Frozen):
    """One card: which game, its id in that game's data, name, kind and full text."""

    game: str
    card: str
    name: str
    kind: str
    text: str

    @property
    def key(self) -> str:
        """'game:card' — the autocomplete value (ids are short, so it fits 100 characters)."""
        return f"{self.game}:{self.card}"


# First in Flight's Flight cards have effects as data only; these are their texts.
_FIF_FLAWS = {
    "delicate_wing": "Counts 2 Problems if it is the first Problem revealed in the Flight.",
    "pitch_instability": "When drawn: exhaust a ready Skill (no effect) or Descend.",
    "power_failure": "At scoring, the largest Upgrade in the Flight counts 2.",
    "elevator_control": "If the next card added to the Flight is a Glide, scrap it.",
}
_FLIGHT_SPECIALS = {
    "FOG": "Obstacle: laid beside the last Route card of a flight (never beside Route 5). "
    "No Route card may follow until an Alternative Route cancels it (rules 5–6).",
    "CUS": "Obstacle: laid beside the last Route card of a flight. No Route card may follow "
    "until a Passport cancels it (rules 5–6).",
    "ALT": "Cancels a Fog: it replaces the next-numbered Route card, so that stop is skipped.",
    "PAS": "Cancels Customs: the flight then continues in unbroken numerical order.",
    "SL": "Finishes any flight whose stops 1–5 are filled and that has no uncancelled "
    "obstacle. The first Safe Landing ends the hand (+25); it may be your last card (rule 8).",
}


@cache
def catalogue() -> tuple[CardEntry, ...]:
    """All cards of all games, game by game in menu order."""
    return (*_takeoff(), *_flight(), *_first_in_flight())


def find(key: str) -> CardEntry | None:
    """The card with this 'game:card' key, or the one whose name matches exactly."""
    wanted = key.strip().lower()
    for entry in catalogue():
        if wanted in (entry.key.lower(), entry.name.lower()):
            return entry
    return None


def search(typed: str, game: str | None = None, limit: int = 25) -> list[CardEntry]:
    """Cards whose name contains `typed`; the given game's cards first."""
    needle = typed.strip().lower()
    found = [e for e in catalogue() if needle in e.name.lower() or needle in e.kind.lower()]
    found.sort(key=lambda e: e.game != game)
    return found[:limit]


def _takeoff() -> list[CardEntry]:
    """Seat cards, the Business-Class card, the events and the captain's ticket."""
    from rules.takeoff.data import CARD_ORDER, EVENTS, SEAT_CARDS, card_name, card_text

    entries = []
    for card in (*CARD_ORDER, "ticket"):
        if card in SEAT_CARDS:
            kind = "Seat card" if SEAT_CARDS[card].seat_type else "Business-Class card"
        elif card in EVENTS:
            area = EVENTS[card].area
            kind = "Event" + (f" ({area.capitalize()})" if area != "any" else "")
        else:
            kind = "Captain's ticket"
        entries.append(CardEntry(game="takeoff", card=card, name=card_name(card), kind=kind,
                                 text=card_text(card)))  # fmt: skip
    return entries


def _flight() -> list[CardEntry]:
    """Aeroplanes, Route cards, obstacles, their cancellations and the Safe Landing."""
    from rules.flight.data import card
    from rules.flight.data import catalogue as flight_cards

    entries = []
    for code in flight_cards():
        info = card(code)
        points = plural(info.points, "point")
        if info.kind == "aeroplane":
            text = (
                f"Starts the {info.name.removesuffix(' Aeroplane')} flight. Route cards follow it."
            )
        elif info.kind == "route":
            text = f"Stop {info.number} of its flight, played after stop {(info.number or 1) - 1}."
            if info.number == 1:
                text = "Stop 1 of its flight, played on its Aeroplane."
        else:
            text = _FLIGHT_SPECIALS.get(code, "")
        kind = info.kind.replace("_", " ").capitalize()
        entries.append(CardEntry(game="flight", card=code, name=info.name, kind=kind,
                                 text=f"{text} Left in hand: {points}.".strip()))  # fmt: skip
    return entries


def _first_in_flight() -> list[CardEntry]:
    """Pilots (both sides), Friends, Technologies, Skills and the Flight cards."""
    from rules.first_in_flight.data import load_data

    data = load_data()
    entries = [
        CardEntry(game="first-in-flight", card=p.id, name=p.name, kind="Pilot", text=p.text)
        for p in data.pilots
    ]
    entries += [
        CardEntry(
            game="first-in-flight", card=d.id, name=d.name, kind=d.type.capitalize(), text=d.text
        )
        for d in data.development
    ]
    for c in data.flight_cards:
        parts = [f"{c.distance} Distance"]
        if c.problems:
            parts.append(plural(c.problems, "Problem"))
        extra = _FIF_FLAWS.get(c.id, "")
        if c.id == "experience":
            extra = "When drawn: gain a Glide into the Flight."
        text = ", ".join(parts) + "." + (f" {extra}" if extra else "")
        kind = "Design Flaw" if c.kind == "flaw" else "Flight card"
        entries.append(
            CardEntry(game="first-in-flight", card=c.id, name=c.name, kind=kind, text=text)
        )
    return entries
