"""Flight cards in words (they have no printed text in the data): what each does in a Flight."""

from __future__ import annotations

from rules.core.words import Said, joined, said
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
from rules.first_in_flight.words import listed

KIND_WORDS = {
    "glide": said("Flight card"),
    "experience": said("Flight card"),
    "problem": said("Flight card"),
    "upgrade": said("Upgrade card"),
    "flaw": said("Design Flaw"),
}


def flight_card_text(data: GameData, card: str) -> str:
    """'Upgrade card: 3 Distance.', 'Design Flaw: 1 Distance, 1 Problem; when drawn, exhaust a Skill
    or Descend. Repair Bonus: +2 coins.'"""
    fc = data.flight(card)
    problems = _problems(fc.problems)
    # a flaw's 1 Distance is the least of it: its Problem and its behaviour come first
    counts = problems if fc.kind == "flaw" else said("{n} Distance", n=fc.distance)
    if fc.problems and fc.kind != "flaw":
        counts = listed([counts, problems])
    rules = _behaviour(data, fc)
    kind = KIND_WORDS[fc.kind]
    if rules:
        text = said("{kind}: {counts}; {rules}.", kind=kind, counts=counts, rules=rules)
    else:
        text = said("{kind}: {counts}.", kind=kind, counts=counts)
    more: list[str] = []
    if fc.kind == "problem" and not fc.repair_bonus:
        more.append(said("Cannot be repaired."))
    if fc.repair_bonus:
        bonus = listed([_effect(data, e) for e in fc.repair_bonus])
        more.append(said("Repair Bonus: {bonus}.", bonus=bonus))
    return joined(text, *more)


def _problems(n: int) -> str:
    """'1 Problem', '2 Problems' (a flaw with no Problem still says '0 Problem', as printed)."""
    return said("{n} Problems", n=n) if n > 1 else said("{n} Problem", n=n)


def _behaviour(data: GameData, fc: FlightCard) -> str:
    """What the card does beyond its Distance and Problems ("" when nothing)."""
    parts: list[str] = []
    if fc.first_problem_counts:
        parts.append(said("counts {n} if it is the first Problem", n=fc.first_problem_counts))
    parts += [_on_draw(data, e) for e in fc.on_draw]
    parts += [said("at scoring, {effect}", effect=_effect(data, e)) for e in fc.at_scoring]
    kept = [p for p in parts if p]
    if not kept:
        return ""
    told = kept[0]
    for part in kept[1:]:
        told = said("{first}; {second}", first=told, second=part)
    return told


def _on_draw(data: GameData, effect: Effect) -> str:
    """An effect that happens when the card is drawn."""
    if isinstance(effect, ScrapNext):
        return said("if the next card is a {card}, scrap it", card=_name(data, effect.card))
    if isinstance(effect, Gain):
        return said("when drawn, {effect} into the Flight", effect=_effect(data, effect))
    told = _effect(data, effect)
    return said("when drawn, {effect}", effect=told) if told else said("when drawn, ")


def _effect(data: GameData, effect: Effect) -> str:
    """One effect in words ('+2 coins', 'gain an Experience', 'exhaust a Skill or Descend')."""
    if isinstance(effect, Coins):
        return said("+{n} coins", n=effect.n)
    if isinstance(effect, Gain):
        name = _name(data, effect.card)
        if name[0] in "AEIOU":
            return said("gain an {card}", card=name)
        return said("gain a {card}", card=name)
    if isinstance(effect, ExhaustOrDescend):
        return said("exhaust a Skill or Descend")
    if isinstance(effect, ReduceLargest):
        return said("your largest Upgrade counts {n}", n=effect.n)
    return ""


def _name(data: GameData, card: str) -> str:
    """A card kind's name ('upgrade' is the top Upgrade card)."""
    if card == "upgrade":
        return said("Upgrade")
    try:
        return Said(data.flight(card).name)
    except KeyError:
        return card.replace("_", " ").title()
