"""The rules contract every game implements, and the shared helpers built on it."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
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
from rules.core.words import said

S = TypeVar("S", bound=BaseModel)
Opt = TypeVar("Opt", bound=BaseModel)
V = TypeVar("V", bound=BaseModel)
V_co = TypeVar("V_co", bound=BaseModel, covariant=True)


@runtime_checkable
class GameContract(Protocol[S, Opt, V_co]):
    """A pure rules engine (docs/ENGINES.md) over state S, options Opt and view V; seats 0..n-1."""

    @property
    def id(self) -> str:
        """The stable game id (stored with every game)."""
        ...

    @property
    def title(self) -> str:
        """The name players read."""
        ...

    @property
    def min_players(self) -> int:
        """The fewest seats a game may start with."""
        ...

    @property
    def max_players(self) -> int:
        """The most seats a game may start with."""
        ...

    @property
    def Options(self) -> type[Opt]:
        """The options model (each field becomes a slash-command option)."""
        ...

    @property
    def State(self) -> type[S]:
        """The state model."""
        ...

    @property
    def STATE_VERSION(self) -> int:
        """The version `dump_state` writes; older stored states go through `upgrade`."""
        ...

    @property
    def milestone_kinds(self) -> frozenset[str]:
        """Event kinds after which the bot posts a new board instead of editing the live one
        (e.g. the end of a First in Flight Flight); empty for most games."""
        ...

    def new_game(self, seed: int, players: int, options: Opt | dict[str, Any] | None) -> S:
        """A fresh state for this many players."""
        ...

    def active_players(self, state: S) -> tuple[int, ...]:
        """Seats that must act now; () once the game is over."""
        ...

    def legal_actions(self, state: S, seat: int) -> list[Action]:
        """This seat's legal actions, in a deterministic order with unique keys."""
        ...

    def apply(self, state: S, seat: int, action: Action | str) -> Transition[S]:
        """The new state and events; the input state is untouched. Raises RulesError."""
        ...

    def view(self, state: S, viewer: int | None) -> V_co:
        """What `viewer` may see (None = the public)."""
        ...

    def outcome(self, state: S) -> Outcome | None:
        """Scores, ranks and winners once the game is over, else None."""
        ...

    def prompt(self, state: S, seat: int) -> str:
        """One line telling `seat` what they are deciding now."""
        ...

    def data_note(self, state: S) -> str:
        """The card-data provenance line (e.g. an unofficial stand-in set), or ""."""
        ...

    def lobby_notes(self, options: Opt) -> list[str]:
        """Extra lines the lobby shows under the options (e.g. a house rule), or []."""
        ...

    def option_applies(self, options: Opt, name: str) -> bool:
        """Whether option `name` matters given the others (the lobby lists only those)."""
        ...

    def score_breakdown(self, state: S) -> list[str]:
        """Once the game is over: one line per seat saying what scored how much, or []."""
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

    def dump_state(self, state: S) -> dict[str, Any]:
        """The state as a JSON-ready dict tagged with STATE_VERSION."""
        ...

    def load_state(self, raw: dict[str, Any]) -> S:
        """A state from `dump_state` output, upgraded if it is older."""
        ...

    def resolve(self, state: S, seat: int, action: Action | str) -> Action:
        """The legal action matching `action` (or its key), or a RulesError saying why not."""
        ...


# What the registry and the bot hold: an engine of any game (its types are the game's business).
Game = GameContract[Any, Any, Any]


class BaseGame(ABC, Generic[S, Opt, V]):
    """Shared plumbing for engines: option parsing, key resolution, (de)serialisation.

    A game subclasses `BaseGame[ItsState, ItsOptions, ItsView]`, sets the class attributes and
    implements the abstract methods; the rest has working defaults.
    """

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    # plain class attributes (a ClassVar may not hold a type variable)
    Options: type[Opt]
    State: type[S]
    STATE_VERSION: ClassVar[int] = 1
    milestone_kinds: ClassVar[frozenset[str]] = frozenset()

    @abstractmethod
    def new_game(self, seed: int, players: int, options: Opt | dict[str, Any] | None) -> S:
        """A fresh state for this many players."""

    @abstractmethod
    def active_players(self, state: S) -> tuple[int, ...]:
        """Seats that must act now; () once the game is over."""

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> list[Action]:
        """This seat's legal actions, in a deterministic order with unique keys."""

    @abstractmethod
    def apply(self, state: S, seat: int, action: Action | str) -> Transition[S]:
        """The new state and events; the input state is untouched. Raises RulesError."""

    @abstractmethod
    def view(self, state: S, viewer: int | None) -> V:
        """What `viewer` may see (None = the public)."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """Scores, ranks and winners once the game is over, else None."""

    @abstractmethod
    def rules_text(self, topic: str | None) -> str:
        """Player-facing rules summary (a topic or the overview)."""

    def parse_options(self, options: Opt | dict[str, Any] | None) -> Opt:
        """Accept an Options instance, a dict or None (defaults)."""
        if options is None:
            return self.Options()
        if isinstance(options, self.Options):
            return options
        try:
            return self.Options.model_validate(options)
        except ValueError as exc:
            error = said("Invalid options for {game}: {error}", game=self.title, error=str(exc))
            raise InvalidOptionsError(error) from exc

    def check_player_count(self, players: int) -> None:
        """Raise when the player count is outside this game's range."""
        if not self.min_players <= players <= self.max_players:
            raise InvalidOptionsError(
                said(
                    "{game} needs {low}–{high} players, not {players}.",
                    game=self.title,
                    low=self.min_players,
                    high=self.max_players,
                    players=players,
                )
            )

    def explain_illegal(self, state: S, seat: int, key: str) -> str:
        """Why `key` is not legal now ("" = no reason beyond the shared refusal); games override.

        The reason is appended to the one refusal sentence every game shares (rules.core.messages).
        """
        return ""

    def resolve(self, state: S, seat: int, action: Action | str) -> Action:
        """The legal action matching `action` (or its key), or a RulesError saying why not."""
        key = action if isinstance(action, str) else action.key
        active = self.active_players(state)
        if not active:
            raise GameOverError(messages.GAME_OVER)
        if seat not in active:
            raise NotYourTurnError(messages.NOT_YOUR_TURN)
        legal = self._take_vouched(state, seat)
        if legal is None:
            legal = self.legal_actions(state, seat)
        for candidate in legal:
            if candidate.key == key:
                return candidate
        raise IllegalActionError(messages.refusal(self.explain_illegal(state, seat, key)))

    def vouch(self, state: S, seat: int, legal: Sequence[Action]) -> None:
        """Declare `legal` to be `legal_actions(state, seat)` for this very state object.

        A caller that already holds them (the bot caches them per stored version) lets the next
        `resolve` on this state use them instead of computing them a second time.
        """
        self._vouched: tuple[Any, int, list[Action]] | None = (state, seat, list(legal))

    def _take_vouched(self, state: S, seat: int) -> list[Action] | None:
        """The vouched actions if they were given for this state object and seat (used once)."""
        vouched: tuple[Any, int, list[Action]] | None = getattr(self, "_vouched", None)
        self._vouched = None
        if vouched is None or vouched[0] is not state or vouched[1] != seat:
            return None
        return vouched[2]

    def prompt(self, state: S, seat: int) -> str:
        """Default prompt; games override with something specific."""
        return said("Choose your action.")

    def data_note(self, state: S) -> str:
        """Default: official data, nothing to say."""
        return ""

    def lobby_notes(self, options: Opt) -> list[str]:
        """Default: the options say it all."""
        return []

    def option_applies(self, options: Opt, name: str) -> bool:
        """Default: every option applies."""
        return True

    def score_breakdown(self, state: S) -> list[str]:
        """Default: the totals say it all."""
        return []

    def rules_topics(self) -> list[str]:
        """Default: no topics beyond the overview."""
        return []

    def upgrade(self, raw: dict[str, Any], from_version: int) -> dict[str, Any]:
        """Default: version 1 is the only version."""
        if from_version != self.STATE_VERSION:
            raise ValueError(f"cannot upgrade {self.id} state from version {from_version}")
        return raw

    def dump_state(self, state: S) -> dict[str, Any]:
        """The state as a JSON-ready dict tagged with STATE_VERSION."""
        return {"v": self.STATE_VERSION, "state": state.model_dump(mode="json")}

    def load_state(self, raw: dict[str, Any]) -> S:
        """A state from `dump_state` output, upgraded first when older."""
        version = int(raw.get("v", 1))
        body = raw["state"]
        if version != self.STATE_VERSION:
            body = self.upgrade(body, version)
        return self.State.model_validate(body)
