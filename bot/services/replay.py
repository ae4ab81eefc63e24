"""Replaying a game from seed + log: verify, undo and export are built on it."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from pydantic import BaseModel

import rules
from bot.services.errors import UndoRefusedError
from bot.store.repository import ActionRecord, GameRecord, StoredGame
from rules.core import Event, Game, Rng
from rules.core.errors import said

# Stored events carry the seat names at the time of the move under this key (not an Event field).
NAMES_KEY = "names"


def stored_event(raw: dict[str, Any]) -> tuple[Event, tuple[str, ...] | None]:
    """An event row as (Event, seat names when it happened — None for rows stored before)."""
    names = raw.get(NAMES_KEY)
    event = Event.model_validate({k: v for k, v in raw.items() if k != NAMES_KEY})
    return event, tuple(str(n) for n in names) if isinstance(names, list) else None


def with_names(event: Event, names: Sequence[str]) -> dict[str, Any]:
    """An event as stored: its fields plus who held each seat when it happened.

    `/admin replace` changes who sits in a seat from then on; the log keeps the names of the
    players who actually made the earlier moves (issue 15).
    """
    return {**event.model_dump(mode="json"), NAMES_KEY: list(names)}


def refuse_revealing(raw_events: list[dict[str, Any]]) -> None:
    """Undo refuses a move that brought out hidden information or a random result."""
    for raw in raw_events:
        event, _ = stored_event(raw)
        if event.reveals:
            raise UndoRefusedError(
                said(
                    "The last move revealed hidden information or a random result "
                    "(“{what}”), so it cannot be taken back.",
                    what=event.text,
                )
            )


def exported(action: ActionRecord) -> dict[str, Any]:
    """One move of the export."""
    return {
        "seq": action.seq,
        "seat": action.seat,
        "key": action.key,
        "user_id": action.user_id,
        "at": action.created_at,
    }


def replay(game: Game, record: GameRecord, players: int, actions: Sequence[ActionRecord]) -> Any:
    """The state that seed + options + moves lead to (verify and undo rely on this)."""
    return deque(replay_states(game, record, players, actions), maxlen=1)[0]


def replay_states(
    game: Game, record: GameRecord, players: int, actions: Sequence[ActionRecord]
) -> Iterator[Any]:
    """The first state, then the state after each move (replays and end charts use these)."""
    state = game.new_game(record.seed, players, game.Options.model_validate(record.options))
    yield state
    for action in actions:
        state = game.apply(state, action.seat, action.key).state
        yield state


def rng_draws(value: Any) -> tuple[tuple[int, int], ...]:
    """(seed, counter) of every Rng inside a state; a change means something random happened."""
    if isinstance(value, Rng):
        return ((value.seed, value.counter),)
    if isinstance(value, BaseModel):
        items: list[Any] = [getattr(value, name) for name in type(value).model_fields]
    elif isinstance(value, tuple | list):
        items = list(value)
    elif isinstance(value, dict):
        items = list(value.values())
    else:
        return ()
    return tuple(draw for item in items for draw in rng_draws(item))


def differences(expected: Any, actual: Any, path: str = "snapshot") -> list[str]:
    """The JSON paths where two state dumps differ."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        keys = sorted(set(expected) | set(actual), key=str)
        return [
            diff
            for key in keys
            for diff in differences(expected.get(key), actual.get(key), f"{path}.{key}")
        ]
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        pairs = enumerate(zip(expected, actual, strict=True))
        return [diff for i, (e, a) in pairs for diff in differences(e, a, f"{path}[{i}]")]
    return [] if expected == actual else [path]


def replay_problem(
    stored: StoredGame,
    actions: list[ActionRecord],
    engines: Callable[[str], Any] | None = None,
) -> str | None:
    """Why this game does not replay to its snapshot, or None when it does."""
    game = (engines or rules.get_game)(stored.record.game_id)
    try:
        replayed = replay(game, stored.record, len(stored.seats), actions)
        # A missing snapshot fails here and is reported below like any other mismatch.
        expected = game.dump_state(game.load_state(stored.snapshot))  # type: ignore[arg-type]
    except Exception as exc:  # a log that no longer replays is reported, not raised
        return f"the log does not replay ({type(exc).__name__}: {exc})"
    diffs = differences(expected, game.dump_state(replayed))
    return f"replay differs at {diffs[0]}" if diffs else None
