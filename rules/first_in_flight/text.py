"""Texts: the outcome, prompts, refusals and the player-facing rules summary."""

from __future__ import annotations

from rules.core import Ending, IllegalActionError, Outcome
from rules.core.model import Param, Winner
from rules.first_in_flight.common import data_of, who
from rules.first_in_flight.keys import Descend, Draw, Key, Move, StartArea, parse_key
from rules.first_in_flight.result import gustave_shares, result
from rules.first_in_flight.state import State

PROMPTS = {
    "draft": "Choose your Pilot.",
    "turn": "Your turn: move to an Action Space (or the start area), or use an ability.",
    "space": "Choose the space whose action you take.",
    "option": "Choose which action of this space you take.",
    "any_target": "Any Action: choose the space to copy.",
    "copy_option": "Choose which action of the copied space you take.",
    "repair_slot": "Choose the Garage flaw to repair.",
    "pay": "Choose how to pay.",
    "dev": "Take a face-up card or the top of the deck.",
    "abilities": "Choose an ability to use.",
    "copy": "Choose the ability to copy.",
    "ignore": "Choose the revealed Problem to ignore.",
    "refresh": "Choose the Skill to refresh.",
    "look": "Rearrange the cards you looked at.",
    "pick": "Choose the card to gain.",
    "flight": "You are flying: draw, Descend, or use an ability.",
    "cleanup": "Move up to 2 revealed Design Flaws to your Garage.",
}

TOPICS = {
    "overview": (
        "**First in Flight** — race to fly 40. On your turn (the pawn farthest back acts) move "
        "forward to any free Action Space you can pay for, pay Money or Time (never split), and "
        "take its action. Time moves your pawn over Time Spaces. A crashed pawn must Recover "
        "(2 Time). When everyone reaches the start area the Year ends: Michelin Cup 7/5/4 by "
        "record, new Development cards, exhausted cards refresh. A record of 40+ or the end of "
        "Year 4 triggers one final Flight each; the best record wins (the 40-trigger wins ties).\n"
        'Ruling: at the end of Year 4 "the Game will immediately end" — no Year-end steps, so '
        "no Cup and Gustave gains nothing then (he still flies once more)."
    ),
    "fly": (
        "**Fly** — shuffle your deck (with Garage flaws), reset Skills, draw one card at a time. "
        "4 Problems = crash (your pawn lies down). After at least one draw you may Descend: "
        "shuffle the rest and draw exactly 2; land = Descend counts 5, crash while landing = 2. "
        "No Skills or exhaust abilities after Descending. Distance counts even on a crash; your "
        "record is your best single Flight; 15+ makes you Famous. Then put up to 2 revealed "
        "Design Flaws in your Garage (left slot is cheaper to Repair)."
    ),
    "actions": (
        "**Actions** — Repair: a Garage flaw → Design Flaw discard, gain a Basic Flight Problem "
        "and the flaw's Repair Bonus (right slot +1 Time). Upgrade: pay X≥2, look at X Upgrade "
        "cards, gain 2, gain a face-down Design Flaw. Glide (free) or Experience. Funding: take "
        "coins. Development: a face-up card or the deck's top. Any: copy a space, +1 Money."
    ),
    "flaws": (
        "**Design Flaws** — Delicate Wing Structure: 2 Problems if it is the first Problem. "
        "Pitch Instability: exhaust a Skill or Descend. Power Failure: at scoring the largest "
        "Upgrade counts 2. Unreliable Elevator Control: if the next card added is a Glide, "
        "scrap it."
    ),
    "gustave": (
        "**Gustave** (2 players; solo) — when last, he moves to the next free Action Space: "
        "Fly/Any raises his record (+3 Standard, +4 Advanced; solo expert +5); a Development "
        "space removes the last face-up card (Technology over Friend). Year end: +4/+6 (+7). "
        "He ranks for the Cup without coins, can trigger the end at 40 and flies once more. "
        "If his record is the highest he wins and the players compete for 2nd place "
        "(solo: you must beat him; a tie is yours only if you reached 40 first)."
    ),
    "data": (
        "Card data: unofficial stand-in set. The rulebook gives every rule but not the card "
        "texts or board layout; Hangar ships invented stand-ins a server owner may replace."
    ),
}


def topics() -> list[str]:
    """Known rules topics."""
    return list(TOPICS)


def rules_text(topic: str | None) -> str:
    """A rules topic (the overview by default)."""
    body = TOPICS.get(topic or "overview", TOPICS["overview"])
    return body + "\n-# Card data: unofficial stand-in set."  # a footnote, as in every game


def prompt(state: State, seat: int) -> str:
    """One line for the deciding seat."""
    if state.over:
        return "The game is over."
    if not state.steps or state.steps[-1].seat != seat:
        return "Waiting for another player."
    step = state.steps[-1]
    if step.kind == "flight" and state.flight is not None:
        if state.flight.pitch:
            return "Pitch Instability: exhaust a Skill (no effect) or Descend."
        if state.flight.final:
            return "Your final Flight: draw, Descend, or use an ability."
    if step.kind == "turn" and not state.pawns[seat].standing:
        return "Your pawn crashed: Recover (pay 2 Time) to stand it up."
    if step.kind == "space" and step.via == "fame":
        return "Fame Benefit: take an Any Action now (no surcharge), or skip it."
    return PROMPTS.get(step.kind, "Choose your action.")


def explain_illegal(state: State, seat: int, key: str) -> str:
    """A precise refusal."""
    step = state.steps[-1]
    try:
        parsed: Key | None = parse_key(key, step.kind)
    except IllegalActionError:
        parsed = None
    match parsed:
        case Move() | StartArea() if step.kind == "flight":
            return "You are flying: draw a card, Descend or use an ability first."
        case Move():
            return "You cannot move there: it is behind you, occupied, or you cannot pay its cost."
        case Descend():
            return "You must draw at least one card before you Descend."
        case Draw():
            return "You cannot draw now (your deck is empty or you must resolve Pitch Instability)."
    return ""  # anything else: the shared refusal (rules.core.messages) says all there is


def outcome(state: State) -> Outcome:
    """Highest record wins; a tie goes to the player who reached 40 first, else shared.

    When Gustave wins, no seat wins: the players rank from 2 and the ending names him.
    """
    won = result(state)
    scores = tuple(m.record for m in state.seats)
    return Outcome(scores=scores, ranks=won.ranks, winners=won.winners, ending=ending(state))


def ending(state: State) -> Ending:
    """Who won and why, as data, with its sentence made from that data."""
    won = result(state)
    best = max(m.record for m in state.seats)
    params: dict[str, Param] = {
        "best": best,
        "leaders": tuple(s for s in range(state.players) if state.seats[s].record == best),
        "winners": won.winners,
        "gustave": state.gustave_record,
        "stand_in": int(data_of(state).stand_in),
    }
    winner: Winner = "draw" if len(won.winners) > 1 else "seats"
    kind = "highest_record"
    if won.gustave_won:
        kind, winner = "gustave_record", "automa"
    elif gustave_shares(state):
        kind, winner = "shared_with_gustave", "draw"
    data = Ending(winner=winner, kind=kind, params=params)
    return data.model_copy(update={"text": ending_text(data)})


def ending_text(data: Ending) -> str:
    """The sentence for an ending (seat placeholders are filled in by the bot)."""
    p = data.params

    def names(key: str) -> str:
        seats = p[key]
        assert isinstance(seats, tuple)
        return ", ".join(who(s) for s in seats)

    if data.kind == "gustave_record":
        text = (
            f"Gustave won with a record of {p['gustave']}."
            f" Best player record: {p['best']} by {names('leaders')}."
        )
    else:
        text = f"Highest record: {names('winners')} with {p['best']}."
        if data.kind == "shared_with_gustave":
            text += f" Gustave shares the victory with {p['gustave']}."
    if p["stand_in"]:
        text += " (Card data: unofficial stand-in set.)"
    return text
