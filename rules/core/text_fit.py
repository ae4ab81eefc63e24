"""Shortening a text for a size-limited place (a select option's label or description)."""

from __future__ import annotations

ELLIPSIS = "…"
# Characters that read badly right before an ellipsis ("Glide, …", "(3 Money …").
_TRAILING = " ,;:·—–-|/(+"


def shorten(text: str, limit: int) -> str:
    """`text` on one line if it fits in `limit` characters, else cut at a word with '…'."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    room = flat[: limit - len(ELLIPSIS) + 1]  # one more: a space there means a whole last word
    head = room.rsplit(" ", 1)[0] if " " in room else room[:-1]
    return head.rstrip(_TRAILING) + ELLIPSIS
