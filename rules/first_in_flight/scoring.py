"""Flight Distance: card values, Power Failure, Descend, bonuses (rulebook: Fly step 5)."""

from __future__ import annotations

from rules.core.words import said
from rules.first_in_flight.common import abilities, data_of, mod_sum, modifiers
from rules.first_in_flight.data import BonusIf, Distance, DistancePer, ReduceLargest
from rules.first_in_flight.row import count_per, flight_of, problem_count
from rules.first_in_flight.state import State


def card_values(state: State) -> list[int]:
    """Each Flight card's Distance after Throttle Up and Power Failure reductions."""
    f = flight_of(state)
    data = data_of(state)
    values = [data.flight(rc.card).distance + rc.bonus for rc in f.row]
    reduced: set[int] = set()
    for rc in f.row:
        for effect in data.flight(rc.card).at_scoring:
            if not isinstance(effect, ReduceLargest) or rc.cancelled:
                continue
            to = mod_sum(state, f.seat, "reduce_to", rc.card) or effect.n
            upgrades = [
                i
                for i, r in enumerate(f.row)
                if data.flight(r.card).kind == "upgrade" and i not in reduced and values[i] > to
            ]
            if upgrades:
                biggest = max(upgrades, key=lambda i: (values[i], -i))
                values[biggest] = to
                reduced.add(biggest)
    return values


def descend_value(state: State) -> int:
    """Descend: 5 on landing, 2 on a crash while landing (modifiers raise them); 0 if not played."""
    f = flight_of(state)
    if not f.descended:
        return 0
    data = data_of(state)
    key, base = (
        ("descend_land", data.descend["land"])
        if f.landed
        else ("descend_crash", data.descend["crash"])
    )
    return max([base, *(m.n for m in modifiers(state, f.seat, key))])


def passive_bonus(state: State) -> int:
    """Distance from always-on abilities (Technologies, Famous Peltier) and scoring conditions."""
    f = flight_of(state)
    total = 0
    for _, ability in abilities(state, f.seat):
        if ability.when != "passive":
            continue
        for effect in ability.effects:
            if isinstance(effect, Distance):
                total += effect.n
            elif isinstance(effect, DistancePer):
                total += effect.n * count_per(state, effect.per)
            elif isinstance(effect, BonusIf):
                total += effect.n if _holds(state, effect.cond, effect.value) else 0
    for cond, value, n in f.bonuses_if:
        total += n if _holds(state, cond, value) else 0
    return total


def _holds(state: State, cond: str, value: int) -> bool:
    """A scoring condition."""
    f = flight_of(state)
    if cond == "problems_eq":
        return problem_count(state) == value
    return f.descended and f.flaws_at_descend == 0


def flight_distance(state: State) -> tuple[int, str]:
    """Total Distance and a short breakdown."""
    f = flight_of(state)
    cards = sum(card_values(state))
    descend = descend_value(state)
    bonus = f.bonus + passive_bonus(state)
    total = cards + descend + bonus
    parts = said(
        "cards {cards} + Descend {descend} + bonuses {bonus}",
        cards=cards,
        descend=descend,
        bonus=bonus,
    )
    return total, parts
