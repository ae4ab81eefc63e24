"""When a click may wait for its panel to be its answer (bot/edge/answer.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.edge.answer import WAIT_LIMIT, ClickAnswer


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
