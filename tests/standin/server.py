"""A local stand-in for the part of Discord's API v10 that Lairkeeper uses.

An aiohttp server on 127.0.0.1 serving REST under ``/api/v10`` and the gateway
websocket under ``/gateway``. The real, unmodified discord.py client talks to
it once ``discord.http.Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY``
point here (the bot does that when ``LAIRKEEPER_DISCORD_BASE`` is set).

Everything the bot sends is recorded (requests, messages with their
attachments' bytes, interaction responses), and tests act as users through
:class:`tests.standin.actors.Actor`. Payloads follow Discord's documented
shapes so discord.py parses them with its own code; where Discord would refuse
a request (a 2001-character message, a 26th autocomplete choice, a second
response to one interaction, an acknowledgement after 3 s, a webhook request with
an interaction token older than 15 minutes: 401, 50027 "Invalid Webhook Token") the
stand-in refuses it the same way and records the refusal in :attr:`StandIn.errors`.
:meth:`StandIn.advance` moves the clock those tokens age by.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import json
import logging
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

log = logging.getLogger("standin")

DISCORD_EPOCH_MS = 1420070400000
API = "/api/v10"

# Message flags
EPHEMERAL = 1 << 6
SUPPRESS_NOTIFICATIONS = 1 << 12
LOADING = 1 << 7

# Gateway intents that decide what is dispatched
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15

# Permissions
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
EVERYONE_PERMS = (
    (1 << 6)  # add reactions
    | (1 << 10)  # view channel
    | (1 << 11)  # send messages
    | (1 << 14)  # embed links
    | (1 << 15)  # attach files
    | (1 << 16)  # read message history
    | (1 << 31)  # use application commands
    | (1 << 35)  # create public threads
    | (1 << 38)  # send messages in threads
)
ALL_PERMS = (1 << 50) - 1
# Permissions a private place needs (developers/topics/permissions.mdx).
VIEW_CHANNEL = 1 << 10
MANAGE_THREADS = 1 << 34
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
TOKEN_SECONDS = 15 * 60  # an interaction token's life


class _Snowflakes:
    """Discord-shaped ids: time-based, strictly increasing."""

    def __init__(self) -> None:
        self._last = 0

    def __call__(self) -> int:
        now = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(now, self._last + 1)
        return self._last


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's routing rule for a guild's events."""
    return (guild_id >> 22) % shard_count


def now_iso() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


def user_payload(user_id: int, name: str, bot: bool = False) -> dict[str, Any]:
    return {
        "id": str(user_id),
        "username": name,
        "discriminator": "0",
        "global_name": name,
        "avatar": None,
        "bot": bot,
        "public_flags": 0,
        "flags": 0,
    }


class DiscordError(Exception):
    """A refusal answered as Discord does: status, JSON ``{code, message}``."""

    def __init__(self, status: int, code: int, message: str, errors: Any = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.errors is not None:
            out["errors"] = self.errors
        return out


def invalid(what: str) -> DiscordError:
    return DiscordError(400, 50035, "Invalid Form Body", {"_errors": [{"code": "INVALID", "message": what}]})


@dataclass
class Attachment:
    id: int
    filename: str
    content_type: str
    data: bytes
    description: str | None = None

    @property
    def is_png(self) -> bool:
        return self.data.startswith(PNG_MAGIC)


@dataclass
class Message:
    """A stored message, as the stand-in keeps it (with everything tests ask about)."""

    id: int
    channel_id: int
    guild_id: int | None
    author: dict[str, Any]
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    mentions: list[int] = field(default_factory=list)
    # what Discord would notify beyond users: @everyone/@here, and role mentions
    mention_everyone: bool = False
    mention_roles: list[int] = field(default_factory=list)
    # which interaction (and whose) this message answers, if any
    interaction_id: int | None = None
    interaction_user_id: int | None = None
    interaction_name: str | None = None
    interaction_type: int | None = None
    webhook_id: int | None = None
    thread_id: int | None = None  # a thread started from this message
    edited_at: str | None = None
    timestamp: str = field(default_factory=now_iso)
    deleted: bool = False
    history: list[dict[str, Any]] = field(default_factory=list)  # earlier versions (content/components)
    seq: int = 0  # order of creation across the whole stand-in
    # Who was notified when the message appeared (its mentions then): Discord pings on
    # creation, and on the first fill of a deferred "thinking" message, never on a later edit.
    pinged: list[int] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def text(self) -> str:
        """Content plus embed texts: everything a reader sees as text."""
        parts = [self.content]
        for e in self.embeds:
            parts += [str(e.get("title", "")), str(e.get("description", ""))]
            for f in e.get("fields", []):
                parts += [str(f.get("name", "")), str(f.get("value", ""))]
            if e.get("footer"):
                parts.append(str(e["footer"].get("text", "")))
        return "\n".join(p for p in parts if p)

    @property
    def pngs(self) -> list[bytes]:
        return [a.data for a in self.attachments if a.is_png]

    @property
    def items(self) -> list[dict[str, Any]]:
        """Every interactive component (buttons, selects), rows flattened."""
        out = []
        for row in self.components:
            out.extend(row.get("components", []) if row.get("type") == 1 else [row])
        return out

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.items if c.get("type") == 2]

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.items if "custom_id" in c]

    def find_item(self, custom_id: str | None = None, label: str | None = None) -> dict[str, Any]:
        for c in self.items:
            if custom_id is not None and c.get("custom_id") == custom_id:
                return c
            if label is not None and c.get("label") == label:
                return c
        raise LookupError(
            f"message {self.id} has no component {custom_id or label!r}; it has {self.custom_ids}"
        )

    def payload(self, standin: StandIn) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author,
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_at,
            "tts": False,
            "mention_everyone": self.mention_everyone,
            "mentions": [standin.users[u] for u in self.mentions if u in standin.users],
            "mention_roles": [str(r) for r in self.mention_roles],
            "attachments": [
                {
                    "id": str(a.id),
                    "filename": a.filename,
                    "size": len(a.data),
                    "url": f"{standin.base}/attachments/{self.channel_id}/{a.id}/{a.filename}",
                    "proxy_url": f"{standin.base}/attachments/{self.channel_id}/{a.id}/{a.filename}",
                    "content_type": a.content_type,
                    "description": a.description,
                }
                for a in self.attachments
            ],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(standin.app_id)
        if self.interaction_id is not None and self.interaction_user_id is not None:
            user = standin.users[self.interaction_user_id]
            data["interaction_metadata"] = {
                "id": str(self.interaction_id),
                "type": self.interaction_type or 2,
                "user": user,
                "authorizing_integration_owners": {"0": str(standin.guild_id)},
            }
            data["interaction"] = {
                "id": str(self.interaction_id),
                "type": self.interaction_type or 2,
                "name": self.interaction_name or "",
                "user": user,
            }
        if self.thread_id is not None and self.thread_id in standin.channels:
            data["thread"] = standin.channels[self.thread_id]
        return data

    def __repr__(self) -> str:
        where = "ephemeral" if self.ephemeral else f"channel {self.channel_id}"
        return f"<Message {self.id} {where} {self.content[:60]!r} files={len(self.attachments)} items={self.custom_ids}>"


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, str]
    body: Any
    files: list[tuple[str, int]]  # (filename, size)
    status: int = 0


@dataclass
class Interaction:
    """One interaction a test user started, and everything the bot answered to it."""

    standin: StandIn
    id: int
    token: str
    type: int  # 2 command, 3 component, 4 autocomplete, 5 modal submit
    user_id: int
    channel_id: int
    data: dict[str, Any]
    name: str = ""
    message: Message | None = None  # the component's message
    created: float = field(default_factory=time.monotonic)
    born: float = 0.0  # the stand-in's clock (StandIn.now) when created: the token's age
    response_type: int | None = None
    response_data: dict[str, Any] | None = None
    ack_seconds: float | None = None
    original: Message | None = None
    touched: list[Message] = field(default_factory=list)  # messages created or changed in answer, in order
    touched_at: list[float] = field(default_factory=list)  # when each of ``touched`` came (time.monotonic)
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None

    @property
    def responded(self) -> bool:
        return self.response_type is not None

    def touch(self, m: Message) -> None:
        self.touched.append(m)
        self.touched_at.append(time.monotonic())

    @property
    def answered_seconds(self) -> float | None:
        """Seconds from the click to the last message created or changed in answer so far."""
        return self.touched_at[-1] - self.created if self.touched_at else None

    @property
    def messages(self) -> list[Message]:
        seen: list[Message] = []
        for m in self.touched:
            if m not in seen:
                seen.append(m)
        return seen

    async def response(self, timeout: float = 10.0) -> int:
        """Wait for the bot's callback; returns its type."""
        await self.standin.wait_until(lambda: self.responded, timeout, f"a response to {self.name}")
        assert self.response_type is not None
        return self.response_type

    async def reply(self, timeout: float = 10.0) -> Message:
        """The first message the bot created or changed in answer (the filled-in
        deferral, the followup, the edited component message...)."""
        await self.standin.wait_until(lambda: bool(self.touched), timeout, f"a reply to {self.name}")
        return self.touched[0]

    async def replies(self, n: int, timeout: float = 10.0) -> list[Message]:
        await self.standin.wait_until(lambda: len(self.touched) >= n, timeout, f"{n} replies to {self.name}")
        return self.messages

    def __repr__(self) -> str:
        return f"<Interaction {self.name!r} by {self.user_id} response={self.response_type} touched={self.touched}>"


class Session:
    def __init__(self, session_id: str, intents: int, shard: tuple[int, int] | None = None) -> None:
        self.id = session_id
        self.intents = intents
        self.shard = shard  # (shard id, shard count) from IDENTIFY, None: not sharded
        self.seq = 0
        self.buffer: list[dict[str, Any]] = []  # every dispatch, for RESUME replays
        self.ws: web.WebSocketResponse | None = None


class StandIn:
    """The server and everything it stores. Start with ``await StandIn().start()``."""

    def __init__(self, *, ack_deadline: float = 3.0, bot_name: str = "Lairkeeper") -> None:
        self.snowflake = _Snowflakes()
        self.ack_deadline = ack_deadline
        self.app_id = self.snowflake()
        self.bot_id = self.app_id  # a bot user's id equals its application's id
        self.bot_name = bot_name
        self.token: str | None = None  # the token the bot identified with
        self.guild_id = self.snowflake()
        self.owner_id = self.snowflake()
        self.users: dict[int, dict[str, Any]] = {}
        self.member_perms: dict[int, int] = {}
        self.dms_closed: set[int] = set()
        # Permissions the bot lacks in every channel (``deny_bot``); thread members by thread.
        self.bot_denied = 0
        self.thread_members: dict[int, set[int]] = {}
        self.channels: dict[int, dict[str, Any]] = {}
        self.messages: dict[int, Message] = {}
        self.log: list[Message] = []  # every message ever stored, in order
        self.requests: list[Request] = []
        self.unknown: list[str] = []  # routes the stand-in does not serve
        self.errors: list[str] = []  # every request refused as Discord would refuse it
        self.commands: dict[int | None, list[dict[str, Any]]] = {}  # None: global; else guild id
        self.interactions: dict[int, Interaction] = {}
        self._by_token: dict[str, Interaction] = {}
        self.sessions: dict[str, Session] = {}
        self.session: Session | None = None  # the live one (with shards: shard 0's)
        # Sharding: the live session of each shard, Discord's routing rule, what
        # GET /gateway/bot answers, and when each shard identified (spacing checks).
        self.shard_sessions: dict[int, Session] = {}
        self.gateway_shards = 1
        self.max_concurrency = 1
        self.identify_log: list[tuple[float, int | None]] = []
        self.identifies = 0
        self.resumes = 0
        self._seq = itertools.count(1)
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0

        self.faults = Faults()  # fault injection: see the class
        # Interaction tokens live 15 minutes (then every webhook request with one is
        # refused 401, 50027 "Invalid Webhook Token"); ``advance`` moves this clock on.
        self.token_seconds = TOKEN_SECONDS
        self.skew = 0.0
        self.users[self.bot_id] = user_payload(self.bot_id, bot_name, bot=True)
        self.users[self.owner_id] = user_payload(self.owner_id, "owner")
        self.bot_role_id = self.snowflake()
        self.guild_ids = [self.guild_id]
        self.bot_role_ids = {self.guild_id: self.bot_role_id}
        self.channel_id = self._add_text_channel("general")
        self.general = {self.guild_id: self.channel_id}

    # ---- lifecycle ---------------------------------------------------------------------
    async def start(self) -> StandIn:
        app = web.Application(
            client_max_size=64 * 1024 * 1024, middlewares=[self.faults.middleware, self._middleware]
        )
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/attachments/{channel}/{id}/{name}", self._attachment)
        app.router.add_route("*", API + "/{tail:.*}", self._api)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        log.info("stand-in listening on %s", self.base)
        return self

    async def close(self) -> None:
        for s in self.sessions.values():
            if s.ws is not None and not s.ws.closed:
                await s.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # ---- the clock of interaction tokens ------------------------------------------------
    def now(self) -> float:
        return time.monotonic() + self.skew

    def advance(self, seconds: float) -> None:
        """Move the stand-in's clock on: every interaction token gets that much older
        (a player who comes back after a long break)."""
        self.skew += seconds

    # ---- waiting -----------------------------------------------------------------------
    def changed(self) -> None:
        ev, self._changed = self._changed, asyncio.Event()
        ev.set()

    async def wait_until(self, predicate: Callable[[], Any], timeout: float = 10.0, what: str = "") -> Any:
        """Wait until ``predicate()`` is truthy (checked after every change); returns it."""
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"stand-in: timed out after {timeout:g}s waiting for {what or predicate}")
            ev = self._changed
            try:
                await asyncio.wait_for(ev.wait(), left)
            except TimeoutError:
                pass

    def mark(self) -> int:
        """A point in the message log: pass it as ``after`` to see only newer messages."""
        return self.log[-1].seq if self.log else 0

    def find_messages(
        self, predicate: Callable[[Message], Any] | None = None, after: int = 0
    ) -> list[Message]:
        return [
            m for m in self.log if m.seq > after and not m.deleted and (predicate is None or predicate(m))
        ]

    async def wait_for_message(
        self, predicate: Callable[[Message], Any] | None = None, timeout: float = 10.0, after: int = 0
    ) -> Message:
        found = await self.wait_until(
            lambda: self.find_messages(predicate, after), timeout, "a matching message"
        )
        return found[0]  # type: ignore[no-any-return]

    async def wait_ready(self, timeout: float = 30.0, guild_id: int | None = None) -> None:
        """Until the bot session that gets ``guild_id``'s events (default: the live
        one) is connected and has been sent READY and GUILD_CREATE."""

        def ready() -> bool:
            s = self.session if guild_id is None else self.session_for(guild_id)
            return s is not None and s.ws is not None and not s.ws.closed

        await self.wait_until(ready, timeout, "the bot to connect to the gateway")

    async def wait_shards(self, shard_ids: list[int], timeout: float = 60.0) -> None:
        """Until every shard named has a connected session."""

        def ready() -> bool:
            return all(
                (s := self.shard_sessions.get(i)) is not None and s.ws is not None and not s.ws.closed
                for i in shard_ids
            )

        await self.wait_until(ready, timeout, f"shards {shard_ids} to connect")

    async def wait_disconnected(self, timeout: float = 10.0) -> None:
        await self.wait_until(
            lambda: self.session is None or self.session.ws is None or self.session.ws.closed,
            timeout,
            "the bot to disconnect",
        )

    # ---- the world -------------------------------------------------------------------------
    def _add_text_channel(self, name: str, guild_id: int | None = None) -> int:
        cid = self.snowflake()
        self.channels[cid] = {
            "id": str(cid),
            "type": 0,
            "guild_id": str(guild_id or self.guild_id),
            "name": name,
            "position": len(self.channels),
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        self.changed()
        return cid

    async def add_text_channel(self, name: str, guild_id: int | None = None) -> int:
        cid = self._add_text_channel(name, guild_id)
        await self.dispatch("CHANNEL_CREATE", self.channels[cid], INTENT_GUILDS)
        return cid

    def add_guild(self, shard: int = 0, shard_count: int = 1) -> tuple[int, int]:
        """Another server the bot is in, with an id on ``shard`` of ``shard_count``
        (Discord's rule: (guild_id >> 22) % shard_count). Returns (guild id, its
        general channel). Call before the bot connects: it is in READY."""
        while True:
            gid = self.snowflake()
            if shard_of(gid, shard_count) == shard:
                break
        self.guild_ids.append(gid)
        self.bot_role_ids[gid] = self.snowflake()
        self.general[gid] = self._add_text_channel("general", gid)
        return gid, self.general[gid]

    def guild_of(self, channel_id: int) -> int | None:
        c = self.channels.get(int(channel_id))
        return int(c["guild_id"]) if c is not None and c.get("guild_id") else None

    def session_for(self, guild_id: int | None) -> Session | None:
        """The live session that gets this guild's events: with shards, shard
        (guild_id >> 22) % shard_count; events without a guild go to shard 0."""
        if not self.shard_sessions:
            return self.session
        count = next(iter(self.shard_sessions.values())).shard[1]  # type: ignore[index]
        return self.shard_sessions.get(0 if guild_id is None else shard_of(guild_id, count))

    def add_user(
        self, user_id: int, name: str, *, manage_guild: bool = False, dms_closed: bool = False
    ) -> None:
        self.users[user_id] = user_payload(user_id, name)
        perms = EVERYONE_PERMS | (MANAGE_GUILD if manage_guild else 0)
        self.member_perms[user_id] = ALL_PERMS if user_id == self.owner_id else perms
        if dms_closed:
            self.dms_closed.add(user_id)

    def roles(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        gid = guild_id or self.guild_id

        def role(rid: int, name: str, perms: int, position: int, managed: bool) -> dict[str, Any]:
            return {
                "id": str(rid),
                "name": name,
                "color": 0,
                "hoist": False,
                "icon": None,
                "unicode_emoji": None,
                "position": position,
                "permissions": str(perms),
                "managed": managed,
                "mentionable": False,
                "flags": 0,
            }

        return [
            role(gid, "@everyone", EVERYONE_PERMS, 0, False),
            role(self.bot_role_ids[gid], self.bot_name, EVERYONE_PERMS | (1 << 34) | (1 << 13), 1, True),
        ]

    def member_payload(self, user_id: int, guild_id: int | None = None) -> dict[str, Any]:
        roles = [str(self.bot_role_ids[guild_id or self.guild_id])] if user_id == self.bot_id else []
        return {
            "user": self.users[user_id],
            "nick": None,
            "avatar": None,
            "roles": roles,
            "joined_at": now_iso(),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "permissions": str(self.member_perms.get(user_id, EVERYONE_PERMS)),
        }

    def guild_payload(self, guild_id: int | None = None) -> dict[str, Any]:
        gid = guild_id or self.guild_id
        mine = [c for c in self.channels.values() if c.get("guild_id") == str(gid)]
        guild_channels = [c for c in mine if c["type"] in (0, 2, 4, 5)]
        threads = [c for c in mine if c["type"] in (10, 11, 12) and not c["thread_metadata"]["archived"]]
        return {
            "id": str(gid),
            "name": "Stand-in Server",
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "roles": self.roles(gid),
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": str(self.general[gid]),
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": now_iso(),
            "large": False,
            "unavailable": False,
            "member_count": len([u for u in self.users.values() if not u["bot"]]) + 1,
            "voice_states": [],
            "members": [self.member_payload(self.bot_id, gid)],
            "channels": guild_channels,
            "threads": threads,
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def channel(self, channel_id: int) -> dict[str, Any]:
        try:
            return self.channels[int(channel_id)]
        except (KeyError, ValueError):
            raise DiscordError(404, 10003, "Unknown Channel") from None

    @property
    def threads(self) -> list[dict[str, Any]]:
        return [c for c in self.channels.values() if c["type"] in (10, 11, 12)]

    def channel_messages(self, channel_id: int) -> list[Message]:
        return [m for m in self.log if m.channel_id == channel_id and not m.deleted and not m.ephemeral]

    def dm_channel_of(self, user_id: int) -> int | None:
        for cid, c in self.channels.items():
            if c["type"] == 1 and int(c["recipients"][0]["id"]) == user_id:
                return cid
        return None

    def dms_to(self, user_id: int) -> list[Message]:
        cid = self.dm_channel_of(user_id)
        return [] if cid is None else self.channel_messages(cid)

    def notified(self, m: Message) -> set[int]:
        """Who a new message notifies (default settings): in a DM its recipient, every
        message; elsewhere whoever it pings. A message sent with SUPPRESS_NOTIFICATIONS
        ("will not trigger push and desktop notifications") notifies nobody."""
        if m.flags & SUPPRESS_NOTIFICATIONS:
            return set()
        c = self.channels.get(m.channel_id)
        if not m.ephemeral and c is not None and c["type"] == 1 and int(m.author["id"]) == self.bot_id:
            return {int(u["id"]) for u in c["recipients"]}
        return set(m.pinged)

    def in_place_of(self, m: Message, user_id: int) -> bool:
        """``m`` is the bot's, in ``user_id``'s DM channel or in a private thread only they
        (and moderators) were added to: the seat's lasting private place (issue 37)."""
        c = self.channels.get(m.channel_id)
        if m.ephemeral or c is None or int(m.author["id"]) != self.bot_id:
            return False
        if c["type"] == 1:
            return user_id in {int(u["id"]) for u in c["recipients"]}
        return c["type"] == 12 and self.thread_members.get(m.channel_id, set()) - {self.bot_id} == {user_id}

    def is_public(self, m: Message) -> bool:
        """Seen by everyone in the server: not ephemeral, not in a DM or a private thread."""
        c = self.channels.get(m.channel_id)
        return not m.ephemeral and (c is None or c["type"] not in (1, 12))

    def readers(self, m: Message) -> set[int] | None:
        """Who can read ``m`` (None: everyone in the server). An ephemeral message: its
        user; a DM: its recipient; a private thread: its members and whoever has
        Manage Threads ("You must be invited to the thread to be able to view or
        participate in it, or be a moderator (MANAGE_THREADS permission)", threads.mdx)."""
        c = self.channels.get(m.channel_id)
        if m.ephemeral:
            return {m.interaction_user_id} if m.interaction_user_id is not None else set()
        if c is not None and c["type"] == 1:
            return {int(u["id"]) for u in c["recipients"]}
        if c is not None and c["type"] == 12:
            mods = {u for u, p in self.member_perms.items() if p & (MANAGE_THREADS | ADMINISTRATOR)}
            return self.thread_members.get(m.channel_id, set()) | mods
        return None

    def remove_thread_member(self, thread_id: int, user_id: int) -> None:
        """A moderator removes ``user_id`` (the bot, say) from a thread (Remove Thread Member)."""
        self.thread_members.get(thread_id, set()).discard(user_id)

    def deny_bot(self, permissions: int) -> None:
        """The bot lacks these permissions everywhere (e.g. CREATE_PRIVATE_THREADS)."""
        self.bot_denied |= permissions

    def public_messages(self) -> list[Message]:
        return [m for m in self.log if not m.deleted and self.is_public(m)]

    def command(self, name: str, guild_id: int | None = None) -> dict[str, Any]:
        """A registered command by name (guild commands shadow global ones)."""
        for scope in ([guild_id] if guild_id else []) + [None]:
            for c in self.commands.get(scope, []):
                if c["name"] == name and c.get("type", 1) == 1:
                    return c
        names = sorted({c["name"] for cs in self.commands.values() for c in cs})
        raise LookupError(f"no slash command /{name} registered; registered: {names}")

    # ---- gateway ------------------------------------------------------------------------------
    async def dispatch(self, event: str, data: dict[str, Any], intent: int = 0) -> None:
        """Send a DISPATCH to the live session of the event's guild (buffered for
        RESUME), if its intents allow."""
        gid = data.get("id") if event.startswith("GUILD_") else data.get("guild_id")
        await self._send(self.session_for(int(gid) if gid else None), event, data, intent)

    async def _send(self, s: Session | None, event: str, data: dict[str, Any], intent: int = 0) -> None:
        if s is None:
            return
        if intent and not s.intents & intent:
            return
        s.seq += 1
        frame = {"op": 0, "t": event, "s": s.seq, "d": data}
        s.buffer.append(frame)
        if s.ws is not None and not s.ws.closed:
            try:
                await s.ws.send_str(json.dumps(frame))
            except ConnectionError:
                log.info("dispatch of %s lost: connection gone (kept for RESUME)", event)

    async def reconnect_request(self) -> None:
        """Op 7: ask the client to reconnect and RESUME."""
        s = self.session
        if s is not None and s.ws is not None and not s.ws.closed:
            await s.ws.send_str(json.dumps({"op": 7, "d": None}))

    async def drop_connection(self, code: int = 4000) -> None:
        """Close the socket as Discord does on an error; the client resumes."""
        s = self.session
        if s is not None and s.ws is not None and not s.ws.closed:
            await s.ws.close(code=code)

    async def invalidate_session(self) -> None:
        """Op 9 (not resumable): the client must IDENTIFY afresh."""
        s = self.session
        if s is not None and s.ws is not None and not s.ws.closed:
            self.sessions.pop(s.id, None)
            await s.ws.send_str(json.dumps({"op": 9, "d": False}))

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=16 * 1024 * 1024)
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}}))
        mine: Session | None = None
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op, d = frame.get("op"), frame.get("d")
                if op == 1:
                    await ws.send_str(json.dumps({"op": 11}))
                elif op == 2:
                    mine = await self._identify(ws, d)
                    if mine is None:
                        break
                elif op == 6:
                    mine = await self._resume(ws, d)
                elif op in (3, 4, 8):
                    log.debug("gateway op %s ignored", op)
                else:
                    log.warning("gateway: unknown op %s", op)
        finally:
            if mine is not None and mine.ws is ws:
                mine.ws = None
            self.changed()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> Session | None:
        token = str(d.get("token", "")).removeprefix("Bot ")
        if self.token is not None and token != self.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        shard = d.get("shard")
        if shard is not None and not (
            isinstance(shard, list) and len(shard) == 2 and 0 <= int(shard[0]) < int(shard[1])
        ):
            await ws.close(code=4010, message=b"Invalid shard.")
            return None
        sh = (int(shard[0]), int(shard[1])) if shard is not None else None
        if sh is not None and any(x.shard[1] != sh[1] for x in self.shard_sessions.values()):  # type: ignore[index]
            await ws.close(code=4011, message=b"Sharding required.")
            return None
        self.token = token
        self.identifies += 1
        self.identify_log.append((time.monotonic(), None if sh is None else sh[0]))
        s = Session(secrets.token_hex(16), int(d.get("intents", 0)), sh)
        self.sessions[s.id] = s
        if sh is None:
            old = self.session
            self.session = s
        else:
            old = self.shard_sessions.get(sh[0])
            self.shard_sessions[sh[0]] = s
            if sh[0] == 0:
                self.session = s
        s.ws = ws
        if old is not None and old.ws is not None and not old.ws.closed and old.ws is not ws:
            await old.ws.close(code=4009)
        guilds = [g for g in self.guild_ids if sh is None or shard_of(g, sh[1]) == sh[0]]
        ready = {
            "v": 10,
            "user": {**self.users[self.bot_id], "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
            "session_id": s.id,
            "session_type": "normal",
            "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway",
            "application": {"id": str(self.app_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
        }
        if sh is not None:
            ready["shard"] = list(sh)
        await self._send(s, "READY", ready)
        for g in guilds:
            await self._send(s, "GUILD_CREATE", self.guild_payload(g))
        self.changed()
        return s

    async def _resume(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> Session | None:
        s = self.sessions.get(str(d.get("session_id")))
        live = s is not None and (s is self.session or s in self.shard_sessions.values())
        if s is None or not live or str(d.get("token", "")).removeprefix("Bot ") != self.token:
            await ws.send_str(json.dumps({"op": 9, "d": False}))
            return None
        self.resumes += 1
        seq = int(d.get("seq") or 0)
        if s.ws is not None and s.ws is not ws and not s.ws.closed:
            await s.ws.close(code=4009)
        s.ws = ws
        for frame in s.buffer:
            if frame["s"] > seq:
                await ws.send_str(json.dumps(frame))
        s.seq += 1
        resumed = {"op": 0, "t": "RESUMED", "s": s.seq, "d": {}}
        s.buffer.append(resumed)
        await ws.send_str(json.dumps(resumed))
        self.changed()
        return s

    # ---- HTTP plumbing ------------------------------------------------------------------------
    @web.middleware
    async def _middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        try:
            resp = await handler(request)
        except DiscordError as exc:
            self.errors.append(
                f"{request.method} {request.path}: {exc.status} {exc.code} {exc.message} {exc.errors or ''}"
            )
            log.warning("refused %s %s: %s", request.method, request.path, exc)
            resp = self._json(exc.body(), exc.status)
        self.changed()
        return resp

    @staticmethod
    def _json(data: Any, status: int = 200) -> web.Response:
        # discord.py only parses JSON when the Content-Type is exactly application/json.
        if data is None:
            return web.Response(status=204)
        return web.Response(
            body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
        )

    async def _attachment(self, request: web.Request) -> web.Response:
        aid = int(request.match_info["id"])
        for m in self.log:
            for a in m.attachments:
                if a.id == aid:
                    return web.Response(body=a.data, headers={"Content-Type": a.content_type})
        return web.Response(status=404)

    async def _body(self, request: web.Request) -> tuple[Any, list[Attachment]]:
        """JSON body, or multipart with ``payload_json`` and ``files[n]``."""
        ctype = request.headers.get("Content-Type", "")
        if ctype.startswith("multipart/"):
            payload: dict[str, Any] = {}
            uploads: dict[int, tuple[str, bytes, str]] = {}
            form = await request.post()
            for name, value in form.items():
                if name == "payload_json":
                    payload = json.loads(value if isinstance(value, str) else value.file.read())
                elif m := re.fullmatch(r"files\[(\d+)\]", name):
                    if isinstance(value, str):
                        raise invalid(f"multipart field {name!r} is not a file")
                    uploads[int(m[1])] = (
                        value.filename or f"file{m[1]}",
                        value.file.read(),
                        value.content_type,
                    )
                else:
                    raise invalid(f"unexpected multipart field {name!r}")
            files = []
            meta = {int(a["id"]): a for a in payload.get("attachments", []) if str(a.get("id", "")).isdigit()}
            for idx, (fname, data, _ct) in sorted(uploads.items()):
                info = meta.get(idx, {})
                files.append(
                    Attachment(
                        id=self.snowflake(),
                        filename=info.get("filename", fname),
                        content_type=self._content_type(fname, data),
                        data=data,
                        description=info.get("description"),
                    )
                )
            return payload, files
        raw = await request.read()
        if not raw:
            return None, []
        return json.loads(raw), []

    @staticmethod
    def _content_type(filename: str, data: bytes) -> str:
        if data.startswith(PNG_MAGIC):
            return "image/png"
        if filename.endswith((".md", ".txt")):
            return "text/plain; charset=utf-8"
        return "application/octet-stream"

    async def _api(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        method = request.method
        body, files = await self._body(request)
        rec = Request(method, path, dict(request.query), body, [(f.filename, len(f.data)) for f in files])
        self.requests.append(rec)
        for pattern, verb, handler in self._routes:
            if verb != method:
                continue
            m = re.fullmatch(pattern, path)
            if m is None:
                continue
            if not path.startswith(("/interactions/", "/webhooks/")):
                self._check_auth(request)
            try:
                result = await handler(self, request, body, files, **m.groupdict())
            except DiscordError as exc:
                rec.status = exc.status
                raise
            rec.status = 200 if result is not None else 204
            return self._json(result)
        self.unknown.append(f"{method} {path}")
        log.warning("stand-in: no route for %s %s", method, path)
        rec.status = 404
        raise DiscordError(404, 0, f"404: Not Found (the stand-in does not serve {method} {path})")

    def _check_auth(self, request: web.Request) -> None:
        auth = request.headers.get("Authorization", "")
        token = auth.removeprefix("Bot ")
        if not auth.startswith("Bot ") or not token:
            raise DiscordError(401, 0, "401: Unauthorized")
        if self.token is None:
            self.token = token
        elif token != self.token:
            raise DiscordError(401, 0, "401: Unauthorized")

    # ---- message building -------------------------------------------------------------------------
    def _validate_message(self, body: dict[str, Any], files: list[Attachment]) -> None:
        content = body.get("content")
        if content is not None and len(str(content)) > 2000:
            raise invalid(f"content: must be 2000 or fewer in length (got {len(str(content))})")
        if len(body.get("embeds") or []) > 10:
            raise invalid("embeds: at most 10")
        if len(files) > 10:
            raise invalid("files: at most 10")
        if sum(len(f.data) for f in files) > 10 * 1024 * 1024:
            raise DiscordError(413, 40005, "Request entity too large")
        rows = body.get("components") or []
        if len(rows) > 5:
            raise invalid(f"components: at most 5 action rows (got {len(rows)})")
        seen: set[str] = set()
        for row in rows:
            if row.get("type") != 1:
                raise invalid("components: top level must be action rows")
            items = row.get("components") or []
            if not 1 <= len(items) <= 5:
                raise invalid(f"components: an action row holds 1-5 items (got {len(items)})")
            if any(i.get("type") != 2 for i in items) and len(items) != 1:
                raise invalid("components: a select menu fills its action row alone")
            for i in items:
                cid = i.get("custom_id")
                if i.get("type") == 2 and i.get("style") == 5:
                    if not i.get("url"):
                        raise invalid("components: a link button needs a url")
                elif not cid or len(cid) > 100:
                    raise invalid(f"components: custom_id must be 1-100 characters ({cid!r})")
                if cid in seen:
                    raise invalid(f"components: duplicate custom_id {cid!r}")
                if cid:
                    seen.add(cid)
                if i.get("type") == 2 and len(i.get("label") or "") > 80:
                    raise invalid(f"components: button label longer than 80 ({i.get('label')!r})")
                if i.get("type") == 3:
                    opts = i.get("options") or []
                    if not 1 <= len(opts) <= 25:
                        raise invalid(f"components: a select has 1-25 options (got {len(opts)})")
                    for o in opts:
                        if len(o.get("label", "")) > 100 or len(o.get("value", "")) > 100:
                            raise invalid("components: select option label/value longer than 100")
        if (
            content in (None, "")
            and not body.get("embeds")
            and not files
            and not rows
            and not body.get("attachments")
        ):
            raise DiscordError(400, 50006, "Cannot send an empty message")

    def _mentions(
        self, content: str, allowed: dict[str, Any] | None, reply_user: int | None = None
    ) -> list[int]:
        ids = [int(x) for x in re.findall(r"<@!?(\d+)>", content or "")]
        if allowed is not None:
            if "users" in (allowed.get("parse") or []):
                pass
            else:
                permitted = {int(u) for u in allowed.get("users") or []}
                ids = [i for i in ids if i in permitted]
        out: list[int] = []
        for i in ids:
            if i not in out:
                out.append(i)
        return out

    @staticmethod
    def _broad_mentions(content: str, allowed: dict[str, Any] | None) -> tuple[bool, list[int]]:
        """(pings @everyone/@here, the roles it pings), as Discord reads allowed_mentions:
        without it everything in the text pings; with it, only what ``parse`` or the
        ``roles`` list allow."""
        everyone = "@everyone" in (content or "") or "@here" in (content or "")
        roles = [int(x) for x in re.findall(r"<@&(\d+)>", content or "")]
        if allowed is not None:
            parse = allowed.get("parse") or []
            everyone = everyone and "everyone" in parse
            if "roles" not in parse:
                listed = {int(r) for r in allowed.get("roles") or []}
                roles = [r for r in roles if r in listed]
        return everyone, roles

    def _store(self, m: Message) -> Message:
        m.seq = next(self._seq)
        if not m.loading:
            m.pinged = list(m.mentions)
        self.messages[m.id] = m
        self.log.append(m)
        c = self.channels.get(m.channel_id)
        if c is not None and not m.ephemeral:
            c["last_message_id"] = str(m.id)
            if c["type"] in (10, 11, 12):
                c["message_count"] = c.get("message_count", 0) + 1
                c["total_message_sent"] = c.get("total_message_sent", 0) + 1
        self.changed()
        return m

    def _new_message(
        self,
        channel_id: int,
        body: dict[str, Any],
        files: list[Attachment],
        author_id: int,
        *,
        flags: int = 0,
        mtype: int = 0,
    ) -> Message:
        self._validate_message(body, files)
        c = self.channels.get(channel_id)
        guild_id = int(c["guild_id"]) if c is not None and c.get("guild_id") else None
        return Message(
            id=self.snowflake(),
            channel_id=channel_id,
            guild_id=guild_id,
            author=self.users[author_id],
            content=str(body.get("content") or ""),
            embeds=list(body.get("embeds") or []),
            components=list(body.get("components") or []),
            attachments=files,
            flags=flags | (int(body.get("flags") or 0) & ~LOADING),
            type=mtype,
            mentions=self._mentions(str(body.get("content") or ""), body.get("allowed_mentions")),
            mention_everyone=self._broad_mentions(
                str(body.get("content") or ""), body.get("allowed_mentions")
            )[0],
            mention_roles=self._broad_mentions(str(body.get("content") or ""), body.get("allowed_mentions"))[
                1
            ],
        )

    def _edit(self, m: Message, body: dict[str, Any], files: list[Attachment]) -> Message:
        if m.deleted:
            raise DiscordError(404, 10008, "Unknown Message")
        m.history.append(
            {"content": m.content, "components": m.components, "attachments": list(m.attachments)}
        )
        merged = {
            "content": body.get("content", m.content),
            "embeds": body.get("embeds", m.embeds),
            "components": body.get("components", m.components),
        }
        keep = m.attachments
        if "attachments" in body:
            kept_ids = {int(a["id"]) for a in body["attachments"] if int(a["id"]) > 10**6}
            keep = [a for a in m.attachments if a.id in kept_ids]
        self._validate_message({**merged, "attachments": keep}, keep + files)
        m.content = str(merged["content"] or "")
        m.embeds = list(merged["embeds"] or [])
        m.components = list(merged["components"] or [])
        m.attachments = keep + files
        if "content" in body:
            m.mentions = self._mentions(m.content, body.get("allowed_mentions"))
            m.mention_everyone, m.mention_roles = self._broad_mentions(
                m.content, body.get("allowed_mentions")
            )
        if m.loading:  # a deferred reply filled in: it appears (and pings) now
            m.pinged = list(m.mentions)
        m.flags &= ~LOADING
        m.edited_at = now_iso()
        self.changed()
        return m

    async def _dispatch_message(self, event: str, m: Message) -> None:
        if m.ephemeral:
            return
        c = self.channels.get(m.channel_id)
        dm = c is not None and c["type"] == 1
        intent = INTENT_DIRECT_MESSAGES if dm else INTENT_GUILD_MESSAGES
        s = self.session_for(m.guild_id)
        if s is None or not s.intents & intent:
            return
        data = m.payload(self)
        sees_content = (
            s.intents & INTENT_MESSAGE_CONTENT
            or dm
            or int(m.author["id"]) == self.bot_id
            or self.bot_id in m.mentions
        )
        if not sees_content:
            data.update(content="", embeds=[], attachments=[], components=[])
        if m.guild_id is not None and int(m.author["id"]) in self.users:
            data["member"] = {
                k: v for k, v in self.member_payload(int(m.author["id"]), m.guild_id).items() if k != "user"
            }
        await self.dispatch(event, data, intent)

    async def post_message(
        self, channel_id: int, body: dict[str, Any], files: list[Attachment], author_id: int
    ) -> Message:
        c = self.channel(channel_id)
        if c["type"] == 1:
            recipient = int(c["recipients"][0]["id"])
            if author_id == self.bot_id and recipient in self.dms_closed:
                raise DiscordError(403, 50007, "Cannot send messages to this user")
        if c["type"] in (10, 11, 12):
            meta = c["thread_metadata"]
            if author_id == self.bot_id and self.bot_denied & SEND_MESSAGES_IN_THREADS:
                raise DiscordError(403, 50013, "Missing Permissions")
            if (
                c["type"] == 12
                and author_id == self.bot_id
                and self.bot_denied & MANAGE_THREADS
                and author_id not in self.thread_members.get(channel_id, set())
            ):  # a private thread is seen only by its members and moderators ("You must be
                # invited to the thread ... or be a moderator (MANAGE_THREADS)", threads.mdx)
                raise DiscordError(403, 50001, "Missing Access")
            if meta["locked"]:
                raise DiscordError(403, 50083, "Thread is archived")
            if meta["archived"]:  # a new message unarchives an unlocked thread
                meta["archived"] = False
                await self.dispatch("THREAD_UPDATE", c, INTENT_GUILDS)
        m = self._store(self._new_message(channel_id, body, files, author_id))
        await self._dispatch_message("MESSAGE_CREATE", m)
        return m

    # ---- threads ------------------------------------------------------------------------------------
    async def _create_thread(
        self, parent_id: int, thread_id: int, name: str, ttype: int, archive: int, owner: int
    ) -> dict[str, Any]:
        parent = self.channel(parent_id)
        if self.bot_denied & VIEW_CHANNEL:
            raise DiscordError(403, 50001, "Missing Access")
        if parent["type"] not in (0, 5) or (ttype == 12 and parent["type"] != 0):
            # private threads only in GUILD_TEXT channels (threads.mdx)
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        if ttype == 12 and self.bot_denied & CREATE_PRIVATE_THREADS:
            raise DiscordError(403, 50013, "Missing Permissions")
        if not name or len(name) > 100:
            raise invalid("name: must be 1-100 characters")
        if archive not in (60, 1440, 4320, 10080):
            raise invalid(f"auto_archive_duration: must be one of 60, 1440, 4320, 10080 (got {archive})")
        thread = {
            "id": str(thread_id),
            "type": ttype,
            "guild_id": parent["guild_id"],
            "parent_id": str(parent_id),
            "owner_id": str(owner),
            "name": name,
            "last_message_id": None,
            "message_count": 0,
            "member_count": 1,
            "total_message_sent": 0,
            "rate_limit_per_user": 0,
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": archive,
                "archive_timestamp": now_iso(),
                "locked": False,
                "create_timestamp": now_iso(),
            },
            "member": {"id": str(thread_id), "user_id": str(owner), "join_timestamp": now_iso(), "flags": 0},
        }
        self.channels[thread_id] = thread
        self.thread_members[thread_id] = {owner}
        await self.dispatch("THREAD_CREATE", {**thread, "newly_created": True}, INTENT_GUILDS)
        self.changed()
        return thread

    # ---- route handlers --------------------------------------------------------------------------
    async def _r_gateway(self, req: web.Request, body: Any, files: Any) -> Any:
        return {"url": f"ws://127.0.0.1:{self.port}/gateway"}

    async def _r_gateway_bot(self, req: web.Request, body: Any, files: Any) -> Any:
        return {
            "url": f"ws://127.0.0.1:{self.port}/gateway",
            "shards": self.gateway_shards,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 0,
                "max_concurrency": self.max_concurrency,
            },
        }

    async def _r_me(self, req: web.Request, body: Any, files: Any) -> Any:
        return {
            **self.users[self.bot_id],
            "verified": True,
            "mfa_enabled": False,
            "locale": "en-US",
            "email": None,
        }

    async def _r_user(self, req: web.Request, body: Any, files: Any, user_id: str) -> Any:
        try:
            return self.users[int(user_id)]
        except KeyError:
            raise DiscordError(404, 10013, "Unknown User") from None

    async def _r_app(self, req: web.Request, body: Any, files: Any) -> Any:
        return {
            "id": str(self.app_id),
            "name": self.bot_name,
            "icon": None,
            "description": "",
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "bot": self.users[self.bot_id],
            "owner": self.users[self.owner_id],
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "summary": "",
            "tags": [],
            "interactions_endpoint_url": None,
            "redirect_uris": [],
            "approximate_guild_count": 1,
        }

    def _scope(self, app_id: str, guild_id: str | None) -> int | None:
        if int(app_id) != self.app_id:
            raise DiscordError(404, 10002, "Unknown Application")
        if guild_id is not None and int(guild_id) not in self.guild_ids:
            raise DiscordError(403, 50001, "Missing Access")
        return None if guild_id is None else int(guild_id)

    def _check_command(self, c: dict[str, Any], depth: int = 0) -> None:
        name = c.get("name", "")
        if not re.fullmatch(r"[-_\w]{1,32}", name) or name != name.lower():
            raise invalid(f"command name {name!r} is not a valid lower-case name of 1-32 characters")
        if (depth > 0 or c.get("type", 1) == 1) and not 1 <= len(c.get("description", "")) <= 100:
            raise invalid(f"{name!r}: description must be 1-100 characters")
        opts = c.get("options") or []
        if len(opts) > 25:
            raise invalid(f"command {name!r}: at most 25 options (got {len(opts)})")
        required_done = False
        for o in opts:
            if o.get("type") in (1, 2):
                if depth >= 2 or (o["type"] == 2 and depth >= 1):
                    raise invalid(f"{name!r}: subcommands nest at most two levels")
                self._check_command(o, depth + 1)
                continue
            self._check_command(o, depth + 1)
            if o.get("required"):
                if required_done:
                    raise invalid(f"{name!r}: required options must come before optional ones")
            else:
                required_done = True
            if len(o.get("choices") or []) > 25:
                raise invalid(f"{name!r}: at most 25 choices")
            if o.get("choices") and o.get("autocomplete"):
                raise invalid(f"{name!r}: an option cannot have both choices and autocomplete")

    async def _r_put_commands(
        self, req: web.Request, body: Any, files: Any, app_id: str, guild_id: str | None = None
    ) -> Any:
        scope = self._scope(app_id, guild_id)
        if not isinstance(body, list):
            raise invalid("body must be a list of commands")
        if len([c for c in body if c.get("type", 1) == 1]) > 100:
            raise invalid("at most 100 slash commands")
        old = {(c["name"], c.get("type", 1)): c for c in self.commands.get(scope, [])}
        stored = []
        for c in body:
            self._check_command(c)
            prev = old.get((c["name"], c.get("type", 1)))
            stored.append(
                {
                    "id": prev["id"] if prev else str(self.snowflake()),
                    "application_id": str(self.app_id),
                    "version": str(self.snowflake()),
                    "type": 1,
                    "default_member_permissions": None,
                    "nsfw": False,
                    **({"guild_id": str(scope)} if scope else {}),
                    **c,
                }
            )
        self.commands[scope] = stored
        return stored

    async def _r_get_commands(
        self, req: web.Request, body: Any, files: Any, app_id: str, guild_id: str | None = None
    ) -> Any:
        return self.commands.get(self._scope(app_id, guild_id), [])

    async def _r_get_guild(self, req: web.Request, body: Any, files: Any, guild_id: str) -> Any:
        if int(guild_id) not in self.guild_ids:
            raise DiscordError(404, 10004, "Unknown Guild")
        g = self.guild_payload(int(guild_id))
        for k in ("channels", "threads", "members", "presences", "voice_states"):
            g.pop(k)
        return g

    async def _r_guild_channels(self, req: web.Request, body: Any, files: Any, guild_id: str) -> Any:
        return [
            c for c in self.channels.values() if c["type"] in (0, 2, 4, 5) and c.get("guild_id") == guild_id
        ]

    async def _r_guild_member(
        self, req: web.Request, body: Any, files: Any, guild_id: str, user_id: str
    ) -> Any:
        if int(user_id) not in self.users:
            raise DiscordError(404, 10007, "Unknown Member")
        return self.member_payload(int(user_id), int(guild_id))

    async def _r_active_threads(self, req: web.Request, body: Any, files: Any, guild_id: str) -> Any:
        return {"threads": [c for c in self.threads if not c["thread_metadata"]["archived"]], "members": []}

    async def _r_get_channel(self, req: web.Request, body: Any, files: Any, channel_id: str) -> Any:
        return self.channel(int(channel_id))

    async def _r_patch_channel(self, req: web.Request, body: Any, files: Any, channel_id: str) -> Any:
        c = self.channel(int(channel_id))
        for k in ("name", "topic", "rate_limit_per_user"):
            if k in body:
                c[k] = body[k]
        if "thread_metadata" in c:
            for k in ("archived", "locked", "auto_archive_duration"):
                if k in body:
                    c["thread_metadata"][k] = body[k]
            await self.dispatch("THREAD_UPDATE", c, INTENT_GUILDS)
        else:
            await self.dispatch("CHANNEL_UPDATE", c, INTENT_GUILDS)
        return c

    async def _r_post_message(
        self, req: web.Request, body: Any, files: list[Attachment], channel_id: str
    ) -> Any:
        body = body or {}
        if body.get("flags", 0) & EPHEMERAL:
            raise invalid("flags: only interaction responses can be ephemeral")
        again = self.faults.same_nonce(self, int(channel_id), body)
        if again is not None:  # Discord answers a repeated enforced nonce with the first message
            return again.payload(self)
        m = await self.post_message(int(channel_id), body, files, self.bot_id)
        self.faults.remember_nonce(m, body)
        return m.payload(self)

    def _message_in(self, channel_id: str, message_id: str) -> Message:
        self.channel(int(channel_id))
        m = self.messages.get(int(message_id))
        if m is None or m.channel_id != int(channel_id) or m.deleted or m.ephemeral:
            raise DiscordError(404, 10008, "Unknown Message")
        return m

    async def _r_get_messages(self, req: web.Request, body: Any, files: Any, channel_id: str) -> Any:
        limit = int(req.query.get("limit", 50))
        msgs = self.channel_messages(int(channel_id))
        before = req.query.get("before")
        after = req.query.get("after")
        if before:
            msgs = [m for m in msgs if m.id < int(before)]
        if after:
            msgs = [m for m in msgs if m.id > int(after)]
            msgs = msgs[:limit]
        else:
            msgs = msgs[-limit:]
        return [m.payload(self) for m in reversed(msgs)]

    async def _r_get_message(
        self, req: web.Request, body: Any, files: Any, channel_id: str, message_id: str
    ) -> Any:
        return self._message_in(channel_id, message_id).payload(self)

    async def _r_patch_message(
        self, req: web.Request, body: Any, files: list[Attachment], channel_id: str, message_id: str
    ) -> Any:
        m = self._message_in(channel_id, message_id)
        if int(m.author["id"]) != self.bot_id:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        self._edit(m, body or {}, files)
        await self._dispatch_message("MESSAGE_UPDATE", m)
        return m.payload(self)

    async def _r_delete_message(
        self, req: web.Request, body: Any, files: Any, channel_id: str, message_id: str
    ) -> Any:
        m = self._message_in(channel_id, message_id)
        m.deleted = True
        await self.dispatch(
            "MESSAGE_DELETE",
            {"id": str(m.id), "channel_id": channel_id, "guild_id": str(self.guild_of(int(channel_id)))},
            INTENT_GUILD_MESSAGES,
        )
        return None

    async def _r_thread_from_message(
        self, req: web.Request, body: Any, files: Any, channel_id: str, message_id: str
    ) -> Any:
        m = self._message_in(channel_id, message_id)
        if m.thread_id is not None:
            raise DiscordError(400, 160004, "A thread has already been created for this message")
        body = body or {}
        thread = await self._create_thread(
            int(channel_id),
            m.id,
            str(body.get("name", "")),
            11,
            int(body.get("auto_archive_duration", 4320)),
            self.bot_id,
        )
        m.thread_id = m.id
        return thread

    async def _r_thread(self, req: web.Request, body: Any, files: Any, channel_id: str) -> Any:
        body = body or {}
        return await self._create_thread(
            int(channel_id),
            self.snowflake(),
            str(body.get("name", "")),
            int(body.get("type", 12)),
            int(body.get("auto_archive_duration", 4320)),
            self.bot_id,
        )

    async def _r_join_thread(self, req: web.Request, body: Any, files: Any, channel_id: str) -> Any:
        self.channel(int(channel_id))
        self.thread_members.setdefault(int(channel_id), set()).add(self.bot_id)
        return None

    async def _r_add_thread_member(
        self, req: web.Request, body: Any, files: Any, channel_id: str, user_id: str
    ) -> Any:
        """Add Thread Member: "Requires the ability to send messages in the thread. Also
        requires the thread is not archived" (channel.mdx); 10013 for an unknown user."""
        c = self.channel(int(channel_id))
        if c["type"] not in (10, 11, 12):
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        if c["thread_metadata"]["archived"]:
            raise DiscordError(400, 50083, "Thread is archived")
        if self.bot_denied & SEND_MESSAGES_IN_THREADS:
            raise DiscordError(403, 50013, "Missing Permissions")
        if int(user_id) not in self.users:
            raise DiscordError(404, 10013, "Unknown User")
        self.thread_members.setdefault(int(channel_id), set()).add(int(user_id))
        c["member_count"] = len(self.thread_members[int(channel_id)])
        self.changed()
        return None

    async def _r_typing(self, req: web.Request, body: Any, files: Any, channel_id: str) -> Any:
        self.channel(int(channel_id))
        return None

    async def _r_open_dm(self, req: web.Request, body: Any, files: Any) -> Any:
        uid = int((body or {}).get("recipient_id", 0))
        if uid not in self.users or self.users[uid]["bot"]:
            raise DiscordError(400, 50033, "Invalid Recipient(s)")
        cid = self.dm_channel_of(uid)
        if cid is None:
            cid = self.snowflake()
            self.channels[cid] = {
                "id": str(cid),
                "type": 1,
                "last_message_id": None,
                "recipients": [self.users[uid]],
                "flags": 0,
            }
        return self.channels[cid]

    # interactions ------------------------------------------------------------------------------
    def _interaction(self, iid: str, token: str) -> Interaction:
        inter = self.interactions.get(int(iid))
        if inter is None or inter.token != token:
            raise DiscordError(404, 10062, "Unknown interaction")
        return inter

    def _by_webhook(self, app_id: str, token: str) -> Interaction:
        inter = self._by_token.get(token)
        if int(app_id) != self.app_id or inter is None or not inter.responded:
            raise DiscordError(404, 10015, "Unknown Webhook")
        if self.now() - inter.born > self.token_seconds:
            # What Discord answers once a token's 15 minutes are over, for every
            # request with it: followups, and getting, editing or deleting a message.
            raise DiscordError(401, 50027, "Invalid Webhook Token")
        return inter

    def _answer(
        self, inter: Interaction, body: dict[str, Any], files: list[Attachment], flags: int, mtype: int
    ) -> Message:
        m = self._new_message(inter.channel_id, body, files, self.bot_id, flags=flags, mtype=mtype)
        m.webhook_id = self.app_id
        m.interaction_id = inter.id
        m.interaction_user_id = inter.user_id
        m.interaction_name = inter.name
        m.interaction_type = inter.type
        return m

    async def _r_callback(
        self, req: web.Request, body: Any, files: list[Attachment], iid: str, token: str
    ) -> Any:
        inter = self._interaction(iid, token)
        if inter.responded:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        elapsed = time.monotonic() - inter.created
        if elapsed > self.ack_deadline:
            raise DiscordError(404, 10062, f"Unknown interaction (acknowledged after {elapsed:.2f}s)")
        rtype = int(body["type"])
        data = body.get("data") or {}
        allowed = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}[inter.type]
        if rtype not in allowed:
            raise DiscordError(
                400,
                40043,
                f"Interaction response type {rtype} is not valid for interaction type {inter.type}",
            )
        mtype = 20 if inter.type == 2 else 0
        resource: dict[str, Any] | None = None
        msg: Message | None = None
        if rtype == 4:
            msg = self._store(self._answer(inter, data, files, 0, mtype))
            inter.touch(msg)
            await self._dispatch_message("MESSAGE_CREATE", msg)
        elif rtype == 5:
            flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
            msg = Message(
                id=self.snowflake(),
                channel_id=inter.channel_id,
                guild_id=self.guild_of(inter.channel_id),
                author=self.users[self.bot_id],
                flags=flags,
                type=mtype,
                webhook_id=self.app_id,
                interaction_id=inter.id,
                interaction_user_id=inter.user_id,
                interaction_name=inter.name,
                interaction_type=inter.type,
            )
            self._store(msg)
        elif rtype in (6, 7):
            assert inter.message is not None
            msg = inter.message
            if rtype == 7:
                self._edit(msg, data, files)
                inter.touch(msg)
                await self._dispatch_message("MESSAGE_UPDATE", msg)
        elif rtype == 8:
            choices = data.get("choices")
            if not isinstance(choices, list) or len(choices) > 25:
                raise invalid(
                    f"choices: at most 25 (got {len(choices) if isinstance(choices, list) else choices})"
                )
            for c in choices:
                if not 1 <= len(str(c.get("name", ""))) <= 100 or len(str(c.get("value", ""))) > 100:
                    raise invalid(f"choices: name must be 1-100 and value at most 100 characters ({c!r})")
            inter.choices = choices
        elif rtype == 9:
            if not data.get("custom_id") or not data.get("title") or not data.get("components"):
                raise invalid("a modal needs custom_id, title and components")
            inter.modal = data
        inter.response_type = rtype
        inter.response_data = data
        inter.ack_seconds = elapsed
        inter.original = msg
        if msg is not None and rtype in (4, 5, 7):
            resource = {"type": rtype, "message": msg.payload(self)}
        self.changed()
        out: dict[str, Any] = {
            "interaction": {
                "id": str(inter.id),
                "type": inter.type,
                "response_message_id": str(msg.id) if msg is not None else None,
                "response_message_loading": rtype == 5,
                "response_message_ephemeral": bool(msg is not None and msg.ephemeral),
            }
        }
        if resource is not None:
            out["resource"] = resource
        return out

    async def _r_followup(
        self, req: web.Request, body: Any, files: list[Attachment], app_id: str, token: str
    ) -> Any:
        inter = self._by_webhook(app_id, token)
        body = body or {}
        o = inter.original
        if inter.response_type == 5 and o is not None and o.loading:
            # The first followup after a deferral fills the "thinking" message, and it
            # keeps the deferral's visibility: the followup's own ephemeral flag is ignored.
            self._edit(o, {**body, "attachments": []}, files)
            inter.touch(o)
            await self._dispatch_message("MESSAGE_CREATE", o)
            return o.payload(self)
        m = self._store(self._answer(inter, body, files, 0, 0))
        inter.touch(m)
        await self._dispatch_message("MESSAGE_CREATE", m)
        return m.payload(self)

    def _webhook_message(self, inter: Interaction, message_id: str) -> Message:
        if message_id == "@original":
            if inter.original is None:
                raise DiscordError(404, 10008, "Unknown Message")
            return inter.original
        m = self.messages.get(int(message_id))
        if m is None or m.deleted or (m.interaction_id != inter.id and m is not inter.original):
            raise DiscordError(404, 10008, "Unknown Message")
        return m

    async def _r_webhook_get(
        self, req: web.Request, body: Any, files: Any, app_id: str, token: str, message_id: str
    ) -> Any:
        return self._webhook_message(self._by_webhook(app_id, token), message_id).payload(self)

    async def _r_webhook_patch(
        self, req: web.Request, body: Any, files: list[Attachment], app_id: str, token: str, message_id: str
    ) -> Any:
        inter = self._by_webhook(app_id, token)
        m = self._webhook_message(inter, message_id)
        was_loading = m.loading
        self._edit(m, body or {}, files)
        inter.touch(m)
        await self._dispatch_message("MESSAGE_CREATE" if was_loading else "MESSAGE_UPDATE", m)
        return m.payload(self)

    async def _r_webhook_delete(
        self, req: web.Request, body: Any, files: Any, app_id: str, token: str, message_id: str
    ) -> Any:
        m = self._webhook_message(self._by_webhook(app_id, token), message_id)
        m.deleted = True
        return None

    _routes: list[tuple[str, str, Any]] = [
        (r"/gateway", "GET", _r_gateway),
        (r"/gateway/bot", "GET", _r_gateway_bot),
        (r"/users/@me", "GET", _r_me),
        (r"/users/@me/channels", "POST", _r_open_dm),
        (r"/users/(?P<user_id>\d+)", "GET", _r_user),
        (r"/oauth2/applications/@me", "GET", _r_app),
        (r"/applications/@me", "GET", _r_app),
        (r"/applications/(?P<app_id>\d+)/commands", "PUT", _r_put_commands),
        (r"/applications/(?P<app_id>\d+)/commands", "GET", _r_get_commands),
        (r"/applications/(?P<app_id>\d+)/guilds/(?P<guild_id>\d+)/commands", "PUT", _r_put_commands),
        (r"/applications/(?P<app_id>\d+)/guilds/(?P<guild_id>\d+)/commands", "GET", _r_get_commands),
        (r"/guilds/(?P<guild_id>\d+)", "GET", _r_get_guild),
        (r"/guilds/(?P<guild_id>\d+)/channels", "GET", _r_guild_channels),
        (r"/guilds/(?P<guild_id>\d+)/members/(?P<user_id>\d+)", "GET", _r_guild_member),
        (r"/guilds/(?P<guild_id>\d+)/threads/active", "GET", _r_active_threads),
        (r"/channels/(?P<channel_id>\d+)", "GET", _r_get_channel),
        (r"/channels/(?P<channel_id>\d+)", "PATCH", _r_patch_channel),
        (r"/channels/(?P<channel_id>\d+)/messages", "POST", _r_post_message),
        (r"/channels/(?P<channel_id>\d+)/messages", "GET", _r_get_messages),
        (r"/channels/(?P<channel_id>\d+)/messages/(?P<message_id>\d+)", "GET", _r_get_message),
        (r"/channels/(?P<channel_id>\d+)/messages/(?P<message_id>\d+)", "PATCH", _r_patch_message),
        (r"/channels/(?P<channel_id>\d+)/messages/(?P<message_id>\d+)", "DELETE", _r_delete_message),
        (
            r"/channels/(?P<channel_id>\d+)/messages/(?P<message_id>\d+)/threads",
            "POST",
            _r_thread_from_message,
        ),
        (r"/channels/(?P<channel_id>\d+)/threads", "POST", _r_thread),
        (r"/channels/(?P<channel_id>\d+)/thread-members/@me", "PUT", _r_join_thread),
        (r"/channels/(?P<channel_id>\d+)/thread-members/(?P<user_id>\d+)", "PUT", _r_add_thread_member),
        (r"/channels/(?P<channel_id>\d+)/typing", "POST", _r_typing),
        (r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback", "POST", _r_callback),
        (r"/webhooks/(?P<app_id>\d+)/(?P<token>[^/]+)", "POST", _r_followup),
        (
            r"/webhooks/(?P<app_id>\d+)/(?P<token>[^/]+)/messages/(?P<message_id>@original|\d+)",
            "GET",
            _r_webhook_get,
        ),
        (
            r"/webhooks/(?P<app_id>\d+)/(?P<token>[^/]+)/messages/(?P<message_id>@original|\d+)",
            "PATCH",
            _r_webhook_patch,
        ),
        (
            r"/webhooks/(?P<app_id>\d+)/(?P<token>[^/]+)/messages/(?P<message_id>@original|\d+)",
            "DELETE",
            _r_webhook_delete,
        ),
    ]

    # ---- acting as users ------------------------------------------------------------------------------
    def interaction_payload(self, inter: Interaction) -> dict[str, Any]:
        c = self.channel(inter.channel_id)
        payload: dict[str, Any] = {
            "id": str(inter.id),
            "application_id": str(self.app_id),
            "type": inter.type,
            "token": inter.token,
            "version": 1,
            "channel_id": str(inter.channel_id),
            "channel": c,
            "locale": "en-US",
            "app_permissions": str(ALL_PERMS),
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "data": inter.data,
        }
        if c["type"] == 1:
            payload["user"] = self.users[inter.user_id]
            payload["context"] = 1
            payload["authorizing_integration_owners"] = {"0": str(self.guild_id)}
        else:
            gid = int(c["guild_id"])
            payload["guild_id"] = str(gid)
            payload["guild"] = {"id": str(gid), "locale": "en-US", "features": []}
            payload["guild_locale"] = "en-US"
            payload["member"] = self.member_payload(inter.user_id, gid)
            payload["context"] = 0
            payload["authorizing_integration_owners"] = {"0": str(gid)}
        if inter.message is not None:
            payload["message"] = inter.message.payload(self)
        return payload

    async def interact(
        self,
        user_id: int,
        itype: int,
        channel_id: int,
        data: dict[str, Any],
        name: str,
        message: Message | None = None,
    ) -> Interaction:
        if user_id not in self.users:
            raise LookupError(f"unknown user {user_id}; create it with standin.user(...)")
        self.channel(channel_id)
        await self.wait_ready(guild_id=self.guild_of(channel_id))
        inter = Interaction(
            standin=self,
            id=self.snowflake(),
            token="aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48),
            type=itype,
            user_id=user_id,
            channel_id=channel_id,
            data=data,
            name=name,
            message=message,
            born=self.now(),
        )
        self.interactions[inter.id] = inter
        self._by_token[inter.token] = inter
        await self.dispatch("INTERACTION_CREATE", self.interaction_payload(inter))
        return inter

    def user(self, user_id: int, name: str, **kw: Any) -> Any:
        from tests.standin.actors import Actor

        if user_id not in self.users:
            self.add_user(user_id, name, **kw)
        return Actor(self, user_id, name)


# ---- fault injection (issue 22): a gateway that goes away, REST 5xx/429, a stalled server ----


@dataclass
class Fault:
    method: str
    path: re.Pattern[str]
    status: int
    times: int
    retry_after: float = 0.0
    hits: int = 0


@dataclass
class Hold:
    """A request held on its way in (issue 39): ``reached`` is set when it arrives,
    and it goes on to its handler once ``release`` is set."""

    method: str
    path: re.Pattern[str]
    reached: asyncio.Event = field(default_factory=asyncio.Event)
    release: asyncio.Event = field(default_factory=asyncio.Event)
    used: bool = False


class Faults:
    """What can go wrong with Discord, on demand. Self-contained: the stand-in calls
    :meth:`middleware` before its own handlers and the nonce helpers when a message
    is posted.

    - :meth:`fail`: the next ``times`` requests matching a method and a path regex
      are answered with ``status`` (5xx as Discord's outages do; 429 with
      ``retry_after`` and the rate-limit headers discord.py reads).
    - ``gateway_down``: the gateway refuses connections (503) until cleared; with
      :meth:`StandIn.drop_connection` that is an outage of the gateway.
    - enforce_nonce: a message posted again with the same nonce in the same channel
      (Discord keeps them a few minutes) returns the first message, creating nothing.
    - :func:`stalled_server`: a socket that accepts and never answers."""

    def __init__(self) -> None:
        self.rules: list[Fault] = []
        self.holds: list[Hold] = []
        self.gateway_down = False
        self.answered: list[tuple[str, str, int]] = []  # (method, path, status) of each injected fault
        self._nonces: dict[tuple[int, str], Message] = {}

    def fail(self, method: str, path: str, status: int, times: int = 1, retry_after: float = 0.0) -> Fault:
        rule = Fault(method.upper(), re.compile(path), status, times, retry_after)
        self.rules.append(rule)
        return rule

    def hold(self, method: str, path: str) -> Hold:
        """Hold the next request matching ``method`` and the ``path`` regex until
        ``release`` is set (e.g. to stall the bot's database meanwhile)."""
        held = Hold(method.upper(), re.compile(path))
        self.holds.append(held)
        return held

    def clear(self) -> None:
        self.rules.clear()
        for held in self.holds:
            held.release.set()
        self.holds.clear()
        self.gateway_down = False

    @web.middleware
    async def middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        if request.path == "/gateway" and self.gateway_down:
            self.answered.append((request.method, request.path, 503))
            return web.Response(status=503, text="gateway unavailable")
        path = request.path.removeprefix(API)
        for held in self.holds:
            if not held.used and held.method == request.method and held.path.fullmatch(path):
                held.used = True
                held.reached.set()
                await held.release.wait()
        for rule in self.rules:
            if rule.hits < rule.times and rule.method == request.method and rule.path.fullmatch(path):
                rule.hits += 1
                self.answered.append((request.method, path, rule.status))
                await request.read()
                if rule.status == 429:
                    body = {
                        "message": "You are being rate limited.",
                        "retry_after": rule.retry_after,
                        "global": False,
                    }
                    headers = {
                        "Content-Type": "application/json",
                        "Via": "1.1 google",  # discord.py takes a 429 without it for a Cloudflare ban
                        "Retry-After": str(rule.retry_after),
                        "X-RateLimit-Limit": "5",
                        "X-RateLimit-Remaining": "0",
                        "X-RateLimit-Reset-After": str(rule.retry_after),
                        "X-RateLimit-Bucket": "standin-fault",
                        "X-RateLimit-Scope": "user",
                    }
                    return web.Response(status=429, body=json.dumps(body).encode(), headers=headers)
                return web.Response(status=rule.status, text=f"{rule.status}: injected fault")
        return await handler(request)  # type: ignore[no-any-return]

    def same_nonce(self, standin: StandIn, channel_id: int, body: dict[str, Any]) -> Message | None:
        nonce = body.get("nonce")
        if nonce is None or not body.get("enforce_nonce"):
            return None
        m = self._nonces.get((channel_id, str(nonce)))
        return m if m is not None and not m.deleted else None

    def remember_nonce(self, m: Message, body: dict[str, Any]) -> None:
        if body.get("nonce") is not None and body.get("enforce_nonce"):
            self._nonces[(m.channel_id, str(body["nonce"]))] = m


async def stalled_server() -> tuple[asyncio.AbstractServer, int, list[asyncio.StreamWriter]]:
    """A TCP server on 127.0.0.1 that accepts every connection and never answers:
    (server, port, the open connections). Close the server and the writers after."""
    held: list[asyncio.StreamWriter] = []

    async def hold(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        held.append(writer)  # kept open, never written to

    server = await asyncio.start_server(hold, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    return server, port, held
