"""Setup and the Pilot draft (rulebook: Setup)."""

from __future__ import annotations

from rules.core import Action, Event, Rng
from rules.core.words import Said, said
from rules.first_in_flight.common import card_short, data_of, ev, pop, set_player, shuffled, who
from rules.first_in_flight.data import GameData, load_data
from rules.first_in_flight.keys import ChoosePilot, Key, format_key, unexpected
from rules.first_in_flight.state import (
    DEV_TYPES,
    SUPPLY,
    Options,
    Pawn,
    Player,
    State,
    Step,
)


def _expand(counts: dict[str, int]) -> list[str]:
    """A multiset of card ids from a {id: count} table."""
    return [card for card, n in counts.items() for _ in range(n)]


def new_state(seed: int, players: int, options: Options) -> State:
    """Shuffle everything, seat the pawns, deal decks, display and the Pilot offer."""
    data: GameData = load_data(options.card_data)
    has_gustave = players <= 2
    actors = players + (1 if has_gustave else 0)
    state = State(
        options=options,
        players=players,
        rng=Rng(seed=seed),
        pawns=tuple(Pawn() for _ in range(actors)),
        seats=tuple(Player() for _ in range(players)),
        gustave=has_gustave,
        supply=tuple(data.supply.get(name, 0) for name in SUPPLY),
    )
    places, state = shuffled(state, list(range(actors)))
    pawns = [Pawn(pos=-1, arrival=places.index(a)) for a in range(actors)]
    state = state.model_copy(update={"pawns": tuple(pawns), "seq": actors})
    upgrades, state = shuffled(state, _expand(data.upgrade_deck))
    flaws, state = shuffled(state, _expand(data.flaw_deck))
    state = state.model_copy(update={"upgrade_deck": upgrades, "flaw_deck": flaws})
    state = _deal_decks(state, data, places)
    state = _deal_display(state, data)
    pilots, state = shuffled(state, [p.id for p in data.pilots])
    state = state.model_copy(update={"pilot_offer": pilots[: players + 1]})
    # draft in reverse turn order: the front-most pawn picks first, so it goes on top
    seats_in_order = [a for a in places if a < players]
    steps = tuple(Step(kind="draft", seat=s) for s in seats_in_order)
    return state.model_copy(update={"steps": steps})


def _deal_decks(state: State, data: GameData, places: tuple[int, ...]) -> State:
    """Coins by starting place and a 9-card deck each (4 Glide, 1 Experience, 4 hidden flaws)."""
    supply = list(state.supply)
    for seat in range(state.players):
        coins = data.coins_by_position[places.index(seat)]
        n_flaws = data.start_deck.get("flaws", 4)
        flaws = tuple(f + "*" for f in state.flaw_deck[:n_flaws])
        state = state.model_copy(update={"flaw_deck": state.flaw_deck[n_flaws:]})
        basics = []
        for i, name in enumerate(SUPPLY):
            n = data.start_deck.get(name, 0)
            basics += [name] * n
            supply[i] -= n
        deck, state = shuffled(state, [*basics, *flaws])
        state = set_player(state, seat, coins=coins, deck=deck)
    return state.model_copy(update={"supply": tuple(supply)})


def _deal_display(state: State, data: GameData) -> State:
    """Shuffle the three Development decks and turn up the Year's display."""
    decks, display = [], []
    for kind in DEV_TYPES:
        deck, state = shuffled(state, data.dev_ids(kind))
        n = data.display.get(kind, 0)
        display.append(deck[:n])
        decks.append(deck[n:])
    return state.model_copy(update={"dev_decks": tuple(decks), "display": tuple(display)})


def draft_actions(state: State, step: Step) -> list[Action]:
    """The Pilots still on offer."""
    data = data_of(state)
    return [
        Action(
            key=format_key(ChoosePilot(p)),
            label=Said(data.pilot(p).name),
            group=said("Choose your Pilot"),
            style="primary",
            description=card_short(state, p),  # choose with the card's text in front of you
        )
        for p in state.pilot_offer
    ]


def handle_draft(state: State, step: Step, key: Key) -> tuple[State, list[Event]]:
    """Take a Pilot card (blue side up)."""
    if not isinstance(key, ChoosePilot):
        raise unexpected(key, step.kind)
    pilot = key.pilot
    offer = tuple(p for p in state.pilot_offer if p != pilot)
    state = set_player(pop(state), step.seat, pilot=pilot)
    state = state.model_copy(update={"pilot_offer": offer})
    name = Said(data_of(state).pilot(pilot).name)
    return state, [ev("pilot", said("{who} chose {pilot}.", who=who(step.seat), pilot=name))]
