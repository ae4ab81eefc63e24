"""Coaching texts: what each offered move does, the hard AI's hint, what the last move scored.

The shared contract of `rules/<game>/explain.py` (docs/ENGINES.md, "Explaining moves"). A game
exports `EXPLAIN`, an `Explainer`: `options(state, seat, legal)` gives one or two sentences per
legal action in players' words (cost, effect, risk) ending with the rules topic it comes from;
`points(state, seat)` is the seat's score as players count it; `building(state)` is True while
a move is half-built (a card chosen, its target not yet). Everything here reads a
determinisation of what the seat sees (the AI's `resample`), never the hidden facts.
"""

from __future__ import annotations

import importlib
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rules.core.ai import ai_rng, decide, game_ai
from rules.core.game import Game
from rules.core.messages import plural
from rules.core.model import Action
from rules.core.words import Said, joined, said

Options = Callable[[Any, int, Sequence[Action]], dict[str, str]]
Points = Callable[[Any, int], int]
Building = Callable[[Any], bool]


@dataclass(frozen=True)
class Explainer:
    """What a game's `rules/<game>/explain.py` exports as `EXPLAIN`."""

    options: Options
    points: Points
    building: Building
    seats: Callable[[Any], int]
    unit: str = "point"
    # What a hint's number is (after "Expected +3 points"); a game says its own with `said`.
    measure: str = said("for you over this turn")
    # The score everyone sees (default: `points`) and why a seat's score moved between two
    # public states: the rule that scored it, in players' words.
    shown: Points | None = None
    why: Callable[[Any, Any, int], str] | None = None


def explainer(game_id: str) -> Explainer:
    """The explainer of a game (rules/<game>/explain.py)."""
    module = importlib.import_module(f"rules.{game_id.replace('-', '_')}.explain")
    found: Explainer = module.EXPLAIN
    return found


def rule(topic: str) -> Said:
    """The closing reference every explanation carries: the /game rules topic.

    The topic is the `/game rules topic:` key, the same in every language.
    """
    return said("(Rules: {topic}.)", topic=topic)


def seen_state(game: Game, state: Any, seat: int, rng: random.Random | None = None) -> Any:
    """A full state consistent with what `seat` sees (its hidden facts redrawn)."""
    return game_ai(game.id).resample(state, seat, rng or random.Random(0))


def explain_options(game: Game, state: Any, seat: int) -> list[tuple[Action, str]]:
    """Each legal action of `seat` with its explanation (a generic one if the game has none)."""
    legal = game.legal_actions(state, seat)
    texts = explainer(game.id).options(state, seat, legal)
    return [(a, texts.get(a.key) or said("{label}.", label=a.label)) for a in legal]


def signed(n: int | float, unit: str = "point") -> str:
    """'+3 points', '−1 point', 'no points' (a real minus sign).

    Points are said (translated); another unit stays English: no game uses one yet.
    """
    sign = "+" if n > 0 else "−"
    fraction = isinstance(n, float) and n != int(n)
    if unit != "point":
        if n == 0:
            return f"no {unit}s"
        if fraction:
            return f"{sign}{abs(round(n, 1))} {unit}s"
        return f"{sign}{plural(abs(int(n)), unit)}"
    if n == 0:
        return said("no points")
    count = f"{sign}{abs(round(n, 1))}" if fraction else f"{sign}{abs(int(n))}"
    many = fraction or abs(int(n)) != 1
    # Not "{count} point": that id is the bot's plural entry (ntranslate), a different kind.
    if many:
        return said("{change} points", change=count)
    return said("{change} point", change=count)


def gain(game: Game, state: Any, seat: int, key: str, depth: int = 2) -> tuple[int, int] | None:
    """(own, best rival) score change of `key` on this (determinised) state, following a
    half-built move to its best completion; None when the move scores only later."""
    ex = explainer(game.id)
    before = _scores(game, ex, state)
    after = _best_after(game, ex, game.apply(state, seat, key).state, seat, depth)
    if after is None:
        return None
    own = after[seat] - before[seat]
    rivals = [after[s] - before[s] for s in range(len(before)) if s != seat]
    return own, _worst(rivals)


def _worst(changes: list[int]) -> int:
    """The rival change that matters most (the largest in size)."""
    return max(changes, key=abs) if changes else 0


def _scores(game: Game, ex: Explainer, state: Any) -> list[int]:
    """Every seat's score."""
    return [ex.points(state, s) for s in range(ex.seats(state))]


def _best_after(game: Game, ex: Explainer, state: Any, seat: int, depth: int) -> list[int] | None:
    """Scores after the move is complete: the best completion for `seat` of a half-built one."""
    if not ex.building(state):
        return _scores(game, ex, state)
    if depth <= 0 or tuple(game.active_players(state)) != (seat,):
        return None
    best: list[int] | None = None
    for action in game.legal_actions(state, seat):
        if action.key in ("cancel", "back"):
            continue
        found = _best_after(game, ex, game.apply(state, seat, action.key).state, seat, depth - 1)
        if found is not None and (best is None or found[seat] > best[seat]):
            best = found
    return best


# --- hints -----------------------------------------------------------------------------------

HINT_LEVEL = "hard"
HINT_SAMPLES = 4  # determinisations the hint's numbers average over
TURN_STEPS = 40  # at most this many own decisions followed to the end of the turn


@dataclass(frozen=True)
class Hint:
    """The hard AI's move for a seat and why, in numbers."""

    key: str
    label: str
    text: str


def hint(game: Game, state: Any, seat: int, seed: int, version: int) -> Hint:
    """What the hard AI would play now for `seat`, and what it is worth over the turn.

    Reads only what `seat` sees: the AI decides on its `Seen`, and the numbers come from
    determinisations drawn with the AI's own generator (the same for two states that differ
    only in what the seat cannot see).
    """
    legal = {a.key: a for a in game.legal_actions(state, seat)}
    key = decide(game, state, seat, HINT_LEVEL, seed, version)
    why = {a.key: t for a, t in explain_options(game, state, seat)}.get(key, "")
    ex = explainer(game.id)
    rng = ai_rng(seed, version, seat)
    own, rival, samples = 0.0, 0.0, 0
    for _ in range(HINT_SAMPLES):
        seen = seen_state(game, state, seat, rng)
        before = _scores(game, ex, seen)
        after = _scores(game, ex, _finish_turn(game, seen, seat, key, seed, version))
        own += after[seat] - before[seat]
        rival += _worst([after[s] - before[s] for s in range(len(before)) if s != seat])
        samples += 1
    label = legal[key].label if key in legal else key
    numbers = _hint_numbers(own / samples, rival / samples, ex)
    text = joined(said("💡 **{label}** — {numbers}", label=label, numbers=numbers), why)
    return Hint(key=key, label=label, text=text)


def _finish_turn(game: Game, state: Any, seat: int, key: str, seed: int, version: int) -> Any:
    """`key`, then the rest of this seat's turn as the normal AI would play it."""
    state = game.apply(state, seat, key).state
    for step in range(TURN_STEPS):
        if tuple(game.active_players(state)) != (seat,):
            break
        nxt = decide(game, state, seat, "normal", seed, version + 1 + step)
        state = game.apply(state, seat, nxt).state
    return state


def _hint_numbers(own: float, rival: float, ex: Explainer) -> Said:
    """'Expected +4 points for you over this turn (the most for a rival: −1 point).'"""
    own_r, rival_r = round(own), round(rival)
    mine = signed(own_r, ex.unit)
    if rival_r:
        return said(
            "Expected {points} {measure} (the most for a rival: {rival}).",
            points=mine,
            measure=ex.measure,
            rival=signed(rival_r, ex.unit),
        )
    return said("Expected {points} {measure}.", points=mine, measure=ex.measure)


# --- the last move ---------------------------------------------------------------------------


def score_changes(game: Game, before: Any, after: Any) -> list[str]:
    """One line per seat whose public score moved from `before` to `after`: how much and by
    which rule ('{seat0}: +4 points — …'); [] when no score moved."""
    ex = explainer(game.id)
    shown = ex.shown or ex.points
    lines: list[str] = []
    for seat in range(ex.seats(after)):
        change = shown(after, seat) - shown(before, seat)
        if change:
            why = ex.why(before, after, seat) if ex.why else ""
            who, moved = f"{{seat{seat}}}", signed(change, ex.unit)
            if why:
                lines.append(said("{seat}: {points} — {why}", seat=who, points=moved, why=why))
            else:
                lines.append(said("{seat}: {points}", seat=who, points=moved))
    return lines


# --- players' words --------------------------------------------------------------------------

INTERNAL = re.compile(
    r"\b[a-z]+_[a-z0-9_]+\b"  # snake_case names
    r"|\b[a-z]+:[a-z0-9_.+=]+\b"  # key strings (menu:skill, pay:m2t0x2)
    r"|\bNone\b|\bTrue\b|\bFalse\b"  # Python values
    r"|\{seat\d\}|\{\w+\}"  # unfilled placeholders
)


def internal_words(text: str) -> list[str]:
    """Engine words a player should never read in an explanation ([] when there are none)."""
    return [m.group(0) for m in INTERNAL.finditer(text)]
