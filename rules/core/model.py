"""The shared vocabulary of every game: actions, events, transitions and outcomes."""

from __future__ import annotations

import re
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, computed_field, field_validator, model_validator

from rules.core.words import Text, dump_parts, load_said

KEY_PATTERN = re.compile(r"^[A-Za-z0-9_.:+=-]{1,60}$")

S = TypeVar("S", bound=BaseModel)

ButtonStyle = Literal["primary", "secondary", "success", "danger"]


class Frozen(BaseModel):
    """Base for immutable models that round-trip through JSON exactly."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Action(Frozen):
    """One legal choice for one seat.

    `key` is short and stable (it travels in Discord custom_ids and in the action log);
    `label` is what a player reads. `group`, `emoji`, `style` and `description` are hints for the
    generic Discord adapter: actions sharing a non-empty group become one select menu.
    Games may subclass this with typed fields; `key` alone must identify the action.
    """

    key: str
    label: Text
    group: Text = ""  # a select menu's title (players read it): a Said stays a Said
    emoji: str | None = None
    style: ButtonStyle = "secondary"
    description: Text = ""
    # True only when showing this action to everyone reveals nothing hidden (e.g. "End turn");
    # other actions are offered only in the acting player's private (ephemeral) panel.
    public: bool = False

    @field_validator("key")
    @classmethod
    def _key_is_short_and_safe(cls, value: str) -> str:
        """Keys must fit a custom_id and contain no separators the bot uses."""
        if not KEY_PATTERN.match(value):
            raise ValueError(f"bad action key {value!r}")
        return value


class Event(Frozen):
    """A past-tense fact produced by `apply`.

    `text` is the public log line. When `visible_to` is set, only those seats may read
    `private_text` (e.g. which card was drawn); everyone else sees `text`.
    Seat references in text use the placeholder `{seat0}`, `{seat1}`, … so the bot can put names in.
    """

    kind: str
    text: Text
    visible_to: tuple[int, ...] | None = None
    private_text: Text | None = None
    reveals: bool = False  # True when hidden information or a random result came out (no undo)
    # The texts' message ids and values when they were said with `said(...)` (issue 30): stored
    # with the event, so a log line is told in each reader's language long after the move.
    said: list[Any] | None = None
    private_said: list[Any] | None = None

    @model_validator(mode="before")
    @classmethod
    def _remember_said(cls, data: Any) -> Any:
        """Keep a Said text's parts in the stored fields."""
        if isinstance(data, dict):
            data = dict(data)
            for field, parts in (("text", "said"), ("private_text", "private_said")):
                if data.get(parts) is None and (dumped := dump_parts(data.get(field) or "")):
                    data[parts] = dumped
        return data

    def line_for(self, viewer: int | None) -> str:
        """The log line this viewer may read (a Said when it was said in parts)."""
        can_see = viewer is not None and self.visible_to is not None and viewer in self.visible_to
        if self.private_text is not None and can_see:
            return load_said(self.private_text, self.private_said)
        return load_said(self.text, self.said)


class Transition(Frozen, Generic[S]):
    """What `apply` returns: the new state (the game's own type) and the events behind it."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    state: S
    events: tuple[Event, ...] = ()


Winner = Literal["seats", "automa", "draw"]
Param = int | str | tuple[int, ...]


class Ending(Frozen):
    """Who won and why, as data; `text` is the sentence the game's text module made from it.

    `winner`: "seats" = the seats in Outcome.winners won (one seat); "draw" = the victory is
    shared (several seats, or seats with the automa); "automa" = a non-seat opponent such as
    Gustave won alone. `kind` names the reason (per game, e.g. "highest_record") and `params`
    holds the figures and seats it quotes.
    """

    winner: Winner
    kind: str
    params: dict[str, Param] = {}
    text: Text = ""


class Outcome(Frozen):
    """The result of a finished game: scores by seat, ranks (1 = best), winning seats, ending.

    `winners` is empty only when a non-seat opponent (an automa such as Gustave) won; then the
    seats rank from 2 and the ending says so (`ending.winner == "automa"`).
    """

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    ending: Ending | None = None

    @model_validator(mode="before")
    @classmethod
    def _reason_text_becomes_an_ending(cls, data: Any) -> Any:
        """Accept the older `reason=` text: it becomes an ending of kind "text" (no figures)."""
        if not isinstance(data, dict) or "reason" not in data:
            return data
        data = dict(data)
        text = str(data.pop("reason") or "")
        if data.get("ending") is None and text:
            winners = tuple(data.get("winners", ()))
            winner = "automa" if not winners else "draw" if len(winners) > 1 else "seats"
            data["ending"] = Ending(winner=winner, kind="text", text=text)
        return data

    @model_validator(mode="after")
    def _ending_matches_winners(self) -> Outcome:
        """An automa win has no winning seat; a seat win has some."""
        if self.ending is not None and (self.ending.winner == "automa") != (not self.winners):
            raise ValueError(f"ending {self.ending.winner!r} but winners {self.winners}")
        return self

    @computed_field  # type: ignore[prop-decorator]
    @property
    def reason(self) -> str:
        """The ending as one sentence for players (seat placeholders filled in by the bot)."""
        return self.ending.text if self.ending is not None else ""

    @property
    def automa_won(self) -> bool:
        """True when a non-seat opponent (Gustave) won alone."""
        return self.ending is not None and self.ending.winner == "automa"

    @property
    def is_draw(self) -> bool:
        """True when more than one seat shares the win."""
        return len(self.winners) > 1


def seat_ref(seat: int) -> str:
    """The placeholder for a seat's name in event and prompt texts."""
    return f"{{seat{seat}}}"


def fill_names(text: str, names: tuple[str, ...] | list[str]) -> str:
    """Replace seat placeholders with names (the bot does this; tests may too)."""
    for seat, name in enumerate(names):
        text = text.replace(seat_ref(seat), name)
    return text


def ranks_from_scores(scores: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """Competition ranking: equal scores share a rank (1, 1, 3)."""
    return tuple(1 + sum(1 for other in scores if other > s) for s in scores)
