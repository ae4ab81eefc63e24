"""Checking `/game new` options completely before a lobby exists (so `/game start` never fails)."""

from __future__ import annotations

import re
from typing import Any

from pydantic import ValidationError

from rules.core import Game, InvalidOptionsError
from rules.core.errors import Said, joined, said

# What a refused option ends with: the next step (a player never reads the bot's file paths).
NEXT_STEP = said("Pick another value, or leave the option out for the default.")
TRIM_LIMIT = 300  # a refusal's reason, at most
# A file path inside a reason ("assets/cards/", "../x/y.json"): the player cannot use it.
_PATH = re.compile(r"\s+(?:in|under|from)\s+(?:\.{0,2}/)?(?:[\w.-]+/)+(?=[\s.,;:)]|$)")


def validated_options(game: Game, options: dict[str, Any] | None) -> dict[str, Any]:
    """The options with defaults filled in, refused with a reason if the game cannot use them."""
    try:
        parsed = game.Options.model_validate(options or {})
    except ValidationError as exc:
        raise InvalidOptionsError(_with_next_step(invalid(game, _reasons(exc)))) from None
    refusal = _dry_setup_refusal(game, parsed)
    if refusal is not None:
        raise InvalidOptionsError(_with_next_step(refusal))
    dumped: dict[str, Any] = parsed.model_dump(mode="json")
    return dumped


def invalid(game: Game, reasons: str) -> Said:
    """'Invalid options for Flight: …' (pydantic's and Python's reasons stay as they come)."""
    return said("Invalid options for {title}: {reasons}", title=game.title, reasons=reasons)


def _dry_setup_refusal(game: Game, parsed: Any) -> str | None:
    """Why no table size could start with these options, or None if one can.

    A dry set-up catches what the model alone cannot (e.g. a card data file that is missing).
    Options that suit only some player counts pass: `/game start` checks the actual count.
    """
    reason = None
    for players in range(game.min_players, game.max_players + 1):
        try:
            game.new_game(0, players, parsed)
        except InvalidOptionsError as exc:
            reason = reason or _engine_reason(exc)
        except ValueError as exc:
            reason = reason or invalid(game, _trimmed(str(exc)))
        except Exception:  # an engine's own failure is not the player's fault; start will tell
            return None
        else:
            return None
    return reason


def _reasons(exc: ValidationError) -> str:
    """`field: reason` for each error, without pydantic's input echo and documentation links."""
    parts = []
    for error in exc.errors(include_url=False, include_input=False):
        where = ".".join(str(part) for part in error["loc"]) or "options"
        parts.append(f"{where}: {error['msg']}")
    return _trimmed("; ".join(parts))


def _engine_reason(exc: InvalidOptionsError) -> str:
    """A game's own refusal: its Said kept (the reader's language), other text made safe."""
    first = exc.args[0] if exc.args else ""
    if isinstance(first, Said) and len(first) <= TRIM_LIMIT and "@" not in first:
        return first
    return _trimmed(str(exc))


def _with_next_step(reason: str) -> Said:
    """The reason as one sentence, then what to do about it (each said on its own)."""
    if not reason.rstrip().endswith((".", "!", "?", "…")):
        reason = said("{reason}.", reason=reason)
    return joined(reason, NEXT_STEP)


def without_paths(text: str) -> str:
    """`text` with the bot's file paths left out ("… file 'x' in assets/cards/" → "… file 'x'")."""
    return _PATH.sub("", text).strip()


def _trimmed(text: str, limit: int = TRIM_LIMIT) -> str:
    """One line, short enough for a refusal, unable to ping (@ gets a zero-width space), and
    without file paths."""
    text = without_paths(" ".join(text.split())).replace("@", "@\u200b")
    return text if len(text) <= limit else text[: limit - 1] + "…"
