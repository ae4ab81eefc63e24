"""A game's course from seed + log: public views per turn and the end-chart score series."""

from __future__ import annotations

from bot.services.timeline import score_series, turn_views
from tests.support.gamelog import played


def test_turn_views_run_from_the_deal_to_the_end_in_public() -> None:
    """The first view is the deal, the last the final table; no view belongs to a seat."""
    log = played("takeoff", 2, seed=4)
    game, loaded = log.loaded.game, log.loaded
    views = turn_views(log)
    first = game.new_game(loaded.record.seed, 2, game.Options.model_validate(loaded.record.options))
    assert views[0] == game.view(first, None)
    assert views[-1] == game.view(loaded.state, None)
    assert all(view.viewer is None for view in views)
    seat_changes = sum(a.seat != b.seat for a, b in zip(log.actions, log.actions[1:], strict=False))
    assert seat_changes < len(views) <= len(log.actions) + 1


def test_takeoff_points_per_pass_end_at_the_final_score() -> None:
    """One checkpoint per pass through the deck, the last equal to the final scores."""
    log = played("takeoff", 2, seed=4)
    series = score_series(log)
    assert series is not None and series.title == "Points per pass"
    passes = [int(label.split()[1]) for label in series.labels]
    assert passes == sorted(set(passes)) and passes[0] == 1
    outcome = log.loaded.outcome
    assert outcome is not None and series.scores[-1] == outcome.scores


def test_flight_score_per_hand_is_the_running_total() -> None:
    """Two hands, two checkpoints; the last totals are the match scores."""
    log = played("flight", 3, seed=2, options={"match": "hands", "hands": 2})
    series = score_series(log)
    assert series is not None and series.labels == ("Hand 1", "Hand 2")
    outcome = log.loaded.outcome
    assert outcome is not None and series.scores[-1] == outcome.scores


def test_first_in_flight_has_its_own_chart_on_the_board() -> None:
    """No separate end chart: its final board already charts the records per Year."""
    assert score_series(played("first-in-flight", 2, seed=1)) is None
