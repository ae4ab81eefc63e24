"""Hints: the move the hard AI would play now for a player, and why, in numbers.

Allowed at practice tables and at tables opened with the `hints` option. The hard AI is
CPU-heavy: it runs in a worker thread (the event loop stays free), its search budgets are fixed
counts (`rules.core.explain.HINT_SAMPLES`, the AI's own budgets), and a hint that takes longer
than HINT_SECONDS is refused with a way forward. It reads only what the asker may see.
"""

from __future__ import annotations

import asyncio
import logging

from bot.services.errors import NotAllowedError, NotInGameError, ServiceError
from bot.services.learn import Flags
from bot.services.loading import LoadedGame
from rules.core.errors import said
from rules.core.explain import hint

log = logging.getLogger(__name__)

HINT_SECONDS = 20.0  # a hint that takes longer is refused (the search is bounded well below)

HINTS_OFF = said(
    "Hints are off at this table, so everyone plays on their own. The player who opens a game "
    "can switch them on with the `hints` option of `/game new`, or practise with hints at "
    "`/game learn`."
)
NOT_SEATED = said("Hints are for the players at this table — you have no seat here.")
NOT_YOUR_TURN = said(
    "A hint is about the move you make next, and it is not your turn yet. Ask again when the "
    "board says it is your turn."
)
NOT_STARTED = said("The game has not started yet — ask for a hint once it is your turn.")
TOO_SLOW = said("The hint took too long to work out this time — please press Hint again.")


class HintService:
    """Works out hints where the table allows them."""

    def __init__(self, flags: Flags) -> None:
        self.flags = flags

    async def allowed(self, loaded: LoadedGame) -> bool:
        """True at practice tables and tables with hints on."""
        flags = await self.flags.of(loaded.record.pk)
        return flags.practice or flags.hints

    async def hint(self, loaded: LoadedGame, seat: int | None) -> str:
        """The hint text for `seat`, or a ServiceError saying why not and what to do."""
        if not await self.allowed(loaded):
            raise NotAllowedError(HINTS_OFF)
        if seat is None:
            raise NotInGameError(NOT_SEATED)
        if loaded.state is None:
            raise ServiceError(NOT_STARTED)
        if seat not in loaded.active_seats:
            raise NotAllowedError(NOT_YOUR_TURN)
        record = loaded.record
        work = asyncio.to_thread(hint, loaded.game, loaded.state, seat, record.seed, record.version)
        try:
            found = await asyncio.wait_for(work, HINT_SECONDS)
        except TimeoutError:
            log.warning("Hint for game %s seat %s took over %ss", record.pk, seat, HINT_SECONDS)
            raise ServiceError(TOO_SLOW) from None
        return found.text
