"""Build interaction payloads the way the Discord client does, from registered command schemas."""

from __future__ import annotations

from typing import Any

from .state import Channel, Guild, Message, Role, User
from .world import World

SUBCOMMAND, GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10


class CommandUnavailable(LookupError):
    """The Discord client would not offer this command (unknown, or hidden by permissions)."""


def find_command(world: World, guild: Guild | None, name: str) -> dict[str, Any]:
    """A registered chat-input command visible in this guild (guild commands first)."""
    pools = [world.guild_commands.get(guild.id, []) if guild else [], world.global_commands]
    for pool in pools:
        for cmd in pool:
            if cmd["name"] == name and cmd.get("type", 1) == 1:
                return cmd
    raise CommandUnavailable(f"/{name} is not registered (have {command_names(world)})")


def command_names(world: World) -> list[str]:
    """Names of every registered command."""
    pools = [world.global_commands, *world.guild_commands.values()]
    return sorted({c["name"] for pool in pools for c in pool})


def check_permission(cmd: dict[str, Any], guild: Guild | None, user: User) -> None:
    """Discord hides commands whose default_member_permissions the member lacks."""
    required = cmd.get("default_member_permissions")
    if required is None or guild is None:
        return
    if guild.permissions_of(user.id) & int(required) != int(required):
        raise CommandUnavailable(f"/{cmd['name']} is hidden from {user.name} (needs {required})")


def build_command_data(
    world: World,
    guild: Guild | None,
    user: User,
    path: str,
    values: dict[str, Any],
    focused: str | None = None,
) -> dict[str, Any]:
    """The `data` of a chat-input (or, with `focused`, autocomplete) interaction."""
    name, *rest = path.split()
    cmd = find_command(world, guild, name)
    check_permission(cmd, guild, user)
    schema = cmd.get("options") or []
    top: list[dict[str, Any]] = []
    leaf = top
    for token in rest:
        sub = next((o for o in schema if o["name"] == token and o["type"] in (1, 2)), None)
        if sub is None:
            raise CommandUnavailable(f"/{path}: no subcommand {token!r}")
        node: dict[str, Any] = {"name": token, "type": sub["type"], "options": []}
        leaf.append(node)
        leaf = node["options"]
        schema = sub.get("options") or []
    if any(o["type"] in (1, 2) for o in schema):
        raise CommandUnavailable(f"/{path} needs a subcommand")
    resolved: dict[str, dict[str, Any]] = {}
    leaf.extend(_options(world, guild, schema, values, focused, resolved, path))
    data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": top}
    if resolved:
        data["resolved"] = resolved
    if "guild_id" in cmd:
        data["guild_id"] = cmd["guild_id"]
    return data


def _options(
    world: World,
    guild: Guild | None,
    schema: list[dict[str, Any]],
    values: dict[str, Any],
    focused: str | None,
    resolved: dict[str, dict[str, Any]],
    path: str,
) -> list[dict[str, Any]]:
    known = {o["name"]: o for o in schema}
    unknown = set(values) - set(known)
    if unknown:
        raise ValueError(f"/{path}: unknown options {sorted(unknown)} (schema: {sorted(known)})")
    out = []
    for opt in schema:
        name = opt["name"]
        if name not in values:
            if opt.get("required") and focused is None:
                raise ValueError(f"/{path}: required option {name!r} missing")
            continue
        if name == focused:
            out.append(
                {"name": name, "type": opt["type"], "value": str(values[name]), "focused": True}
            )
            continue
        value = _typed(world, guild, opt, values[name], resolved, path)
        out.append({"name": name, "type": opt["type"], "value": value})
    return out


def _typed(
    world: World,
    guild: Guild | None,
    opt: dict[str, Any],
    raw: Any,
    resolved: dict[str, dict[str, Any]],
    path: str,
) -> Any:
    kind, name = opt["type"], opt["name"]
    if kind in (USER, MENTIONABLE) and isinstance(raw, User | int):
        user = raw if isinstance(raw, User) else world.user(raw)
        resolved.setdefault("users", {})[str(user.id)] = user.payload()
        if guild is not None and user.id in guild.members:
            member = guild.member_payload(user, with_permissions=True)
            member.pop("user")
            resolved.setdefault("members", {})[str(user.id)] = member
        return str(user.id)
    if kind == CHANNEL:
        channel = raw if isinstance(raw, Channel) else world.channel(int(raw))
        entry = channel.payload() | {"permissions": str((1 << 41) - 1)}
        resolved.setdefault("channels", {})[str(channel.id)] = entry
        return str(channel.id)
    if kind in (ROLE, MENTIONABLE):
        role = raw if isinstance(raw, Role) else next(r for r in guild.roles if r.id == int(raw))  # type: ignore[union-attr]
        resolved.setdefault("roles", {})[str(role.id)] = role.payload()
        return str(role.id)
    value = _scalar(kind, raw, f"/{path} {name}")
    _check_bounds(opt, value, f"/{path} {name}")
    return value


def _scalar(kind: int, raw: Any, where: str) -> Any:
    if kind == STRING:
        return str(raw)
    if kind == INTEGER:
        if isinstance(raw, bool) or int(raw) != raw:
            raise ValueError(f"{where}: {raw!r} is not an integer")
        return int(raw)
    if kind == NUMBER:
        return float(raw)
    if kind == BOOLEAN:
        if not isinstance(raw, bool):
            raise ValueError(f"{where}: {raw!r} is not a boolean")
        return raw
    raise ValueError(f"{where}: option type {kind} is not supported by the fake")


def _check_bounds(opt: dict[str, Any], value: Any, where: str) -> None:
    choices = opt.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise ValueError(f"{where}: {value!r} is not one of {[c['value'] for c in choices]}")
    if isinstance(value, str):
        if len(value) < opt.get("min_length", 0) or len(value) > opt.get("max_length", 6000):
            raise ValueError(f"{where}: length of {value!r} out of bounds")
    elif not isinstance(value, bool):
        low, high = opt.get("min_value"), opt.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise ValueError(f"{where}: {value} outside {low}..{high}")


def component_data(
    msg: Message, user: User, custom_id: str, values: list[str] | None
) -> dict[str, Any]:
    """The `data` of a button click (values None) or a string-select choice."""
    if msg.deleted:
        raise LookupError(f"message {msg.id} was deleted")
    if msg.visible_to is not None and msg.visible_to != user.id:
        raise PermissionError(f"{user.name} cannot see ephemeral message {msg.id}")
    comp = msg.component(custom_id)
    if comp is None:
        raise LookupError(f"no component {custom_id!r} on message {msg.id} (has {msg.custom_ids})")
    if comp.get("disabled"):
        raise PermissionError(f"component {custom_id!r} is disabled")
    if values is None:
        if comp["type"] != 2:
            raise ValueError(f"{custom_id!r} is not a button")
        return {"custom_id": custom_id, "component_type": 2}
    if comp["type"] != 3:
        raise ValueError(f"{custom_id!r} is not a string select")
    offered = [o["value"] for o in comp.get("options", [])]
    if not set(values) <= set(offered):
        raise ValueError(f"{values} not all offered by {custom_id!r}: {offered}")
    low, high = comp.get("min_values", 1), comp.get("max_values", 1)
    if not low <= len(values) <= high:
        raise ValueError(f"{custom_id!r} takes {low}..{high} values, got {len(values)}")
    return {"custom_id": custom_id, "component_type": 3, "values": list(values)}
