"""Flight cards in words (they have no printed text in the data): what each does in a Flight."""

from __future__ import annotations

from rules.first_in_flight.data import (
    Coins,
    Effect,
    ExhaustOrDescend,
    FlightCard,
    Gain,
    GameData,
    ReduceLargest,
    ScrapNext,
)

KIND_WORDS = {
    "glide": "Flight card",
    "experience": "Flight card",
    "problem": "Flight card",
    "upgrade": "Upgrade card",
    "flaw": "Design Flaw",
}


def flight_card_text(data: GameData, card: str) -> str:
    """'Upgrade card: 3 Distance.', 'Design Flaw: 1 Distance, 1 Problem; when drawn, exhaust a Skill
    or Descend. Repair Bonus: +2 coins.'"""
    fc = data.flight(card)
    problems = f"{fc.problems} Problem{'s' if fc.problems > 1 else ''}"
    # a flaw's 1 Distance is the least of it: its Problem and its behaviour come first
    counts = problems if fc.kind == "flaw" else f"{fc.distance} Distance"
    if fc.problems and fc.kind != "flaw":
        counts += f", {problems}"
    rules = _behaviour(data, fc)
    text = f"{KIND_WORDS[fc.kind]}: {counts}" + (f"; {rules}." if rules else ".")
    if fc.kind == "problem" and not fc.repair_bonus:
        text += " Cannot be repaired."
    if fc.repair_bonus:
        bonus = ", ".join(_effect(data, e) for e in fc.repair_bonus)
        text += f" Repair Bonus: {bonus}."
    return text


def _behaviour(data: GameData, fc: FlightCard) -> str:
    """What the card does beyond its Distance and Problems."""
    parts = []
    if fc.first_problem_counts:
        parts.append(f"counts {fc.first_problem_counts} if it is the first Problem")
    parts += [_on_draw(data, e) for e in fc.on_draw]
    parts += [f"at scoring, {_effect(data, e)}" for e in fc.at_scoring]
    return "; ".join(p for p in parts if p)


def _on_draw(data: GameData, effect: Effect) -> str:
    """An effect that happens when the card is drawn."""
    if isinstance(effect, ScrapNext):
        return f"if the next card is a {_name(data, effect.card)}, scrap it"
    if isinstance(effect, Gain):
        return f"when drawn, {_effect(data, effect)} into the Flight"
    return f"when drawn, {_effect(data, effect)}"


def _effect(data: GameData, effect: Effect) -> str:
    """One effect in words ('+2 coins', 'gain an Experience', 'exhaust a Skill or Descend')."""
    if isinstance(effect, Coins):
        return f"+{effect.n} coins"
    if isinstance(effect, Gain):
        name = _name(data, effect.card)
        article = "an" if name[0] in "AEIOU" else "a"
        return f"gain {article} {name}"
    if isinstance(effect, ExhaustOrDescend):
        return "exhaust a Skill or Descend"
    if isinstance(effect, ReduceLargest):
        return f"your largest Upgrade counts {effect.n}"
    return ""


def _name(data: GameData, card: str) -> str:
    """A card kind's name ('upgrade' is the top Upgrade card)."""
    if card == "upgrade":
        return "Upgrade"
    try:
        return data.flight(card).name
    except KeyError:
        return card.replace("_", " ").title()
