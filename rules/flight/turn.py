"""Carrying out a resolved action: draw, play, place, cancel, done, discard, and ending a hand."""

from __future__ import annotations

from rules.core import Event, seat_ref
from rules.core.words import said
from rules.flight.data import card
from rules.flight.deck import dealt_event, discard, draw_pack, new_hand_state, take_discard
from rules.flight.keys import Cancel, Discard, Done, Draw, DrawSource, Key, Play, To
from rules.flight.phrases import and_names, n_points
from rules.flight.plays import lay_card, playable_cards, targets
from rules.flight.scoring import match_winners, result_event, score_hand
from rules.flight.state import FlightState, Step

Result = tuple[FlightState, list[Event]]


def _after_plays(state: FlightState, seat: int) -> FlightState:
    """Stay in the play step while a card is playable, else move on to the discard."""
    step = state.step
    more = not step.aeroplane and bool(playable_cards(state, seat))
    phase = "play" if more else "discard"
    return state.model_copy(update={"step": step.model_copy(update={"phase": phase})})


def do_draw(state: FlightState, seat: int, source: DrawSource) -> Result:
    """Rule 2 / rule 9: draw one card, or three when the hand was empty."""
    events: list[Event] = []
    if source == "pack":
        state, events = draw_pack(state, seat, 1)
    elif source == "pack3":
        state, events = draw_pack(state, seat, 3)
    else:
        if source == "pack2+discard":
            state, events = draw_pack(state, seat, 2)
        state, taken = take_discard(state, seat)
        events.append(taken)
    state = state.model_copy(update={"step": Step(phase="play")})
    return _after_plays(state, seat), events


def do_play(state: FlightState, seat: int, code: str) -> Result:
    """Choose a card: lay it at once when it has one place, else ask where."""
    spots = targets(state, code)
    if len(spots) == 1:
        return do_place(state, seat, code, spots[0])
    step = state.step.model_copy(update={"phase": "target", "pending": code})
    return state.model_copy(update={"step": step}), []


def do_place(state: FlightState, seat: int, code: str, route: str) -> Result:
    """Lay the card; a Safe Landing ends the hand (rule 10)."""
    state, event = lay_card(state, seat, code, route)
    if card(code).kind == "landing":
        return end_hand(state, seat, route, [event])
    return _after_plays(state, seat), [event]


def do_cancel(state: FlightState) -> Result:
    """Drop the half-chosen play and go back to choosing a card."""
    step = state.step.model_copy(update={"phase": "play", "pending": None})
    return state.model_copy(update={"step": step}), []


def do_done(state: FlightState) -> Result:
    """Stop playing and move to the discard."""
    step = state.step.model_copy(update={"phase": "discard"})
    return state.model_copy(update={"step": step}), []


def _mark_first_out(state: FlightState, seat: int) -> tuple[FlightState, list[Event]]:
    """Rule 11: remember the first player to get rid of all their cards."""
    if state.hands[seat] or state.first_out is not None:
        return state, []
    text = said("{who} was the first to run out of cards.", who=seat_ref(seat))
    event = Event(kind="first_out", text=text)
    return state.model_copy(update={"first_out": seat}), [event]


def do_discard(state: FlightState, seat: int, code: str) -> Result:
    """Rule 2: discard, then the next player (to the left) draws."""
    state, event = discard(state, seat, code)
    state, out = _mark_first_out(state, seat)
    turn = (seat + 1) % state.players
    return state.model_copy(update={"turn": turn, "step": Step()}), [event, *out]


def end_hand(state: FlightState, lander: int, route: str, events: list[Event]) -> Result:
    """Rules 10–11: score the hand, then finish the match or deal the next hand."""
    state, out = _mark_first_out(state, lander)
    events = [*events, *out]
    result = score_hand(state, lander, route)
    results = (*state.results, result)
    events.append(result_event(result))
    winners = match_winners(state.options, result.totals, len(results))
    if winners:
        step = Step(phase="over")
        state = state.model_copy(
            update={"scores": result.totals, "results": results, "winners": winners, "step": step}
        )
        text = said(
            "{who} won the match with {points}.",
            who=and_names([seat_ref(w) for w in winners]),
            points=n_points(max(result.totals)),
        )
        events.append(Event(kind="match_won", text=text))
        return state, events
    nxt = new_hand_state(
        state.players,
        state.options,
        state.rng,
        dealer=(state.dealer + 1) % state.players,
        hand_number=state.hand_number + 1,
        scores=result.totals,
    )
    nxt = nxt.model_copy(update={"results": results})
    return nxt, [*events, dealt_event(nxt)]


def apply_key(state: FlightState, seat: int, key: Key) -> Result:
    """Dispatch a legal typed key to its effect."""
    match key:
        case Draw(source):
            return do_draw(state, seat, source)
        case Play(code):
            return do_play(state, seat, code)
        case To(route):
            assert state.step.pending is not None
            return do_place(state, seat, state.step.pending, route)
        case Cancel():
            return do_cancel(state)
        case Done():
            return do_done(state)
        case Discard(code):
            return do_discard(state, seat, code)
