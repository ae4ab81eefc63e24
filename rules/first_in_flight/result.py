"""Who won (rulebook: Winning the Game, 2-Player Rules; ruling 10), shared by outcome and view."""

from __future__ import annotations

from typing import NamedTuple

from rules.core import ranks_from_scores
from rules.first_in_flight.state import State


class Result(NamedTuple):
    """The winning seats (empty when Gustave won alone), whether Gustave won, and seat ranks."""

    winners: tuple[int, ...]
    gustave_won: bool
    ranks: tuple[int, ...]


def result(state: State) -> Result:
    """Highest record wins; the player who reached 40 wins a tie, else the victory is shared.

    Gustave with the highest record wins and the players compete for 2nd. A tie with him follows
    the same rule; in solo the player must beat him (ruling 10), so a tie without the player's
    40-trigger goes to Gustave.
    """
    scores = tuple(m.record for m in state.seats)
    best = max(scores)
    trigger = state.end_trigger
    top = [s for s in range(state.players) if scores[s] == best]
    ranks = list(ranks_from_scores(scores))
    if trigger in top and len(top) > 1:
        ranks = [r + (1 if s != trigger and scores[s] == best else 0) for s, r in enumerate(ranks)]
        top = [trigger]
    gustave_won = False
    if state.gustave:
        g = state.gustave_record
        human_trigger = 0 <= trigger < state.players
        tie_to_gustave = trigger == state.players or (state.players == 1 and not human_trigger)
        gustave_won = g > best or (g == best and tie_to_gustave)
    if gustave_won:
        return Result((), True, tuple(r + 1 for r in ranks))
    return Result(tuple(top), False, tuple(ranks))


def gustave_shares(state: State) -> bool:
    """True when Gustave ties the winners and nobody's 40-trigger breaks the tie."""
    if not state.gustave or result(state).gustave_won:
        return False
    best = max(m.record for m in state.seats)
    return state.gustave_record == best and not 0 <= state.end_trigger < state.players
