"""The card data file: the rulebook's components, validated at load ("The material")."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from pydantic import ValidationError

from rules.takeoff.data import DATA_FILE, EVENTS, TakeoffData, full_deck


def _raw() -> dict[str, Any]:
    """The data file as plain JSON."""
    data: dict[str, Any] = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    return data


def test_deck_holds_the_54_cards_of_the_rulebook() -> None:
    """36 seat cards (10 Window, 10 Middle, 10 Aisle, 6 Business-Class) + 18 events."""
    counts = Counter(full_deck())
    assert len(full_deck()) == 54
    assert [counts[c] for c in ("window", "middle", "aisle", "business")] == [10, 10, 10, 6]
    assert len(EVENTS) == 18 and sorted(e.number for e in EVENTS.values()) == list(range(1, 19))
    assert {e.id for e in EVENTS.values() if e.check} == {
        "tired_captain",
        "stretcher",
        "middle_blocked",
    }


def test_file_names_its_stand_in_values() -> None:
    """The unpublished board and card split are labelled as stand-ins."""
    assert any("board" in line for line in _raw()["stand_in"])


def test_unknown_mechanics_are_rejected_at_load() -> None:
    """An event whose kind/shape the engine cannot carry out fails validation."""
    raw = _raw()
    raw["events"][0]["shape"] = "block"
    with pytest.raises(ValidationError):
        TakeoffData.model_validate(raw)


def test_wrong_deck_size_is_rejected_at_load() -> None:
    """A data file whose deck is not 54 cards fails validation."""
    raw = _raw()
    raw["seat_cards"][0]["count"] = 11
    with pytest.raises(ValidationError, match="54"):
        TakeoffData.model_validate(raw)
