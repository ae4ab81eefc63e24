"""Player-facing texts: the one-line prompt and the /rules summary topics."""

from __future__ import annotations

from rules.core import seat_ref
from rules.core.messages import plural
from rules.takeoff.data import card_name
from rules.takeoff.scoring import score_parts
from rules.takeoff.state import TakeoffState
from rules.takeoff.targets import steps

# A footnote ("-# " = Discord small print; /game rules puts footnotes last, in every game).
_STAND_IN = (
    "-# The board and card pictures were never published: the seat layout, seat-card split and "
    "card names are our stand-ins."
)

_TOPICS: dict[str, str] = {
    "overview": (
        "**Takeoff!** (Andreas Milde, 2004) — 2 players, two travel agencies filling one charter "
        "plane. Yellow and blue each seat passengers; the higher score wins, equal scores draw.\n"
        "• The plane: 12 numbered rows × 6 seats (A B C | aisle | D E F). The front rows are "
        "Business (red carpet, 3 by default), the rest Economy (blue). A *single row* is A B C or "
        "D E F of one numbered row. Window = A/F, middle = B/E, aisle = C/D.\n"
        "• Deck of 54: 10 Window, 10 Middle, 10 Aisle, 6 Business-Class, 18 events. Start with 3 "
        "cards, hold at most 5. Each player has 4 captain's tickets.\n"
        "• Your turn: play any number of cards (and at most one ticket), then draw 1 card if you "
        "hold fewer than 5 — **or**, holding exactly 5, change a card instead.\n" + _STAND_IN
    ),
    "turn": (
        "**A turn**\n"
        "• Seat card: seat your passenger on a free seat of that type. A Business seat also needs "
        "a red Business-Class card played with it.\n"
        "• Every passenger you place in one turn must go into a different numbered row (option: "
        "single row). A card placing several passengers counts once. Exception: a seat an event "
        "freed this turn may be refilled by you at once, even in a used row.\n"
        "• End your turn: draw 1 card if you hold fewer than 5.\n"
        "• Change a card: only with exactly 5 cards and instead of playing — discard one face up "
        "and draw one. Your next turn must be a play or a pass, not another change.\n"
        "• A half-built play can be cancelled until it is complete."
    ),
    "tickets": (
        "**Captain's tickets** — 4 per player, kept apart from the hand. A ticket seats a "
        "passenger on any free seat of your choice (e.g. to complete a single row). A Business "
        "seat still needs a Business-Class card. At most one ticket per turn, at any point "
        "between your cards; the different-rows rule applies. Used tickets leave the game."
    ),
    "events": (
        "**Events** act in Economy unless they say Business; they may be played only when their "
        "action can be carried out. Placements by events need no seat or Business-Class card. "
        "Removals also hit your own passengers and need not hit only occupied seats. A single "
        "row filled by one colour is *protected*: events may not break it (turning counts as "
        "breaking) — except ✔ cards: Tired captain, Stretcher, Middle seats blocked.\n"
        "Neighbours are side by side in one row (A+B, B+C, D+E, E+F); Two old friends may also "
        "sit C+D across the aisle. Stretcher: 3 consecutive Economy rows, seats A+B or E+F. "
        "Pinch a card: discard it, see your opponent's hand, take one card (play it now if you "
        "like)."
    ),
    "scoring": (
        "**Scoring** (option, default B). A single row all in one colour earns a bonus.\n"
        "• Version A: Business 2 per passenger, +4 per full single row (row = 10); Economy 1, +2 "
        "(row = 5).\n"
        "• Version B: Business aisle 5, middle 1, window 3, bonus 2 (row = 11); Economy aisle 2, "
        "middle 1, window 3, bonus 1 (row = 7).\n"
        "Higher total wins; a tie is a draw."
    ),
    "end": (
        "**End of the game**\n"
        "• When the draw pile runs out it is reshuffled from the discards. When it has been used "
        "up the third time, each player gets one last optional turn without drawing; declining "
        "ends the game at once (the end text names that cause first).\n"
        "• The game also ends as soon as all 72 seats are filled, or when neither player can "
        "move any more, even by changing cards."
    ),
}


def rules_topics() -> list[str]:
    """The topics of the rules summary."""
    return list(_TOPICS)


def rules_text(topic: str | None) -> str:
    """One topic (default: overview); unknown topics list the known ones."""
    key = (topic or "overview").strip().lower()
    if key in _TOPICS:
        return _TOPICS[key]
    return f"No topic {topic!r}. Topics: {', '.join(_TOPICS)}."


def prompt(state: TakeoffState, seat: int) -> str:
    """One line telling `seat` what to decide now."""
    if state.over:
        return f"The game is over: {state.end_reason}"
    if seat != state.turn:
        return f"Waiting for {seat_ref(state.turn)}."
    pending = state.pending
    if pending is not None:
        return _pending_prompt(state, pending.card, len(pending.picks), pending.row)
    if state.final_round:
        return "Your last turn: play cards (no drawing), or decline — declining ends the game."
    if state.played:
        return "Play more cards (each placement in a new row), or end your turn."
    return "Your turn: play cards or a ticket, then end your turn — or change a card."


def _pending_prompt(state: TakeoffState, card: str, done: int, row: int | None) -> str:
    """What the next targeting step asks for."""
    name = card_name(card)
    if card == "pinch":
        return "Pinch a card: take one card from your opponent's hand."
    if row is not None:
        return f"{name}: choose the target in row {row} (or go back)."
    if steps(card) == 2 and done == 0:
        return f"{name}: choose the opponent passenger in Economy to turn over."
    if steps(card) == 2:
        return f"{name}: choose the free Business seat for them."
    return f"{name}: choose where it acts (or cancel)."


def score_breakdown(state: TakeoffState) -> list[str]:
    """One line per player: seats and one-colour single rows per class, then the total.

    '{seat0}: Business 5 seats +14 and 1 one-colour row +4; Economy 12 seats +20 = 38 points.'
    """
    opts = state.options
    lines = []
    for seat in (0, 1):
        parts = score_parts(state.board, seat, opts.scoring, opts.business_rows)
        classes = []
        for cls in ("business", "economy"):
            said = f"{cls.capitalize()} {plural(parts[cls + '_seats'], 'seat')} "
            said += f"+{parts[cls + '_seat_points']}"
            if parts[cls + "_rows"]:
                rows = plural(parts[cls + "_rows"], "one-colour row")
                said += f" and {rows} +{parts[cls + '_row_points']}"
            classes.append(said)
        total = sum(v for k, v in parts.items() if k.endswith("_points"))
        lines.append(f"{seat_ref(seat)}: {'; '.join(classes)} = {plural(total, 'point')}.")
    return lines
