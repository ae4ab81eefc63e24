"""A fast Takeoff! simulator for the hard AI's search: plain lists and sets, no frozen models.

It mirrors the engine's rules (targets.py, plays.py, turns.py) for what a search needs: the
targets of every card, what a play does to the board, ending a turn (drawing, reshuffles, the last
turns), changing a card, Pinch. It is never used to run a game; it only values the AI's options.
`tests/rules/test_ai_takeoff_fast.py` proves it agrees with the engine (same targets, same board,
freed seats and used rows after every play) on many random positions.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from rules.takeoff import board as b
from rules.takeoff.data import BUSINESS_CARD, DATA, EVENTS, SEAT_CARDS
from rules.takeoff.state import TakeoffState

EMPTY = b.EMPTY
HAND_LIMIT = 5
PASSES = 3
TICKET = "ticket"
PINCH = "pinch"

# A play's effect on the board: (placed, removed, turned) seat indices.
Effect = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


@dataclass(frozen=True)
class Layout:
    """Seat and row tables for one set of options (scoring version, Business rows, row rule)."""

    value: tuple[int, ...]  # points of a stone on each seat
    bonus: tuple[int, ...]  # bonus of each single row (index 2·(row−1) + side)
    biz: tuple[bool, ...]  # seat lies in Business
    sr_of: tuple[int, ...]  # single row of each seat
    sr_seats: tuple[tuple[int, int, int], ...]
    rkey: tuple[int, ...]  # what the different-rows rule counts for each seat
    row_of: tuple[int, ...]  # numbered row (1-based) of each seat
    of_type: dict[str, tuple[int, ...]]  # seats by seat type
    area: dict[str, tuple[int, ...]]  # seats by area: economy, business, any
    pairs: dict[tuple[str, bool], tuple[tuple[int, int], ...]]  # (area, across aisle)
    sides: dict[str, tuple[tuple[int, int, int], ...]]  # single rows by area
    blocks: tuple[tuple[int, ...], ...]  # Stretcher blocks in engine order
    column: tuple[int, ...]  # Middle seats blocked


@lru_cache(maxsize=16)
def layout(version: str, business_rows: int, rule: str) -> Layout:
    """The tables for these options (cached)."""
    table = DATA.scoring["A" if version == "A" else "B"]
    seats = range(b.SEATS)
    biz = tuple(b.is_business_row(b.row_of(s), business_rows) for s in seats)
    value = tuple((table.business if biz[s] else table.economy).seat(b.seat_type(s)) for s in seats)
    sr_seats = tuple(b.single_row(r, side) for r in range(1, b.ROWS + 1) for side in (0, 1))
    bonus = tuple((table.business if biz[sr[0]] else table.economy).bonus for sr in sr_seats)
    areas = {
        name: tuple(s for s in seats if b.in_area(s, name, business_rows))
        for name in ("economy", "business", "any")
    }
    pairs = {
        (name, across): tuple(
            pair
            for row in b.area_rows(name, business_rows)
            for pair in b.neighbour_pairs(row, across_aisle=across)
        )
        for name in ("economy", "business")
        for across in (False, True)
    }
    sides = {
        name: tuple(
            b.single_row(row, side) for row in b.area_rows(name, business_rows) for side in (0, 1)
        )
        for name in ("economy", "business")
    }
    stretcher = next(e for e in EVENTS.values() if e.shape == "block")
    rows = b.area_rows(stretcher.area, business_rows)
    blocks = tuple(
        tuple(b.seat_index(r, c) for r in range(start, start + stretcher.block_rows) for c in cols)
        for start in rows[: len(rows) - stretcher.block_rows + 1]
        for cols in stretcher.column_sets
    )
    col_spec = next(e for e in EVENTS.values() if e.shape == "column")
    col_rows = b.area_rows(col_spec.area, business_rows)
    column = tuple(
        sorted(b.seat_index(r, c) for r in col_rows for cols in col_spec.column_sets for c in cols)
    )
    return Layout(
        value=value,
        bonus=bonus,
        biz=biz,
        sr_of=tuple(2 * (b.row_of(s) - 1) + b.side_of(s) for s in seats),
        sr_seats=sr_seats,
        rkey=tuple(b.row_key(s, rule) for s in seats),
        row_of=tuple(b.row_of(s) for s in seats),
        of_type={
            t: tuple(s for s in seats if b.seat_type(s) == t) for t in ("window", "middle", "aisle")
        },
        area=areas,
        pairs=pairs,
        sides=sides,
        blocks=blocks,
        column=column,
    )


class Sim:
    """A mutable copy of a Takeoff! position (the deck's top card is the list's last)."""

    __slots__ = (
        "board",
        "changed_last",
        "deck",
        "discard",
        "final_round",
        "final_turns_left",
        "freed",
        "hands",
        "lay",
        "over",
        "pass_number",
        "played",
        "rng",
        "rows_used",
        "ticket_used",
        "tickets",
        "turn",
    )

    lay: Layout
    board: list[int]
    hands: list[list[str]]
    tickets: list[int]
    deck: list[str]
    discard: list[str]
    pass_number: int
    turn: int
    played: bool
    ticket_used: bool
    rows_used: set[int]
    freed: set[int]
    changed_last: list[bool]
    final_round: bool
    final_turns_left: int
    over: bool
    rng: random.Random

    @classmethod
    def from_state(cls, state: TakeoffState, rng: random.Random) -> Sim:
        """A simulator copy of a (determinised) engine state; `rng` draws its reshuffles."""
        o = state.options
        sim = cls()
        sim.lay = layout(o.scoring, o.business_rows, o.row_rule)
        sim.board = list(state.board)
        sim.hands = [list(state.hands[0]), list(state.hands[1])]
        sim.tickets = list(state.tickets)
        sim.deck = list(reversed(state.deck))
        sim.discard = list(state.discard)
        sim.pass_number = state.pass_number
        sim.turn = state.turn
        sim.played = state.played
        sim.ticket_used = state.ticket_used
        sim.rows_used = set(state.rows_used)
        sim.freed = set(state.freed)
        sim.changed_last = list(state.changed_last)
        sim.final_round = state.final_round
        sim.final_turns_left = state.final_turns_left
        sim.over = state.over
        sim.rng = rng
        return sim

    def copy(self, rng: random.Random) -> Sim:
        """An independent copy drawing from `rng`."""
        sim = Sim()
        sim.lay = self.lay
        sim.board = self.board[:]
        sim.hands = [self.hands[0][:], self.hands[1][:]]
        sim.tickets = self.tickets[:]
        sim.deck = self.deck[:]
        sim.discard = self.discard[:]
        sim.pass_number = self.pass_number
        sim.turn = self.turn
        sim.played = self.played
        sim.ticket_used = self.ticket_used
        sim.rows_used = set(self.rows_used)
        sim.freed = set(self.freed)
        sim.changed_last = self.changed_last[:]
        sim.final_round = self.final_round
        sim.final_turns_left = self.final_turns_left
        sim.over = self.over
        sim.rng = rng
        return sim

    # --- scoring ---------------------------------------------------------------------------

    def margin(self, p: int) -> int:
        """Points of `p` minus the rival's."""
        lay, board = self.lay, self.board
        total = 0
        for s, owner in enumerate(board):
            if owner == p:
                total += lay.value[s]
            elif owner != EMPTY:
                total -= lay.value[s]
        for sr, (x, y, z) in enumerate(lay.sr_seats):
            o = board[x]
            if o != EMPTY and o == board[y] == board[z]:
                total += lay.bonus[sr] if o == p else -lay.bonus[sr]
        return total

    def _local(self, sr: int, p: int) -> int:
        """Margin of `p` inside one single row."""
        lay, board = self.lay, self.board
        x, y, z = lay.sr_seats[sr]
        ox, oy, oz = board[x], board[y], board[z]
        v = 0
        for s, o in ((x, ox), (y, oy), (z, oz)):
            if o == p:
                v += lay.value[s]
            elif o != EMPTY:
                v -= lay.value[s]
        if ox != EMPTY and ox == oy == oz:
            v += lay.bonus[sr] if ox == p else -lay.bonus[sr]
        return v

    def delta(self, p: int, eff: Effect) -> int:
        """How much a play by `p` with this effect changes `p`'s margin."""
        placed, removed, turned = eff
        lay, board = self.lay, self.board
        if not removed and not turned and len(placed) == 1:
            s = placed[0]
            x, y, z = lay.sr_seats[lay.sr_of[s]]
            others = [board[t] for t in (x, y, z) if t != s]
            full = others[0] == p and others[1] == p
            return lay.value[s] + (lay.bonus[lay.sr_of[s]] if full else 0)
        if len(removed) == 1 and not placed and not turned:
            s = removed[0]
            o = board[s]
            if o == EMPTY:
                return 0
            v = lay.value[s] + (lay.bonus[lay.sr_of[s]] if self._protected(s) else 0)
            return -v if o == p else v
        if len(turned) == 1 and not placed and not removed and not self._protected(turned[0]):
            s = turned[0]
            x, y, z = lay.sr_seats[lay.sr_of[s]]
            mine = (board[x] == p) + (board[y] == p) + (board[z] == p)
            return 2 * lay.value[s] + (lay.bonus[lay.sr_of[s]] if mine == 2 else 0)
        rows = {lay.sr_of[s] for s in (*placed, *removed, *turned)}
        before = sum(self._local(sr, p) for sr in rows)
        saved = [(s, board[s]) for s in (*removed, *placed, *turned)]
        for s in removed:
            board[s] = EMPTY
        for s in placed:
            board[s] = p
        for s in turned:
            board[s] = p
        after = sum(self._local(sr, p) for sr in rows)
        for s, o in reversed(saved):
            board[s] = o
        return after - before

    # --- targets ---------------------------------------------------------------------------

    def _protected(self, s: int) -> bool:
        """Whether seat `s` lies in a single row filled by one colour."""
        x, y, z = self.lay.sr_seats[self.lay.sr_of[s]]
        board = self.board
        return board[x] != EMPTY and board[x] == board[y] == board[z]

    def _can_place(self, seats: tuple[int, ...]) -> bool:
        """The different-rows rule, with the re-seat exception for seats freed this turn."""
        rkey, used, freed = self.lay.rkey, self.rows_used, self.freed
        return all(s in freed or rkey[s] not in used for s in seats)

    def _placements(self, p: int, pool: tuple[int, ...], red_needed: bool) -> list[Effect]:
        """Single-seat placements on free seats of `pool` (Business needs a red card if asked)."""
        board, biz = self.board, self.lay.biz
        has_red = not red_needed or BUSINESS_CARD in self.hands[p]
        return [
            ((s,), (), ())
            for s in pool
            if board[s] == EMPTY and (has_red or not biz[s]) and self._can_place((s,))
        ]

    def placement_values(self, p: int) -> dict[int, int]:
        """Points `p` gains by a stone on each free seat the different-rows rule allows."""
        lay, board = self.lay, self.board
        used, freed, rkey = self.rows_used, self.freed, lay.rkey
        out: dict[int, int] = {}
        for s, o in enumerate(board):
            if o != EMPTY or (rkey[s] in used and s not in freed):
                continue
            x, y, z = lay.sr_seats[lay.sr_of[s]]
            mine = (board[x] == p) + (board[y] == p) + (board[z] == p)
            out[s] = lay.value[s] + (lay.bonus[lay.sr_of[s]] if mine == 2 else 0)
        return out

    def _occupied_any(self, seats: tuple[int, ...], check: bool) -> bool:
        """Some seat occupied and (unless ✔) none in a protected single row."""
        board = self.board
        if not any(board[s] != EMPTY for s in seats):
            return False
        return check or not any(self._protected(s) for s in seats)

    def move_options(self, p: int) -> tuple[list[int], list[int]]:
        """Long wait at check-in: the rival's stones it may take, the Business seats to put them."""
        spec = EVENTS["long_wait"]
        to = self.lay.area[spec.to_area or "any"]
        dests = [s for s in to if self.board[s] == EMPTY and self._can_place((s,))]
        if not dests:
            return [], []
        srcs = [
            s for s in self.lay.area[spec.area] if self.board[s] == 1 - p and not self._protected(s)
        ]
        return srcs, dests

    def targets(self, p: int, card: str) -> list[Effect]:
        """Every complete effect `card` (or 'ticket') can have now, in the engine's order."""
        lay, board = self.lay, self.board
        if card == TICKET:
            return self._placements(p, lay.area["any"], True)
        if card in SEAT_CARDS:
            seat_type = SEAT_CARDS[card].seat_type
            if seat_type is None:
                return []
            return self._placements(p, lay.of_type[seat_type], True)
        spec = EVENTS[card]
        if spec.kind == "pinch":
            return []
        if spec.shape == "column":
            return [((), lay.column, ())] if self._occupied_any(lay.column, spec.check) else []
        if spec.shape == "pair":
            out: list[Effect] = []
            for pair in lay.pairs[(spec.area, spec.aisle_pairs)]:
                if spec.kind == "place":
                    if board[pair[0]] == EMPTY == board[pair[1]] and self._can_place(pair):
                        out.append((pair, (), ()))
                elif self._occupied_any(pair, spec.check):
                    out.append(((), pair, ()))
            return out
        if spec.shape == "single_row":
            out = []
            for side in lay.sides[spec.area]:
                if spec.kind == "place":
                    if all(board[s] == EMPTY for s in side) and self._can_place(side):
                        out.append((side, (), ()))
                elif self._occupied_any(side, spec.check):
                    out.append(((), side, ()))
            return out
        if spec.shape == "block":
            return [((), blk, ()) for blk in lay.blocks if self._occupied_any(blk, spec.check)]
        pool = lay.area[spec.area]
        if spec.kind == "place":
            return self._placements(p, pool, False)
        if spec.kind == "remove":
            return [
                ((), (s,), ())
                for s in pool
                if board[s] != EMPTY and (spec.check or not self._protected(s))
            ]
        if spec.kind == "turn":
            return [((), (), (s,)) for s in pool if board[s] == 1 - p and not self._protected(s)]
        srcs, dests = self.move_options(p)
        return [((d,), (s,), ()) for s in srcs for d in dests]

    def playable(self, p: int) -> Iterator[str]:
        """Distinct cards of `p`'s hand that can be played now, plus 'ticket' when usable."""
        for card in dict.fromkeys(self.hands[p]):
            if card == BUSINESS_CARD:
                continue
            if card == PINCH:
                if self.hands[1 - p]:
                    yield card
                continue
            yield card
        if self.tickets[p] > 0 and not self.ticket_used:
            yield TICKET

    # --- moves -----------------------------------------------------------------------------

    def play(self, p: int, card: str, eff: Effect) -> None:
        """Carry out a complete play (the engine's plays.complete)."""
        placed, removed, turned = eff
        lay, board = self.lay, self.board
        freed = self.freed
        for s in removed:
            if board[s] != EMPTY:
                freed.add(s)
            board[s] = EMPTY
        for s in placed:
            board[s] = p
            freed.discard(s)
            self.rows_used.add(lay.rkey[s])
        for s in turned:
            board[s] = p
        hand = self.hands[p]
        if (card == TICKET or card in SEAT_CARDS) and any(lay.biz[s] for s in placed):
            hand.remove(BUSINESS_CARD)
            self.discard.append(BUSINESS_CARD)
        if card == TICKET:
            self.tickets[p] -= 1
            self.ticket_used = True
        else:
            hand.remove(card)
            self.discard.append(card)
        self.played = True
        if EMPTY not in board:
            self.over = True

    def pinch(self, p: int, take: str) -> None:
        """Pinch a card: discard it, take `take` from the rival's hand."""
        self.hands[p].remove(PINCH)
        self.discard.append(PINCH)
        self.hands[1 - p].remove(take)
        self.hands[p].append(take)
        self.played = True

    def _draw(self, p: int) -> None:
        """Draw the top card; reshuffle an emptied pile, or start the last turns."""
        self.hands[p].append(self.deck.pop())
        if self.deck:
            return
        if self.pass_number < PASSES:
            self.deck = self.discard
            self.rng.shuffle(self.deck)
            self.discard = []
            self.pass_number += 1
        else:
            self.final_round = True
            self.final_turns_left = 2

    def _pass(self) -> None:
        """The other seat's turn."""
        self.turn = 1 - self.turn
        self.played = False
        self.ticket_used = False
        self.rows_used = set()
        self.freed = set()

    def end_turn(self, p: int) -> None:
        """End (or decline) the turn like the engine's end/decline keys."""
        if self.final_round:
            if not self.played:
                self.over = True
                return
            self.final_turns_left -= 1
            if self.final_turns_left == 0:
                self.over = True
                return
            self._pass()
            return
        if len(self.hands[p]) < HAND_LIMIT and self.deck:
            self._draw(p)
        self.changed_last[p] = False
        self._pass()

    def can_change(self, p: int) -> bool:
        """Change a card: exactly 5 cards, nothing played, last turn no change."""
        return (
            not self.final_round
            and bool(self.deck)
            and len(self.hands[p]) == HAND_LIMIT
            and not self.played
            and not self.changed_last[p]
        )

    def change(self, p: int, card: str) -> None:
        """Discard `card` and draw instead of playing (ends the turn)."""
        self.hands[p].remove(card)
        self.discard.append(card)
        self._draw(p)
        self.changed_last[p] = True
        self._pass()
