"""Player-facing texts: the one-line prompt and the /rules summary topics."""

from __future__ import annotations

from collections.abc import Callable

from rules.core import seat_ref
from rules.core.words import Said, lines, said
from rules.takeoff.data import card_name
from rules.takeoff.scoring import score_parts
from rules.takeoff.state import TakeoffState
from rules.takeoff.targets import steps
from rules.takeoff.turns import told_reason
from rules.takeoff.vocab import one_colour_rows, points, seats

# A footnote ("-# " = Discord small print; /game rules puts footnotes last, in every game).
_STAND_IN = said(
    "-# The board and card pictures were never published: the seat layout, seat-card split and "
    "card names are our stand-ins."
)


def _overview() -> Said:
    """The game in five lines."""
    return lines(
        said(
            "**Takeoff!** (Andreas Milde, 2004) — 2 players, two travel agencies filling one "
            "charter plane. Yellow and blue each seat passengers; the higher score wins, equal "
            "scores draw."
        ),
        said(
            "• The plane: 12 numbered rows × 6 seats (A B C | aisle | D E F). The front rows are "
            "Business (red carpet, 3 by default), the rest Economy (blue). A *single row* is A B C "
            "or D E F of one numbered row. Window = A/F, middle = B/E, aisle = C/D."
        ),
        said(
            "• Deck of 54: 10 Window, 10 Middle, 10 Aisle, 6 Business-Class, 18 events. Start "
            "with 3 cards, hold at most 5. Each player has 4 captain's tickets."
        ),
        said(
            "• Your turn: play any number of cards (and at most one ticket), then draw 1 card if "
            "you hold fewer than 5 — **or**, holding exactly 5, change a card instead."
        ),
        _STAND_IN,
    )


def _turn() -> Said:
    """A turn, step by step."""
    return lines(
        said("**A turn**"),
        said(
            "• Seat card: seat your passenger on a free seat of that type. A Business seat also "
            "needs a red Business-Class card played with it."
        ),
        said(
            "• Every passenger you place in one turn must go into a different numbered row "
            "(option: single row). A card placing several passengers counts once. Exception: a "
            "seat an event freed this turn may be refilled by you at once, even in a used row."
        ),
        said("• End your turn: draw 1 card if you hold fewer than 5."),
        said(
            "• Change a card: only with exactly 5 cards and instead of playing — discard one face "
            "up and draw one. Your next turn must be a play or a pass, not another change."
        ),
        said("• A half-built play can be cancelled until it is complete."),
    )


def _tickets() -> Said:
    """The captain's tickets."""
    return lines(
        said(
            "**Captain's tickets** — 4 per player, kept apart from the hand. A ticket seats a "
            "passenger on any free seat of your choice (e.g. to complete a single row). A Business "
            "seat still needs a Business-Class card. At most one ticket per turn, at any point "
            "between your cards; the different-rows rule applies. Used tickets leave the game."
        )
    )


def _events() -> Said:
    """How event cards act."""
    return lines(
        said(
            "**Events** act in Economy unless they say Business; they may be played only when "
            "their action can be carried out. Placements by events need no seat or Business-Class "
            "card. Removals also hit your own passengers and need not hit only occupied seats. A "
            "single row filled by one colour is *protected*: events may not break it (turning "
            "counts as breaking) — except ✔ cards: Tired captain, Stretcher, Middle seats blocked."
        ),
        said(
            "Neighbours are side by side in one row (A+B, B+C, D+E, E+F); Two old friends may "
            "also sit C+D across the aisle. Stretcher: 3 consecutive Economy rows, seats A+B or "
            "E+F. Pinch a card: discard it, see your opponent's hand, take one card (play it now "
            "if you like)."
        ),
    )


def _scoring() -> Said:
    """Versions A and B."""
    return lines(
        said("**Scoring** (option, default B). A single row all in one colour earns a bonus."),
        said(
            "• Version A: Business 2 per passenger, +4 per full single row (row = 10); Economy 1, "
            "+2 (row = 5)."
        ),
        said(
            "• Version B: Business aisle 5, middle 1, window 3, bonus 2 (row = 11); Economy aisle "
            "2, middle 1, window 3, bonus 1 (row = 7)."
        ),
        said("Higher total wins; a tie is a draw."),
    )


def _end() -> Said:
    """How the game ends."""
    return lines(
        said("**End of the game**"),
        said(
            "• When the draw pile runs out it is reshuffled from the discards. When it has been "
            "used up the third time, each player gets one last optional turn without drawing; "
            "declining ends the game at once (the end text names that cause first)."
        ),
        said(
            "• The game also ends as soon as all 72 seats are filled, or when neither player can "
            "move any more, even by changing cards."
        ),
    )


# Topic names stay English: they are `/game rules topic:` keys.
_TOPICS: dict[str, Callable[[], Said]] = {
    "overview": _overview,
    "turn": _turn,
    "tickets": _tickets,
    "events": _events,
    "scoring": _scoring,
    "end": _end,
}


def rules_topics() -> list[str]:
    """The topics of the rules summary."""
    return list(_TOPICS)


def rules_text(topic: str | None) -> str:
    """One topic (default: overview); unknown topics list the known ones."""
    key = (topic or "overview").strip().lower()
    if key in _TOPICS:
        return _TOPICS[key]()
    return said("No topic {topic}. Topics: {topics}.", topic=repr(topic), topics=", ".join(_TOPICS))


def prompt(state: TakeoffState, seat: int) -> str:
    """One line telling `seat` what to decide now."""
    if state.over:
        return said("The game is over: {reason}", reason=told_reason(state.end_reason))
    if seat != state.turn:
        return said("Waiting for {who}.", who=seat_ref(state.turn))
    pending = state.pending
    if pending is not None:
        return _pending_prompt(state, pending.card, len(pending.picks), pending.row)
    if state.final_round:
        return said(
            "Your last turn: play cards (no drawing), or decline — declining ends the game."
        )
    if state.played:
        return said("Play more cards (each placement in a new row), or end your turn.")
    return said("Your turn: play cards or a ticket, then end your turn — or change a card.")


def _pending_prompt(state: TakeoffState, card: str, done: int, row: int | None) -> str:
    """What the next targeting step asks for."""
    name = card_name(card)
    if card == "pinch":
        return said("Pinch a card: take one card from your opponent's hand.")
    if row is not None:
        return said("{card}: choose the target in row {row} (or go back).", card=name, row=row)
    if steps(card) == 2 and done == 0:
        return said("{card}: choose the opponent passenger in Economy to turn over.", card=name)
    if steps(card) == 2:
        return said("{card}: choose the free Business seat for them.", card=name)
    return said("{card}: choose where it acts (or cancel).", card=name)


def score_breakdown(state: TakeoffState) -> list[str]:
    """One line per player: seats and one-colour single rows per class, then the total.

    '{seat0}: Business 5 seats +14 and 1 one-colour row +4; Economy 12 seats +20 = 38 points.'
    """
    opts = state.options
    told: list[str] = []
    for seat in (0, 1):
        parts = score_parts(state.board, seat, opts.scoring, opts.business_rows)
        total = sum(v for k, v in parts.items() if k.endswith("_points"))
        told.append(
            said(
                "{who}: {business}; {economy} = {total}.",
                who=seat_ref(seat),
                business=_class_score(parts, "business"),
                economy=_class_score(parts, "economy"),
                total=points(total),
            )
        )
    return told


def _class_score(parts: dict[str, int], cls: str) -> Said:
    """'Business 5 seats +14 and 1 one-colour row +4' (the row part only when there is one)."""
    seated, seat_points = seats(parts[cls + "_seats"]), parts[cls + "_seat_points"]
    rows, row_points = parts[cls + "_rows"], parts[cls + "_row_points"]
    if cls == "business" and rows:
        return said(
            "Business {seats} +{points} and {rows} +{row_points}",
            seats=seated,
            points=seat_points,
            rows=one_colour_rows(rows),
            row_points=row_points,
        )
    if cls == "business":
        return said("Business {seats} +{points}", seats=seated, points=seat_points)
    if rows:
        return said(
            "Economy {seats} +{points} and {rows} +{row_points}",
            seats=seated,
            points=seat_points,
            rows=one_colour_rows(rows),
            row_points=row_points,
        )
    return said("Economy {seats} +{points}", seats=seated, points=seat_points)
