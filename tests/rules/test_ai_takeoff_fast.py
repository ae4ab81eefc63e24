"""The hard Takeoff! AI's fast simulator agrees with the engine on many random positions."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from rules import get_game
from rules.takeoff import plays, turns
from rules.takeoff.data import BUSINESS_CARD, CARD_ORDER, sort_cards
from rules.takeoff.fast import TICKET, Sim
from rules.takeoff.scoring import scores
from rules.takeoff.search import _target_key, options
from rules.takeoff.state import TakeoffState
from rules.takeoff.targets import can_play, steps, targets

GAME = get_game("takeoff")
OPTIONS: list[dict[str, Any]] = [
    {},
    {"scoring": "A", "business_rows": 4},
    {"row_rule": "single", "business_rows": 2},
]


def _positions(seed: int, options: dict[str, Any], every: int = 7) -> list[TakeoffState]:
    """Positions of a random game (mostly between plays, some inside a turn)."""
    rng = random.Random(seed)
    state: TakeoffState = GAME.new_game(seed, 2, options)
    found: list[TakeoffState] = []
    step = 0
    while GAME.active_players(state) and step < 2000:
        seat = state.turn
        legal = [a.key for a in GAME.legal_actions(state, seat)]
        if state.pending is None and step % every == 0:
            found.append(state)
        # prefer plays to ending, so boards fill and turns hold several plays
        keys = [k for k in legal if k not in ("end", "cancel", "back")] or legal
        if rng.random() < 0.15 and "end" in legal:
            keys = ["end"]
        state = GAME.apply(state, seat, rng.choice(keys)).state
        step += 1
    return found


def _sim(state: TakeoffState) -> Sim:
    """The simulator copy of a state."""
    return Sim.from_state(state, random.Random(0))


def _engine_plays(state: TakeoffState, p: int, card: str) -> list[tuple[str, ...]]:
    """Every complete pick sequence of `card` by the engine's targets."""
    if steps(card) == 0:
        return [()] if can_play(state, p, card) else []
    first = targets(state, p, card, ())
    if steps(card) == 2:
        return [(t.key, u.key) for t in first for u in targets(state, p, card, (t.key,))]
    return [(t.key,) for t in first]


def _fast_plays(sim: Sim, p: int, card: str) -> list[tuple[str, ...]]:
    """The same from the simulator, written as keys."""
    out: list[tuple[str, ...]] = []
    for placed, removed, turned in sim.targets(p, card):
        if steps(card) == 0:
            out.append(())
        elif card == "long_wait":
            out.append((_target_key(card, removed), _target_key(card, placed)))
        else:
            out.append((_target_key(card, placed or removed or turned),))
    return out


def _with_hand(state: TakeoffState, p: int, hand: tuple[str, ...]) -> TakeoffState:
    """The state with `p` holding `hand`."""
    return turns.set_hand(state, p, sort_cards(hand))


def _same(sim: Sim, state: TakeoffState) -> None:
    """The simulator and the engine state agree on everything a play can change."""
    assert tuple(sim.board) == state.board
    assert sort_cards(sim.hands[0]) == state.hands[0]
    assert sort_cards(sim.hands[1]) == state.hands[1]
    assert tuple(sim.tickets) == state.tickets
    assert tuple(sim.discard) == state.discard
    assert sim.rows_used == set(state.rows_used)
    assert sim.freed == set(state.freed)
    assert sim.played == state.played and sim.ticket_used == state.ticket_used
    assert sim.over == state.over
    pts = scores(state.board, state.options.scoring, state.options.business_rows)
    assert sim.margin(0) == pts[0] - pts[1]


@pytest.mark.parametrize("seed", range(6))
def test_targets_and_plays_agree_with_the_engine(seed: int) -> None:
    """Same targets (as keys) for every card, same state after every play, same point change."""
    options = OPTIONS[seed % len(OPTIONS)]
    rng = random.Random(seed)
    checked = 0
    for state in _positions(seed, options):
        p = state.turn
        for card in (*dict.fromkeys(CARD_ORDER), TICKET):
            if card in (BUSINESS_CARD, "pinch"):
                continue
            hand = (card,) if card != TICKET else ()
            if rng.random() < 0.5:
                hand = (*hand, BUSINESS_CARD)
            if len(hand) == 0:
                hand = ("middle",)
            held = _with_hand(state, p, hand)
            sim = _sim(held)
            assert sorted(_fast_plays(sim, p, card)) == sorted(_engine_plays(held, p, card))
            if card == TICKET and held.tickets[p] == 0:
                continue
            effects = sim.targets(p, card)
            for picks, eff in zip(_fast_plays(sim, p, card), effects, strict=True):
                if rng.random() > 0.25 and card not in ("long_wait", "stretcher", "family"):
                    continue
                after, _ = plays.complete(held, p, card, picks)
                copy = sim.copy(random.Random(0))
                before = copy.margin(p)
                assert copy.delta(p, eff) == _margin(after, p) - before
                copy.play(p, card, eff)
                _same(copy, after)
                checked += 1
    assert checked > 200


def _margin(state: TakeoffState, p: int) -> int:
    """`p`'s points minus the rival's by the engine's scoring."""
    pts = scores(state.board, state.options.scoring, state.options.business_rows)
    return pts[p] - pts[1 - p]


@pytest.mark.parametrize("seed", range(3))
def test_turn_flow_agrees_with_the_engine(seed: int) -> None:
    """Ending a turn and changing a card: same hands, deck, turn and last-turn flags."""
    for state in _positions(100 + seed, OPTIONS[seed]):
        p = state.turn
        moves = ["end"] + [f"change:{c}" for c in dict.fromkeys(state.hands[p])]
        legal = {a.key for a in GAME.legal_actions(state, p)}
        for key in moves:
            if key not in legal:
                continue
            after = GAME.apply(state, p, key).state
            sim = _sim(state)
            if key == "end":
                sim.end_turn(p)
            else:
                sim.change(p, key.split(":", 1)[1])
            assert sort_cards(sim.hands[p]) == after.hands[p]
            assert sim.turn == after.turn or after.over
            assert sim.final_round == after.final_round
            assert sim.pass_number == after.pass_number
            assert Counter(sim.deck) == Counter(after.deck)
            if after.pass_number == state.pass_number:
                assert list(reversed(sim.deck)) == list(after.deck)
                assert tuple(sim.discard) == after.discard
            assert sim.changed_last == list(after.changed_last)


def _steps_inside_plays(seed: int) -> list[TakeoffState]:
    """Positions of a random game at every kind of step: main, targeting, narrowed rows, Pinch."""
    rng = random.Random(seed)
    state: TakeoffState = GAME.new_game(seed, 2, None)
    found: list[TakeoffState] = []
    for _ in range(1500):
        if not GAME.active_players(state):
            break
        found.append(state)
        legal = [a.key for a in GAME.legal_actions(state, state.turn)]
        keys = [k for k in legal if k not in ("cancel", "back")] or legal
        state = GAME.apply(state, state.turn, rng.choice(keys)).state
    return found


@pytest.mark.parametrize("seed", range(2))
def test_every_option_of_the_hard_search_is_a_legal_key(seed: int) -> None:
    """The search's options map to legal keys, never back or cancel, at every kind of step."""
    narrowed = 0
    for state in _steps_inside_plays(seed)[::3]:
        p = state.turn
        legal = [a.key for a in GAME.legal_actions(state, p)]
        opts = options(state, _sim(state), p, [k for k in legal if k != "cancel"])
        assert {o.key for o in opts} <= set(legal) - {"back", "cancel"}
        if state.pending is None or state.pending.card == "pinch":
            playable = {k for k in legal if k.startswith("play:") or k == "ticket"}
            assert {o.key for o in opts if o.kind in ("play", "pinch")} == playable
        else:
            assert opts, "a targeting step always has an option"
        narrowed += state.pending is not None and state.pending.row is not None
    assert narrowed > 0


def test_normal_vouching_its_legal_actions_chooses_the_same() -> None:
    """Takeoff! normal hands its legal actions to `vouch` (cheaper); the choices are unchanged."""
    from rules.core.ai import decide
    from rules.takeoff import ai

    states = _steps_inside_plays(4)[::10]
    assert ai.NORMAL.vouch
    fast = [decide(GAME, s, s.turn, "normal", 5, i) for i, s in enumerate(states)]
    ai.NORMAL.vouch = False
    try:
        plain = [decide(GAME, s, s.turn, "normal", 5, i) for i, s in enumerate(states)]
    finally:
        ai.NORMAL.vouch = True
    assert fast == plain
