"""Turn flow: drawing, reshuffles, the third-pass ending, changing a card and early ends.

Rulebook "2. Take a seat-/eventcard", "3. Change a card" and "End of the game".
"""

from __future__ import annotations

import re

from rules.core import Event, seat_ref
from rules.core.words import Said, said
from rules.takeoff import board as b
from rules.takeoff.data import EVENTS, card_name, sort_cards
from rules.takeoff.state import TakeoffState
from rules.takeoff.targets import can_play

HAND_LIMIT = 5
PASSES = 3
Step = tuple[TakeoffState, tuple[Event, ...]]


def set_hand(state: TakeoffState, player: int, cards: tuple[str, ...]) -> TakeoffState:
    """A copy with `player`'s hand replaced (kept in catalogue order)."""
    hands = list(state.hands)
    hands[player] = sort_cards(cards)
    return state.model_copy(update={"hands": (hands[0], hands[1])})


def without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    """`cards` with one copy of `card` taken out."""
    out = list(cards)
    out.remove(card)
    return tuple(out)


def draw(state: TakeoffState, player: int) -> Step:
    """Draw the top card; an emptied pile is reshuffled, or after the third pass drawing ends."""
    card, deck = state.deck[0], state.deck[1:]
    state = set_hand(state, player, (*state.hands[player], card))
    state = state.model_copy(update={"deck": deck})
    who = seat_ref(player)
    drawn = Event(
        kind="card_drawn",
        text=said("{who} drew a card.", who=who),
        visible_to=(player,),
        private_text=said("{who} drew {card}.", who=who, card=card_name(card)),
        reveals=True,
    )
    state, more = _after_draw(state)
    return state, (drawn, *more)


def _after_draw(state: TakeoffState) -> Step:
    """An empty pile is reshuffled from the discards; after the third pass the last turns begin."""
    if state.deck:
        return state, ()
    if state.pass_number < PASSES:
        deck, rng = state.rng.shuffled(state.discard)
        number = state.pass_number + 1
        state = state.model_copy(
            update={"deck": deck, "discard": (), "rng": rng, "pass_number": number}
        )
        text = said(
            "The discard pile was shuffled into a new draw pile (pass {number} of {passes}).",
            number=number,
            passes=PASSES,
        )
        return state, (Event(kind="deck_reshuffled", text=text, reveals=True),)
    state = state.model_copy(update={"final_round": True, "final_turns_left": 2})
    last = said(
        "The draw pile is used up for the third time: each player now gets one last "
        "optional turn without drawing."
    )
    return state, (Event(kind="last_round", text=last),)


def pass_turn(state: TakeoffState) -> TakeoffState:
    """Hand the turn to the other player with fresh per-turn bookkeeping."""
    return state.model_copy(
        update={
            "turn": 1 - state.turn,
            "turn_no": state.turn_no + 1,
            "played": False,
            "ticket_used": False,
            "rows_used": (),
            "freed": (),
            "pending": None,
        }
    )


def _mark_change(state: TakeoffState, player: int, changed: bool) -> TakeoffState:
    """Remember whether this turn was a change (the next one may not be)."""
    flags = list(state.changed_last)
    flags[player] = changed
    return state.model_copy(update={"changed_last": (flags[0], flags[1])})


def end_turn(state: TakeoffState, player: int) -> Step:
    """Finish the turn: draw one card below the hand limit, or count down the last turns."""
    who = seat_ref(player)
    if state.final_round:
        left = state.final_turns_left - 1
        ended = Event(kind="turn_ended", text=said("{who} finished their last turn.", who=who))
        state = state.model_copy(update={"final_turns_left": left})
        if left == 0:
            return finish(state, ALL_HAD_THEIR_LAST_TURN), (ended,)
        return pass_turn(state), (ended,)
    events: tuple[Event, ...] = (
        Event(kind="turn_ended", text=said("{who} ended their turn.", who=who)),
    )
    if len(state.hands[player]) < HAND_LIMIT and state.deck:
        state, drawn = draw(state, player)
        events += drawn
    state = _mark_change(state, player, False)
    return _next_turn(state, events)


def decline(state: TakeoffState, player: int) -> Step:
    """Declining the last optional turn ends the game at once (rulebook "End of the game")."""
    who = seat_ref(player)
    event = Event(kind="declined", text=said("{who} declined a last turn.", who=who))
    # The end text leads with the cause; the decline itself is the log line above (issue 15).
    return finish(state, declined_last_turn(who)), (event,)


def change(state: TakeoffState, player: int, card: str) -> Step:
    """Discard one card face up and draw one instead of playing (rulebook "3. Change a card")."""
    state = set_hand(state, player, without(state.hands[player], card))
    state = state.model_copy(update={"discard": (*state.discard, card)})
    text = said(
        "{who} changed a card, discarding {card}.", who=seat_ref(player), card=card_name(card)
    )
    state, drawn = draw(state, player)
    state = _mark_change(state, player, True)
    return _next_turn(state, (Event(kind="card_changed", text=text), *drawn))


def _next_turn(state: TakeoffState, events: tuple[Event, ...]) -> Step:
    """Pass the turn, unless nobody can ever move again."""
    state = pass_turn(state)
    if not state.final_round and is_stuck(state):
        return finish(state, STUCK), events
    return state, events


def can_ever_move(state: TakeoffState, player: int) -> bool:
    """Whether a card still in the game, or a ticket, could change the board at a turn's start."""
    pool = sort_cards((*state.hands[0], *state.hands[1], *state.deck, *state.discard))
    fresh = state.model_copy(update={"hands": (pool, pool), "rows_used": (), "freed": ()})
    if state.tickets[player] and can_play(fresh, player, "ticket"):
        return True
    kinds = sorted(set(pool))
    return any(
        can_play(fresh, player, c) for c in kinds if c not in EVENTS or EVENTS[c].kind != "pinch"
    )


def is_stuck(state: TakeoffState) -> bool:
    """Early end: neither player can ever move again, even by changing cards."""
    return not can_ever_move(state, 0) and not can_ever_move(state, 1)


def is_full(state: TakeoffState) -> bool:
    """Early end: all seats are taken."""
    return b.EMPTY not in state.board


# Why the game ended. Each end text leads with the real cause (an end by the last turns: the
# pile ran out). The state stores the English sentence (`end_reason`, since version 1);
# `told_reason` gives the Said back for it, so a stored game's ending is translated too.
ALL_HAD_THEIR_LAST_TURN = said(
    "The draw pile ran out for the third time; both players have had their last turn."
)
STUCK = said("Neither player can move any more, even by changing cards.")
FULL = said("All 72 seats are filled — ready for takeoff!")
_FIXED: dict[str, Said] = {str(s): s for s in (ALL_HAD_THEIR_LAST_TURN, STUCK, FULL)}
_DECLINED = re.compile(
    r"The draw pile ran out for the third time; then (\{seat\d+\}) declined a last turn\."
)


def declined_last_turn(who: str) -> Said:
    """The end text when a player declines the last turn."""
    return said(
        "The draw pile ran out for the third time; then {who} declined a last turn.", who=who
    )


def told_reason(reason: str) -> str:
    """The stored end text as a Said again (other text, e.g. from a newer version, as it is)."""
    if isinstance(reason, Said):
        return reason
    if reason in _FIXED:
        return _FIXED[reason]
    declined = _DECLINED.fullmatch(reason)
    return declined_last_turn(declined[1]) if declined else reason


def finish(state: TakeoffState, reason: str) -> TakeoffState:
    """The game is over."""
    return state.model_copy(update={"over": True, "end_reason": reason, "pending": None})
