"""The legal actions of each decision step, each step ≤ 25 choices (one Discord select menu).

Keys are written by rules.takeoff.keys (the one codec); see there for the wire format.
"""

from __future__ import annotations

from rules.core import Action
from rules.core.words import Said, said
from rules.takeoff import board as b
from rules.takeoff.data import card_name, card_text
from rules.takeoff.keys import (
    Back,
    Cancel,
    Change,
    Decline,
    End,
    Play,
    Row,
    Take,
    Ticket,
    format_key,
    spot_kind,
)
from rules.takeoff.state import TakeoffState
from rules.takeoff.targets import Target, can_play, targets
from rules.takeoff.turns import HAND_LIMIT
from rules.takeoff.vocab import choices

# One select menu holds 25 options; the cancel button makes the 25th action of a step.
MAX_CHOICES = 24
_GROUPS = {
    "seat": said("Choose a seat"),
    "pair": said("Choose two neighbouring seats"),
    "side": said("Choose a single row"),
    "block": said("Choose the rows"),
}
# The menus' titles (the select placeholders) of the main step.
PLAY_GROUP = said("Play a card")
CHANGE_GROUP = said("Change a card instead of playing (ends your turn)")
TAKE_GROUP = said("Take one of their cards")
ROW_GROUP = said("Choose a row")


def _short(text: Said) -> Said:
    """Fit a select-option description (≤ 100 chars)."""
    return text if len(text) <= 100 else Said(text[:99] + "…")


def playable_cards(state: TakeoffState, player: int) -> list[str]:
    """Distinct cards in hand that can be carried out now, in hand order."""
    seen: list[str] = []
    for card in state.hands[player]:
        if card not in seen and can_play(state, player, card):
            seen.append(card)
    return seen


def can_use_ticket(state: TakeoffState, player: int) -> bool:
    """A ticket is left, none used this turn, and a seat is available for it."""
    return state.tickets[player] > 0 and not state.ticket_used and can_play(state, player, "ticket")


def can_change(state: TakeoffState, player: int) -> bool:
    """Change a card: exactly 5 cards, nothing played, and last turn was no change."""
    return (
        not state.final_round
        and bool(state.deck)
        and len(state.hands[player]) == HAND_LIMIT
        and not state.played
        and not state.changed_last[player]
    )


def main_actions(state: TakeoffState, player: int) -> list[Action]:
    """Play a card, use a ticket, change a card, or end the turn."""
    out = [
        Action(
            key=format_key(Play(card)),
            label=said("Play {card}", card=card_name(card)),
            group=PLAY_GROUP,
            description=_short(card_text(card)),
        )
        for card in playable_cards(state, player)
    ]
    if can_use_ticket(state, player):
        left = state.tickets[player]
        out.append(
            Action(
                key=format_key(Ticket()),
                label=said("Use a captain's ticket ({left} left)", left=left),
                public=True,
            )
        )
    if can_change(state, player):
        out += [
            Action(
                key=format_key(Change(card)),
                label=said("Change {card}", card=card_name(card)),
                group=CHANGE_GROUP,
                description=said("Discard it face up and draw a new card."),
            )
            for card in dict.fromkeys(state.hands[player])
        ]
    out.append(_end_action(state, player))
    return out


def _end_action(state: TakeoffState, player: int) -> Action:
    """End the turn (drawing when below 5), finish a last turn, or decline it."""
    if state.final_round and not state.played:
        return Action(
            key=format_key(Decline()),
            label=said("Decline a last turn (ends the game)"),
            style="danger",
            public=True,
        )
    if state.final_round:
        return Action(
            key=format_key(End()),
            label=said("Finish my last turn"),
            style="primary",
            public=True,
        )
    draws = len(state.hands[player]) < HAND_LIMIT
    label = said("End turn and draw a card") if draws else said("End turn (hand full, no draw)")
    return Action(key=format_key(End()), label=label, style="primary", public=True)


def _target_action(target: Target) -> Action:
    """One targeting choice as a select option."""
    return Action(key=target.key, label=target.label, group=_GROUPS[spot_kind(target.key)])


def _row_of_target(target: Target) -> int:
    """The numbered row a seat or pair target lies in."""
    return b.row_of(target.seats[0])


def pending_actions(state: TakeoffState, player: int) -> list[Action]:
    """The next targeting step of the half-built play, plus back/cancel."""
    pending = state.pending
    assert pending is not None
    if pending.card == "pinch":
        opponent = state.hands[1 - player]
        return [
            Action(
                key=format_key(Take(c)),
                label=said("Take {card}", card=card_name(c)),
                group=TAKE_GROUP,
            )
            for c in dict.fromkeys(opponent)
        ]
    found = targets(state, player, pending.card, pending.picks)
    cancel = Action(key=format_key(Cancel()), label=said("Cancel this play"), style="danger")
    if pending.row is not None:
        in_row = [_target_action(t) for t in found if _row_of_target(t) == pending.row]
        back = Action(key=format_key(Back()), label=said("Back to the rows"))
        return [*in_row, back, cancel]
    if len(found) <= MAX_CHOICES:
        return [*[_target_action(t) for t in found], cancel]
    counts: dict[int, int] = {}
    for t in found:
        counts[_row_of_target(t)] = counts.get(_row_of_target(t), 0) + 1
    business = state.options.business_rows
    rows = [
        Action(
            key=format_key(Row(str(row))),
            label=_row_label(row, b.is_business_row(row, business)),
            group=ROW_GROUP,
            description=choices(n),
        )
        for row, n in sorted(counts.items())
    ]
    return [*rows, cancel]


def _row_label(row: int, business: bool) -> Said:
    """'Row 4 (Economy)'."""
    if business:
        return said("Row {row} (Business)", row=row)
    return said("Row {row} (Economy)", row=row)


def legal_actions(state: TakeoffState, player: int) -> list[Action]:
    """All legal actions of `player` now ([] when it is not their turn)."""
    if state.over or player != state.turn:
        return []
    if state.pending is not None:
        return pending_actions(state, player)
    return main_actions(state, player)
