"""Every card of every game with its full text, for `/card` (pure: data files only)."""

from __future__ import annotations

from functools import cache

from rules.core import Frozen
from rules.core.words import Said, Text, said


class CardEntry(Frozen):
    """One card: which game, its id in that game's data, name, kind and full text."""

    game: str
    card: str
    name: Text  # Text fields are Said: the card in every reader's language (issue 30)
    kind: Text
    text: Text

    @property
    def key(self) -> str:
        """'game:card' — the autocomplete value (ids are short, so it fits 100 characters)."""
        return f"{self.game}:{self.card}"


# First in Flight's Flight cards have effects as data only; these are their texts.
_FIF_FLAWS = {
    "delicate_wing": said("Counts 2 Problems if it is the first Problem revealed in the Flight."),
    "pitch_instability": said("When drawn: exhaust a ready Skill (no effect) or Descend."),
    "power_failure": said("At scoring, the largest Upgrade in the Flight counts 2."),
    "elevator_control": said("If the next card added to the Flight is a Glide, scrap it."),
}
_FLIGHT_SPECIALS = {
    "FOG": said(
        "Obstacle: laid beside the last Route card of a flight (never beside Route 5). "
        "No Route card may follow until an Alternative Route cancels it (rules 5–6)."
    ),
    "CUS": said(
        "Obstacle: laid beside the last Route card of a flight. No Route card may follow "
        "until a Passport cancels it (rules 5–6)."
    ),
    "ALT": said(
        "Cancels a Fog: it replaces the next-numbered Route card, so that stop is skipped."
    ),
    "PAS": said("Cancels Customs: the flight then continues in unbroken numerical order."),
    "SL": said(
        "Finishes any flight whose stops 1–5 are filled and that has no uncancelled "
        "obstacle. The first Safe Landing ends the hand (+25); it may be your last card (rule 8)."
    ),
}
_EVENT_KINDS = {
    "economy": said("Event (Economy)"),
    "business": said("Event (Business)"),
    "any": said("Event"),
}
_FLIGHT_KINDS = {
    "aeroplane": said("Aeroplane"),
    "route": said("Route"),
    "landing": said("Landing"),
    "obstacle": said("Obstacle"),
    "cancel": said("Cancel"),
}
_FIF_KINDS = {
    "friend": said("Friend"),
    "technology": said("Technology"),
    "skill": said("Skill"),
    "upgrade": said("Upgrade"),
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
            kind = said("Seat card") if SEAT_CARDS[card].seat_type else said("Business-Class card")
        elif card in EVENTS:
            kind = _EVENT_KINDS.get(EVENTS[card].area, _EVENT_KINDS["any"])
        else:
            kind = said("Captain's ticket")
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
        if info.kind == "aeroplane":
            route = info.name.parts[0][1].get("route", "") if isinstance(info.name, Said) else ""
            text = said("Starts the {route} flight. Route cards follow it.", route=route)
        elif info.kind == "route" and info.number == 1:
            text = said("Stop 1 of its flight, played on its Aeroplane.")
        elif info.kind == "route":
            before = (info.number or 1) - 1
            text = said("Stop {n} of its flight, played after stop {before}.", n=info.number,
                        before=before)  # fmt: skip
        else:
            text = _FLIGHT_SPECIALS.get(code, Said(""))
        left = (
            said("Left in hand: {points} point.", points=info.points)
            if info.points == 1
            else said("Left in hand: {points} points.", points=info.points)
        )
        kind = _FLIGHT_KINDS.get(info.kind, Said(info.kind.replace("_", " ").capitalize()))
        entries.append(CardEntry(game="flight", card=code, name=info.name, kind=kind,
                                 text=_both(text, left)))  # fmt: skip
    return entries


def _first_in_flight() -> list[CardEntry]:
    """Pilots (both sides), Friends, Technologies, Skills and the Flight cards."""
    from rules.first_in_flight.data import load_data

    data = load_data()
    # Names and texts are the data file's English: its catalogue entries (first_in_flight.po).
    entries = [
        CardEntry(
            game="first-in-flight",
            card=p.id,
            name=Said(p.name),
            kind=said("Pilot"),
            text=Said(p.text),
        )
        for p in data.pilots
    ]
    entries += [
        CardEntry(
            game="first-in-flight",
            card=d.id,
            name=Said(d.name),
            kind=_FIF_KINDS.get(d.type, Said(d.type.capitalize())),
            text=Said(d.text),
        )
        for d in data.development
    ]
    for c in data.flight_cards:
        if c.problems == 1:
            text = said("{distance} Distance, 1 Problem.", distance=c.distance)
        elif c.problems:
            text = said("{distance} Distance, {problems} Problems.", distance=c.distance,
                        problems=c.problems)  # fmt: skip
        else:
            text = said("{distance} Distance.", distance=c.distance)
        extra = _FIF_FLAWS.get(c.id)
        if c.id == "experience":
            extra = said("When drawn: gain a Glide into the Flight.")
        kind = said("Design Flaw") if c.kind == "flaw" else said("Flight card")
        entries.append(CardEntry(game="first-in-flight", card=c.id, name=Said(c.name), kind=kind,
                                 text=_both(text, extra) if extra else text))  # fmt: skip
    return entries


def _both(first: Said, second: Said) -> Said:
    """Two sentences of a card text, each translated on its own ("" when the first is empty)."""
    if not first:
        return second
    return Said(f"{first} {second}", (*first.parts, *second.parts))
