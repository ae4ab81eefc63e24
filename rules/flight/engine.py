"""The Flight engine: the rules contract (rules.core) over the Flight modules."""

from __future__ import annotations

from typing import Any, ClassVar

from rules.core import (
    Action,
    BaseGame,
    Ending,
    IllegalActionError,
    Outcome,
    Rng,
    Transition,
    ranks_from_scores,
)
from rules.core.model import Winner
from rules.core.words import Said, joined, said
from rules.flight import actions, text
from rules.flight.data import card, is_card, load_data, route_name, stand_in_note
from rules.flight.deck import new_hand_state, pack_available
from rules.flight.keys import Cancel, Discard, Done, Draw, DrawSource, Play, To, parse_key
from rules.flight.phrases import listing, n_hands
from rules.flight.plays import targets, why_unplayable
from rules.flight.state import FlightOptions, FlightState
from rules.flight.turn import apply_key
from rules.flight.view import FlightGameView, build_view


class FlightGame(BaseGame[FlightState, FlightOptions, FlightGameView]):
    """Flight (Pepys, 1954): 2–5 players build air routes; a match of several hands."""

    id: ClassVar[str] = "flight"
    title: ClassVar[str] = "Flight"
    min_players: ClassVar[int] = load_data().min_players
    max_players: ClassVar[int] = load_data().max_players
    Options = FlightOptions
    State = FlightState
    STATE_VERSION: ClassVar[int] = 1

    def new_game(
        self, seed: int, players: int, options: FlightOptions | dict[str, Any] | None
    ) -> FlightState:
        """Deal the first hand; the last seat deals, so seat 0 plays first."""
        self.check_player_count(players)
        opts = self.parse_options(options)
        return new_hand_state(
            players, opts, Rng(seed=seed), dealer=players - 1, hand_number=1, scores=(0,) * players
        )

    def active_players(self, state: FlightState) -> tuple[int, ...]:
        """The seat whose turn it is; () once the match is over."""
        return () if state.over else (state.turn,)

    def legal_actions(self, state: FlightState, seat: int) -> list[Action]:
        """The current step's choices for `seat` (≤ 25, deterministic order)."""
        return actions.legal_actions(state, seat)

    def apply(self, state: FlightState, seat: int, action: Action | str) -> Transition[FlightState]:
        """Carry out one legal action; the input state is untouched."""
        resolved = self.resolve(state, seat, action)
        new, events = apply_key(state, seat, parse_key(resolved.key))
        return Transition(state=new, events=tuple(events))

    def view(self, state: FlightState, viewer: int | None) -> FlightGameView:
        """The public table (viewer=None) or a seat's view with its own hand."""
        return build_view(state, viewer)

    def outcome(self, state: FlightState) -> Outcome | None:
        """Match scores, ranks and winners once the match is decided."""
        if not state.over:
            return None
        hands = len(state.results)
        winner: Winner = "draw" if len(state.winners) > 1 else "seats"
        ending = Ending(winner=winner, kind="match_won", params={"hands": hands})
        return Outcome(
            scores=state.scores,
            ranks=ranks_from_scores(state.scores),
            winners=state.winners,
            ending=ending.model_copy(update={"text": ending_text(ending)}),
        )

    def option_applies(self, options: FlightOptions, name: str) -> bool:
        """A points target and the hand-limit house rule only in target mode; a number of hands
        only in hands mode."""
        if name in ("target", "max_hands"):
            return options.match == "target"
        if name == "hands":
            return options.match == "hands"
        return True

    def score_breakdown(self, state: FlightState) -> list[str]:
        """Per seat: Safe Landings, first out, bonus and cards held, and the points by hand."""
        return text.score_breakdown(state) if state.over else []

    def lobby_notes(self, options: FlightOptions) -> list[str]:
        """Lines the lobby adds under the options: the house rule, said as one (issue 15)."""
        if options.match != "target":
            return []
        if options.max_hands:
            after = n_hands(options.max_hands)
            return [
                said(
                    "House rule: after {hands} the leader wins (`max_hands:0` = off).", hands=after
                )
            ]
        return [said("No hand limit: the 1954 rulebook game.")]

    def prompt(self, state: FlightState, seat: int) -> str:
        """One line telling `seat` what to decide now."""
        return text.prompt(state, seat)

    def rules_text(self, topic: str | None) -> str:
        """Player-facing rules summary (a topic or the overview)."""
        return text.rules_text(topic)

    def rules_topics(self) -> list[str]:
        """The topics `rules_text` knows."""
        return list(text.TOPICS)

    def data_note(self, state: FlightState) -> str:
        """Where the card data departs from the printed game (the data file's own note)."""
        return stand_in_note()

    def why_unplayable(self, state: FlightState, seat: int, code: str) -> str | None:
        """Why `seat` can't play card `code` now (None when they can)."""
        if not is_card(code):
            return _no_card(code)
        return why_unplayable(state, seat, code)

    def explain_illegal(self, state: FlightState, seat: int, key: str) -> str:
        """Why the action `key` is not legal now, in a player's words."""
        try:
            parsed = parse_key(key)
        except IllegalActionError:
            return super().explain_illegal(state, seat, key)
        phase = state.step.phase
        match parsed:
            case Play(code) | Discard(code) if not is_card(code):
                return _no_card(code)
            case Play(code):
                return why_unplayable(state, seat, code) or super().explain_illegal(
                    state, seat, key
                )
            case Discard(code):
                return _why_not_discard(state, seat, code)
            case Draw(source):
                return _why_not_draw(state, seat, source)
            case Done() if phase == "play":
                return MUST_PLAY
            case Done():
                return joined(said("There is nothing to finish:"), text.prompt(state, seat))
            case To(route) if phase == "target" and state.step.pending:
                return _why_not_target(state, state.step.pending, route)
            case To() | Cancel():
                return joined(said("No card is waiting to be placed."), text.prompt(state, seat))


MUST_PLAY = said("You must play at least one card while you are able to (rule 3b).")


def ending_text(ending: Ending) -> Said:
    """The sentence for how the match ended: after how many hands."""
    hands = ending.params["hands"]
    assert isinstance(hands, int)
    return said("The match ended after {hands}.", hands=n_hands(hands))


def _no_card(code: str) -> Said:
    """No such card: the typed code is quoted as typed (never translated)."""
    return said("There is no card {code} in Flight.", code=repr(code))


def _why_not_discard(state: FlightState, seat: int, code: str) -> Said:
    """Why discarding `code` is not allowed now."""
    if code not in state.hands[seat]:
        return said("You don't hold {card}.", card=card(code).name)
    phase = state.step.phase
    if phase == "draw":
        return said("Draw first; you discard at the end of your turn.")
    if phase == "target":
        return said("Finish placing the card you chose (or cancel it) first.")
    return MUST_PLAY


def _why_not_draw(state: FlightState, seat: int, source: DrawSource) -> Said:
    """Why this draw is not allowed now."""
    if state.step.phase != "draw":
        return said("You have already drawn this turn.")
    empty = not state.hands[seat]
    if empty and source in ("pack", "discard"):
        return said(
            "Your hand is empty: draw 3 from the pack, or 2 and the exposed discard (rule 9)."
        )
    if not empty and source in ("pack3", "pack2+discard"):
        return said("Only a player with an empty hand draws 3 (rule 9); draw one card.")
    if pack_available(state) == 0:
        return said(
            "The pack is empty and there are no discards to reshuffle: take the exposed card."
        )
    return said("That is not a way to draw: take the top of the pack or the exposed discard.")


def _why_not_target(state: FlightState, code: str, route: str) -> Said:
    """Why the chosen card can't go on that flight."""
    try:
        name = route_name(route)
    except KeyError:
        return said("There is no route {route}.", route=repr(route))
    return said(
        "{card} can't go on the {route} flight now; it can go on: {routes}.",
        card=card(code).name,
        route=name,
        routes=listing([route_name(r) for r in targets(state, code)]),
    )
