"""What a viewer may see: the public table, plus a seat's own looked-at cards."""

from __future__ import annotations

from collections import Counter
from typing import Literal

from rules.core import Frozen
from rules.core.words import Text, said
from rules.first_in_flight.board import end_pos, order, spaces
from rules.first_in_flight.common import card_name, data_of
from rules.first_in_flight.gustave import level
from rules.first_in_flight.keys import StepKind
from rules.first_in_flight.labels import option_cost, space_number, space_text
from rules.first_in_flight.recent import RecentByState
from rules.first_in_flight.result import result
from rules.first_in_flight.row import problem_count
from rules.first_in_flight.scoring import descend_value, flight_distance
from rules.first_in_flight.state import Player, State


class SpaceView(Frozen):
    """One board space."""

    index: int
    kind: str
    number: int  # printed Action Space number (0 for Time Spaces)
    label: Text  # a Said in memory: the bot tells it in the reader's language
    options: tuple[tuple[str, str], ...]  # (action kind, cost text) per option; () for Time


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
    text: str = ""  # what the card does (its full text)


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
    pilot_exhausted: bool  # the Pilot's limited ability is used up until it refreshes
    pilot_text: str  # the ability text of the side in play
    coins: int
    record: int
    record_year: int
    record_order: int
    record_by_year: tuple[int, ...]  # the record at the end of each finished Year, then now
    flights: int
    cards: tuple[CardView, ...]
    garage: tuple[str, str]
    deck_size: int
    composition: Composition


class RowView(Frozen):
    """A card in the Flight row."""

    card: str
    name: str
    kind: str  # glide | experience | upgrade | flaw | problem
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
    descend_at: int | None  # cards in the row when Descend was played
    descend_value: int | None  # what the Descend card counts (5 landed, 2 crashed, or modified)
    landing_left: int  # landing draws still to come
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
    gustave_record_by_year: tuple[int, ...]  # () without Gustave
    # e.g. "Advanced (+4 per Fly, +6 per Year)", a Said in memory; "" without Gustave
    gustave_level: Text
    gustave_cards: tuple[str, ...]
    display: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]
    display_texts: tuple[tuple[str, ...], ...] = ()  # each face-up card's text, as `display`
    dev_deck_sizes: tuple[int, int, int]
    upgrade_deck_size: int
    flaw_deck_size: int
    flaw_discard: tuple[str, ...]
    supply: tuple[int, int, int]
    flight: FlightView | None
    pilot_offer: tuple[str, ...]
    deciding: int | None
    step: StepKind | Literal[""]  # the kind of decision being made ("" = none)
    end_trigger: str
    over: bool
    winners: tuple[int, ...]  # winning seats once over (empty when Gustave won alone)
    gustave_won: bool
    known_top: tuple[str, ...] = ()
    looking_at: tuple[str, ...] = ()
    known_top_kinds: tuple[str, ...] = ()  # card kind (or Development type) of each known card
    looking_at_kinds: tuple[str, ...] = ()
    # (name, full text) of each Pilot or Development card the viewer is choosing between now
    card_texts: tuple[tuple[Text, Text], ...] = ()  # (name, full text), Said in memory


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


def by_year(done: tuple[int, ...], now: int, year: int, set_in: int = 0) -> tuple[int, ...]:
    """Records at the end of each finished Year, then the current one.

    States stored before Years were tracked have no history: a finished Year k then shows the
    current record when it was set by Year k, else 0 (unknown).
    """
    if len(done) < year - 1:
        done = tuple(now if 0 < set_in <= k else 0 for k in range(1, year))
    return (*done[: year - 1], now)


def _pilot(state: State, mat: Player) -> tuple[bool, str]:
    """Whether the Pilot's limited ability is used up, and the text of the side in play."""
    if not mat.pilot:
        return False, ""
    card = data_of(state).pilot(mat.pilot)
    side = card.famous if mat.famous else card.normal
    limited = [a.uses for a in side if a.limit != "none"]
    exhausted = bool(limited) and mat.pilot_used >= max(limited)
    return exhausted, " ".join(a.text for a in side if a.text)


def _seat_view(state: State, seat: int) -> SeatView:
    """A mat for the public."""
    data = data_of(state)
    mat = state.seats[seat]
    pilot_exhausted, pilot_text = _pilot(state, mat)
    return SeatView(
        seat=seat,
        pilot=mat.pilot,
        pilot_name=data.pilot(mat.pilot).name if mat.pilot else "",
        famous=mat.famous,
        pilot_exhausted=pilot_exhausted,
        pilot_text=pilot_text,
        coins=mat.coins,
        record=mat.record,
        record_year=mat.record_year,
        record_order=mat.record_seq,
        record_by_year=by_year(mat.record_by_year, mat.record, state.year, mat.record_year),
        flights=mat.flights,
        cards=tuple(
            CardView(
                card=o.card,
                name=data.dev(o.card).name,
                type=data.dev(o.card).type,
                exhausted=o.exhausted,
                text=data.dev(o.card).text,
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
                kind=data.flight(rc.card).kind,
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
        descend_at=_descend_at(state) if f.descended else None,
        descend_value=descend_value(state) if f.descended else None,
        landing_left=f.landing_left,
        crashed=f.crashed,
        landed=f.landed,
        final=f.final,
        cards_left=len(deck),
        problem_cards_left=odds,
    )


def _descend_at(state: State) -> int:
    """Where Descend sits in the row (older states: before the landing draws made)."""
    f = state.flight
    assert f is not None
    if f.descend_at >= 0:
        return f.descend_at
    return max(0, len(f.row) - (2 - f.landing_left))


_BOARDS: dict[tuple[str, int], tuple[SpaceView, ...]] = {}


def _board(state: State) -> tuple[SpaceView, ...]:
    """Every board space with its printed number and label (fixed by the card data and the
    player count, which choose the board side: built once per pair)."""
    key = (state.options.card_data, state.players)
    board = _BOARDS.get(key)
    if board is None:
        board = _BOARDS[key] = _board_spaces(state)
    return board


def _board_spaces(state: State) -> tuple[SpaceView, ...]:
    """Every board space with its printed number and label."""
    return tuple(
        SpaceView(
            index=i,
            kind=s.kind,
            number=space_number(state, i) if s.kind == "action" else 0,
            label=space_text(state, i) if s.kind == "action" else said("Time"),
            options=tuple((o.action, option_cost(o)) for o in s.options),
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


def _kind(state: State, card: str) -> str:
    """A Flight card's kind, or a Development card's type."""
    data = data_of(state)
    if card.rstrip("*") in {c.id for c in data.flight_cards}:
        return data.flight(card).kind
    return data.dev(card).type


def _gustave_level(state: State) -> str:
    """Gustave's side and what it gains, e.g. 'Advanced (+4 per Fly, +6 per Year)'."""
    if not state.gustave:
        return ""
    side: str = state.options.gustave
    if state.players == 1:
        side = "expert" if state.options.solo_expert else "advanced"
    gains = level(state)
    values = {"fly": gains.fly, "year": gains.year}
    if side == "expert":
        return said("Expert (+{fly} per Fly, +{year} per Year)", **values)
    if side == "advanced":
        return said("Advanced (+{fly} per Fly, +{year} per Year)", **values)
    return said("Standard (+{fly} per Fly, +{year} per Year)", **values)


# The public view of the last few states: a seat's view is the public one and its own looked-at
# cards, and the bot asks for the board and the mover's view of each state (the seats' mats are
# most of the work: ~0.4 ms a view).
_PUBLIC: RecentByState[GameView] = RecentByState()


def build_view(state: State, viewer: int | None) -> GameView:
    """The view for `viewer` (None = public)."""
    public = _PUBLIC.get_or_compute(state, None, _public_view)
    if viewer is None:
        return public
    top = state.steps[-1] if state.steps else None
    known = state.seats[viewer].known_top
    looking = top.cards if top is not None and top.seat == viewer else ()
    return public.model_copy(
        update={
            "viewer": viewer,
            "known_top": tuple(card_name(state, c) for c in known),
            "looking_at": tuple(card_name(state, c) for c in looking),
            "known_top_kinds": tuple(_kind(state, c) for c in known),
            "looking_at_kinds": tuple(_kind(state, c) for c in looking),
        }
    )


def _public_view(state: State) -> GameView:
    """The view nobody's own cards are in."""
    data = data_of(state)
    top = state.steps[-1] if state.steps else None
    won = result(state) if state.over else None
    trigger = {-2: "", -1: "year4"}.get(state.end_trigger, "")
    if state.end_trigger >= 0:
        trigger = "gustave" if state.end_trigger >= state.players else f"seat{state.end_trigger}"
    return GameView(
        players=state.players,
        viewer=None,
        data_name=data.name,
        stand_in=data.stand_in,
        year=state.year,
        board=_board(state),
        pawns=_pawns(state),
        seats=tuple(_seat_view(state, s) for s in range(state.players)),
        gustave_record=state.gustave_record if state.gustave else None,
        gustave_record_by_year=by_year(
            state.gustave_record_by_year, state.gustave_record, state.year
        )
        if state.gustave
        else (),
        gustave_level=_gustave_level(state),
        gustave_cards=tuple(card_name(state, c) for c in state.gustave_cards),
        display=tuple(tuple(card_name(state, c) for c in d) for d in state.display),
        display_texts=tuple(tuple(data.dev(c).text for c in d) for d in state.display),
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
        winners=won.winners if won else (),
        gustave_won=won.gustave_won if won else False,
    )
