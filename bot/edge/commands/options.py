"""Generates one `/game new <game>` subcommand per game from its pydantic `Options` model."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Literal, Optional, get_args, get_origin

import annotated_types
import discord
from discord import app_commands
from pydantic.fields import FieldInfo

from bot.services.preferences import TableOptions
from rules.core import Game

if TYPE_CHECKING:
    from bot.edge.app import HangarBot

NewGameHandler = Callable[["discord.Interaction[HangarBot]", Game, dict[str, Any]], Awaitable[None]]


def slash_annotation(field: FieldInfo) -> Any:
    """The discord.py annotation for an option field: choices, bounded ints, bools or text."""
    annotation = field.annotation
    if get_origin(annotation) is Literal:
        return Literal[tuple(get_args(annotation))]
    if annotation is int:
        low = next((m.ge for m in field.metadata if isinstance(m, annotated_types.Ge)), None)
        high = next((m.le for m in field.metadata if isinstance(m, annotated_types.Le)), None)
        if low is not None and high is not None:
            return app_commands.Range[int, low, high]
        return int
    if annotation is bool:
        return bool
    return str


def describe(name: str, field: FieldInfo) -> str:
    """The option's help text, with its default, trimmed to Discord's 100 characters."""
    text = field.description or name.replace("_", " ")
    default = "the server's" if field.default is None else field.default
    return f"{text} (default: {default})"[:100]


def _optional_literal(field: FieldInfo) -> FieldInfo:
    """A table option `Literal[...] | None` described as its Literal (None = server default)."""
    args = [a for a in get_args(field.annotation) if a is not type(None)]
    if len(args) == 1:
        field = FieldInfo.merge_field_infos(field, annotation=args[0])
    return field


def ai_parameters(game: Game) -> list[inspect.Parameter]:
    """Bot-owned options of every game (not part of its rules options): AI seats."""
    seats = app_commands.Range[int, 0, max(1, game.max_players - 1)]
    level = Literal["easy", "normal", "hard"]
    return [
        inspect.Parameter(
            name,
            inspect.Parameter.KEYWORD_ONLY,
            annotation=Optional[kind],  # noqa: UP045 - runtime annotation
            default=None,
        )
        for name, kind in (("ai_seats", seats), ("ai_level", level))
    ]


def new_game_command(game: Game, handler: NewGameHandler) -> app_commands.Command[Any, Any, Any]:
    """`/game new <game.id> [options…]`; a new option field needs no change here."""
    # Table options (turn limit, timeout policy, thread) come after the game's own.
    table = {name: _optional_literal(f) for name, f in TableOptions.model_fields.items()}
    fields = {**game.Options.model_fields, **table}
    parameters = [
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        )
    ]
    for name, field in fields.items():
        parameters.append(
            inspect.Parameter(
                name,
                inspect.Parameter.KEYWORD_ONLY,
                annotation=Optional[slash_annotation(field)],  # noqa: UP045 - runtime annotation
                default=None,
            )
        )

    parameters += ai_parameters(game)

    async def callback(interaction: discord.Interaction[HangarBot], /, **options: Any) -> None:
        chosen = {k: v for k, v in options.items() if v is not None}
        await handler(interaction, game, chosen)

    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    callback.__discord_app_commands_param_description__ = {  # type: ignore[attr-defined]
        name: describe(name, field) for name, field in fields.items()
    }
    # The bot's own options, described like every command's (the command tree translates them);
    # on the callback, so that the game's option descriptions above are kept.
    app_commands.describe(
        ai_seats="AI players seated at once (default: 0; more with the lobby's Add AI)",
        ai_level="Level of those AI players (default: normal)",
    )(callback)
    return app_commands.Command(
        name=game.id,
        description=f"Open a {game.title} lobby in this channel ({game.min_players}–"
        f"{game.max_players} players)"[:100],
        callback=callback,
    )
