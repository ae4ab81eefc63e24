"""Scoring a hand (rule 11) and deciding the match (target or fixed number of hands)."""

from __future__ import annotations

from rules.core import Event, seat_ref
from rules.core.words import Said, joined, said
from rules.flight.data import hand_points, route_name
from rules.flight.phrases import semicolons
from rules.flight.state import FlightOptions, FlightState, HandResult

FIRST_OUT = 20
FIRST_LANDING = 25
BOTH_BONUS = 5


def hand_score(
    hands: tuple[tuple[str, ...], ...], lander: int, first_out: int | None
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(penalties, points) per seat: +20 first out, +25 Safe Landing, +5 both, minus cards held."""
    penalties = tuple(0 if s == lander else hand_points(h) for s, h in enumerate(hands))
    points = [-p for p in penalties]
    points[lander] += FIRST_LANDING
    if first_out is not None:
        points[first_out] += FIRST_OUT
        if first_out == lander:
            points[lander] += BOTH_BONUS
    return penalties, tuple(points)


def score_hand(state: FlightState, lander: int, route: str) -> HandResult:
    """The result of the hand that `lander` just ended with a Safe Landing on `route`."""
    penalties, points = hand_score(state.hands, lander, state.first_out)
    totals = tuple(t + p for t, p in zip(state.scores, points, strict=True))
    return HandResult(
        number=state.hand_number,
        dealer=state.dealer,
        lander=lander,
        route=route,
        first_out=state.first_out,
        penalties=penalties,
        points=points,
        totals=totals,
    )


def match_winners(
    options: FlightOptions, totals: tuple[int, ...], hands_played: int
) -> tuple[int, ...]:
    """The winning seats once the match is decided, else () (another hand is dealt)."""
    best = max(totals)
    leaders = tuple(s for s, t in enumerate(totals) if t == best)
    if options.match == "hands":
        return leaders if hands_played >= options.hands else ()
    # Ruling: a tie at the top once the target is reached plays another hand.
    if best >= options.target and len(leaders) == 1:
        return leaders
    # House rule, not in the 1954 rules: the leader wins after `max_hands` hands (default 15) so a
    # play-by-post match cannot run for ever (scores can drift down). The lobby and `/game rules`
    # say so; max_hands 0 switches it off and plays the rulebook game.
    if options.max_hands and hands_played >= options.max_hands:
        return leaders
    return ()


def _signed(points: tuple[int, ...]) -> list[str]:
    """'+25', '-3', '+0' (numbers: the same in every language)."""
    return [f"{p:+d}" for p in points]


def result_event(result: HandResult) -> Event:
    """The public summary of a finished hand (it shows what was left in every hand)."""
    parts = [
        said("{who} {points} (total {total})", who=seat_ref(seat), points=change, total=total)
        for seat, (change, total) in enumerate(
            zip(_signed(result.points), result.totals, strict=True)
        )
    ]
    lines: list[Said] = [
        said(
            "Hand {number} ended: {lander} made the first Safe Landing on the {route} flight "
            "(+25).",
            number=result.number,
            lander=seat_ref(result.lander),
            route=route_name(result.route),
        )
    ]
    if result.first_out is not None:
        who = seat_ref(result.first_out)
        if result.first_out == result.lander:
            lines.append(said("{who} was first out of cards (+20) and the +5 bonus.", who=who))
        else:
            lines.append(said("{who} was first out of cards (+20).", who=who))
    lines.append(said("Scores: {scores}.", scores=semicolons(parts)))
    return Event(kind="hand_scored", text=joined(*lines), reveals=True)


def score_parts(results: tuple[HandResult, ...], seats: int) -> tuple[dict[str, int], ...]:
    """Per seat, the match points by source (they sum to the seat's total over `results`):
    Safe Landings (+25 each), first out of cards (+20 each), the both-in-one-hand bonus
    (+5 each) and the penalties for cards held (as a negative number)."""
    parts = []
    for seat in range(seats):
        landings = sum(1 for r in results if r.lander == seat)
        outs = sum(1 for r in results if r.first_out == seat)
        both = sum(1 for r in results if r.first_out == seat == r.lander)
        parts.append(
            {
                "landings": landings,
                "landing_points": landings * FIRST_LANDING,
                "first_outs": outs,
                "first_out_points": outs * FIRST_OUT,
                "both": both,
                "both_points": both * BOTH_BONUS,
                "penalties": -sum(r.penalties[seat] for r in results),
            }
        )
    return tuple(parts)
