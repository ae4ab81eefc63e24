"""Takeoff! hard AI: whole plays valued by short greedy rollouts on the fast simulator.

At each decision the options are whole plays (a card with all its targets, a ticket on a seat,
ending the turn, changing a card). A cheap static screen keeps the `width` most promising; each
kept option is then played on `samples` determinisations (the same ones for every option): the
rest of the own turn and `turns` further turns are played by a greedy policy for both seats, and
the option with the best mean value (point margin, plus what the hands still hold) is chosen. The
key returned is the first step of that play (its card, its row, its seat).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from rules.core.ai import Seen
from rules.takeoff import board as b
from rules.takeoff.data import BUSINESS_CARD, EVENTS
from rules.takeoff.fast import PINCH, TICKET, Effect, Sim
from rules.takeoff.keys import (
    Change,
    Decline,
    End,
    Play,
    Row,
    Spot,
    Take,
    Ticket,
    format_key,
    parse_key,
)
from rules.takeoff.state import TakeoffState

WIN_BONUS = 40.0
RED_COST = 1.5  # the greedy policy's price of spending a Business-Class card
TICKET_COST = 1.0  # ... and of a captain's ticket

# What a card in hand is roughly worth (used to take, to change and to value kept hands).
WORTH: dict[str, float] = {
    "window": 2.5,
    "aisle": 2.5,
    "middle": 1.0,
    "business": 1.5,
    "child_alone": 2.5,
    "businessman_economy": 2.5,
    "other_airline": 3.5,
    "family": 5.0,
    "old_friends": 4.0,
    "golden_wedding": 5.0,
    "food": 4.0,
    "overbooked": 4.0,
    "long_wait": 5.0,
    "drunk": 2.0,
    "afraid": 2.0,
    "honeymooners": 2.5,
    "tired_captain": 3.0,
    "stretcher": 3.0,
    "quarrel": 3.0,
    "swindler": 2.5,
    "middle_blocked": 2.0,
    PINCH: 2.0,
}
TICKET_WORTH = 2.0


def _worth(card: str) -> float:
    """The rough worth of one card in hand."""
    return WORTH.get(card, 1.0)


def _uses_red(sim: Sim, card: str, eff: Effect) -> bool:
    """A seat card or ticket placed in Business spends a Business-Class card."""
    return (card == TICKET or card in ("window", "middle", "aisle")) and any(
        sim.lay.biz[s] for s in eff[0]
    )


def static(sim: Sim, p: int, card: str, eff: Effect) -> float:
    """The greedy policy's value of one play: its point change minus the resources it spends."""
    v = float(sim.delta(p, eff))
    if card == TICKET:
        v -= TICKET_COST
    if _uses_red(sim, card, eff):
        v -= RED_COST
    return v


PLACE_POOL = {
    "window": "window",
    "middle": "middle",
    "aisle": "aisle",
    TICKET: "any",
    "child_alone": "economy",
    "businessman_economy": "economy",
    "other_airline": "business",
}


def best_play(sim: Sim, p: int) -> tuple[float, str, Effect] | None:
    """The greedy policy's best play now (None when nothing gains)."""
    best: tuple[float, str, Effect] | None = None
    top = 0.0
    lay = sim.lay
    table: dict[int, int] | None = None
    has_red = BUSINESS_CARD in sim.hands[p]
    for card in sim.playable(p):
        if card == PINCH:
            if top < 1.0:
                best, top = (1.0, card, ((), (), ())), 1.0
            continue
        pool = PLACE_POOL.get(card)
        if pool is None:
            for eff in sim.targets(p, card):
                v = float(sim.delta(p, eff))
                if v > top:
                    best, top = (v, card, eff), v
            continue
        if table is None:
            table = sim.placement_values(p)
        seats = lay.of_type[pool] if pool in lay.of_type else lay.area[pool]
        red = card in lay.of_type or card == TICKET
        cost = TICKET_COST if card == TICKET else 0.0
        for s in seats:
            got = table.get(s)
            if got is None:
                continue
            v = got - cost
            if red and lay.biz[s]:
                if not has_red:
                    continue
                v -= RED_COST
            if v > top:
                best, top = (v, card, ((s,), (), ())), v
    return best


def best_take(sim: Sim, p: int) -> str:
    """Pinch: the rival's card worth most."""
    return max(sorted(set(sim.hands[1 - p])), key=_worth)


def finish_turn(sim: Sim, p: int) -> None:
    """Play greedily until nothing gains, then end the turn (or change a card when stuck)."""
    while not sim.over:
        found = best_play(sim, p)
        if found is None:
            break
        _, card, eff = found
        if card == PINCH:
            sim.pinch(p, best_take(sim, p))
        else:
            sim.play(p, card, eff)
    if sim.over:
        return
    if sim.can_change(p):
        sim.change(p, min(sorted(set(sim.hands[p])), key=_worth))
        return
    sim.end_turn(p)


def value(sim: Sim, p: int) -> float:
    """Margin, the result of a finished game, and what the hands and tickets still hold."""
    v = float(sim.margin(p))
    if sim.over:
        return v + (WIN_BONUS if v > 0 else -WIN_BONUS if v < 0 else 0.0)
    left = len(sim.deck) + 25 * (3 - sim.pass_number)
    fade = min(1.0, left / 40.0)
    mine = sum(map(_worth, sim.hands[p])) + TICKET_WORTH * sim.tickets[p]
    theirs = sum(map(_worth, sim.hands[1 - p])) + TICKET_WORTH * sim.tickets[1 - p]
    return v + HAND_WEIGHT * fade * (mine - theirs)


HAND_WEIGHT = 0.5


# --- the root: options as keys --------------------------------------------------------------


@dataclass(frozen=True)
class Option:
    """One option at the root: the key to send now and what it means in the simulator."""

    key: str
    kind: str  # play | pinch | take | end | change
    card: str = ""
    eff: Effect = ((), (), ())
    prior: float = 0.0


def _target_key(card: str, seats: tuple[int, ...]) -> str:
    """The engine's key for a target covering `seats` (see rules/takeoff/targets.py)."""
    shape = "seat" if card == TICKET or card not in EVENTS else EVENTS[card].shape
    first = seats[0]
    row = b.row_of(first)
    if shape == "pair":
        return format_key(Spot("pair", f"{row}{b.letter_of(seats[0])}{b.letter_of(seats[1])}"))
    if shape == "single_row":
        return format_key(Spot("side", b.single_row_label(row, b.side_of(first))))
    if shape == "block":
        return format_key(Spot("block", f"{row}{b.letter_of(seats[0])}{b.letter_of(seats[1])}"))
    return format_key(Spot("seat", b.seat_label(first)))


def _step_seats(card: str, eff: Effect, step: int) -> tuple[int, ...]:
    """The seats the target of step `step` of a play covers."""
    placed, removed, turned = eff
    if card == "long_wait":
        return removed if step == 0 else placed
    return placed or removed or turned


def _route(legal: set[str], card: str, eff: Effect, step: int, row: int | None) -> str | None:
    """The legal key leading to this play now: its target, its row, or back out of a row."""
    seats = _step_seats(card, eff, step)
    key = _target_key(card, seats)
    if key in legal:
        return key
    narrow = format_key(Row(str(b.row_of(seats[0]))))
    # Inside a narrowed row only its own targets count: going back could loop between rows.
    return narrow if row is None and narrow in legal else None


def options(state: TakeoffState, sim: Sim, p: int, legal: list[str]) -> list[Option]:
    """Every option of the current decision, each with its static prior."""
    keys = set(legal)
    out: list[Option] = []
    pending = state.pending
    if pending is not None:
        if pending.card == PINCH:
            hand = sim.hands[1 - p]
            for k in legal:
                taken = parse_key(k)
                if isinstance(taken, Take) and taken.card in hand:
                    out.append(Option(k, "take", taken.card, prior=_worth(taken.card)))
            return out
        card = pending.card
        step = len(pending.picks)
        for eff in sim.targets(p, card):
            if step and _target_key(card, eff[1]) != pending.picks[0]:
                continue
            key = _route(keys, card, eff, step, pending.row)
            if key is not None:
                out.append(Option(key, "play", card, eff, static(sim, p, card, eff)))
        return out
    for k in legal:
        parsed = parse_key(k)
        if isinstance(parsed, End | Decline):
            out.append(Option(k, "end"))
        elif isinstance(parsed, Change):
            out.append(Option(k, "change", parsed.card, prior=-_worth(parsed.card)))
        elif isinstance(parsed, Ticket | Play):
            card = TICKET if isinstance(parsed, Ticket) else parsed.card
            if card == PINCH:
                out.append(Option(k, "pinch", card, prior=1.0))
                continue
            for eff in sim.targets(p, card):
                out.append(Option(k, "play", card, eff, static(sim, p, card, eff)))
    return out


def _apply(sim: Sim, p: int, opt: Option) -> None:
    """Carry out an option in the simulator, then the rest of the turn greedily."""
    if opt.kind == "end":
        if sim.played or not sim.final_round:
            sim.end_turn(p)
        else:
            sim.over = True
        return
    if opt.kind == "change":
        sim.change(p, opt.card)
        return
    if opt.kind == "play":
        sim.play(p, opt.card, opt.eff)
    elif opt.kind == "pinch":
        sim.pinch(p, best_take(sim, p))
    elif opt.kind == "take":
        sim.hands[1 - p].remove(opt.card)
        sim.hands[p].append(opt.card)
    if not sim.over:
        finish_turn(sim, p)


def screen(opts: list[Option], width: int) -> list[Option]:
    """The options worth a rollout: each key's best play, the next best plays up to `width`,
    ending the turn, Pinch, and the two cheapest cards to change."""
    plays = sorted((o for o in opts if o.kind in ("play", "take")), key=lambda o: -o.prior)
    kept: list[Option] = []
    for o in plays:
        if all(k.key != o.key for k in kept):
            kept.append(o)
    for o in plays:
        if len(kept) >= width:
            break
        if o not in kept:
            kept.append(o)
    kept += [o for o in opts if o.kind in ("end", "pinch")]
    kept += sorted((o for o in opts if o.kind == "change"), key=lambda o: -o.prior)[:2]
    return kept


@dataclass
class TurnSearch:
    """Level hard for Takeoff!: screened whole plays valued by greedy rollouts (see module doc)."""

    width: int = 6
    samples: int = 8
    turns: int = 3
    fallback: Any = None  # a Player used when no option could be matched to a key

    def choose(self, seen: Seen, rng: random.Random) -> str:
        """The key of the best option."""
        legal = [a.key for a in seen.legal if a.key not in ("cancel",)]
        p = seen.seat
        dets: list[TakeoffState] = [seen.sample(rng) for _ in range(self.samples)]
        seeds = [rng.getrandbits(32) for _ in dets]
        root = Sim.from_state(dets[0], random.Random(0))
        opts = options(dets[0], root, p, legal)
        if not opts:
            if self.fallback is not None:
                return str(self.fallback.choose(seen, rng))
            return legal[0]
        kept = screen(opts, self.width)
        if len({o.key for o in kept}) == 1:
            return kept[0].key
        sims = [Sim.from_state(d, random.Random(0)) for d in dets]
        best_key, best = kept[0].key, float("-inf")
        for opt in kept:
            total = 0.0
            for sim0, seed in zip(sims, seeds, strict=True):
                sim = sim0.copy(random.Random(seed))
                _apply(sim, p, opt)
                for _ in range(self.turns):
                    if sim.over:
                        break
                    finish_turn(sim, sim.turn)
                total += value(sim, p)
            mean = total / len(sims) + rng.random() * 1e-6
            if mean > best:
                best_key, best = opt.key, mean
        return best_key
