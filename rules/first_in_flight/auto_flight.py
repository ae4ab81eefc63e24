"""The automatic player's Flight decisions: push its luck on the odds of its own deck."""

from __future__ import annotations

import random
from math import comb

from rules.first_in_flight.common import data_of, player
from rules.first_in_flight.keys import (
    Descend,
    Draw,
    Exhaust,
    MenuKind,
    OpenMenu,
    format_key,
    parse_key,
)
from rules.first_in_flight.row import flight_of, problem_count
from rules.first_in_flight.state import State, Step


def flight_choice(state: State, step: Step, keys: list[str], rng: random.Random) -> str:
    """Push your luck on the odds of the deck; use Skills and abilities when they pay."""
    exhausts = [k for k in keys if isinstance(parse_key(k, step.kind), Exhaust)]
    if exhausts:
        return exhausts[0]
    draw, descend = format_key(Draw()), format_key(Descend())
    stopping = draw not in keys or (descend in keys and not should_draw(state))
    menus: tuple[MenuKind, ...] = ("skill", "other")
    for menu in menus:
        opener = format_key(OpenMenu(menu))
        if opener in keys and good_uses(state, step.seat, menu, stopping):
            return opener
    if draw not in keys:
        return descend
    if descend not in keys:
        return draw
    return descend if stopping else draw


def good_uses(state: State, seat: int, menu: str, stopping: bool) -> list[str]:
    """Abilities worth using now: Distance at once, scoring bonuses only when they hold."""
    from rules.first_in_flight.menus import menu_sources

    problems = problem_count(state)
    need = 4 - problems
    good = []
    for src, ability in menu_sources(state, seat, menu):
        ops = {e.op for e in ability.effects}
        if "bonus_if" in ops:
            ok = stopping and all(
                getattr(e, "value", 0) == problems
                for e in ability.effects
                if e.op == "bonus_if" and getattr(e, "cond", "") == "problems_eq"
            )
        elif "ignore_problem" in ops or "bottom_recent" in ops:
            ok = problems >= 2
        elif "no_lie_down" in ops:
            ok = need <= 1 and not stopping
        elif "redraw_recent" in ops:
            row = flight_of(state).row
            ok = bool(row) and data_of(state).flight(row[-1].card).problems > 0
        elif "copy_ability" in ops or "take_action" in ops:
            ok = False
        else:
            ok = True
        if ok:
            good.append(src)
    return good


LYING_COST = 2.0  # a crash lays the pawn down: Recover costs 2 Time


def _descend_value(cards: list[tuple[int, int]], need: int) -> float:
    """Expected Distance from Descending now: two landing draws and the Descend card."""
    n = len(cards)
    if n == 0:
        return 5.0
    avg = sum(d for d, _ in cards) / n
    bad = sum(1 for _, p in cards if p)
    pairs = comb(n, 2) if n >= 2 else 1
    if need <= 1:
        crash = 1 - (comb(n - bad, 2) / pairs if n >= 2 else (n - bad) / n)
    elif need == 2:
        crash = comb(bad, 2) / pairs if n >= 2 else 0.0
    else:
        crash = 0.0
    return min(2, n) * avg + 5 * (1 - crash) + (2 - LYING_COST) * crash


def should_draw(state: State) -> bool:
    """One-step lookahead on max(record, Distance): draw when that beats Descending now."""
    from rules.first_in_flight.scoring import flight_distance

    f = flight_of(state)
    data = data_of(state)
    deck = player(state, f.seat).deck
    need = 4 - problem_count(state)
    cards = [(data.flight(c).distance, data.flight(c).problems) for c in deck]
    if len(cards) <= 1:
        return False
    now = flight_distance(state)[0]
    record = player(state, f.seat).record

    def worth(distance: float) -> float:
        return max(distance, record + 0.5 * (distance - record))

    stop = worth(now + _descend_value(cards, need))
    go = 0.0
    for i, (dist, problems) in enumerate(cards):
        rest = cards[:i] + cards[i + 1 :]
        if problems >= need:
            go += worth(now + dist) - LYING_COST
        else:
            go += worth(now + dist + _descend_value(rest, need - problems))
    return go / len(cards) > stop
