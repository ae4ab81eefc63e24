"""AI blindness by twins: states that differ only in what the seat cannot see get the same move.

For every game and level, 150 positions reached by random play (random seeds and player
counts, only positions with a real choice). Each gets a twin that redraws every hidden fact —
deck orders, the other hands, face-down cards and their names, the game's future draws — and
looks the same to the seat (`tests/support/twins.py`). With the same AI inputs (view, legal
actions, AI seed, action count, seat), `decide` must choose the same key in both. Two controls
show the check can fail: a player that peeks at the true state, and a determinisation that
shuffles hidden cards in their stored order.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Sequence
from functools import cache

import pytest

from rules import GAMES
from rules.core import ai as core_ai
from rules.core.ai import LEVELS, GameAI, Seen
from tests.support.twins import Position, positions, sample_mismatches, twin_mismatches

POSITIONS = 150  # per game and level (issue 26)
CHUNKS = 5  # the positions are checked in chunks so pytest-xdist can spread them
# Twins per position: a leak flips a choice only where the level weighs two moves nearly
# equal, so cheap levels get more chances to show one.
TWINS = {"easy": 2, "normal": 12, "hard": 1}


@cache
def _chunk(gid: str, chunk: int) -> list[Position]:
    """One chunk of a game's positions (chunks start from far-apart game seeds)."""
    return positions(gid, first_seed=1000 * chunk, count=POSITIONS // CHUNKS)


def _report(found: Sequence[object]) -> str:
    """The mismatches, one a line."""
    return "\n".join(str(m) for m in found)


@pytest.mark.parametrize(
    ("gid", "level", "chunk"),
    [(g, level, c) for g in GAMES for level in LEVELS for c in range(CHUNKS)],
)
def test_the_ai_chooses_the_same_in_twins_that_differ_only_in_hidden_facts(
    gid: str, level: str, chunk: int
) -> None:
    """Every level of every game makes the same choice in a state and its twin."""
    found = _chunk(gid, chunk)
    assert len(found) == POSITIONS // CHUNKS
    mismatches = twin_mismatches(level, found, TWINS[level])
    assert not mismatches, _report(mismatches)


@pytest.mark.parametrize(("gid", "chunk"), [(g, c) for g in GAMES for c in range(CHUNKS)])
def test_a_determinisation_depends_only_on_what_the_seat_sees(gid: str, chunk: int) -> None:
    """With the same generator, a state and its twin give the very same determinisation."""
    resample = core_ai.game_ai(gid).resample
    leaks = sample_mismatches(_chunk(gid, chunk), resample)
    assert not leaks, _report(leaks)


class Peeker:
    """A cheat: picks by a digest of the true state that `Seen` keeps for its samples."""

    def choose(self, seen: Seen, rng: random.Random) -> str:
        """A legal key chosen by the hidden facts (deck order included)."""
        digest = zlib.crc32(repr(seen._state).encode())
        return seen.legal[digest % len(seen.legal)].key


@pytest.mark.parametrize("gid", list(GAMES))
def test_the_twin_check_catches_a_player_that_peeks(
    gid: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A level that reads the true state is caught at most positions."""
    real = core_ai.game_ai(gid)
    cheat = GameAI(resample=real.resample, players={**real.players, "peek": Peeker()})
    monkeypatch.setattr(core_ai, "game_ai", lambda game_id: cheat)
    found = _chunk(gid, 0)
    assert len(twin_mismatches("peek", found)) > len(found) // 3


def _stored_order_shuffle(items: Sequence[str], rng: random.Random) -> list[str]:
    """The mistake to catch: a shuffle whose result depends on the order it is given."""
    out = list(items)
    rng.shuffle(out)
    return out


@pytest.mark.parametrize("gid", list(GAMES))
def test_the_twin_check_catches_a_determinisation_that_keeps_the_stored_order(
    gid: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Shuffling hidden cards from their true order leaks it: the check finds it."""
    module = f"rules.{gid.replace('-', '_')}.ai"
    monkeypatch.setattr(f"{module}.canonical_shuffle", _stored_order_shuffle)
    found = _chunk(gid, 0)
    assert len(sample_mismatches(found, core_ai.game_ai(gid).resample)) > len(found) // 3
