"""A game whose result is set by its options, for history/stats/rating tests (not registered).

Seat 0 makes one move ("end") and the game is over with the scores, ranks and winners the
options give. With `gustave` set, the public view carries First in Flight's automa fields
(`gustave_record`, `gustave_won`, `end_trigger`) so the history service sees an automa.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from rules.core import Action, BaseGame, Frozen, Outcome, Transition


class ScriptedOptions(Frozen):
    """The result the game will have."""

    scores: tuple[int, ...] = (1, 0)
    ranks: tuple[int, ...] = (1, 2)
    winners: tuple[int, ...] = (0,)
    gustave: int | None = None
    gustave_won: bool = False
    trigger: str = ""


class ScriptedState(Frozen):
    """Whether the single move has been made."""

    players: int
    options: ScriptedOptions
    over: bool = False


class ScriptedView(Frozen):
    """The public view: the automa fields when a Gustave plays."""

    over: bool
    gustave_record: int | None = None
    gustave_won: bool = False
    end_trigger: str = ""


class ScriptedGame(BaseGame[ScriptedState, ScriptedOptions, ScriptedView]):
    """One move, then the scripted outcome."""

    id = "scripted"
    title = "Scripted"
    min_players = 1
    max_players = 5
    Options = ScriptedOptions
    State = ScriptedState

    def new_game(self, seed: int, players: int, options: Any) -> ScriptedState:
        """A game waiting for seat 0's move."""
        opts = self.parse_options(options)
        assert isinstance(opts, ScriptedOptions) and len(opts.scores) == players
        return ScriptedState(players=players, options=opts)

    def active_players(self, state: ScriptedState) -> tuple[int, ...]:
        """Seat 0 until the move is made."""
        return () if state.over else (0,)

    def legal_actions(self, state: ScriptedState, seat: int) -> list[Action]:
        """The one move."""
        return [Action(key="end", label="End")] if seat in self.active_players(state) else []

    def apply(self, state: ScriptedState, seat: int, action: Action | str) -> Transition:
        """End the game."""
        self.resolve(state, seat, action)
        return Transition(state=state.model_copy(update={"over": True}), events=())

    def view(self, state: ScriptedState, viewer: int | None) -> BaseModel:
        """Public automa fields when scripted with Gustave."""
        opts = state.options
        return ScriptedView(
            over=state.over,
            gustave_record=opts.gustave,
            gustave_won=opts.gustave_won,
            end_trigger=opts.trigger,
        )

    def outcome(self, state: ScriptedState) -> Outcome | None:
        """The scripted result once the move is made."""
        if not state.over:
            return None
        o = state.options
        return Outcome(scores=o.scores, ranks=o.ranks, winners=o.winners, reason="Scripted.")

    def prompt(self, state: ScriptedState, seat: int) -> str:
        """What seat 0 does."""
        return "End the game."

    def rules_text(self, topic: str | None) -> str:
        """No rules to speak of."""
        return "Seat 0 ends the game."


SCRIPTED = ScriptedGame()
