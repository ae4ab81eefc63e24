"""Interaction callbacks and webhook follow-ups, with Discord's acknowledgement rules."""

from __future__ import annotations

import time
from typing import Any

from . import limits
from .state import FLAG_EPHEMERAL, FLAG_LOADING, Message
from .world import CALLBACKS_FOR, ApiError, File, InteractionRecord, World


def interaction_callback(
    world: World, interaction_id: int, token: str, body: dict[str, Any], files: list[File]
) -> dict[str, Any]:
    """POST /interactions/{id}/{token}/callback."""
    rec = world.interactions.get(interaction_id)
    if rec is None or rec.token != token:
        raise ApiError(404, 10062, "Unknown interaction")
    if rec.callback_type is not None:
        world.violation("double-ack", f"{rec.label}: second interaction callback (40060)")
        raise ApiError(400, 40060, "Interaction has already been acknowledged.")
    if rec.failed:
        late = time.monotonic() - rec.created
        world.violation("late-ack", f"{rec.label}: callback after {late:.1f} s (10062)")
        raise ApiError(404, 10062, "Unknown interaction")
    kind = int(body.get("type", 0))
    data = body.get("data") or {}
    if kind not in CALLBACKS_FOR.get(rec.type, set()):
        world.violation("bad-callback", f"{rec.label}: callback type {kind} not allowed")
        raise ApiError(400, 50035, "Invalid interaction response type")
    _apply_callback(world, rec, kind, data, files)
    rec.callback_type = kind
    world.touch(rec)
    rec.ack_version = rec.changes.version
    return _callback_response(world, rec, kind)


def _apply_callback(
    world: World, rec: InteractionRecord, kind: int, data: dict[str, Any], files: list[File]
) -> None:
    where = f"{rec.label} callback {kind}"
    if kind == 4:
        world.check(where, data, files, creating=True)
        rec.original_id = world.store_message(rec.channel, data, files, rec=rec).id
    elif kind == 5:
        flags = FLAG_LOADING | (int(data.get("flags") or 0) & FLAG_EPHEMERAL)
        rec.original_id = world.store_message(rec.channel, {}, [], rec=rec, extra_flags=flags).id
    elif kind in (6, 7):
        rec.original_id = rec.message_id
        if kind == 7:
            world.check(where, data, files, creating=False)
            world.apply_edit(world.messages[_require(rec.message_id)], data, files)
    elif kind == 8:
        choices = list(data.get("choices") or [])
        problems = limits.check_choices(choices)
        for problem in problems:
            world.violation("limit", f"{where}: {problem}")
        if problems:
            raise ApiError(400, 50035, "Invalid Form Body", limits.error_body(problems))
        rec.choices = choices
    elif kind == 9:
        rec.modal = data


def _require(message_id: int | None) -> int:
    if message_id is None:
        raise ApiError(400, 50035, "This interaction has no message")
    return message_id


def _callback_response(world: World, rec: InteractionRecord, kind: int) -> dict[str, Any]:
    original = world.messages.get(rec.original_id) if rec.original_id else None
    info: dict[str, Any] = {
        "id": str(rec.id),
        "type": rec.type,
        "response_message_loading": kind == 5,
        "response_message_ephemeral": bool(original and original.ephemeral),
    }
    resource: dict[str, Any] = {"type": kind}
    if original is not None:
        info["response_message_id"] = str(original.id)
        if kind in (4, 7):
            resource["message"] = world.message_payload(original)
    return {"interaction": info, "resource": resource}


def followup(
    world: World, app_id: int, token: str, payload: dict[str, Any], files: list[File]
) -> Message:
    """POST /webhooks/{app_id}/{token}: a follow-up (the first one after a defer fills it)."""
    rec = world.webhook_record(app_id, token)
    if rec.callback_type is None:
        world.violation("followup-before-ack", f"{rec.label}: follow-up before any callback")
        raise ApiError(404, 10015, "Unknown Webhook")
    world.check(f"{rec.label} follow-up", payload, files, creating=True)
    original = world.messages.get(rec.original_id) if rec.original_id else None
    if rec.callback_type == 5 and original is not None and original.loading:
        world.apply_edit(original, _without_flags(payload), files)
        world.touch(rec)
        return original
    msg = world.store_message(rec.channel, payload, files, rec=rec)
    rec.followup_ids.append(msg.id)
    world.touch(rec)
    return msg


def _without_flags(payload: dict[str, Any]) -> dict[str, Any]:
    # The deferred reply keeps the ephemerality chosen at defer time, as on Discord.
    return {k: v for k, v in payload.items() if k != "flags"}


def webhook_message(world: World, app_id: int, token: str, message_id: str) -> Message:
    """The @original response or a follow-up of this interaction token."""
    rec = world.webhook_record(app_id, token)
    wanted = rec.original_id if message_id == "@original" else int(message_id)
    if wanted is None or wanted not in rec.message_ids() or wanted not in world.messages:
        raise ApiError(404, 10008, "Unknown Message")
    msg = world.messages[wanted]
    if msg.deleted:
        raise ApiError(404, 10008, "Unknown Message")
    return msg


def edit_webhook_message(
    world: World,
    app_id: int,
    token: str,
    message_id: str,
    payload: dict[str, Any],
    files: list[File],
) -> Message:
    """PATCH /webhooks/{app_id}/{token}/messages/{id|@original}."""
    msg = webhook_message(world, app_id, token, message_id)
    rec = world.tokens[token]
    world.check(f"{rec.label} edit", payload, files, creating=False)
    world.apply_edit(msg, payload, files)
    world.touch(rec)
    return msg


def delete_webhook_message(world: World, app_id: int, token: str, message_id: str) -> None:
    """DELETE /webhooks/{app_id}/{token}/messages/{id|@original}."""
    msg = webhook_message(world, app_id, token, message_id)
    world.delete_message(msg)
    world.touch(world.tokens[token])
