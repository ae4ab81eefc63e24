"""Alt text for every posted picture: whose turn, scores and the last move, in plain words."""

from __future__ import annotations

from collections.abc import Sequence

from rules.core import Outcome
from rules.core.messages import join_names, plural
from rules.first_in_flight.labels import STEP_WORDS
from rules.first_in_flight.view import GameView
from rules.flight.view import FlightGameView, FlightView
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
    scores = ", ".join(f"{name_of(names, s)} {score_in(view.scores[s], 'point')}" for s in range(2))
    if view.over:
        turn = "Game over."
    else:
        turn = f"{name_of(names, view.turn)} to move (pass {view.pass_number} of 3)."
    taken = sum(1 for row in view.rows for owner in row.seats if owner >= 0)
    parts = [
        f"Takeoff! plane, {taken} of {len(view.rows) * 6} seats taken.",
        turn,
        f"Scores: {scores}.",
        *last_seats(view),
        last_move(last),
    ]
    if view.viewer is not None:
        hand = ", ".join(c.name for c in view.hand) or "no cards"
        parts.append(f"Your hand: {hand}.")
        parts.append(placing(view))
    return clip(join(parts))


def last_seats(view: TakeoffView) -> list[str]:
    """The seats the last move changed, split into those now taken and those it emptied (a
    Stretcher or a move leaves seats free: calling them "last seats" read as taken)."""
    owners = {
        f"{row.number}{letter}": owner
        for row in view.rows
        for letter, owner in zip("ABCDEF", row.seats, strict=True)
    }
    taken = [s for s in view.last_seats if owners.get(s, -1) >= 0]
    emptied = [s for s in view.last_seats if owners.get(s, -1) < 0]
    return [
        f"Seats the last move took: {', '.join(taken)}." if taken else "",
        f"Seats the last move emptied: {', '.join(emptied)}." if emptied else "",
    ]


def placing(view: TakeoffView) -> str:
    """The card being played by the viewer: where it can go, or (a Pinch) the hand it shows."""
    if view.shown_hand:  # a Pinch look: the picture shows both hands and no plane
        theirs = ", ".join(c.name for c in view.shown_hand)
        return f"Pinch: your opponent's hand is {theirs}; take one of these cards."
    if not view.targets:
        return ""
    card = view.pending.card_name if view.pending else "It"
    return f"{card} can be played on: {', '.join(view.targets)}."


FLIGHT_PHASES = {
    "draw": "drawing",
    "play": "playing cards",
    "target": "choosing a flight",
    "discard": "discarding",
}


def flight(view: FlightGameView, names: Sequence[str], last: str = "") -> str:
    """The Flight table: hand number, whose turn, scores, routes, the viewer's hand."""
    scores = ", ".join(f"{name_of(names, s.seat)} {signed(s.score)}" for s in view.seats)
    if view.over:
        turn = "Match over; won by " + " & ".join(name_of(names, w) for w in view.winners) + "."
    else:
        turn = f"{name_of(names, view.turn)} to play ({FLIGHT_PHASES.get(view.phase, view.phase)})."
    routes = "; ".join(f"{f.name}: {route_state(f)}" for f in view.flights if f.started)
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


def route_state(f: FlightView) -> str:
    """How far a started flight is: landed, held up, or its stops and the next one (the stop
    the board frames in orange)."""
    if f.landed:
        return "landed"
    done = f"{f.next_number - 1} of 5 stops"
    if f.blocked:
        return f"{done}, held up"
    nxt = next((s for s in f.stops if s.number == f.next_number), None)
    return f"{done}, next {nxt.number} {nxt.town}" if nxt else f"{done}, next Safe Landing"


def first_in_flight(view: GameView, names: Sequence[str], last: str = "") -> str:
    """First in Flight: Year, who decides, records, the Flight in progress, the viewer's cards."""
    records = ", ".join(
        f"{name_of(names, s.seat)} {s.record}" for s in sorted(view.seats, key=lambda s: -s.record)
    )
    if view.gustave_record is not None:
        records += f", Gustave {view.gustave_record}"
    if view.over:
        turn = "Game over."
    elif view.deciding is None:
        turn = ""
    else:
        turn = f"{name_of(names, view.deciding)} is {fif_step(view.step)}."
    parts = [
        f"First in Flight, Year {view.year} of 4.",
        turn,
        fif_flight(view, names),
        f"Records: {records}.",
        last_move(last),
    ]
    if view.viewer is not None and view.known_top:
        parts.append(f"Top of your deck: {', '.join(view.known_top)}.")
    return clip(join(parts))


def fif_step(step: str) -> str:
    """What the deciding player is doing, in the status bar's words ('choosing cards')."""
    return STEP_WORDS.get(step, "deciding")


def fif_flight(view: GameView, names: Sequence[str]) -> str:
    """The Flight on the table: whose it is, how it went, its Distance and Problems."""
    if view.flight is None:
        return ""
    f = view.flight
    state = "crashed" if f.crashed else ("has landed" if f.landed else "is in the air")
    return (
        f"{name_of(names, f.seat)}'s Flight {state}: Distance {f.distance_so_far}, "
        f"{f.problems} of 4 Problems."
    )


def replay_alt(
    title: str,
    names: Sequence[str],
    turns: int,
    outcome: Outcome | None,
    *,
    score_word: str = "point",
    abandoned: bool = False,
) -> str:
    """An animated replay in words: the game, its length, who won and the final scores."""
    head = f"Animated replay of {title}, {plural(turns, 'turn')} from the deal to the "
    if outcome is not None:
        return clip(head + "end. " + result(names, outcome, score_word))
    if abandoned:
        return clip(head + "last move before it was abandoned, without a winner.")
    return clip(head + "latest move; the game is still going.")


def result(names: Sequence[str], outcome: Outcome, score_word: str = "point") -> str:
    """'alice won. Final scores: alice 42 points, bob 38 points.' (Gustave when he won)."""
    order = sorted(range(len(outcome.scores)), key=lambda s: (outcome.ranks[s], s))
    scores = ", ".join(
        f"{name_of(names, s)} {score_in(outcome.scores[s], score_word)}" for s in order
    )
    if outcome.automa_won:
        verdict = "Gustave won."
    elif outcome.is_draw:
        verdict = f"{join_names([name_of(names, s) for s in outcome.winners])} shared the win."
    else:
        verdict = f"{name_of(names, outcome.winners[0])} won."
    return f"{verdict} Final scores: {scores}."


def signed(n: int) -> str:
    """'12', '0' or '−3': a real minus sign, as the end texts write it."""
    return f"\u2212{-n}" if n < 0 else str(n)


def score_in(n: int, word: str) -> str:
    """A score in the game's own word: '12 points', '1 point', '−3 points' or 'record 44'."""
    if word == "point":
        return f"\u2212{plural(-n, 'point')}" if n < 0 else plural(n, "point")
    return f"{word} {signed(n)}"


def still_alt(heading: str, picture: str) -> str:
    """One replay frame: which turn it is, then the picture's own alt text."""
    return clip(join([heading, picture]))
