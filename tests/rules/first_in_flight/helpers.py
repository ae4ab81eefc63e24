"""Builders for rigged First in Flight states (decks in a chosen order, pawns placed by hand)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.core import Event, Rng
from rules.first_in_flight import GAME
from rules.first_in_flight.common import set_player
from rules.first_in_flight.state import FlightState, Owned, Pawn, State, Step
from rules.first_in_flight.turns import settle
from tests.support.scenario import apply_keys

# 1–3 player board: Action Space indexes by printed number
SMALL = {
    1: 0, 2: 2, 3: 4, 4: 6, 5: 9, 6: 11, 7: 13, 8: 15, 9: 18, 10: 20,
    11: 22, 12: 24, 13: 26, 14: 28, 15: 30, 16: 33,
}  # fmt: skip
END = 36  # the start area at the end of the Year (small board)


def table(
    players: int = 3,
    pilots: Sequence[str] = ("wright", "santos_dumont", "latham", "peltier"),
    seed: int = 1,
    **options: Any,
) -> State:
    """A game after the draft: seat i has pilots[i]; pawns in seat order in the start area."""
    state = GAME.new_game(seed, players, options or None)
    for seat in range(players):
        state = set_player(state, seat, pilot=pilots[seat])
    pawns = tuple(Pawn(pos=-1, arrival=a) for a in range(len(state.pawns)))
    state = state.model_copy(update={"steps": (), "pilot_offer": (), "pawns": pawns})
    return settle(state)[0]


def with_seat(state: State, seat: int, **changes: Any) -> State:
    """Change one player's mat."""
    return set_player(state, seat, **changes)


def own(state: State, seat: int, *cards: str, exhausted: bool = False) -> State:
    """Give a seat Development cards."""
    mine = state.seats[seat].cards + tuple(Owned(card=c, exhausted=exhausted) for c in cards)
    return set_player(state, seat, cards=mine)


def place(state: State, *positions: int, standing: Sequence[bool] = ()) -> State:
    """Put pawn i on positions[i] (arrival in the given order) and start the next turn."""
    pawns = tuple(
        Pawn(pos=p, arrival=100 + i, standing=standing[i] if standing else True)
        for i, p in enumerate(positions)
    )
    state = state.model_copy(update={"pawns": pawns, "steps": (), "seq": 200, "flight": None})
    return settle(state)[0]


def flying(state: State, seat: int, deck: Sequence[str], *, final: bool = False) -> State:
    """Seat `seat` is flying with this exact deck order (top first) and nothing drawn yet."""
    state = set_player(state, seat, deck=tuple(deck), garage=("", ""))
    flight = FlightState(seat=seat, final=final)
    return state.model_copy(update={"flight": flight, "steps": (Step(kind="flight", seat=seat),)})


def act(state: State, seat: int, *keys: str) -> tuple[State, list[Event]]:
    """Apply keys in order for `seat`; return the final state and all events."""
    return apply_keys(GAME, state, seat, *keys)


def keys(state: State, seat: int | None = None) -> list[str]:
    """Legal keys of the deciding seat (or of `seat`)."""
    if seat is None:
        seat = state.steps[-1].seat
    return [a.key for a in GAME.legal_actions(state, seat)]


def reseed(state: State, seed: int) -> State:
    """Replace the RNG (to pick a shuffle outcome in a scenario)."""
    return state.model_copy(update={"rng": Rng(seed=seed)})


def texts(events: Sequence[Event]) -> str:
    """All public event lines joined."""
    return "\n".join(e.text for e in events)


def amount(card: str) -> int:
    """The n of a Development card's first numeric effect (tests follow data tuning)."""
    from rules.first_in_flight.data import load_data

    for ability in load_data().dev(card).abilities:
        for effect in ability.effects:
            n = getattr(effect, "n", None)
            if isinstance(n, int):
                return n
    raise KeyError(card)


def pilot_amount(pilot: str, famous: bool = False) -> int:
    """The n of a Pilot side's first numeric effect."""
    from rules.first_in_flight.data import load_data

    card = load_data().pilot(pilot)
    for ability in card.famous if famous else card.normal:
        for effect in ability.effects:
            n = getattr(effect, "n", None)
            if isinstance(n, int):
                return n
    raise KeyError(pilot)
