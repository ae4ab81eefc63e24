"""Sentences rules code says without choosing a language (issue 30).

A `Said` is a plain English `str` to everything that does not ask — logs, tests, f-strings — and
carries its message id (the English template) and values, so the bot's edge can say it in the
reader's language. Values may themselves be `Said` (a card's name inside a log line), so each
is translated on its own. Pure: rules engines build sentences, the bot picks the language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import WrapValidator

# One part of a sentence: the English template with named `{placeholders}` (its message id in the
# catalogue) and the values for them.
Part = tuple[str, Mapping[str, object]]


class Said(str):
    """An English sentence that remembers its message ids and values, to be translated later."""

    parts: tuple[Part, ...]

    def __new__(cls, text: str, parts: tuple[Part, ...] = ()) -> Said:
        """The English `text`, made of `parts` (no parts: the text is its own message id)."""
        made = super().__new__(cls, text)
        made.parts = parts or ((str(text), {}),)
        return made

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (render workers, caches) with its parts."""
        return (Said, (str(self), self.parts))


def said(template: str, **args: object) -> Said:
    """A sentence to translate: `said("Not your turn — it is {who}'s turn.", who=name)`.

    `python -m bot.i18n extract` collects every `said("…")` literal into the catalogue; a value
    that is itself a `Said` (a card name: `said("Middle seat")`) is translated too.
    """
    text = template.format_map(args) if args else template
    return Said(text, ((template, dict(args)),))


def parts_of(text: str) -> tuple[Part, ...]:
    """The parts of a sentence: a Said's own, or plain text as one part (its own message id)."""
    return text.parts if isinstance(text, Said) else ((str(text), {}),)


def joined(*texts: str) -> Said:
    """Sentences said one after another (each translated on its own), separated by a space."""
    kept = [t for t in texts if t.strip()]
    return Said(
        " ".join(str(t).strip() for t in kept),
        tuple(p for t in kept for p in parts_of(t if isinstance(t, Said) else t.strip())),
    )


def lines(*texts: str) -> Said:
    """Paragraphs (a rules page): each translated on its own, one per line ("" = a blank line)."""
    parts: list[Part] = []
    for index, text in enumerate(texts):
        if index:
            parts.append(("\n", {}))
        if text:
            parts.extend(parts_of(text))
    return Said("\n".join(str(t) for t in texts), tuple(parts))


# --- stored form: JSON-safe, so a log line is translated long after it was said ----------------


def dump_parts(text: str) -> list[Any] | None:
    """A Said's parts as JSON (nested Said values as {"said": …}); None for plain text."""
    if not isinstance(text, Said):
        return None
    return [[msgid, {k: _dump_value(v) for k, v in args.items()}] for msgid, args in text.parts]


def _dump_value(value: object) -> object:
    if isinstance(value, Said):
        return {"said": dump_parts(value), "text": str(value)}
    if isinstance(value, int | float | bool) or value is None:
        return value
    return str(value)


def load_said(text: str, stored: object) -> str:
    """`text` again as a Said from its stored parts (plain `text` when none or unreadable)."""
    if not isinstance(stored, list) or not stored:
        return text
    try:
        parts = tuple(
            (str(msgid), {k: _load_value(v) for k, v in args.items()}) for msgid, args in stored
        )
    except (TypeError, ValueError, AttributeError):
        return text
    return Said(text, parts)


def _load_value(value: object) -> object:
    if isinstance(value, dict) and "said" in value:
        return load_said(str(value.get("text", "")), value["said"])
    return value


def _keep_said(value: Any, handler: Any) -> Any:
    """Validate as `str`, keeping a Said (pydantic would make it a plain str)."""
    return value if isinstance(value, Said) else handler(value)


# A model field holding player-facing words: a Said stays a Said in memory (JSON: its English).
Text = Annotated[str, WrapValidator(_keep_said)]
