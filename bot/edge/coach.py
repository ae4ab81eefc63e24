"""What practice and hint tables add to the board and the private panel (issue 31).

The panel of a learner at a practice table carries one embed field per offered move — its label
and what it does under the rules — and a Hint button; a board whose table allows hints (practice,
or the `hints` option) shows the Hint button to everyone, so everyone knows. A practice board
also offers Leave practice, and every running board "Last move?" (what it did, what it scored).
The services are handed in once at start-up (`install`): the board and panel builders in
bot/edge/present.py have no client to ask.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord

from bot.edge.components import CoachButton
from bot.edge.limits import MAX_EMBED_DESCRIPTION, MAX_EMBED_TOTAL
from bot.i18n import ENGLISH, say, translate
from bot.services.learn import Coaching, LearnService
from bot.services.loading import LoadedGame
from bot.store.repository import TableFlags

FIELD_NAME = 256
FIELD_VALUE = 1024
MAX_FIELDS = 25
ELLIPSIS = "…"
COACH_ROW = 4  # the panel's last action row holds the coach's buttons
_service: list[LearnService] = []


def install(learn: LearnService) -> None:
    """Hand the practice service to the board and panel builders (once, at start-up)."""
    _service[:] = [learn]


async def _flags(loaded: LoadedGame) -> TableFlags:
    """The table's flags (none before start-up wiring, e.g. in unit tests of the builders)."""
    if not _service or loaded.state is None:
        return TableFlags()
    return await _service[0].flags.of(loaded.record.pk)


@dataclass(frozen=True)
class PanelExtras:
    """What a private panel adds: explanations and coach buttons."""

    coaching: Coaching | None = None
    buttons: list[Any] = field(default_factory=list)

    @property
    def action_rows(self) -> int:
        """Action rows left for the moves (the coach takes the last one when it has buttons)."""
        return COACH_ROW if self.buttons else COACH_ROW + 1


async def panel_extras(loaded: LoadedGame, seat: int, locale: str = ENGLISH) -> PanelExtras:
    """The coaching and buttons of `seat`'s private panel."""
    flags = await _flags(loaded)
    if not (flags.practice or flags.hints) or loaded.outcome is not None:
        return PanelExtras()
    coaching = await _service[0].coaching(loaded, seat) if flags.practice else None
    pk = loaded.record.pk
    buttons: list[Any] = [CoachButton(pk, "hint", row=COACH_ROW, locale=locale)]
    if flags.practice:
        buttons.append(CoachButton(pk, "leave", row=COACH_ROW, locale=locale))
    return PanelExtras(coaching, buttons)


async def board_extras(loaded: LoadedGame, locale: str = ENGLISH) -> list[Any]:
    """The coach buttons under the public board: Last move? for anyone once a move was made,
    Hint where hints are allowed, Leave practice at a practice table."""
    if not _service or loaded.state is None or loaded.outcome is not None:
        return []
    flags = await _flags(loaded)
    pk = loaded.record.pk
    items: list[Any] = [CoachButton(pk, "last", row=COACH_ROW, locale=locale)]
    if flags.practice or flags.hints:
        items.append(CoachButton(pk, "hint", row=COACH_ROW, locale=locale))
    if flags.practice:
        items.append(CoachButton(pk, "leave", row=COACH_ROW, locale=locale))
    return items


def with_items(view: discord.ui.View | None, items: list[Any]) -> discord.ui.View | None:
    """`view` with the coach's items added (room permitting: 5 to a row)."""
    if view is None or not items:
        return view
    for item in items:
        used = sum(1 for child in view.children if getattr(child, "row", None) == COACH_ROW)
        if used < 5:
            view.add_item(item)
    return view


def add_explanations(
    embed: discord.Embed, coaching: Coaching | None, locale: str = ENGLISH
) -> discord.Embed:
    """One field per offered move — its label and explanation — within Discord's limits."""
    if coaching is None or not coaching.options:
        return embed
    options = coaching.options[:MAX_FIELDS]
    description = min(len(embed.description or ""), MAX_EMBED_DESCRIPTION)
    used = len(embed.title or "") + description + len(embed.footer.text or "")
    names = [
        _clip(str(say(locale, label)) or translate(locale, "Move"), FIELD_NAME)
        for label, _ in options
    ]
    room = MAX_EMBED_TOTAL - used - sum(len(n) for n in names) - 16
    each = max(min(FIELD_VALUE, room // len(options)), 1)
    for name, (_, text) in zip(names, options, strict=True):
        embed.add_field(name=name, value=_clip(str(say(locale, text)), each), inline=False)
    return embed


def _clip(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, at a word where possible, with an ellipsis."""
    if len(text) <= limit:
        return text
    cut = text[: max(limit - 1, 0)]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut + ELLIPSIS
