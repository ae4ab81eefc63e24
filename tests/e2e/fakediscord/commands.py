"""Application command registration routes (global and per-guild)."""

from __future__ import annotations

import json
import re
from typing import Any

from aiohttp import web

from .state import snowflake
from .world import ApiError, World, json_response


def _normalise(
    world: World, data: dict[str, Any], guild_id: int | None, old: Any
) -> dict[str, Any]:
    cmd = dict(data)
    cmd["id"] = old["id"] if old else str(snowflake())
    cmd["application_id"] = str(world.app_id)
    cmd.setdefault("type", 1)
    cmd.setdefault("description", "")
    cmd.setdefault("options", [])
    cmd["version"] = str(snowflake())
    if guild_id is not None:
        cmd["guild_id"] = str(guild_id)
    return cmd


# The locales Discord accepts as keys of name_localizations / description_localizations.
DISCORD_LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)
# Slash command and option names: `^[-_\p{L}\p{N}]{1,32}$`, lowercase where a letter has case.
NAME = re.compile(r"^[-_\w]{1,32}$")


def _name_problem(name: Any) -> str | None:
    """Why Discord would refuse a slash command or option name (None: it is fine)."""
    if not isinstance(name, str) or not NAME.match(name):
        return f"name {name!r} must match ^[-_\\p{{L}}\\p{{N}}]{{1,32}}$"
    if name != name.lower():
        return f"name {name!r} must be lowercase"
    return None


def _localisation_problems(node: dict[str, Any], where: str, *, named: bool) -> list[str]:
    """name_localizations / description_localizations: Discord locales, the same limits."""
    problems = []
    for field in ("name_localizations", "description_localizations"):
        for locale, text in (node.get(field) or {}).items():
            if locale not in DISCORD_LOCALES:
                problems.append(f"{where}: {field} key {locale!r} is not a Discord locale")
            if field == "name_localizations" and named:
                why = _name_problem(text)
                if why:
                    problems.append(f"{where}: {locale} {why}")
            elif not isinstance(text, str) or not 1 <= len(text) <= 100:
                problems.append(f"{where}: {locale} {field} must be 1..100 chars: {text!r}")
    return problems


def _sibling_problems(nodes: list[dict[str, Any]], where: str) -> list[str]:
    """Names, and each locale's localised names, are unique among siblings."""
    problems = []
    locales = {"": [n.get("name") for n in nodes]}
    for node in nodes:
        for locale, text in (node.get("name_localizations") or {}).items():
            locales.setdefault(locale, []).append(text)
    for locale, names in locales.items():
        if len(names) != len(set(names)):
            problems.append(f"{where}: duplicate names {sorted(names)} ({locale or 'en'})")
    return problems


def _problems(cmd: dict[str, Any]) -> list[str]:
    """Discord's registration limits on one command, its localisations included."""
    problems = []
    slash = cmd.get("type", 1) == 1
    if not 1 <= len(cmd.get("name", "")) <= 32:
        problems.append(f"/{cmd.get('name')}: name must be 1..32 chars")
    elif slash and (why := _name_problem(cmd.get("name"))):
        problems.append(f"/{cmd.get('name')}: {why}")
    if slash and not 1 <= len(cmd.get("description", "")) <= 100:
        problems.append(f"/{cmd.get('name')}: description must be 1..100 chars")
    problems += _localisation_problems(cmd, f"/{cmd.get('name')}", named=slash)
    stack = [cmd]
    while stack:
        node = stack.pop()
        options = node.get("options") or []
        if len(options) > 25:
            problems.append(f"{node.get('name')}: {len(options)} options > 25")
        problems += _sibling_problems(options, str(node.get("name")))
        for opt in options:
            if len(opt.get("choices") or []) > 25:
                problems.append(f"{opt.get('name')}: more than 25 choices")
            if not 1 <= len(opt.get("description", "")) <= 100:
                problems.append(f"{opt.get('name')}: description must be 1..100 chars")
            if why := _name_problem(opt.get("name")):
                problems.append(f"{opt.get('name')}: {why}")
            problems += _localisation_problems(opt, str(opt.get("name")), named=True)
            for choice in opt.get("choices") or []:
                problems += _localisation_problems(
                    choice, f"choice {choice.get('name')}", named=False
                )
        stack.extend(options)
    return problems


def routes(world: World, api: str) -> list[web.RouteDef]:
    """Routes for /applications/{app}/[guilds/{guild}/]commands."""

    def bucket(request: web.Request) -> tuple[list[dict[str, Any]], int | None]:
        if int(request.match_info["app"]) != world.app_id:
            raise ApiError(403, 50001, "Missing Access")
        if "guild" not in request.match_info:
            return world.global_commands, None
        guild_id = int(request.match_info["guild"])
        world.guild(guild_id)
        return world.guild_commands.setdefault(guild_id, []), guild_id

    def validate(cmds: list[dict[str, Any]]) -> None:
        problems = [p for cmd in cmds for p in _problems(cmd)]
        problems += _sibling_problems([c for c in cmds if c.get("type", 1) == 1], "commands")
        for problem in problems:
            world.violation("command-limit", problem)
        if problems:
            raise ApiError(400, 50035, "Invalid Form Body")

    async def list_(request: web.Request) -> web.Response:
        return json_response(bucket(request)[0])

    async def put(request: web.Request) -> web.Response:
        store, guild_id = bucket(request)
        body = json.loads(await request.read() or b"[]")
        validate(body)
        by_name = {c["name"]: c for c in store}
        new = [_normalise(world, c, guild_id, by_name.get(c["name"])) for c in body]
        store[:] = new
        world.changes.touch()
        return json_response(new)

    async def post(request: web.Request) -> web.Response:
        store, guild_id = bucket(request)
        body = json.loads(await request.read())
        validate([body])
        old = next((c for c in store if c["name"] == body["name"]), None)
        cmd = _normalise(world, body, guild_id, old)
        store[:] = [c for c in store if c is not old] + [cmd]
        world.changes.touch()
        return json_response(cmd, status=200 if old else 201)

    def find(request: web.Request) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        store, _ = bucket(request)
        for cmd in store:
            if cmd["id"] == request.match_info["cmd"]:
                return store, cmd
        raise ApiError(404, 10063, "Unknown application command")

    async def get_one(request: web.Request) -> web.Response:
        return json_response(find(request)[1])

    async def patch(request: web.Request) -> web.Response:
        _, cmd = find(request)
        cmd.update(json.loads(await request.read()))
        validate([cmd])
        world.changes.touch()
        return json_response(cmd)

    async def delete(request: web.Request) -> web.Response:
        store, cmd = find(request)
        store.remove(cmd)
        world.changes.touch()
        return web.Response(status=204)

    out = []
    for base in (f"{api}/applications/{{app}}", f"{api}/applications/{{app}}/guilds/{{guild}}"):
        out += [
            web.get(f"{base}/commands", list_),
            web.put(f"{base}/commands", put),
            web.post(f"{base}/commands", post),
            web.get(f"{base}/commands/{{cmd}}", get_one),
            web.patch(f"{base}/commands/{{cmd}}", patch),
            web.delete(f"{base}/commands/{{cmd}}", delete),
        ]
    return out
