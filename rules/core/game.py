"""The rules contract every game implements, and the shared helpers built on it."""

from __future__ import annotations

from typing import Any, ClassVar, Generic, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel

from rules.core import messages
from rules.core.errors import (
    GameOverError,
    IllegalActionError,
    InvalidOptionsError,
    NotYourTurnError,
)
from rules.core.model import Action, Outcome, Transition

S = TypeVar("S", bound=BaseModel)


@runtime_checkable
class Game(Protocol):
    """A pure rules engine (DESIGN.md §2). Seats are ints 0..n-1; states are frozen models."""

    id: str
    title: str
    min_players: int
    max_players: int
    Options: type[BaseModel]
    State: type[BaseModel]
    STATE_VERSION: int
    # Event kinds after which the bot posts a new board instead of editing the live one
    # (e.g. the end of a First in Flight Flight); empty for most games.
    milestone_kinds: frozenset[str]

    def new_game(self, seed: int, players: int, options: Any) -> Any:
        """A fresh state for this many players."""
        ...

    def active_players(self, state: Any) -> tuple[int, ...]:
        """Seats that must act now; () once the game is over."""
        ...

    def legal_actions(self, state: Any, seat: int) -> list[Action]:
        """This seat's legal actions, in a deterministic order with unique keys."""
        ...

    def apply(self, state: Any, seat: int, action: Action | str) -> Transition:
        """The new state and events; the input state is untouched. Raises RulesError."""
        ...

    def view(self, state: Any, viewer: int | None) -> BaseModel:
        """What `viewer` may see (None = the public)."""
        ...

    def outcome(self, state: Any) -> Outcome | None:
        """Scores, ranks and winners once the game is over, else None."""
        ...

    def prompt(self, state: Any, seat: int) -> str:
        """One line telling `seat` what they are deciding now."""
        ...

    def rules_text(self, topic: str | None) -> str:
        """Player-facing rules summary (a topic or the overview)."""
        ...

    def rules_topics(self) -> list[str]:
        """The topics `rules_text` knows."""
        ...

    def upgrade(self, raw: dict[str, Any], from_version: int) -> dict[str, Any]:
        """Migrate a stored state dict from an older STATE_VERSION."""
        ...

    def dump_state(self, state: Any) -> dict[str, Any]:
        """The state as a JSON-ready dict tagged with STATE_VERSION."""
        ...

    def load_state(self, raw: dict[str, Any]) -> Any:
        """A state from `dump_state` output, upgraded if it is older."""
        ...

    def resolve(self, state: Any, seat: int, action: Action | str) -> Action:
        """The legal action matching `action` (or its key), or a RulesError saying why not."""
        ...


class BaseGame(Generic[S]):
    """Shared plumbing for engines: option parsing, key resolution, (de)serialisation."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    Options: ClassVar[type[BaseModel]]
    State: ClassVar[type[BaseModel]]
    STATE_VERSION: ClassVar[int] = 1
    milestone_kinds: ClassVar[frozenset[str]] = frozenset()

    def parse_options(self, options: Any) -> BaseModel:
        """Accept an Options instance, a dict or None (defaults)."""
        if options is None:
            return self.Options()
        if isinstance(options, self.Options):
            return options
        try:
            return self.Options.model_validate(options)
        except ValueError as exc:
            raise InvalidOptionsError(f"Invalid options for {self.title}: {exc}") from exc

    def check_player_count(self, players: int) -> None:
        """Raise when the player count is outside this game's range."""
        if not self.min_players <= players <= self.max_players:
            raise InvalidOptionsError(
                f"{self.title} needs {self.min_players}–{self.max_players} players, not {players}."
            )

    def explain_illegal(self, state: Any, seat: int, key: str) -> str:
        """Why `key` is not legal now ("" = no reason beyond the shared refusal); games override.

        The reason is appended to the one refusal sentence every game shares (rules.core.messages).
        """
        return ""

    def resolve(self, state: Any, seat: int, action: Action | str) -> Action:
        """The legal action matching `action` (or its key), or a RulesError saying why not."""
        key = action if isinstance(action, str) else action.key
        active = self.active_players(state)  # type: ignore[attr-defined]
        if not active:
            raise GameOverError(messages.GAME_OVER)
        if seat not in active:
            raise NotYourTurnError(messages.NOT_YOUR_TURN)
        legal: list[Action] = self.legal_actions(state, seat)  # type: ignore[attr-defined]
        for candidate in legal:
            if candidate.key == key:
                return candidate
        raise IllegalActionError(messages.refusal(self.explain_illegal(state, seat, key)))

    def prompt(self, state: Any, seat: int) -> str:
        """Default prompt; games override with something specific."""
        return "Choose your action."

    def rules_topics(self) -> list[str]:
        """Default: no topics beyond the overview."""
        return []

    def upgrade(self, raw: dict[str, Any], from_version: int) -> dict[str, Any]:
        """Default: version 1 is the only version."""
        if from_version != self.STATE_VERSION:
            raise ValueError(f"cannot upgrade {self.id} state from version {from_version}")
        return raw

    def dump_state(self, state: Any) -> dict[str, Any]:
        """The state as a JSON-ready dict tagged with STATE_VERSION."""
        return {"v": self.STATE_VERSION, "state": state.model_dump(mode="json")}

    def load_state(self, raw: dict[str, Any]) -> Any:
        """A state from `dump_state` output, upgraded first when older."""
        version = int(raw.get("v", 1))
        body = raw["state"]
        if version != self.STATE_VERSION:
            body = self.upgrade(body, version)
        return self.State.model_validate(body)
