"""When a click may wait for its panel to be its answer (bot/edge/answer.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from bot.edge.answer import ACK_GRACE, BUSY_GRACE, WAIT_LIMIT, ClickAnswer


@pytest.fixture
def clicks() -> Iterator[None]:
    """Restore the count of clicks in flight after the test."""
    before = ClickAnswer.in_flight
    yield
    ClickAnswer.in_flight = before


@pytest.mark.usefixtures("clicks")
def test_a_click_waits_for_its_panel_until_many_are_ahead_of_it() -> None:
    ClickAnswer.in_flight = 0
    assert ClickAnswer.may_wait() and ClickAnswer.calm()
    ClickAnswer.in_flight = WAIT_LIMIT - 1
    assert ClickAnswer.may_wait() and not ClickAnswer.calm()
    ClickAnswer.in_flight = WAIT_LIMIT
    assert not ClickAnswer.may_wait()


class _Response:
    """An interaction response that records a deferral."""

    def __init__(self) -> None:
        self.deferred = False

    def is_done(self) -> bool:
        """Answered yet?"""
        return self.deferred

    async def defer(self) -> None:
        """Acknowledge."""
        self.deferred = True


class _Interaction:
    """Just what ClickAnswer touches."""

    def __init__(self) -> None:
        self.response = _Response()


@pytest.mark.usefixtures("clicks")
async def test_a_click_behind_others_is_deferred_sooner_than_a_calm_one() -> None:
    """A busy loop runs timers late: a click arriving while others are handled waits for its
    panel only BUSY_GRACE, so that it is acknowledged within a second (issue 29)."""
    loop = asyncio.get_running_loop()
    ClickAnswer.in_flight = 0
    calm = ClickAnswer(_Interaction(), wait=True)  # type: ignore[arg-type]
    ClickAnswer.in_flight = 3
    busy = ClickAnswer(_Interaction(), wait=True)  # type: ignore[arg-type]
    try:
        assert calm._timer is not None and busy._timer is not None
        assert calm._timer.when() - loop.time() == pytest.approx(ACK_GRACE, abs=0.05)
        assert busy._timer.when() - loop.time() == pytest.approx(BUSY_GRACE, abs=0.05)
        assert BUSY_GRACE < ACK_GRACE
        await busy.defer()  # answered: the timer is off and the click deferred once
        assert busy._timer is None and busy.interaction.response.is_done()
    finally:
        await calm.defer()
