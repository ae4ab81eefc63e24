"""The First in Flight engine: the rules contract on top of the step machine."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from rules.core import Action, BaseGame, Event, InvalidOptionsError, Outcome, Transition
from rules.first_in_flight import actions, flight, menus, setup, text, turns
from rules.first_in_flight.common import choice_texts
from rules.first_in_flight.data import load_data
from rules.first_in_flight.state import Options as FifOptions
from rules.first_in_flight.state import State as FifState
from rules.first_in_flight.state import Step
from rules.first_in_flight.view import GameView, build_view

Legal = Callable[[FifState, Step], list[Action]]
Handle = Callable[[FifState, Step, str], tuple[FifState, list[Event]]]

PRIVATE_STEPS = ("look", "pick")  # their labels name cards only the deciding seat has seen

STEPS: dict[str, tuple[Legal, Handle]] = {
    "draft": (setup.draft_actions, setup.handle_draft),
    "turn": (turns.turn_actions, turns.handle_turn),
    "space": (actions.space_actions, actions.handle_chain),
    "option": (actions.chain_actions, actions.handle_chain),
    "any_target": (actions.chain_actions, actions.handle_chain),
    "copy_option": (actions.chain_actions, actions.handle_chain),
    "repair_slot": (actions.chain_actions, actions.handle_chain),
    "pay": (actions.chain_actions, actions.handle_chain),
    "dev": (actions.dev_actions, actions.handle_dev),
    "abilities": (menus.abilities_actions, menus.handle_abilities),
    "copy": (menus.copy_actions, menus.handle_copy),
    "ignore": (menus.ignore_actions, menus.handle_ignore),
    "refresh": (menus.refresh_actions, menus.handle_refresh),
    "look": (menus.look_actions, menus.handle_look),
    "pick": (menus.pick_actions, menus.handle_pick),
    "flight": (flight.flight_actions, flight.handle_flight),
    "cleanup": (flight.cleanup_actions, flight.handle_cleanup),
}


class FirstInFlight(BaseGame[FifState]):
    """First in Flight (1–4 players; Gustave joins 1- and 2-player games)."""

    id = "first-in-flight"
    title = "First in Flight"
    min_players = 1
    max_players = 4
    Options: ClassVar[type[FifOptions]] = FifOptions
    State: ClassVar[type[FifState]] = FifState
    STATE_VERSION = 1
    # a Flight's end (landing or crash, then its score) and a Year's end get a new board message
    milestone_kinds: ClassVar[frozenset[str]] = frozenset(
        {"landed", "crashed", "scored", "year_end"}
    )

    def new_game(self, seed: int, players: int, options: Any = None) -> FifState:
        """Set up the board, decks, display and the Pilot draft."""
        self.check_player_count(players)
        opts = self.parse_options(options)
        assert isinstance(opts, FifOptions)
        try:
            load_data(opts.card_data)
        except ValueError as exc:
            raise InvalidOptionsError(f"Invalid options for {self.title}: {exc}") from exc
        return setup.new_state(seed, players, opts)

    def active_players(self, state: FifState) -> tuple[int, ...]:
        """The seat deciding now (one at a time), or () when over."""
        if state.over or not state.steps:
            return ()
        return (state.steps[-1].seat,)

    def legal_actions(self, state: FifState, seat: int) -> list[Action]:
        """The current step's choices for this seat."""
        if seat not in self.active_players(state):
            return []
        step = state.steps[-1]
        actions = STEPS[step.kind][0](state, step)
        if step.kind in PRIVATE_STEPS:
            return actions
        return [a.model_copy(update={"public": True}) for a in actions]

    def apply(self, state: FifState, seat: int, action: Action | str) -> Transition:
        """Resolve one decision, then run automatic play (Gustave, Year ends) until the next."""
        chosen = self.resolve(state, seat, action)
        step = state.steps[-1]
        new, events = STEPS[step.kind][1](state, step, chosen.key)
        new, more = turns.settle(new)
        return Transition(state=new, events=tuple(events + more))

    def view(self, state: FifState, viewer: int | None) -> GameView:
        """Public view (viewer None) or one seat's view (with the texts of the cards on offer)."""
        view = build_view(state, viewer)
        if viewer is None or viewer not in self.active_players(state):
            return view
        texts = choice_texts(state, self.legal_actions(state, viewer))
        return view.model_copy(update={"card_texts": texts})

    def outcome(self, state: FifState) -> Outcome | None:
        """Highest record wins; the 40-trigger wins ties; Gustave may win (reason says so)."""
        if not state.over:
            return None
        return text.outcome(state)

    def prompt(self, state: FifState, seat: int) -> str:
        """What this seat decides now."""
        return text.prompt(state, seat)

    def explain_illegal(self, state: FifState, seat: int, key: str) -> str:
        """Why a key is not legal now."""
        return text.explain_illegal(state, seat, key)

    def rules_text(self, topic: str | None) -> str:
        """Player-facing rules summary."""
        return text.rules_text(topic)

    def rules_topics(self) -> list[str]:
        """Topics of the rules summary."""
        return text.topics()
