"""The First in Flight engine: the rules contract on top of the step machine."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from rules.core import Action, BaseGame, Event, InvalidOptionsError, Outcome, Transition
from rules.core.words import said
from rules.first_in_flight import actions, flight, in_flight, menus, setup, text, turns
from rules.first_in_flight.common import choice_texts, data_of
from rules.first_in_flight.data import load_data
from rules.first_in_flight.keys import Key, StepKind, parse_key
from rules.first_in_flight.recent import RecentByState
from rules.first_in_flight.state import Options as FifOptions
from rules.first_in_flight.state import State as FifState
from rules.first_in_flight.state import Step
from rules.first_in_flight.view import GameView, build_view

Legal = Callable[[FifState, Step], list[Action]]
Handle = Callable[[FifState, Step, Key], tuple[FifState, list[Event]]]

PRIVATE_STEPS: tuple[StepKind, ...] = ("look", "pick")  # labels name cards only the seat has seen

# Each step kind: its legal actions and its handler (a test checks every StepKind is here).
STEPS: dict[StepKind, tuple[Legal, Handle]] = {
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
    "flight": (in_flight.flight_actions, in_flight.handle_flight),
    "cleanup": (flight.cleanup_actions, flight.handle_cleanup),
}


_RECENT: RecentByState[tuple[Action, ...]] = RecentByState()


class FirstInFlight(BaseGame[FifState, FifOptions, GameView]):
    """First in Flight (1–4 players; Gustave joins 1- and 2-player games)."""

    id = "first-in-flight"
    title = "First in Flight"
    score_word = "record"  # a seat's score is its best Flight, not points
    min_players = 1
    max_players = 4
    Options = FifOptions
    State = FifState
    # 2: the write-only fields turn_seat, Player.year_used and RowCard.reduced_to are gone
    STATE_VERSION = 2
    # a Flight's end (landing or crash, then its score) and a Year's end get a new board message
    milestone_kinds: ClassVar[frozenset[str]] = frozenset(
        {"landed", "crashed", "scored", "year_end"}
    )

    def new_game(
        self, seed: int, players: int, options: FifOptions | dict[str, Any] | None = None
    ) -> FifState:
        """Set up the board, decks, display and the Pilot draft."""
        self.check_player_count(players)
        opts = self.parse_options(options)
        try:
            load_data(opts.card_data)
        except ValueError as exc:
            reason = said("Invalid options for {game}: {reason}", game=self.title, reason=str(exc))
            raise InvalidOptionsError(reason) from exc
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
        # The acting seat's view lists the cards on offer from these same actions, and states
        # are frozen: the last few answers are kept by the state's identity.
        return list(_RECENT.get_or_compute(state, seat, lambda s: self._legal_actions(s, seat)))

    def _legal_actions(self, state: FifState, seat: int) -> tuple[Action, ...]:
        """The current step's choices for an active seat, computed."""
        step = state.steps[-1]
        actions = STEPS[step.kind][0](state, step)
        if step.kind in PRIVATE_STEPS:
            return tuple(actions)
        return tuple(a.model_copy(update={"public": True}) for a in actions)

    def apply(self, state: FifState, seat: int, action: Action | str) -> Transition[FifState]:
        """Resolve one decision, then run automatic play (Gustave, Year ends) until the next."""
        chosen = self.resolve(state, seat, action)
        step = state.steps[-1]
        new, events = STEPS[step.kind][1](state, step, parse_key(chosen.key, step.kind))
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

    def upgrade(self, raw: dict[str, Any], from_version: int) -> dict[str, Any]:
        """Version 1 → 2: drop the fields nothing ever read (a stored game plays on unchanged)."""
        if from_version == 1:
            raw = _drop_write_only_fields(raw)
            from_version = 2
        return super().upgrade(raw, from_version)

    def data_note(self, state: FifState) -> str:
        """Says so when the game uses the unofficial stand-in card set."""
        return text.STAND_IN if data_of(state).stand_in else ""

    def explain_illegal(self, state: FifState, seat: int, key: str) -> str:
        """Why a key is not legal now."""
        return text.explain_illegal(state, seat, key)

    def rules_text(self, topic: str | None) -> str:
        """Player-facing rules summary."""
        return text.rules_text(topic)

    def rules_topics(self) -> list[str]:
        """Topics of the rules summary."""
        return text.topics()


def _drop_write_only_fields(raw: dict[str, Any]) -> dict[str, Any]:
    """A version-1 state dict without turn_seat, year_used and reduced_to."""
    out = {k: v for k, v in raw.items() if k != "turn_seat"}
    out["seats"] = [{k: v for k, v in p.items() if k != "year_used"} for p in raw["seats"]]
    flight = raw.get("flight")
    if flight is not None:
        row = [{k: v for k, v in c.items() if k != "reduced_to"} for c in flight.get("row", [])]
        out["flight"] = {**flight, "row": row}
    return out
