"""Player-facing words: the rules summary by topic and the one-line prompts."""

from __future__ import annotations

from rules.core import seat_ref
from rules.core.messages import plural
from rules.flight.data import card, load_data
from rules.flight.scoring import score_parts
from rules.flight.state import FlightState

_OVERVIEW = (
    "**Flight** (Pepys, 1954) — 2–5 players, a 44-card route-building game.\n"
    "Four Empire Air Routes (Canada, Australia, South Africa, India) each have an "
    "Aeroplane, Route cards 1–5 and a Safe Landing. Fly any route from its Aeroplane "
    "through stops 1–5 to a Safe Landing; the **first Safe Landing ends the hand**.\n"
    "Flights on the table are shared: anyone may extend any flight.\n"
    "Each turn: **draw** (pack or the exposed discard) → **play** → **discard** one "
    "card."
)

_TURN = (
    "**Your turn**\n"
    "1. **Draw** the top card of the pack or the exposed discard. With an empty hand, "
    "draw 3 from the pack, or 2 from the pack and the exposed discard (rule 9).\n"
    "2. **Play.** If you hold an Aeroplane you must play one Aeroplane and nothing "
    "else (rule 3a). Otherwise play as many cards as you can and wish — at least one "
    "if you are able (rule 3b). Choose a card, then (if it could go on more than one "
    "flight) the flight; **Cancel** takes the choice back. Press **Done playing** "
    "when you want to stop.\n"
    "3. **Discard** one card face up. You can never play your last card — it must be "
    "discarded — except a Safe Landing (rule 2).\n"
    "When the pack runs out, the discards except the top one are shuffled into a new "
    "pack."
)

_CARDS = (
    "**The cards** (44)\n"
    "• 4 Aeroplanes — start a flight of their colour.\n"
    "• 20 Route cards, 1–5 per route — played after the Aeroplane in numerical order, "
    "same colour. In one turn, Route cards go on one flight only (rule 4).\n"
    "• 4 Fog, 4 Customs — obstacles; 4 Alternative Route, 4 Passport — their "
    "cancellations. At most **one** of these four per turn, on any flight (rule 7); "
    "Route cards and Safe Landings are not limited by this.\n"
    "• 4 Safe Landings — interchangeable; they finish any flight."
)

_OBSTACLES = (
    "**Fog and Customs** (rules 5–6)\n"
    "• Laid beside the last Route card of a flight; Fog never beside Route 5. One "
    "uncancelled obstacle per flight at a time.\n"
    "• While uncancelled, no Route card may follow on that flight.\n"
    "• **Alternative Route** on a Fog: the fog closed the next stop, so the "
    "Alternative Route replaces the next-numbered Route card — that number is "
    "skipped.\n"
    "• **Passport** on Customs: the flight continues in unbroken numerical order."
)

_LANDING = (
    "**Safe Landing** (rule 8)\n"
    "Play a Safe Landing on a flight whose positions 1–5 are all filled (by Route "
    "cards, or one replaced by an Alternative Route) and that has no uncancelled Fog "
    "or Customs. A Customs after Route 5 needs its Passport first.\n"
    "A Safe Landing may be played even as your last card. The first Safe Landing ends "
    "the hand."
)

_SCORING = (
    "**Scoring a hand** (rule 11)\n"
    "• First player to get rid of all their cards: **+20**.\n"
    "• First Safe Landing: **+25**.\n"
    "• Both by the same player: **+5** bonus (50 in all).\n"
    "• Everyone except the Safe Landing player loses the points of the cards left in "
    "hand.\n"
    "Card points (*stand-in values*, the original faces are lost): Route n = n; "
    "Aeroplane 10; Safe Landing 10; Fog, Customs, Alternative Route, Passport 5."
)

_MATCH = (
    "**The match**\n"
    "Play to a points target (default 100) or a fixed number of hands (`match` "
    "option). The deal passes to the left each hand and the player left of the dealer "
    "starts. If the leaders are tied when the target is reached, another hand is "
    "played; after a fixed number of hands, tied leaders share the win.\n"
    "• **House rule** (not in the 1954 rules): in target mode, after 15 hands the leader "
    "wins (option `max_hands`, default 15). `max_hands:0` turns it off — the rulebook game, "
    "played until someone reaches the target."
)

TOPICS: dict[str, str] = {
    "overview": _OVERVIEW,
    "turn": _TURN,
    "cards": _CARDS,
    "obstacles": _OBSTACLES,
    "landing": _LANDING,
    "scoring": _SCORING,
    "match": _MATCH,
}


def rules_text(topic: str | None) -> str:
    """The overview or one topic; unknown topics get the overview with the topic list."""
    text = TOPICS.get(topic or "overview", _OVERVIEW)
    if topic in (None, "overview", "scoring"):
        text += f"\n-# {load_data().stand_in_note}"  # a footnote: /game rules puts it last
    return text


def prompt(state: FlightState, seat: int) -> str:
    """One line telling `seat` what to decide now."""
    if state.over:
        return "The match is over."
    if seat != state.turn:
        return "Wait for your turn."
    step = state.step
    if step.phase == "draw":
        if not state.hands[seat]:
            return "Your hand is empty: draw 3 from the pack, or 2 and the exposed discard."
        return "Draw the top card of the pack or take the exposed discard."
    if step.phase == "play":
        if step.played:
            return "Play another card, or press Done playing to discard."
        return "Play a card (you must play at least one while you can)."
    if step.phase == "target":
        assert step.pending is not None
        return f"Choose the flight for your {card(step.pending).name}, or cancel."
    if not step.played:
        return "No card can be played: discard one card to end your turn."
    return "Discard one card to end your turn."


MINUS = "\u2212"  # a real minus sign: "−3", never "-3"


def signed(n: int) -> str:
    """'+25', '−3', '0'."""
    return f"+{n}" if n > 0 else f"{MINUS}{-n}" if n < 0 else "0"


def points(n: int) -> str:
    """'1 point', '−3 points', '0 points'."""
    return f"{MINUS}{plural(-n, 'point')}" if n < 0 else plural(n, "point")


def score_breakdown(state: FlightState) -> list[str]:
    """One line per seat: what scored how much over the match, then the points of each hand.

    '{seat0}: 2 Safe Landings +50, first out of cards 1 time +20, both in one hand +5, cards
    held −12 = 63 points (by hand: +45, −3, +20).'
    """
    lines = []
    for seat, part in enumerate(score_parts(state.results, len(state.scores))):
        landings = part["landings"]
        items = [
            f"{plural(landings, 'Safe Landing')} {signed(part['landing_points'])}"
            if landings
            else "no Safe Landing"
        ]
        if part["first_outs"]:
            times = plural(part["first_outs"], "time")
            items.append(f"first out of cards {times} {signed(part['first_out_points'])}")
        if part["both"]:
            items.append(f"both in one hand {signed(part['both_points'])}")
        if part["penalties"]:
            items.append(f"cards held {signed(part['penalties'])}")
        by_hand = ", ".join(signed(r.points[seat]) for r in state.results)
        lines.append(
            f"{seat_ref(seat)}: {', '.join(items)} = {points(state.scores[seat])} "
            f"(by hand: {by_hand})."
        )
    return lines
