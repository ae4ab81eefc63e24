"""The Takeoff! engine: the rules contract (rules.core.BaseGame) for Andreas Milde's 2004 game."""

from __future__ import annotations

from typing import Any, ClassVar

from rules.core import (
    Action,
    BaseGame,
    Ending,
    Event,
    IllegalActionError,
    Outcome,
    Rng,
    Transition,
    ranks_from_scores,
    seat_ref,
)
from rules.core.model import Winner
from rules.core.words import said
from rules.takeoff import board as b
from rules.takeoff import plays, reasons, text, turns
from rules.takeoff.actions import legal_actions
from rules.takeoff.data import full_deck
from rules.takeoff.keys import Change, Decline, End, Play, Ticket, format_key, parse_key
from rules.takeoff.scoring import scores
from rules.takeoff.state import Options as TakeoffOptions
from rules.takeoff.state import TakeoffState
from rules.takeoff.view import TakeoffView, build_view
from rules.takeoff.vocab import points

START_HAND = 3


class TakeoffGame(BaseGame[TakeoffState, TakeoffOptions, TakeoffView]):
    """Takeoff!: two travel agencies fill a 72-seat charter plane."""

    id: ClassVar[str] = "takeoff"
    title: ClassVar[str] = "Takeoff!"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    Options = TakeoffOptions
    State = TakeoffState
    STATE_VERSION: ClassVar[int] = 1

    def new_game(
        self, seed: int, players: int, options: TakeoffOptions | dict[str, Any] | None
    ) -> TakeoffState:
        """Shuffle the 54 cards, deal 3 each, 4 tickets each; a thrown stone picks the starter."""
        self.check_player_count(players)
        opts = self.parse_options(options)
        deck, rng = Rng(seed=seed).shuffled(full_deck())
        first, rng = rng.randint(0, 1)
        hands = (deck[0 : 2 * START_HAND : 2], deck[1 : 2 * START_HAND : 2])
        state = TakeoffState(
            options=opts,
            rng=rng,
            board=b.empty_board(),
            hands=((), ()),
            deck=deck[2 * START_HAND :],
            discard=(),
            turn=first,
        )
        state = turns.set_hand(state, 0, hands[0])
        return turns.set_hand(state, 1, hands[1])

    def active_players(self, state: TakeoffState) -> tuple[int, ...]:
        """The player whose turn it is; () once the game is over."""
        return () if state.over else (state.turn,)

    def legal_actions(self, state: TakeoffState, seat: int) -> list[Action]:
        """This seat's choices for the current step (≤ 25 each)."""
        return legal_actions(state, seat)

    def apply(
        self, state: TakeoffState, seat: int, action: Action | str
    ) -> Transition[TakeoffState]:
        """Resolve and carry out one action; the input state is untouched."""
        key = self.resolve(state, seat, action).key
        new, events = self._dispatch(state, seat, key)
        if new.over and not state.over:
            events = (*events, self._end_event(new))
        return Transition(state=new, events=events)

    def _dispatch(self, state: TakeoffState, seat: int, key: str) -> turns.Step:
        """Route a legal key to its handler."""
        if state.pending is not None:
            return plays.choose(state, seat, parse_key(key))
        match parse_key(key):
            case Play(card):
                return plays.start(state, seat, card)
            case Ticket():
                return plays.start(state, seat, "ticket")
            case Change(card):
                return turns.change(state, seat, card)
            case Decline():
                return turns.decline(state, seat)
            case End():
                return turns.end_turn(state, seat)
            case other:
                raise IllegalActionError(
                    said("{key} is not a main-step action.", key=repr(format_key(other)))
                )

    def _end_event(self, state: TakeoffState) -> Event:
        """The closing log line with the final scores."""
        outcome = self.outcome(state)
        assert outcome is not None
        pts = outcome.scores
        # The cause is told once, by the end text (outcome.reason); the log line gives the result.
        if outcome.is_draw:
            text = said("Game over: a draw at {points} each.", points=points(pts[0]))
            return Event(kind="game_ended", text=text)
        w = outcome.winners[0]
        text = said(
            "Game over: {who} wins {won} to {lost}.", who=seat_ref(w), won=pts[w], lost=pts[1 - w]
        )
        return Event(kind="game_ended", text=text)

    def view(self, state: TakeoffState, viewer: int | None) -> TakeoffView:
        """The public table, or one seat's view with its hand."""
        return build_view(state, viewer)

    def outcome(self, state: TakeoffState) -> Outcome | None:
        """Final scores by the chosen version; equal scores are a draw."""
        if not state.over:
            return None
        pts = scores(state.board, state.options.scoring, state.options.business_rows)
        ranks = ranks_from_scores(pts)
        winners = tuple(s for s in (0, 1) if ranks[s] == 1)
        winner: Winner = "draw" if len(winners) > 1 else "seats"
        # why the game ended is stored as text in the state (since version 1); the points are data
        told = turns.told_reason(state.end_reason)
        ending = Ending(winner=winner, kind="plane_closed", params={"points": pts}, text=told)
        return Outcome(scores=pts, ranks=ranks, winners=winners, ending=ending)

    def score_breakdown(self, state: TakeoffState) -> list[str]:
        """Per player: seats and one-colour rows by class, and what each scored."""
        return text.score_breakdown(state) if state.over else []

    def prompt(self, state: TakeoffState, seat: int) -> str:
        """What `seat` is deciding now."""
        return text.prompt(state, seat)

    def rules_text(self, topic: str | None) -> str:
        """Player-facing rules summary."""
        return text.rules_text(topic)

    def rules_topics(self) -> list[str]:
        """overview, turn, tickets, events, scoring, end."""
        return text.rules_topics()

    def explain_illegal(self, state: TakeoffState, seat: int, key: str) -> str:
        """A precise reason why `key` is not legal now."""
        return reasons.explain(state, seat, key)
