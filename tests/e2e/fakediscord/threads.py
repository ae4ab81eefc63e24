"""Threads: the bot starts a public or private thread (without a starter message) and adds
members to a private one."""

from __future__ import annotations

import json

from aiohttp import web

from .state import PRIVATE_THREAD, PUBLIC_THREAD, THREAD_TYPES, Channel, snowflake
from .world import ApiError, World, json_response


def routes(world: World, api: str) -> list[web.RouteDef]:
    """The thread routes bound to `world`."""

    async def start_thread(request: web.Request) -> web.Response:
        parent = world.channel(int(request.match_info["channel_id"]))
        raw = await request.read()
        body = json.loads(raw) if raw else {}
        name = str(body.get("name", ""))
        if parent.type != 0 or parent.guild_id is None:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        if not 1 <= len(name) <= 100:
            raise ApiError(400, 50035, "Invalid Form Body (name)")
        kind = body.get("type", PRIVATE_THREAD)  # Discord's default without a message: private
        if kind not in THREAD_TYPES:
            world.violation("thread-type", f"thread type {kind} (expected 11 or 12)")
            kind = PUBLIC_THREAD
        guild = world.guild(parent.guild_id)
        thread = Channel(snowflake(), name, guild.id, kind, parent.id, position=len(guild.channels))
        thread.owner_id = world.bot.id
        thread.members = {world.bot.id}
        thread.invitable = bool(body.get("invitable", True))
        guild.channels.append(thread)
        world.channels[thread.id] = thread
        return json_response(thread.payload(), status=201)

    async def add_member(request: web.Request) -> web.Response:
        thread = world.channel(int(request.match_info["channel_id"]))
        user_id = int(request.match_info["user_id"])
        if thread.type not in THREAD_TYPES or thread.guild_id is None:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        if user_id not in world.guild(thread.guild_id).members:
            raise ApiError(404, 10013, "Unknown User")
        thread.members.add(user_id)
        return web.Response(status=204)

    return [
        web.post(f"{api}/channels/{{channel_id}}/threads", start_thread),
        web.put(f"{api}/channels/{{channel_id}}/thread-members/{{user_id}}", add_member),
    ]
