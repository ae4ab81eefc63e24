"""Player-facing words: the rules summary by topic and the one-line prompts."""

from __future__ import annotations

from rules.core import seat_ref
from rules.core.words import Said, lines, said
from rules.flight.data import card, stand_in_note
from rules.flight.phrases import (
    MINUS,
    listing,
    n_landings,
    n_points,
    n_times,
)
from rules.flight.scoring import score_parts
from rules.flight.state import FlightState

# The rules pages: one `said` per paragraph or bullet (each told on its own, line breaks kept).
_OVERVIEW = (
    said("**Flight** (Pepys, 1954) — 2–5 players, a 44-card route-building game."),
    said(
        "Four Empire Air Routes (Canada, Australia, South Africa, India) each have an Aeroplane, "
        "Route cards 1–5 and a Safe Landing. Fly any route from its Aeroplane through stops 1–5 "
        "to a Safe Landing; the **first Safe Landing ends the hand**."
    ),
    said("Flights on the table are shared: anyone may extend any flight."),
    said("Each turn: **draw** (pack or the exposed discard) → **play** → **discard** one card."),
)

_TURN = (
    said("**Your turn**"),
    said(
        "1. **Draw** the top card of the pack or the exposed discard. With an empty hand, draw "
        "3 from the pack, or 2 from the pack and the exposed discard (rule 9)."
    ),
    said(
        "2. **Play.** If you hold an Aeroplane you must play one Aeroplane and nothing else "
        "(rule 3a). Otherwise play as many cards as you can and wish — at least one if you are "
        "able (rule 3b). Choose a card, then (if it could go on more than one flight) the "
        "flight; **Cancel** takes the choice back. Press **Done playing** when you want to stop."
    ),
    said(
        "3. **Discard** one card face up. You can never play your last card — it must be "
        "discarded — except a Safe Landing (rule 2)."
    ),
    said("When the pack runs out, the discards except the top one are shuffled into a new pack."),
)

_CARDS = (
    said("**The cards** (44)"),
    said("• 4 Aeroplanes — start a flight of their colour."),
    said(
        "• 20 Route cards, 1–5 per route — played after the Aeroplane in numerical order, same "
        "colour. In one turn, Route cards go on one flight only (rule 4)."
    ),
    said(
        "• 4 Fog, 4 Customs — obstacles; 4 Alternative Route, 4 Passport — their "
        "cancellations. At most **one** of these four per turn, on any flight (rule 7); Route "
        "cards and Safe Landings are not limited by this."
    ),
    said("• 4 Safe Landings — interchangeable; they finish any flight."),
)

_OBSTACLES = (
    said("**Fog and Customs** (rules 5–6)"),
    said(
        "• Laid beside the last Route card of a flight; Fog never beside Route 5. One "
        "uncancelled obstacle per flight at a time."
    ),
    said("• While uncancelled, no Route card may follow on that flight."),
    said(
        "• **Alternative Route** on a Fog: the fog closed the next stop, so the Alternative "
        "Route replaces the next-numbered Route card — that number is skipped."
    ),
    said("• **Passport** on Customs: the flight continues in unbroken numerical order."),
)

_LANDING = (
    said("**Safe Landing** (rule 8)"),
    said(
        "Play a Safe Landing on a flight whose positions 1–5 are all filled (by Route cards, or "
        "one replaced by an Alternative Route) and that has no uncancelled Fog or Customs. A "
        "Customs after Route 5 needs its Passport first."
    ),
    said(
        "A Safe Landing may be played even as your last card. The first Safe Landing ends the hand."
    ),
)

_SCORING = (
    said("**Scoring a hand** (rule 11)"),
    said("• First player to get rid of all their cards: **+20**."),
    said("• First Safe Landing: **+25**."),
    said("• Both by the same player: **+5** bonus (50 in all)."),
    said("• Everyone except the Safe Landing player loses the points of the cards left in hand."),
    said(
        "Card points (*stand-in values*, the original faces are lost): Route n = n; Aeroplane "
        "10; Safe Landing 10; Fog, Customs, Alternative Route, Passport 5."
    ),
)

_MATCH = (
    said("**The match**"),
    said(
        "Play to a points target (default 100) or a fixed number of hands (`match` option). The "
        "deal passes to the left each hand and the player left of the dealer starts. If the "
        "leaders are tied when the target is reached, another hand is played; after a fixed "
        "number of hands, tied leaders share the win."
    ),
    said(
        "• **House rule** (not in the 1954 rules): in target mode, after 15 hands the leader "
        "wins (option `max_hands`, default 15). `max_hands:0` turns it off — the rulebook game, "
        "played until someone reaches the target."
    ),
)

TOPICS: dict[str, tuple[Said, ...]] = {
    "overview": _OVERVIEW,
    "turn": _TURN,
    "cards": _CARDS,
    "obstacles": _OBSTACLES,
    "landing": _LANDING,
    "scoring": _SCORING,
    "match": _MATCH,
}


def rules_text(topic: str | None) -> Said:
    """The overview or one topic; unknown topics get the overview with the topic list."""
    paragraphs: tuple[str, ...] = TOPICS.get(topic or "overview", _OVERVIEW)
    if topic in (None, "overview", "scoring"):
        # A footnote: /game rules puts it last.
        paragraphs = (*paragraphs, said("-# {note}", note=stand_in_note()))
    return lines(*paragraphs)


def prompt(state: FlightState, seat: int) -> Said:
    """One line telling `seat` what to decide now."""
    if state.over:
        return said("The match is over.")
    if seat != state.turn:
        return said("Wait for your turn.")
    step = state.step
    if step.phase == "draw":
        if not state.hands[seat]:
            return said("Your hand is empty: draw 3 from the pack, or 2 and the exposed discard.")
        return said("Draw the top card of the pack or take the exposed discard.")
    if step.phase == "play":
        if step.played:
            return said("Play another card, or press Done playing to discard.")
        return said("Play a card (you must play at least one while you can).")
    if step.phase == "target":
        assert step.pending is not None
        return said("Choose the flight for your {card}, or cancel.", card=card(step.pending).name)
    if not step.played:
        return said("No card can be played: discard one card to end your turn.")
    return said("Discard one card to end your turn.")


def signed(n: int) -> str:
    """'+25', '−3', '0' (a number: the same in every language)."""
    return f"+{n}" if n > 0 else f"{MINUS}{-n}" if n < 0 else "0"


def points(n: int) -> Said:
    """'1 point', '−3 points', '0 points'."""
    return n_points(-n, shown=f"{MINUS}{-n}") if n < 0 else n_points(n)


def _items(part: dict[str, int]) -> list[Said]:
    """What one seat scored over the match, by source."""
    landings = part["landings"]
    items = [
        said(
            "{landings} {points}",
            landings=n_landings(landings),
            points=signed(part["landing_points"]),
        )
        if landings
        else said("no Safe Landing")
    ]
    if part["first_outs"]:
        items.append(
            said(
                "first out of cards {times} {points}",
                times=n_times(part["first_outs"]),
                points=signed(part["first_out_points"]),
            )
        )
    if part["both"]:
        items.append(said("both in one hand {points}", points=signed(part["both_points"])))
    if part["penalties"]:
        items.append(said("cards held {points}", points=signed(part["penalties"])))
    return items


def score_breakdown(state: FlightState) -> list[str]:
    """One line per seat: what scored how much over the match, then the points of each hand.

    '{seat0}: 2 Safe Landings +50, first out of cards 1 time +20, both in one hand +5, cards
    held −12 = 63 points (by hand: +45, −3, +20).'
    """
    out: list[str] = []
    for seat, part in enumerate(score_parts(state.results, len(state.scores))):
        out.append(
            said(
                "{seat}: {items} = {points} (by hand: {by_hand}).",
                seat=seat_ref(seat),
                items=listing(_items(part)),
                points=points(state.scores[seat]),
                by_hand=", ".join(signed(r.points[seat]) for r in state.results),
            )
        )
    return out
