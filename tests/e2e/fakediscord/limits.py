"""Discord's documented message limits, checked the way the real API rejects payloads."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_SELECT_OPTIONS = 25
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_OPTION_TEXT = 100
MAX_PLACEHOLDER = 150
MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_FILES = 10
MAX_CHOICES = 25
SELECT_TYPES = (3, 5, 6, 7, 8)
EMBED_TEXT_LIMITS = {"title": 256, "description": 4096}
IS_COMPONENTS_V2 = 1 << 15


@dataclass(frozen=True)
class Problem:
    """One limit a payload breaks: where (dotted path) and what."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


def check_message(
    payload: dict[str, Any], files: list[tuple[str, bytes]], *, creating: bool
) -> list[Problem]:
    """All limit problems of a message create/edit payload plus its uploaded files."""
    problems: list[Problem] = []
    content = payload.get("content")
    if content is not None and len(str(content)) > MAX_CONTENT:
        problems.append(Problem("content", f"{len(str(content))} chars > {MAX_CONTENT}"))
    problems += _check_embeds(payload.get("embeds") or [])
    if not int(payload.get("flags") or 0) & IS_COMPONENTS_V2:
        problems += check_components(payload.get("components") or [])
    if len(files) > MAX_FILES:
        problems.append(Problem("files", f"{len(files)} files > {MAX_FILES}"))
    for i, (name, data) in enumerate(files):
        if len(data) > MAX_FILE_BYTES:
            problems.append(Problem(f"files.{i}", f"{name} is {len(data)} bytes > 10 MiB"))
    empty = not (content or payload.get("embeds") or payload.get("components") or files)
    if creating and empty and not payload.get("poll") and not payload.get("attachments"):
        problems.append(Problem("content", "Cannot send an empty message"))
    return problems


def _check_embeds(embeds: list[dict[str, Any]]) -> list[Problem]:
    problems: list[Problem] = []
    if len(embeds) > MAX_EMBEDS:
        problems.append(Problem("embeds", f"{len(embeds)} embeds > {MAX_EMBEDS}"))
    total = 0
    for i, embed in enumerate(embeds):
        for key, limit in EMBED_TEXT_LIMITS.items():
            text = str(embed.get(key) or "")
            total += len(text)
            if len(text) > limit:
                problems.append(Problem(f"embeds.{i}.{key}", f"{len(text)} chars > {limit}"))
        fields = embed.get("fields") or []
        if len(fields) > 25:
            problems.append(Problem(f"embeds.{i}.fields", f"{len(fields)} fields > 25"))
        for j, fld in enumerate(fields):
            total += len(str(fld.get("name", ""))) + len(str(fld.get("value", "")))
            if len(str(fld.get("value", ""))) > 1024 or len(str(fld.get("name", ""))) > 256:
                problems.append(Problem(f"embeds.{i}.fields.{j}", "field name/value too long"))
        total += len(str((embed.get("footer") or {}).get("text", "")))
        total += len(str((embed.get("author") or {}).get("name", "")))
    if total > MAX_EMBED_TOTAL:
        problems.append(Problem("embeds", f"{total} embed chars > {MAX_EMBED_TOTAL}"))
    return problems


def check_components(rows: list[dict[str, Any]]) -> list[Problem]:
    """Action-row rules: ≤ 5 rows, ≤ 5 buttons a row, a select alone, unique custom_ids."""
    problems: list[Problem] = []
    if len(rows) > MAX_ROWS:
        problems.append(Problem("components", f"{len(rows)} action rows > {MAX_ROWS}"))
    seen: set[str] = set()
    for i, row in enumerate(rows):
        path = f"components.{i}"
        if row.get("type") != 1:
            problems.append(Problem(path, "top-level component must be an action row"))
            continue
        children = row.get("components") or []
        if not children:
            problems.append(Problem(path, "action row is empty"))
        selects = [c for c in children if c.get("type") in SELECT_TYPES]
        buttons = [c for c in children if c.get("type") == 2]
        if selects and len(children) > 1:
            problems.append(Problem(path, "a select menu must be alone in its action row"))
        if len(buttons) > MAX_BUTTONS_PER_ROW:
            problems.append(Problem(path, f"{len(buttons)} buttons > {MAX_BUTTONS_PER_ROW}"))
        for j, comp in enumerate(children):
            problems += _check_component(comp, f"{path}.components.{j}", seen)
    return problems


def _check_component(comp: dict[str, Any], path: str, seen: set[str]) -> list[Problem]:
    problems: list[Problem] = []
    custom_id = comp.get("custom_id")
    is_link = comp.get("type") == 2 and comp.get("style") in (5, 6)
    if custom_id is None and not is_link:
        problems.append(Problem(path, "custom_id is required"))
    if custom_id is not None:
        if len(custom_id) > MAX_CUSTOM_ID:
            problems.append(Problem(path, f"custom_id {len(custom_id)} chars > {MAX_CUSTOM_ID}"))
        if custom_id in seen:
            problems.append(Problem(path, f"duplicate custom_id {custom_id!r}"))
        seen.add(custom_id)
    if comp.get("type") == 2:
        label = comp.get("label") or ""
        if len(label) > MAX_BUTTON_LABEL:
            problems.append(Problem(path, f"button label {len(label)} chars > {MAX_BUTTON_LABEL}"))
        if not label and not comp.get("emoji"):
            problems.append(Problem(path, "button needs a label or an emoji"))
    if comp.get("type") in SELECT_TYPES:
        problems += _check_select(comp, path)
    return problems


def _check_select(comp: dict[str, Any], path: str) -> list[Problem]:
    problems: list[Problem] = []
    if len(comp.get("placeholder") or "") > MAX_PLACEHOLDER:
        problems.append(Problem(path, f"placeholder > {MAX_PLACEHOLDER} chars"))
    if comp.get("type") != 3:
        return problems
    options = comp.get("options") or []
    if not 1 <= len(options) <= MAX_SELECT_OPTIONS:
        problems.append(Problem(path, f"{len(options)} select options (must be 1..25)"))
    values = [o.get("value") for o in options]
    if len(set(values)) != len(values):
        problems.append(Problem(path, "duplicate select option values"))
    for k, opt in enumerate(options):
        for key in ("label", "value", "description"):
            if len(str(opt.get(key) or "")) > MAX_OPTION_TEXT:
                problems.append(Problem(f"{path}.options.{k}", f"{key} > {MAX_OPTION_TEXT} chars"))
    max_values = comp.get("max_values", 1)
    if options and max_values > len(options):
        problems.append(Problem(path, f"max_values {max_values} > {len(options)} options"))
    return problems


def check_choices(choices: list[dict[str, Any]]) -> list[Problem]:
    """Autocomplete result rules: ≤ 25 choices, name and string value ≤ 100 chars."""
    problems: list[Problem] = []
    if len(choices) > MAX_CHOICES:
        problems.append(Problem("choices", f"{len(choices)} choices > {MAX_CHOICES}"))
    for i, choice in enumerate(choices):
        name, value = str(choice.get("name", "")), choice.get("value")
        if not 1 <= len(name) <= 100:
            problems.append(Problem(f"choices.{i}", "name must be 1..100 chars"))
        if isinstance(value, str) and len(value) > 100:
            problems.append(Problem(f"choices.{i}", "value > 100 chars"))
    return problems


def error_body(problems: list[Problem]) -> dict[str, Any]:
    """Discord's 50035 Invalid Form Body error with nested `_errors`."""
    errors: dict[str, Any] = {}
    for problem in problems:
        node = errors
        for part in problem.path.split("."):
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": "LIMIT", "message": problem.message})
    return {"code": 50035, "message": "Invalid Form Body", "errors": errors}
