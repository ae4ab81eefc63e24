"""POST /channels/{id}/threads: the bot starts a public thread (without a starter message)."""

from __future__ import annotations

import json

from aiohttp import web

from .state import Channel, snowflake
from .world import ApiError, World, json_response

PUBLIC_THREAD = 11


def routes(world: World, api: str) -> list[web.RouteDef]:
    """The thread-creation route bound to `world`."""

    async def start_thread(request: web.Request) -> web.Response:
        parent = world.channel(int(request.match_info["channel_id"]))
        raw = await request.read()
        body = json.loads(raw) if raw else {}
        name = str(body.get("name", ""))
        if parent.type != 0 or parent.guild_id is None:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        if not 1 <= len(name) <= 100:
            raise ApiError(400, 50035, "Invalid Form Body (name)")
        if body.get("type", PUBLIC_THREAD) != PUBLIC_THREAD:
            world.violation("thread-type", f"thread type {body.get('type')} (expected public)")
        guild = world.guild(parent.guild_id)
        thread = Channel(
            snowflake(), name, guild.id, PUBLIC_THREAD, parent.id, position=len(guild.channels)
        )
        thread.owner_id = world.bot.id
        guild.channels.append(thread)
        world.channels[thread.id] = thread
        return json_response(thread.payload(), status=201)

    return [web.post(f"{api}/channels/{{channel_id}}/threads", start_thread)]
