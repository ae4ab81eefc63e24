"""Discord's size limits in one place: every answer is clipped here, user input is echoed short."""

from __future__ import annotations

import discord

MAX_CONTENT = 2000
MAX_EMBED_TITLE = 256
MAX_EMBED_DESCRIPTION = 4096
MAX_EMBED_FOOTER = 2048
MAX_EMBED_TOTAL = 6000
# How much of a user's own input we ever repeat back (enough to recognise it, never a wall).
MAX_EXCERPT = 40
ELLIPSIS = "…"


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    """`text` cut to `limit` characters, with an ellipsis when something was dropped."""
    if len(text) <= limit:
        return text
    return text[: max(0, limit - len(ELLIPSIS))] + ELLIPSIS


def excerpt(value: str, limit: int = MAX_EXCERPT) -> str:
    """A short, quoted, escaped excerpt of user input: no mentions, no markdown, one line."""
    flat = " ".join(value.split())
    short = clip(flat, limit)
    safe = discord.utils.escape_mentions(discord.utils.escape_markdown(short))
    return f"“{safe}”"


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """The embed with its texts clipped to Discord's limits (title, description, footer, total)."""
    if embed.title:
        embed.title = clip(embed.title, MAX_EMBED_TITLE)
    if embed.footer.text:
        footer = clip(embed.footer.text, MAX_EMBED_FOOTER)
        embed.set_footer(text=footer, icon_url=embed.footer.icon_url)
    room = MAX_EMBED_TOTAL - len(embed.title or "") - len(embed.footer.text or "")
    if embed.description:
        embed.description = clip(embed.description, min(MAX_EMBED_DESCRIPTION, max(room, 1)))
    return embed
