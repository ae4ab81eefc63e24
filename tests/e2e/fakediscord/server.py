"""HTTP API v10 routes of the fake, translating requests into World operations."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from . import commands, responses, threads
from .state import THREAD_TYPES, Channel, snowflake
from .world import ApiError, File, World, json_response

API = "/api/v10"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
PUBLIC_PREFIXES = (f"{API}/webhooks/", f"{API}/interactions/", "/attachments/", "/gateway")


_json = json_response


async def read_body(request: web.Request) -> tuple[dict[str, Any], list[File]]:
    """Parse a JSON body or a multipart body (payload_json + files[n])."""
    if request.content_type.startswith("multipart/"):
        form = await request.post()
        payload = json.loads(str(form.get("payload_json") or "{}"))
        files: list[File] = []
        for key in sorted(k for k in form if k.startswith("files[")):
            field = form[key]
            if isinstance(field, web.FileField):
                files.append((field.filename, field.file.read(), field.content_type))
        return payload, files
    raw = await request.read()
    return (json.loads(raw) if raw else {}), []


class Api:
    """The route table bound to one World."""

    def __init__(self, world: World, gateway_url: Callable[[], str]) -> None:
        self.world = world
        self.gateway_url = gateway_url

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Auth check, Discord-shaped errors, and a log of every call."""
        world = self.world
        path = request.path
        try:
            public = path.startswith(PUBLIC_PREFIXES)
            if not public and request.headers.get("Authorization") != f"Bot {world.token}":
                raise ApiError(401, 0, "401: Unauthorized")
            fault = world.faults.match(request.method, path)
            if fault is not None and fault.delay:
                await asyncio.sleep(fault.delay)
            if fault is not None and fault.status:
                text = f"{fault.status}: injected fault"
                body = {"code": 0, "message": text, "retry_after": 1.0, "global": False}
                raise ApiError(fault.status, 0, text, body)
            response = await handler(request)
        except (web.HTTPNotFound, web.HTTPMethodNotAllowed):
            world.violation("unsupported-route", f"{request.method} {path}")
            response = _json({"code": 0, "message": "404: Not Found"}, 404)
        except ApiError as err:
            response = _json(err.body, err.status)
        world.http_log.append(f"{request.method} {path} -> {response.status}")
        return response

    def routes(self) -> list[web.RouteDef]:
        """All supported routes."""
        a = API
        r = web
        return [
            r.get(f"{a}/users/@me", self.me),
            r.get(f"{a}/users/{{user_id}}", self.get_user),
            r.post(f"{a}/users/@me/channels", self.open_dm),
            r.get(f"{a}/oauth2/applications/@me", self.app_info),
            r.get(f"{a}/applications/@me", self.app_info),
            r.get(f"{a}/gateway", self.gateway),
            r.get(f"{a}/gateway/bot", self.gateway),
            r.get(f"{a}/applications/{{app}}/emojis", self.no_emojis),
            *commands.routes(self.world, a),
            *threads.routes(self.world, a),
            r.get(f"{a}/channels/{{channel_id}}", self.get_channel),
            r.get(f"{a}/channels/{{channel_id}}/messages", self.history),
            r.post(f"{a}/channels/{{channel_id}}/messages", self.post_message),
            r.post(f"{a}/channels/{{channel_id}}/typing", self.typing),
            r.get(f"{a}/channels/{{channel_id}}/messages/{{message_id}}", self.get_message),
            r.patch(f"{a}/channels/{{channel_id}}/messages/{{message_id}}", self.edit_message),
            r.delete(f"{a}/channels/{{channel_id}}/messages/{{message_id}}", self.delete_message),
            r.get(f"{a}/guilds/{{guild_id}}", self.get_guild),
            r.get(f"{a}/guilds/{{guild_id}}/channels", self.guild_channels),
            r.get(f"{a}/guilds/{{guild_id}}/roles", self.guild_roles),
            r.get(f"{a}/guilds/{{guild_id}}/members/{{user_id}}", self.get_member),
            r.post(f"{a}/interactions/{{iid}}/{{token}}/callback", self.callback),
            r.post(f"{a}/webhooks/{{app}}/{{token}}", self.followup),
            r.get(f"{a}/webhooks/{{app}}/{{token}}/messages/{{mid}}", self.get_webhook_message),
            r.patch(f"{a}/webhooks/{{app}}/{{token}}/messages/{{mid}}", self.edit_webhook_message),
            r.delete(f"{a}/webhooks/{{app}}/{{token}}/messages/{{mid}}", self.delete_webhook_msg),
            r.get("/attachments/{channel_id}/{attachment_id}/{filename}", self.attachment),
        ]

    # --- identity ----------------------------------------------------------------------------

    async def me(self, request: web.Request) -> web.Response:
        """GET /users/@me."""
        return _json(self.world.bot.payload())

    async def get_user(self, request: web.Request) -> web.Response:
        """GET /users/{id}."""
        return _json(self.world.user(int(request.match_info["user_id"])).payload())

    async def app_info(self, request: web.Request) -> web.Response:
        """GET /oauth2/applications/@me."""
        bot = self.world.bot
        return _json(
            {
                "id": str(self.world.app_id),
                "name": bot.name,
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": bot.payload(),
                "verify_key": "0" * 64,
                "flags": 0,
                "bot": bot.payload(),
            }
        )

    async def gateway(self, request: web.Request) -> web.Response:
        """GET /gateway/bot."""
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return _json({"url": self.gateway_url(), "shards": 1, "session_start_limit": limit})

    async def no_emojis(self, request: web.Request) -> web.Response:
        """GET /applications/{id}/emojis."""
        return _json({"items": []})

    async def open_dm(self, request: web.Request) -> web.Response:
        """POST /users/@me/channels: a DM channel with a user."""
        body, _ = await read_body(request)
        user = self.world.user(int(body["recipient_id"]))
        for channel in self.world.channels.values():
            if channel.type == 1 and channel.recipient is user:
                return _json(channel.payload())
        channel = Channel(id=snowflake(), name=f"dm-{user.name}", guild_id=None, type=1)
        channel.recipient = user
        self.world.channels[channel.id] = channel
        return _json(channel.payload())

    # --- channels and messages ---------------------------------------------------------------

    async def get_channel(self, request: web.Request) -> web.Response:
        """GET /channels/{id}."""
        return _json(self.world.channel(int(request.match_info["channel_id"])).payload())

    async def history(self, request: web.Request) -> web.Response:
        """GET /channels/{id}/messages (newest first, before/after/limit)."""
        channel = self.world.channel(int(request.match_info["channel_id"]))
        q = request.query
        msgs = [
            m
            for m in self.world.messages.values()
            if m.channel_id == channel.id and not m.deleted and not m.ephemeral
        ]
        if "before" in q:
            msgs = [m for m in msgs if m.id < int(q["before"])]
        if "after" in q:
            msgs = [m for m in msgs if m.id > int(q["after"])]
        msgs = sorted(msgs, key=lambda m: -m.id)[: int(q.get("limit", 50))]
        return _json([self.world.message_payload(m) for m in msgs])

    async def post_message(self, request: web.Request) -> web.Response:
        """POST /channels/{id}/messages."""
        world = self.world
        channel = world.channel(int(request.match_info["channel_id"]))
        payload, files = await read_body(request)
        if channel.type == 1 and channel.recipient is not None and channel.recipient.dm_closed:
            raise ApiError(403, 50007, "Cannot send messages to this user")
        world.check(f"message in #{channel.name}", payload, files, creating=True)
        msg = world.store_message(channel, payload, files)
        return _json(world.message_payload(msg))

    async def typing(self, request: web.Request) -> web.Response:
        """POST /channels/{id}/typing."""
        self.world.channel(int(request.match_info["channel_id"]))
        return web.Response(status=204)

    def _message(self, request: web.Request) -> Any:
        info = request.match_info
        return self.world.channel_message(int(info["channel_id"]), int(info["message_id"]))

    async def get_message(self, request: web.Request) -> web.Response:
        """GET /channels/{id}/messages/{id}."""
        return _json(self.world.message_payload(self._message(request)))

    async def edit_message(self, request: web.Request) -> web.Response:
        """PATCH /channels/{id}/messages/{id}."""
        msg = self._message(request)
        if msg.author is not self.world.bot:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        payload, files = await read_body(request)
        self.world.check(f"edit of message {msg.id}", payload, files, creating=False)
        self.world.apply_edit(msg, payload, files)
        return _json(self.world.message_payload(msg))

    async def delete_message(self, request: web.Request) -> web.Response:
        """DELETE /channels/{id}/messages/{id}."""
        self.world.delete_message(self._message(request))
        return web.Response(status=204)

    async def attachment(self, request: web.Request) -> web.Response:
        """GET an attachment's bytes (the URL in attachment payloads)."""
        wanted = int(request.match_info["attachment_id"])
        for msg in self.world.messages.values():
            for att in msg.attachments:
                if att.id == wanted:
                    ctype = att.content_type or "application/octet-stream"
                    return web.Response(body=att.data, content_type=ctype)
        raise ApiError(404, 10008, "Unknown Attachment")

    # --- guilds ------------------------------------------------------------------------------

    async def get_guild(self, request: web.Request) -> web.Response:
        """GET /guilds/{id}."""
        guild = self.world.guild(int(request.match_info["guild_id"]))
        data = guild.payload(self.world.users)
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            data.pop(key)
        return _json(data)

    async def guild_channels(self, request: web.Request) -> web.Response:
        """GET /guilds/{id}/channels."""
        guild = self.world.guild(int(request.match_info["guild_id"]))
        return _json([c.payload() for c in guild.channels if c.type not in THREAD_TYPES])

    async def guild_roles(self, request: web.Request) -> web.Response:
        """GET /guilds/{id}/roles."""
        guild = self.world.guild(int(request.match_info["guild_id"]))
        return _json([r.payload() for r in guild.roles])

    async def get_member(self, request: web.Request) -> web.Response:
        """GET /guilds/{id}/members/{user_id}."""
        guild = self.world.guild(int(request.match_info["guild_id"]))
        user_id = int(request.match_info["user_id"])
        if user_id not in guild.members:
            raise ApiError(404, 10007, "Unknown Member")
        return _json(guild.member_payload(self.world.users[user_id]))

    # --- interactions and webhooks -----------------------------------------------------------

    async def callback(self, request: web.Request) -> web.Response:
        """POST /interactions/{id}/{token}/callback."""
        body, files = await read_body(request)
        info = request.match_info
        result = responses.interaction_callback(
            self.world, int(info["iid"]), info["token"], body, files
        )
        return _json(result)

    async def followup(self, request: web.Request) -> web.Response:
        """POST /webhooks/{app}/{token}."""
        payload, files = await read_body(request)
        info = request.match_info
        msg = responses.followup(self.world, int(info["app"]), info["token"], payload, files)
        if request.query.get("wait") in ("true", "1", "True"):
            return _json(self.world.message_payload(msg))
        return web.Response(status=204)

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        """GET /webhooks/{app}/{token}/messages/{id|@original}."""
        i = request.match_info
        msg = responses.webhook_message(self.world, int(i["app"]), i["token"], i["mid"])
        return _json(self.world.message_payload(msg))

    async def edit_webhook_message(self, request: web.Request) -> web.Response:
        """PATCH /webhooks/{app}/{token}/messages/{id|@original}."""
        payload, files = await read_body(request)
        i = request.match_info
        msg = responses.edit_webhook_message(
            self.world, int(i["app"]), i["token"], i["mid"], payload, files
        )
        return _json(self.world.message_payload(msg))

    async def delete_webhook_msg(self, request: web.Request) -> web.Response:
        """DELETE /webhooks/{app}/{token}/messages/{id|@original}."""
        i = request.match_info
        responses.delete_webhook_message(self.world, int(i["app"]), i["token"], i["mid"])
        return web.Response(status=204)
