"""What a viewer may see: the public table, plus a seat's own looked-at cards."""

from __future__ import annotations

from collections import Counter

from rules.core import Frozen
from rules.first_in_flight.board import end_pos, order, spaces
from rules.first_in_flight.common import card_name, data_of
from rules.first_in_flight.labels import space_number, space_text
from rules.first_in_flight.row import problem_count
from rules.first_in_flight.scoring import flight_distance
from rules.first_in_flight.state import State


class SpaceView(Frozen):
    """One board space."""

    index: int
    kind: str
    number: int  # printed Action Space number (0 for Time Spaces)
    label: str


class PawnView(Frozen):
    """A pawn: seat (None = Gustave), position (-1 / len(board) = start area), turn order."""

    seat: int | None
    pos: int
    standing: bool
    turn_order: int  # 0 = acts next among those on the board; same space: arrival order
    in_start_area: bool


class CardView(Frozen):
    """A Development card in a play area."""

    card: str
    name: str
    type: str
    exhausted: bool


class Composition(Frozen):
    """A deck's known make-up: counts by type; unrevealed flaws counted, not named."""

    glide: int = 0
    experience: int = 0
    basic_problem: int = 0
    upgrades: tuple[tuple[int, int], ...] = ()  # (value, count)
    flaws: tuple[tuple[str, int], ...] = ()  # revealed flaws by name
    unrevealed_flaws: int = 0


class SeatView(Frozen):
    """One player's mat as everyone sees it."""

    seat: int
    pilot: str
    pilot_name: str
    famous: bool
    coins: int
    record: int
    record_year: int
    record_order: int
    flights: int
    cards: tuple[CardView, ...]
    garage: tuple[str, str]
    deck_size: int
    composition: Composition


class RowView(Frozen):
    """A card in the Flight row."""

    card: str
    name: str
    distance: int
    problems: int
    ignored: bool
    cancelled: bool


class FlightView(Frozen):
    """The Flight in progress."""

    seat: int
    row: tuple[RowView, ...]
    problems: int
    distance_so_far: int
    descended: bool
    crashed: bool
    landed: bool
    final: bool
    cards_left: int
    problem_cards_left: int | None  # odds aid (only when the option is on)


class GameView(Frozen):
    """The public view (viewer None) or a seat's view (adds `known_top` and `looking_at`)."""

    players: int
    viewer: int | None
    data_name: str
    stand_in: bool
    year: int
    board: tuple[SpaceView, ...]
    pawns: tuple[PawnView, ...]
    seats: tuple[SeatView, ...]
    gustave_record: int | None
    gustave_cards: tuple[str, ...]
    display: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]
    dev_deck_sizes: tuple[int, int, int]
    upgrade_deck_size: int
    flaw_deck_size: int
    flaw_discard: tuple[str, ...]
    supply: tuple[int, int, int]
    flight: FlightView | None
    pilot_offer: tuple[str, ...]
    deciding: int | None
    step: str
    end_trigger: str
    over: bool
    known_top: tuple[str, ...] = ()
    looking_at: tuple[str, ...] = ()


def composition(state: State, seat: int) -> Composition:
    """Counts by card type of deck, Garage and (when flying) the Flight row."""
    data = data_of(state)
    mat = state.seats[seat]
    cards = [*mat.deck, *(g for g in mat.garage if g)]
    if state.flight is not None and state.flight.seat == seat:
        cards += [rc.card for rc in state.flight.row]
    kinds = Counter(c for c in cards if not c.endswith("*"))
    upgrades = sorted(
        (data.flight(c).distance, n) for c, n in kinds.items() if data.flight(c).kind == "upgrade"
    )
    flaws = sorted(
        (data.flight(c).name, n) for c, n in kinds.items() if data.flight(c).kind == "flaw"
    )
    return Composition(
        glide=kinds.get("glide", 0),
        experience=kinds.get("experience", 0),
        basic_problem=kinds.get("basic_problem", 0),
        upgrades=tuple(upgrades),
        flaws=tuple(flaws),
        unrevealed_flaws=sum(1 for c in cards if c.endswith("*")),
    )


def _seat_view(state: State, seat: int) -> SeatView:
    """A mat for the public."""
    data = data_of(state)
    mat = state.seats[seat]
    return SeatView(
        seat=seat,
        pilot=mat.pilot,
        pilot_name=data.pilot(mat.pilot).name if mat.pilot else "",
        famous=mat.famous,
        coins=mat.coins,
        record=mat.record,
        record_year=mat.record_year,
        record_order=mat.record_seq,
        flights=mat.flights,
        cards=tuple(
            CardView(
                card=o.card,
                name=data.dev(o.card).name,
                type=data.dev(o.card).type,
                exhausted=o.exhausted,
            )
            for o in mat.cards
        ),
        garage=tuple(card_name(state, g) if g else "" for g in mat.garage),
        deck_size=len(mat.deck),
        composition=composition(state, seat),
    )


def _flight_view(state: State) -> FlightView | None:
    """The current Flight row and its running totals."""
    f = state.flight
    if f is None:
        return None
    data = data_of(state)
    deck = state.seats[f.seat].deck
    odds = sum(1 for c in deck if data.flight(c).problems) if state.options.odds_aid else None
    return FlightView(
        seat=f.seat,
        row=tuple(
            RowView(
                card=rc.card,
                name=data.flight(rc.card).name,
                distance=data.flight(rc.card).distance + rc.bonus,
                problems=data.flight(rc.card).problems,
                ignored=rc.ignored,
                cancelled=rc.cancelled,
            )
            for rc in f.row
        ),
        problems=problem_count(state),
        distance_so_far=f.distance if f.done else flight_distance(state)[0],
        descended=f.descended,
        crashed=f.crashed,
        landed=f.landed,
        final=f.final,
        cards_left=len(deck),
        problem_cards_left=odds,
    )


def _board(state: State) -> tuple[SpaceView, ...]:
    """Every board space with its printed number and label."""
    return tuple(
        SpaceView(
            index=i,
            kind=s.kind,
            number=space_number(state, i) if s.kind == "action" else 0,
            label=space_text(state, i) if s.kind == "action" else "Time",
        )
        for i, s in enumerate(spaces(state))
    )


def _pawns(state: State) -> tuple[PawnView, ...]:
    """Pawns with their place in turn order."""
    end = end_pos(state)
    ranks = {a: i for i, a in enumerate(order(state))}
    return tuple(
        PawnView(
            seat=a if a < state.players else None,
            pos=p.pos,
            standing=p.standing,
            turn_order=ranks[a],
            in_start_area=p.pos < 0 or p.pos >= end,
        )
        for a, p in enumerate(state.pawns)
    )


def build_view(state: State, viewer: int | None) -> GameView:
    """The view for `viewer` (None = public)."""
    data = data_of(state)
    top = state.steps[-1] if state.steps else None
    trigger = {-2: "", -1: "year4"}.get(state.end_trigger, "")
    if state.end_trigger >= 0:
        trigger = "gustave" if state.end_trigger >= state.players else f"seat{state.end_trigger}"
    known: tuple[str, ...] = ()
    looking: tuple[str, ...] = ()
    if viewer is not None:
        known = tuple(card_name(state, c) for c in state.seats[viewer].known_top)
        if top is not None and top.seat == viewer:
            looking = tuple(card_name(state, c) for c in top.cards)
    return GameView(
        players=state.players,
        viewer=viewer,
        data_name=data.name,
        stand_in=data.stand_in,
        year=state.year,
        board=_board(state),
        pawns=_pawns(state),
        seats=tuple(_seat_view(state, s) for s in range(state.players)),
        gustave_record=state.gustave_record if state.gustave else None,
        gustave_cards=tuple(card_name(state, c) for c in state.gustave_cards),
        display=tuple(tuple(card_name(state, c) for c in d) for d in state.display),
        dev_deck_sizes=tuple(len(d) for d in state.dev_decks),
        upgrade_deck_size=len(state.upgrade_deck),
        flaw_deck_size=len(state.flaw_deck),
        flaw_discard=tuple(card_name(state, c) for c in state.flaw_discard),
        supply=state.supply,
        flight=_flight_view(state),
        pilot_offer=tuple(data.pilot(p).name for p in state.pilot_offer)
        if top and top.kind == "draft"
        else (),
        deciding=top.seat if top is not None else None,
        step=top.kind if top is not None else "",
        end_trigger=trigger,
        over=state.over,
        known_top=known,
        looking_at=looking,
    )
