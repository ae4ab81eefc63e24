"""A tiny card game for store and service tests; deliberately not registered in rules.GAMES.

Each player starts with two hidden cards from a shuffled deck. On a turn a player draws a card
(hidden draw, reveals=True), rolls a die for points (random, reveals=True) or bids 1–3 chips
(a pure choice). After `rounds` rounds the highest hand + die + bid total wins.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from rules.core import (
    Action,
    BaseGame,
    Event,
    Frozen,
    Outcome,
    Rng,
    Transition,
    ranks_from_scores,
    seat_ref,
)

DECK = tuple(range(1, 13))
HAND_SIZE = 2


class ToyOptions(Frozen):
    """Options of the toy game."""

    rounds: int = Field(3, ge=1, le=6, description="Rounds before the game ends")


class ToyState(Frozen):
    """Whole state: deck order and hands are secret, the rng lives here too."""

    players: int
    rounds: int
    deck: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    points: tuple[int, ...]
    bids: tuple[int, ...]
    turn: int = 0
    moves: int = 0
    rng: Rng


class ToyView(Frozen):
    """What a viewer may see: hand sizes for all, cards only for the viewer's own hand."""

    players: int
    turn: int
    deck_left: int
    hand_sizes: tuple[int, ...]
    points: tuple[int, ...]
    bids: tuple[int, ...]
    hand: tuple[int, ...] | None = None


class ToyGame(BaseGame[ToyState, ToyOptions, ToyView]):
    """Draw, roll or bid; highest total wins."""

    id = "toy"
    title = "Toy"
    min_players = 2
    max_players = 3
    Options = ToyOptions
    State = ToyState

    def new_game(self, seed: int, players: int, options: Any) -> ToyState:
        """Shuffle the deck and deal two cards to each player."""
        self.check_player_count(players)
        opts = self.parse_options(options)
        deck, rng = Rng(seed=seed).shuffled(DECK)
        hands = tuple(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE] for i in range(players))
        zeros = (0,) * players
        return ToyState(
            players=players,
            rounds=opts.rounds,
            deck=deck[players * HAND_SIZE :],
            hands=hands,
            points=zeros,
            bids=zeros,
            rng=rng,
        )

    def is_over(self, state: ToyState) -> bool:
        """The game ends after `rounds` turns per player."""
        return state.moves >= state.rounds * state.players

    def active_players(self, state: ToyState) -> tuple[int, ...]:
        """One player at a time, in seat order."""
        return () if self.is_over(state) else (state.turn,)

    def legal_actions(self, state: ToyState, seat: int) -> list[Action]:
        """Draw (while the deck lasts), roll, or bid 1–3."""
        if seat not in self.active_players(state):
            return []
        actions = [Action(key="draw", label="Draw a card")] if state.deck else []
        actions.append(Action(key="roll", label="Roll the die"))
        actions += [Action(key=f"bid:{n}", label=f"Bid {n}", group="Bid") for n in (1, 2, 3)]
        return actions

    def apply(self, state: ToyState, seat: int, action: Action | str) -> Transition[ToyState]:
        """Carry out one legal action."""
        chosen = self.resolve(state, seat, action)
        if chosen.key == "draw":
            new, events = self._draw(state, seat)
        elif chosen.key == "roll":
            new, events = self._roll(state, seat)
        else:
            new, events = self._bid(state, seat, int(chosen.key.split(":")[1]))
        new = new.model_copy(update={"turn": (seat + 1) % state.players, "moves": state.moves + 1})
        return Transition(state=new, events=events)

    def _draw(self, state: ToyState, seat: int) -> tuple[ToyState, tuple[Event, ...]]:
        """Take the top card into the hand (hidden from the others)."""
        card = state.deck[0]
        hands = _replace(state.hands, seat, (*state.hands[seat], card))
        event = Event(
            kind="drew",
            text=f"{seat_ref(seat)} drew a card.",
            visible_to=(seat,),
            private_text=f"You drew a {card}.",
            reveals=True,
        )
        return state.model_copy(update={"deck": state.deck[1:], "hands": hands}), (event,)

    def _roll(self, state: ToyState, seat: int) -> tuple[ToyState, tuple[Event, ...]]:
        """Roll a die and score it."""
        pips, rng = state.rng.randint(1, 6)
        points = _replace(state.points, seat, state.points[seat] + pips)
        event = Event(kind="rolled", text=f"{seat_ref(seat)} rolled a {pips}.", reveals=True)
        return state.model_copy(update={"points": points, "rng": rng}), (event,)

    def _bid(self, state: ToyState, seat: int, n: int) -> tuple[ToyState, tuple[Event, ...]]:
        """Add chips to the bid (a free choice: nothing hidden, nothing random)."""
        bids = _replace(state.bids, seat, state.bids[seat] + n)
        event = Event(kind="bid", text=f"{seat_ref(seat)} bid {n}.")
        return state.model_copy(update={"bids": bids}), (event,)

    def scores(self, state: ToyState) -> tuple[int, ...]:
        """Hand + die points + bids, per seat."""
        return tuple(
            sum(state.hands[s]) + state.points[s] + state.bids[s] for s in range(state.players)
        )

    def view(self, state: ToyState, viewer: int | None) -> ToyView:
        """Public: sizes and totals; a seat also sees its own hand."""
        return ToyView(
            players=state.players,
            turn=state.turn,
            deck_left=len(state.deck),
            hand_sizes=tuple(len(h) for h in state.hands),
            points=state.points,
            bids=state.bids,
            hand=None if viewer is None else state.hands[viewer],
        )

    def outcome(self, state: ToyState) -> Outcome | None:
        """Scores and ranks once every round is played."""
        if not self.is_over(state):
            return None
        scores = self.scores(state)
        ranks = ranks_from_scores(scores)
        winners = tuple(s for s, r in enumerate(ranks) if r == 1)
        return Outcome(scores=scores, ranks=ranks, winners=winners)

    def prompt(self, state: ToyState, seat: int) -> str:
        """What the active seat decides."""
        return "Draw a card, roll the die or bid."

    def rules_text(self, topic: str | None) -> str:
        """The whole rules in one line."""
        return "Draw, roll or bid each turn; after the last round the highest total wins."


def _replace(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """A copy of `values` with one entry changed."""
    return (*values[:index], value, *values[index + 1 :])


TOY = ToyGame()
