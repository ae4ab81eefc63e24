"""A game's course from seed + action log: public views turn by turn, and score series.

Replays (/game replay) and end-of-game charts are built from these; only public views
(viewer None) ever leave this module, so no hidden card can reach a picture.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from bot.services.errors import NotStartedError
from bot.services.games import LoadedGame
from bot.services.replay import replay_states
from bot.store import Store
from bot.store import repository as repo
from bot.store.repository import ActionRecord
from rules.core import Game
from rules.core.errors import said


@dataclass(frozen=True)
class GameLog:
    """What a replay needs: the game as stored and its moves in force."""

    loaded: LoadedGame
    actions: tuple[ActionRecord, ...]


@dataclass(frozen=True)
class ScoreSeries:
    """Scores of every seat at each checkpoint (a pass, a hand), for an end chart."""

    title: str
    labels: tuple[str, ...]
    scores: tuple[tuple[int, ...], ...]  # per checkpoint, one score per seat


async def load_log(store: Store, loaded: LoadedGame) -> GameLog:
    """The moves in force of a started game."""
    if loaded.state is None:
        raise NotStartedError(said("That game has not started yet, so there is nothing to replay."))
    async with store.reading() as db:
        actions = await repo.fetch_actions(db, loaded.record.pk)
    return GameLog(loaded, tuple(actions))


def _states(log: GameLog) -> Any:
    """Every state from the deal to the last move."""
    loaded = log.loaded
    return replay_states(loaded.game, loaded.record, len(loaded.seats), log.actions)


def turn_views(log: GameLog) -> list[BaseModel]:
    """The public view at the start and after every turn (whenever who must act changes)."""
    game = log.loaded.game
    views: list[BaseModel] = []
    previous: tuple[int, ...] | None = None
    for state in _states(log):
        active = tuple(game.active_players(state))
        if active != previous:
            views.append(game.view(state, None))
        previous = active
    return views


def score_series(log: GameLog) -> ScoreSeries | None:
    """The end chart's data: Takeoff! points per pass, Flight totals per hand, else None."""
    game_id = log.loaded.game.id
    if game_id == "flight":
        return _flight_series(log.loaded.game, log.loaded.state)
    if game_id == "takeoff":
        return _takeoff_series(log)
    return None


def _flight_series(game: Game, state: Any) -> ScoreSeries | None:
    """Running totals after each hand, from the final public view's hand results."""
    results: Sequence[Any] = getattr(game.view(state, None), "results", ())
    if not results:
        return None
    labels = tuple(said("Hand {hand}", hand=r.number) for r in results)
    return ScoreSeries(said("Score per hand"), labels, tuple(tuple(r.totals) for r in results))


def _takeoff_series(log: GameLog) -> ScoreSeries | None:
    """Points at the end of each pass through the deck, and at the end of the game."""
    game = log.loaded.game
    labels: list[str] = []
    scores: list[tuple[int, ...]] = []
    last: Any = None
    for state in _states(log):
        view: Any = game.view(state, None)  # a TakeoffView: pass_number and scores
        if last is not None and view.pass_number != last.pass_number:
            labels.append(said("Pass {number}", number=last.pass_number))
            scores.append(tuple(last.scores))
        last = view
    if last is None:
        return None
    labels.append(said("Pass {number}", number=last.pass_number))  # the pass the game ended in
    scores.append(tuple(last.scores))
    return ScoreSeries(said("Points per pass"), tuple(labels), tuple(scores))
