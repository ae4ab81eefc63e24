"""Texts: the outcome, prompts, refusals and the player-facing rules summary."""

from __future__ import annotations

from rules.core import Ending, IllegalActionError, Outcome
from rules.core.model import Param, Winner
from rules.core.words import joined, lines, said
from rules.first_in_flight.common import data_of, who
from rules.first_in_flight.keys import Descend, Draw, Key, Move, StartArea, parse_key
from rules.first_in_flight.result import gustave_shares, result
from rules.first_in_flight.state import State
from rules.first_in_flight.words import listed

PROMPTS = {
    "draft": said("Choose your Pilot."),
    "turn": said("Your turn: move to an Action Space (or the start area), or use an ability."),
    "space": said("Choose the space whose action you take."),
    "option": said("Choose which action of this space you take."),
    "any_target": said("Any Action: choose the space to copy."),
    "copy_option": said("Choose which action of the copied space you take."),
    "repair_slot": said("Choose the Garage flaw to repair."),
    "pay": said("Choose how to pay."),
    "dev": said("Take a face-up card or the top of the deck."),
    "abilities": said("Choose an ability to use."),
    "copy": said("Choose the ability to copy."),
    "ignore": said("Choose the revealed Problem to ignore."),
    "refresh": said("Choose the Skill to refresh."),
    "look": said("Rearrange the cards you looked at."),
    "pick": said("Choose the card to gain."),
    "flight": said("You are flying: draw, Descend, or use an ability."),
    "cleanup": said("Move up to 2 revealed Design Flaws to your Garage."),
}

STAND_IN = said("Card data: unofficial stand-in set.")

# One said per paragraph (each translated on its own); "" is a blank line.
TOPICS = {
    "overview": (
        said(
            "**First in Flight** — race to fly 40. On your turn (the pawn farthest back acts) move "
            "forward to any free Action Space you can pay for, pay Money or Time (never split), "
            "and take its action. Time moves your pawn over Time Spaces. A crashed pawn must "
            "Recover (2 Time). When everyone reaches the start area the Year ends: Michelin Cup "
            "7/5/4 by record, new Development cards, exhausted cards refresh. A record of 40+ or "
            "the end of Year 4 triggers one final Flight each; the best record wins (the "
            "40-trigger wins ties)."
        ),
        said(
            'Ruling: at the end of Year 4 "the Game will immediately end" — no Year-end steps, so '
            "no Cup and Gustave gains nothing then (he still flies once more)."
        ),
    ),
    "fly": (
        said(
            "**Fly** — shuffle your deck (with Garage flaws), reset Skills, draw one card at a "
            "time. 4 Problems = crash (your pawn lies down). After at least one draw you may "
            "Descend: shuffle the rest and draw exactly 2; land = Descend counts 5, crash while "
            "landing = 2. No Skills or exhaust abilities after Descending. Distance counts even on "
            "a crash; your record is your best single Flight; 15+ makes you Famous. Then put up "
            "to 2 revealed Design Flaws in your Garage (left slot is cheaper to Repair)."
        ),
    ),
    "actions": (
        said(
            "**Actions** — Repair: a Garage flaw → Design Flaw discard, gain a Basic Flight "
            "Problem and the flaw's Repair Bonus (right slot +1 Time). Upgrade: pay X≥2, look at "
            "X Upgrade cards, gain 2, gain a face-down Design Flaw. Glide (free) or Experience. "
            "Funding: take coins. Development: a face-up card or the deck's top. Any: copy a "
            "space, +1 Money."
        ),
    ),
    "flaws": (
        said(
            "**Design Flaws** — Delicate Wing Structure: 2 Problems if it is the first Problem. "
            "Pitch Instability: exhaust a Skill or Descend. Power Failure: at scoring the largest "
            "Upgrade counts 2. Unreliable Elevator Control: if the next card added is a Glide, "
            "scrap it."
        ),
    ),
    "gustave": (
        said(
            "**Gustave** (2 players; solo) — when last, he moves to the next free Action Space: "
            "Fly/Any raises his record (+3 Standard, +4 Advanced; solo expert +5); a Development "
            "space removes the last face-up card (Technology over Friend). Year end: +4/+6 (+7). "
            "He ranks for the Cup without coins, can trigger the end at 40 and flies once more. "
            "If his record is the highest he wins and the players compete for 2nd place "
            "(solo: you must beat him; a tie is yours only if you reached 40 first)."
        ),
    ),
    "data": (
        said(
            "Card data: unofficial stand-in set. The rulebook gives every rule but not the card "
            "texts or board layout; Hangar ships invented stand-ins a server owner may replace."
        ),
    ),
}


def topics() -> list[str]:
    """Known rules topics."""
    return list(TOPICS)


def rules_text(topic: str | None) -> str:
    """A rules topic (the overview by default): one said per paragraph, line breaks kept."""
    body = TOPICS.get(topic or "overview", TOPICS["overview"])
    footnote = said("-# Card data: unofficial stand-in set.")  # a footnote, as in every game
    return lines(*body, footnote)


def prompt(state: State, seat: int) -> str:
    """One line for the deciding seat."""
    if state.over:
        return said("The game is over.")
    if not state.steps or state.steps[-1].seat != seat:
        return said("Waiting for another player.")
    step = state.steps[-1]
    if step.kind == "flight" and state.flight is not None:
        if state.flight.pitch:
            return said("Pitch Instability: exhaust a Skill (no effect) or Descend.")
        if state.flight.final:
            return said("Your final Flight: draw, Descend, or use an ability.")
    if step.kind == "turn" and not state.pawns[seat].standing:
        return said("Your pawn crashed: Recover (pay 2 Time) to stand it up.")
    if step.kind == "space" and step.via == "fame":
        return said("Fame Benefit: take an Any Action now (no surcharge), or skip it.")
    return PROMPTS.get(step.kind) or said("Choose your action.")


def explain_illegal(state: State, seat: int, key: str) -> str:
    """A precise refusal."""
    step = state.steps[-1]
    try:
        parsed: Key | None = parse_key(key, step.kind)
    except IllegalActionError:
        parsed = None
    match parsed:
        case Move() | StartArea() if step.kind == "flight":
            return said("You are flying: draw a card, Descend or use an ability first.")
        case Move():
            return said(
                "You cannot move there: it is behind you, occupied, or you cannot pay its cost."
            )
        case Descend():
            return said("You must draw at least one card before you Descend.")
        case Draw():
            return said(
                "You cannot draw now (your deck is empty or you must resolve Pitch Instability)."
            )
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
        return listed([who(s) for s in seats])

    if data.kind == "gustave_record":
        told = [
            said("Gustave won with a record of {n}.", n=p["gustave"]),
            said("Best player record: {n} by {names}.", n=p["best"], names=names("leaders")),
        ]
    else:
        told = [said("Highest record: {names} with {n}.", names=names("winners"), n=p["best"])]
        if data.kind == "shared_with_gustave":
            told.append(said("Gustave shares the victory with {n}.", n=p["gustave"]))
    if p["stand_in"]:
        told.append(said("(Card data: unofficial stand-in set.)"))
    return joined(*told)
