"""A baseline automatic player: simple heuristics, no lookahead (used by the simulator)."""

from __future__ import annotations

import random

from rules.core import Action
from rules.first_in_flight.auto_flight import flight_choice, good_uses, should_draw
from rules.first_in_flight.board import spaces
from rules.first_in_flight.common import data_of, player
from rules.first_in_flight.costs import target_option
from rules.first_in_flight.keys import (
    Back,
    ChooseOption,
    CopySpace,
    Done,
    Garage,
    Key,
    Move,
    OpenMenu,
    Pay,
    PickCard,
    Place,
    TakeDev,
    UseAbility,
    UseSpace,
    format_key,
    parse_key,
)
from rules.first_in_flight.state import State, Step, dev_index

ACTION_VALUE = {
    "fly": 5.0,
    "upgrade": 6.5,
    "repair": 5.5,
    "technology": 6.5,
    "skill": 5.0,
    "friend": 4.5,
    "funding": 2.0,
    "experience": 2.5,
    "glide": 1.0,
}
SKIP_COST = 0.6  # each free Action Space passed is an opportunity lost this Year
TIME_COST = 1.5  # paying Time jumps over Action Spaces
UPGRADE_X = 1.4  # worth of one more Upgrade card looked at (up to 5)
WORST_FLAWS = ("power_failure", "delicate_wing", "pitch_instability")  # Garage these first


def choose(state: State, seat: int, legal: list[Action], rng: random.Random) -> str:
    """The key this player picks among `legal`."""
    step = state.steps[-1]
    handler = _HANDLERS.get(step.kind)
    keys = [a.key for a in legal]
    if handler is None:
        return keys[0]
    return handler(state, step, keys, rng)


def _deck_stats(state: State, seat: int) -> tuple[int, int, int]:
    """(cards, Problem cards, Upgrade cards) in the seat's whole deck (known counts)."""
    data = data_of(state)
    mat = player(state, seat)
    cards = [*mat.deck, *(g for g in mat.garage if g)]
    problems = sum(1 for c in cards if data.flight(c).problems)
    upgrades = sum(1 for c in cards if data.flight(c).kind == "upgrade")
    return len(cards), problems, upgrades


def _action_value(state: State, seat: int, action: str, amount: int = 0) -> float:
    """How much this player wants an action now."""
    value = ACTION_VALUE.get(action, 0.0)
    if action in ("technology", "skill", "friend"):
        value = _dev_value(state, action) + DEV_EXTRA[action]
    if action in BUILDING:
        value *= BUILD_WEIGHT[min(state.year, 4)]
    mat = player(state, seat)
    problems = _deck_stats(state, seat)[1]
    if action == "fly":
        value = FLY_BASE + _fly_gain(state, seat) * _record_weight(state, seat)
    if action == "upgrade":
        value -= 0.6 * max(0, problems - 5) + (1.5 if state.year >= 4 else 0)
    if action == "repair":
        value += REPAIR_BONUS.get(_worst_garage(state, seat), 0.0)
    if action == "funding":
        value += 0.7 * amount - (0 if mat.coins < 5 else (1.5 if mat.coins < 9 else 4.0))
    return value


FLY_BASE = 2.0  # a Flight also reveals flaws for the Garage and ranks for the Cup
YEAR_WEIGHT = {1: 0.25, 2: 0.15, 3: 1.2, 4: 1.2}  # Year 2 builds; fly for the record from Year 3
REPAIR_BONUS = {"power_failure": 2.0, "delicate_wing": 1.0, "pitch_instability": 0.5}
SAMPLES = 48
BUILDING = ("upgrade", "repair", "technology", "skill", "friend", "experience", "glide")
BUILD_WEIGHT = {1: 1.0, 2: 1.0, 3: 0.75, 4: 0.4}  # fewer Flights left to use what is built
DEV_EXTRA = {"technology": 0.5, "skill": 0.0, "friend": 0.0}  # Technologies never exhaust
URGENT = 30  # a rival this close to 40 may end the game soon: fly for the record
RICH = 8  # coins left after paying that still buy any space next time
STOP_AT = 2  # the sampled Flight Descends at this many Problems


def _record_weight(state: State, seat: int) -> float:
    """How much a record gain counts now: more late on, and once a rival nears the end."""
    rivals = [m.record for i, m in enumerate(state.seats) if i != seat]
    near = max([state.gustave_record, *rivals]) >= URGENT
    weight = YEAR_WEIGHT[min(state.year, 4)]
    return max(weight, YEAR_WEIGHT[3]) if near else weight


def _worst_garage(state: State, seat: int) -> str:
    """The Garage flaw worth repairing most."""
    garage = [g.rstrip("*") for g in player(state, seat).garage if g]
    ranked = sorted(garage, key=lambda g: -REPAIR_BONUS.get(g, 0.0))
    return ranked[0] if ranked else ""


def _passives(state: State, seat: int) -> tuple[int, int, int]:
    """(Distance on every Flight, Distance per Upgrade drawn, extra on a safe landing)."""
    from rules.first_in_flight.common import abilities
    from rules.first_in_flight.data import Distance, DistancePer, Modifier

    flat = per_up = land = 0
    for _, ability in abilities(state, seat):
        for e in ability.effects:
            if ability.when == "passive" and isinstance(e, Distance):
                flat += e.n
            elif ability.when == "passive" and isinstance(e, DistancePer):
                per_up += e.n if e.per in ("upgrade", "upgrade_ge4") else 0
                flat += e.n if e.per == "glides_per3" else 0
            elif ability.when == "on_land" and isinstance(e, Distance):
                land += e.n
            elif isinstance(e, Modifier) and e.key == "descend_land":
                land = max(land, e.n - 5)
    return flat, per_up, land


def _fly_gain(state: State, seat: int) -> float:
    """Expected gain over the record of a Fly now (sampled; simple stop-at-2-Problems play)."""
    data = data_of(state)
    mat = player(state, seat)
    specs = [data.flight(c) for c in (*mat.deck, *(g for g in mat.garage if g))]
    cards = [
        (
            c.distance + (c.kind == "experience"),
            c.problems,
            c.first_problem_counts,
            c.kind == "upgrade",
        )
        for c in specs
    ]
    flat, per_up, land = _passives(state, seat)
    rng = random.Random(len(cards) * 7919 + mat.record * 31 + mat.coins)
    gain = 0.0
    for _ in range(SAMPLES):
        rng.shuffle(cards)
        dist, probs, ups, i, crashed = 0, 0, 0, 0, False
        for d, p, first, up in cards:
            dist, ups, i = dist + d, ups + up, i + 1
            probs += first if (first and probs == 0) else p
            if probs >= STOP_AT:
                crashed = probs >= 4
                break
        if not crashed:
            dist += 2
            for d, p, _, up in cards[i : i + 2]:
                dist, ups, probs = dist + d, ups + up, probs + p
                crashed = crashed or probs >= 4
            dist += 3 if not crashed else 0
            dist += land if not crashed else 0
        gain += max(0.0, dist + flat + per_up * ups - mat.record)
    return gain / SAMPLES


def _option_value(state: State, seat: int, step: Step) -> float:
    """Value of one fully specified option."""
    opt = target_option(state, step)
    return _action_value(state, seat, opt.action, opt.amount)


def _space_value(state: State, seat: int, step: Step) -> float:
    """Value of the best fully specified action on a space, minus the spaces skipped."""
    from rules.first_in_flight.actions import targets

    best = max(
        (_option_value(state, seat, t) for t in targets(state, step)),
        default=-9.0,
    )
    if any(o.action == "any" for o in spaces(state)[step.space].options):
        best -= 1.0
    if step.via == "todd":
        return best
    here = state.pawns[seat].pos
    skipped = sum(
        1
        for p, s in enumerate(spaces(state))
        if here < p < step.space and s.kind == "action" and all(q.pos != p for q in state.pawns)
    )
    return best - SKIP_COST * skipped


def _turn(state: State, step: Step, keys: list[str], rng: random.Random) -> str:
    """Move to the best-valued space; abilities that give coins or cards first."""
    if "recover" in keys:
        return "recover"
    other = format_key(OpenMenu("other"))
    if other in keys and state.pawns[step.seat].standing:
        return other
    best, best_key = 0.0, "start"
    for key, parsed in _typed(keys, step):
        if isinstance(parsed, Move):
            probe = Step(kind="space", seat=step.seat, space=parsed.space)
            value = _space_value(state, step.seat, probe)
            if value > best:
                best, best_key = value, key
    return best_key


def _space(state: State, step: Step, keys: list[str], rng: random.Random) -> str:
    """Todd / Fame: the best space to use without moving."""
    scored = [
        (_space_value(state, step.seat, step.model_copy(update={"space": parsed.space})), k)
        for k, parsed in _typed(keys, step)
        if isinstance(parsed, UseSpace)
    ]
    return max(scored)[1] if scored else keys[-1]


def _option(state: State, step: Step, keys: list[str], rng: random.Random) -> str:
    """Among a space's options (or a copied space), the best-valued."""
    scored = []
    for key, parsed in _typed(keys, step):
        match parsed:
            case ChooseOption(index, copied):
                probe = step.model_copy(update={"option": index})
                if not copied and spaces(state)[step.space].options[index].action == "any":
                    scored.append((4.0, key))
                    continue
            case CopySpace(space):
                probe = step.model_copy(update={"copied": space, "option": 0})
            case _:
                continue
        scored.append((_action_value(state, step.seat, target_option(state, probe).action), key))
    return max(scored)[1]


def _pay(state: State, step: Step, keys: list[str], rng: random.Random) -> str:
    """Money is worth a coin each; Time costs the Action Spaces it jumps over."""
    from rules.first_in_flight.actions import stand_pos
    from rules.first_in_flight.board import time_target

    coins = player(state, step.seat).coins
    here = stand_pos(state, step)
    pays = [(k, parsed) for k, parsed in _typed(keys, step) if isinstance(parsed, Pay)]

    def score(pay: Pay) -> float:
        m, t, x = pay.money, pay.time, pay.x
        end = time_target(state, here, t) or here
        jumped = sum(1 for p in range(here + 1, end) if spaces(state)[p].kind == "action")
        value = -m * _coin_worth(coins - m) - TIME_COST * jumped - 0.2 * t
        value += UPGRADE_X * min(x, 5) + 0.3 * max(0, x - 5)
        return value + (0.3 if pay.reducer else 0.0)

    return max(pays, key=lambda p: score(p[1]))[0] if pays else keys[0]


def _coin_worth(left: int) -> float:
    """A coin is dear when it leaves you short, cheap when you are rich (prices are at most 5)."""
    return 1.8 if left < 2 else (1.0 if left < RICH else 0.4)


def _menu(state: State, step: Step, keys: list[str], rng: random.Random) -> str:
    """In a Flight: the first ability worth using now (as `_flight` judged); else the first."""
    uses = [(k, p.source) for k, p in _typed(keys, step) if isinstance(p, UseAbility)]
    f = state.flight
    if f is not None and f.seat == step.seat:
        deck = player(state, step.seat).deck
        stopping = bool(f.row) and (len(deck) == 0 or not should_draw(state))
        good = good_uses(state, step.seat, step.dest, stopping)
        picks = [k for k, source in uses if source in good]
        return picks[0] if picks else keys[-1]
    return uses[0][0] if uses else keys[-1]


def _look(state: State, step: Step, keys: list[str], rng: random.Random) -> str:
    """Best card first / problems to the bottom / best card into the Flight."""
    data = data_of(state)

    placed = dict(_typed(keys, step))

    def goodness(key: str) -> float:
        parsed = placed[key]
        if not isinstance(parsed, Place) or not parsed.card:
            return 0.0
        spec = data.flight(parsed.card)
        return spec.distance - 5 * spec.problems

    if step.dest == "bottom_any":
        worst = [k for k, p in placed.items() if _is_bottom(p) and goodness(k) < 0]
        return worst[0] if worst else format_key(Done())
    return max(keys, key=goodness)


def _pick(state: State, step: Step, keys: list[str], rng: random.Random) -> str:
    """Highest Upgrade; for Development cards, the first offered."""
    data = data_of(state)

    cards = {k: p.card for k, p in _typed(keys, step) if isinstance(p, PickCard)}

    def value(key: str) -> int:
        card = cards[key]
        try:
            return data.flight(card).distance
        except KeyError:
            return 0

    return max(keys, key=value)


def _dev(state: State, step: Step, keys: list[str], rng: random.Random) -> str:
    """The best face-up card, or the deck's top when the display is weak."""
    kind = step.dest
    takes = {k: p.card for k, p in _typed(keys, step) if isinstance(p, TakeDev)}
    best = max(takes, key=lambda k: CARD_VALUE.get(takes[k], 3.0), default="")
    top = next((k for k in keys if k not in takes and k != format_key(Back())), "")
    if top and (not best or CARD_VALUE.get(takes[best], 3.0) < _unseen_value(state, kind)):
        return top
    return best or keys[-1]


def _dev_value(state: State, kind: str) -> float:
    """What a Development action of this type is worth: the best card it can take."""
    shown = state.display[dev_index(kind)]
    return max([_unseen_value(state, kind), *(CARD_VALUE.get(c, 3.0) for c in shown)])


def _unseen_value(state: State, kind: str) -> float:
    """The mean worth of the cards of this type still in its deck."""
    deck = state.dev_decks[dev_index(kind)]
    return sum(CARD_VALUE.get(c, 3.0) for c in deck) / len(deck) if deck else 0.0


def _cleanup(state: State, step: Step, keys: list[str], rng: random.Random) -> str:
    """Garage the worst flaws (two at most)."""
    order = [format_key(Garage(c)) for c in WORST_FLAWS]
    for key in (*order, *keys):
        if key in keys:
            return key
    return format_key(Done())


def _first(state: State, step: Step, keys: list[str], rng: random.Random) -> str:
    """The first non-cancel option."""
    return next((k for k in keys if k != format_key(Back())), keys[0])


def _typed(keys: list[str], step: Step) -> list[tuple[str, Key]]:
    """Each offered key with its typed form (the keys came from this step's legal actions)."""
    return [(key, parse_key(key, step.kind)) for key in keys]


def _is_bottom(key: Key) -> bool:
    """A looked-at card sent to the bottom."""
    return isinstance(key, Place) and key.where == "bottom"


def _draft(state: State, step: Step, keys: list[str], rng: random.Random) -> str:
    """Random Pilot (so simulated win rates by Pilot are unbiased)."""
    return rng.choice(keys)


# Rough worth of each stand-in Development card (Distance it adds over a game, roughly).
CARD_VALUE = {
    **dict.fromkeys(("launch_rail", "hinged_rudder"), 7.5),
    **dict.fromkeys(("radial_engine", "dihedral_wing", "forward_elevator", "ailerons"), 6.0),
    **dict.fromkeys(("wind_tunnel", "tetrahedral_kites", "wheeled_landing_gear"), 5.0),
    **dict.fromkeys(("tricycle_gear", "lightweight_engine", "trussed_biplane"), 3.5),
    **dict.fromkeys(("wing_warping", "pusher_propeller"), 3.0),
    **dict.fromkeys(("level_out", "tilt_canard", "barnstorming", "glide_path"), 5.0),
    **dict.fromkeys(("roll_control", "catch_thermal", "headwind_takeoff"), 4.5),
    **dict.fromkeys(("steady_hands", "bank_turn", "pull_up", "throttle_up"), 3.5),
    **dict.fromkeys(("read_wind", "quick_adjustment", "brace_impact", "practice_perfect"), 3.0),
    **dict.fromkeys(("trim_elevator", "feather_prop", "second_wind"), 2.5),
    **dict.fromkeys(("charley_furnas", "charles_manly", "octave_chanute"), 5.0),
    **dict.fromkeys(("hart_berg", "aida_de_acosta", "shivkar_talpade"), 4.0),
    **dict.fromkeys(("edith_berg", "paul_dunbar", "katharine_wright", "leon_bollee"), 3.0),
}

_HANDLERS = {
    "draft": _draft,
    "turn": _turn,
    "space": _space,
    "option": _option,
    "any_target": _option,
    "copy_option": _option,
    "repair_slot": _first,
    "pay": _pay,
    "dev": _dev,
    "abilities": _menu,
    "copy": _first,
    "ignore": _first,
    "refresh": _first,
    "look": _look,
    "pick": _pick,
    "flight": flight_choice,
    "cleanup": _cleanup,
}
