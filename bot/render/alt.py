"""Alt text for every posted picture: whose turn, scores and the last move, in plain words."""

from __future__ import annotations

from collections.abc import Sequence

from rules.core.messages import plural
from rules.first_in_flight.view import GameView
from rules.flight.view import FlightGameView
from rules.takeoff.view import TakeoffView

# discord.File(description=…) is limited to 1,024 characters.
ALT_LIMIT = 1024


def clip(text: str, limit: int = ALT_LIMIT) -> str:
    """`text` cut to `limit` characters with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def join(parts: Sequence[str]) -> str:
    """Sentences joined, empty ones dropped."""
    return " ".join(p.strip() for p in parts if p and p.strip())


def name_of(names: Sequence[str], seat: int | None, none: str = "nobody") -> str:
    """A seat's name ('Seat n' when unnamed)."""
    if seat is None:
        return none
    return names[seat] if seat < len(names) and names[seat] else f"Seat {seat + 1}"


def last_move(last: str) -> str:
    """'Last move: …' from the newest log line."""
    return f"Last move: {last.rstrip('.')}." if last else ""


def takeoff(view: TakeoffView, names: Sequence[str], last: str = "") -> str:
    """The Takeoff! plane: scores, whose turn, the last seats taken, the viewer's hand."""
    scores = ", ".join(f"{name_of(names, s)} {plural(view.scores[s], 'point')}" for s in range(2))
    if view.over:
        turn = "Game over."
    else:
        turn = f"{name_of(names, view.turn)} to move (pass {view.pass_number} of 3)."
    taken = sum(1 for row in view.rows for owner in row.seats if owner >= 0)
    parts = [
        f"Takeoff! plane, {taken} of {len(view.rows) * 6} seats taken.",
        turn,
        f"Scores: {scores}.",
        f"Last seats: {', '.join(view.last_seats)}." if view.last_seats else "",
        last_move(last),
    ]
    if view.viewer is not None:
        hand = ", ".join(c.name for c in view.hand) or "no cards"
        parts.append(f"Your hand: {hand}.")
        targets = getattr(view, "targets", ())
        if targets:
            parts.append(
                f"{view.pending.card_name if view.pending else 'It'} can take: "
                f"{', '.join(targets)}."
            )
    return clip(join(parts))


FLIGHT_PHASES = {
    "draw": "drawing",
    "play": "playing cards",
    "target": "choosing a flight",
    "discard": "discarding",
}


def flight(view: FlightGameView, names: Sequence[str], last: str = "") -> str:
    """The Flight table: hand number, whose turn, scores, routes, the viewer's hand."""
    scores = ", ".join(f"{name_of(names, s.seat)} {s.score}" for s in view.seats)
    if view.over:
        turn = "Match over; won by " + " & ".join(name_of(names, w) for w in view.winners) + "."
    else:
        turn = f"{name_of(names, view.turn)} to play ({FLIGHT_PHASES.get(view.phase, view.phase)})."
    routes = "; ".join(
        f"{f.name}: "
        + (
            "landed"
            if f.landed
            else f"{f.next_number - 1} of 5 stops" + (", held up" if f.blocked else "")
        )
        for f in view.flights
        if f.started
    )
    parts = [
        f"Flight table, hand {view.hand_number}.",
        turn,
        f"Scores: {scores}.",
        f"Flying: {routes}." if routes else "No flight started yet.",
        last_move(last),
    ]
    if view.viewer is not None and view.hand is not None:
        hand = ", ".join(c.name for c in view.hand) or "no cards"
        parts.append(f"Your hand: {hand}.")
    return clip(join(parts))


def first_in_flight(view: GameView, names: Sequence[str], last: str = "") -> str:
    """First in Flight: Year, who decides, records, the Flight in progress, the viewer's cards."""
    records = ", ".join(
        f"{name_of(names, s.seat)} {s.record}" for s in sorted(view.seats, key=lambda s: -s.record)
    )
    if view.gustave_record is not None:
        records += f", Gustave {view.gustave_record}"
    if view.over:
        turn = "Game over."
    else:
        step = view.step.replace("_", " ")
        turn = f"{name_of(names, view.deciding, 'Nobody')} is deciding ({step})."
    flight_line = ""
    if view.flight is not None:
        f = view.flight
        state = "crashed" if f.crashed else ("landed" if f.landed else "flying")
        flight_line = (
            f"{name_of(names, f.seat)} is {state}: Distance {f.distance_so_far}, "
            f"{f.problems} of 4 Problems."
        )
    parts = [
        f"First in Flight, Year {view.year} of 4.",
        turn,
        flight_line,
        f"Records: {records}.",
        last_move(last),
    ]
    if view.viewer is not None and view.known_top:
        parts.append(f"Top of your deck: {', '.join(view.known_top)}.")
    return clip(join(parts))
