"""bot.edge.errors: unwrapping discord.py's wrappers always ends, and refusals fit Discord."""

from __future__ import annotations

import ast
import logging
import threading
from pathlib import Path
from typing import Any

import pytest
from discord import AppCommandOptionType, app_commands
from discord.app_commands.transformers import MemberTransformer

from bot.edge.commands.play import NO_MOVES, SLOW_CHOICE, UNREADABLE_CHOICE
from bot.edge.errors import (
    MOVE_NOT_SAVED,
    NOT_READ,
    NOT_SAVED,
    SAVED_BOARD_FOLLOWS,
    explain,
    unwrap,
)
from bot.edge.limits import MAX_CONTENT, clip, excerpt
from bot.store.errors import StoreUnavailable
from rules.core import IllegalActionError
from rules.core.model import KEY_PATTERN

BOT = Path(__file__).resolve().parents[2] / "bot"


def _unwrap_within(error: BaseException, seconds: float = 5.0) -> BaseException:
    """unwrap() in a daemon thread: a hang fails the test instead of freezing the suite."""
    out: list[BaseException] = []
    worker = threading.Thread(target=lambda: out.append(unwrap(error)), daemon=True)
    worker.start()
    worker.join(seconds)
    assert out, "unwrap() did not return"
    return out[0]


def test_transformer_error_without_cause_is_returned_itself() -> None:
    """The exact error /admin replace raised for a departed member (it froze the bot)."""
    error = app_commands.TransformerError("1", AppCommandOptionType.user, MemberTransformer())
    assert _unwrap_within(error) is error


def test_wrapped_rules_error_is_found() -> None:
    """CommandInvokeError → the RulesError inside, whose message the player reads."""
    inner = IllegalActionError("That card is not in your hand.")
    wrapper = app_commands.CommandInvokeError(_command(), inner)
    assert _unwrap_within(wrapper) is inner


def test_cyclic_chain_ends() -> None:
    """A chain that loops back on itself is walked once, not forever."""
    transform = app_commands.TransformerError("x", AppCommandOptionType.string, MemberTransformer())
    invoke = app_commands.CommandInvokeError(_command(), transform)
    transform.__cause__ = invoke
    assert _unwrap_within(invoke) in (invoke, transform)


def test_no_unbounded_loop_over_exception_chains_in_bot() -> None:
    """No `while` loop in bot/ walks __cause__/__context__/.original (bounded for-loops only)."""
    offenders = []
    for path in BOT.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.While):
                names = {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}
                if names & {"__cause__", "__context__", "original"}:
                    offenders.append(f"{path.name}:{node.lineno}")
    assert not offenders, f"unbounded exception-chain walks: {offenders}"


def test_excerpt_is_short_escaped_and_quoted() -> None:
    """5,000 characters of input come back as a short excerpt without pings or markdown."""
    shown = excerpt("play:" + "B" * 4995)
    assert len(shown) < 50 and shown.startswith("“play:BBB") and shown.endswith("…”")
    assert "@\u200beveryone" in excerpt("@everyone **now**")
    assert "\\*\\*" in excerpt("**bold**")


def test_clip_keeps_discord_limit() -> None:
    """clip() never returns more than the limit and marks the cut."""
    long = "x" * 5000
    assert len(clip(long)) == MAX_CONTENT and clip(long).endswith("…")
    assert clip("short") == "short"


@pytest.mark.parametrize(
    ("writing", "move", "saved", "text"),
    [
        (True, True, False, MOVE_NOT_SAVED),
        (False, True, False, MOVE_NOT_SAVED),  # a move whose game could not even be read
        (True, False, False, NOT_SAVED),
        (False, False, False, NOT_READ),
        (True, True, True, SAVED_BOARD_FOLLOWS),  # committed first: never "nothing changed"
    ],
)
async def test_a_database_that_cannot_be_used_is_explained_without_a_traceback(
    caplog: pytest.LogCaptureFixture, writing: bool, move: bool, saved: bool, text: str
) -> None:
    """StoreUnavailable (read-only disk) reads as what happened and what to do; the store has
    logged the episode once, so answering logs nothing more."""
    error = app_commands.CommandInvokeError(
        _command(), StoreUnavailable("disk I/O error", writing=writing)
    )
    with caplog.at_level(logging.DEBUG, logger="bot.edge.errors"):
        said = await explain(_no_interaction(), unwrap(error), saved=saved, move=move)
    assert said == text
    assert not caplog.records


def test_the_empty_autocomplete_explains_itself_within_discords_limits() -> None:
    """Its one choice fits a choice name (100) and its value can never be an action key."""
    assert len(UNREADABLE_CHOICE) <= 100 and len(SLOW_CHOICE) <= 100
    assert not KEY_PATTERN.match(NO_MOVES)


def _no_interaction() -> Any:
    """explain() reads no interaction for a store failure."""
    return None


def _command() -> Any:
    """Any app command (CommandInvokeError needs one)."""

    async def callback(interaction: Any) -> None:
        """Nothing."""

    return app_commands.Command(name="x", description="x", callback=callback)


def test_every_refusal_a_player_reads_is_a_player_error() -> None:
    """Rules, services and the edge raise refusals from one base, which the edge shows as is."""
    import inspect

    from bot.edge import errors as edge_errors
    from bot.services import errors as service_errors
    from rules.core import PlayerError
    from rules.core import errors as rules_errors

    refusals = [
        cls
        for module in (rules_errors, service_errors)
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if issubclass(cls, Exception) and cls.__module__ == module.__name__
    ]
    refusals.append(edge_errors.UserFacingError)
    assert len(refusals) > 15
    assert [cls.__name__ for cls in refusals if not issubclass(cls, PlayerError)] == []
