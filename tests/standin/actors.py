"""The test-facing side of the stand-in: act as a Discord user.

    alice = standin.user(101, "alice")
    r = await alice.slash("game new", game="monster-inn")      # -> Interaction
    lobby = await r.reply()                                     # -> Message
    await alice.click(lobby, label="Join")
    choices = await alice.autocomplete("play", "move", "", channel=thread_id)

What a user could not do in the Discord client raises here (an option the
command does not have, a missing required option, a value outside the choices,
a button that is disabled or not on the message, someone else's ephemeral
message), so a test cannot pass by doing the impossible.
"""

from __future__ import annotations

from typing import Any

from tests.standin.server import Interaction, Message, StandIn

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11


class Actor:
    def __init__(self, standin: StandIn, user_id: int, name: str) -> None:
        self.standin = standin
        self.id = user_id
        self.name = name

    def __repr__(self) -> str:
        return f"<Actor {self.name} {self.id}>"

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    # ---- slash commands and autocomplete ------------------------------------------------------
    def _build(
        self, command: str, options: dict[str, Any], focused: tuple[str, str] | None
    ) -> tuple[dict[str, Any], str]:
        parts = command.strip().lstrip("/").split()
        cmd = self.standin.command(parts[0], self.standin.guild_id)
        node: dict[str, Any] = cmd
        chain: list[dict[str, Any]] = []
        for part in parts[1:]:
            sub = next(
                (
                    o
                    for o in node.get("options") or []
                    if o["name"] == part and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)
                ),
                None,
            )
            if sub is None:
                subs = [o["name"] for o in node.get("options") or [] if o["type"] in (1, 2)]
                raise LookupError(f"/{' '.join(parts)}: no subcommand {part!r}; there are {subs}")
            chain.append(sub)
            node = sub
        if any(o["type"] in (1, 2) for o in node.get("options") or []):
            raise LookupError(f"/{command} is a group; name one of its subcommands")
        resolved: dict[str, dict[str, Any]] = {}
        leaf: list[dict[str, Any]] = []
        defs = {o["name"]: o for o in node.get("options") or []}
        values = dict(options)
        if focused is not None:
            values[focused[0]] = focused[1]
        for name, value in values.items():
            if name not in defs:
                raise TypeError(f"/{command} has no option {name!r}; it has {sorted(defs)}")
            leaf.append(self._option(defs[name], value, resolved, focused is not None and name == focused[0]))
        if focused is None:
            missing = [n for n, o in defs.items() if o.get("required") and n not in values]
            if missing:
                raise TypeError(f"/{command}: required option(s) {missing} not given")
        elif not defs[focused[0]].get("autocomplete"):
            raise TypeError(f"/{command}: option {focused[0]!r} has no autocomplete")
        for sub in reversed(chain):
            leaf = [{"type": sub["type"], "name": sub["name"], "options": leaf}]
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": leaf}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data, " ".join(parts)

    def _option(
        self, spec: dict[str, Any], value: Any, resolved: dict[str, dict[str, Any]], focused: bool
    ) -> dict[str, Any]:
        t = spec["type"]
        s = self.standin
        name = spec["name"]
        if isinstance(value, Actor):
            value = value.id
        out: dict[str, Any] = {"type": t, "name": name}
        if focused:
            out.update(value=str(value), focused=True)
            return out
        if t == STRING:
            value = str(value)
            if not spec.get("min_length", 0) <= len(value) <= spec.get("max_length", 6000):
                raise ValueError(
                    f"option {name!r}: length outside {spec.get('min_length')}-{spec.get('max_length')}"
                )
        elif t == INTEGER:
            value = int(value)
        elif t == NUMBER:
            value = float(value)
        elif t == BOOLEAN:
            value = bool(value)
        elif t in (USER, MENTIONABLE):
            uid = int(value)
            if uid not in s.users:
                raise ValueError(f"option {name!r}: unknown user {uid}")
            resolved.setdefault("users", {})[str(uid)] = s.users[uid]
            member = s.member_payload(uid)
            member.pop("user")
            resolved.setdefault("members", {})[str(uid)] = member
            value = str(uid)
        elif t == CHANNEL:
            cid = int(value)
            c = s.channel(cid)
            resolved.setdefault("channels", {})[str(cid)] = {
                k: c[k] for k in ("id", "type", "name", "parent_id", "thread_metadata") if k in c
            } | {"permissions": str(s.member_perms.get(self.id, 0))}
            value = str(cid)
        elif t == ROLE:
            rid = str(int(value))
            role = next((r for r in s.roles() if r["id"] == rid), None)
            if role is None:
                raise ValueError(f"option {name!r}: unknown role {rid}")
            resolved.setdefault("roles", {})[rid] = role
            value = rid
        else:
            raise NotImplementedError(f"option type {t} is not supported by the stand-in")
        if t in (INTEGER, NUMBER):
            lo, hi = spec.get("min_value"), spec.get("max_value")
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                raise ValueError(f"option {name!r}: {value} outside {lo}..{hi}")
        if spec.get("choices") and value not in [c["value"] for c in spec["choices"]]:
            raise ValueError(
                f"option {name!r}: {value!r} is not one of {[c['value'] for c in spec['choices']]}"
            )
        out["value"] = value
        return out

    def _channel(self, channel: int | dict[str, Any] | None) -> int:
        if channel is None:
            return self.standin.channel_id
        if isinstance(channel, dict):
            return int(channel["id"])
        return int(channel)

    async def _finish(self, inter: Interaction, wait: bool, timeout: float) -> Interaction:
        if wait:
            rtype = await inter.response(timeout)
            if rtype in (4, 5, 7):
                await inter.reply(timeout)
        return inter

    async def slash(
        self,
        command: str,
        *,
        channel: int | dict[str, Any] | None = None,
        wait: bool = True,
        timeout: float = 15.0,
        **options: Any,
    ) -> Interaction:
        """Run ``/command [sub [sub]] option=value...``. With ``wait``, returns once the
        bot has responded and (for a message response or a deferral) its reply is there."""
        data, name = self._build(command, options, None)
        inter = await self.standin.interact(self.id, 2, self._channel(channel), data, name)
        return await self._finish(inter, wait, timeout)

    async def autocomplete(
        self,
        command: str,
        option: str,
        current: str = "",
        *,
        channel: int | dict[str, Any] | None = None,
        timeout: float = 15.0,
        **options: Any,
    ) -> list[dict[str, Any]]:
        """Type ``current`` into ``option`` of ``/command``; returns the offered choices."""
        data, name = self._build(command, options, (option, current))
        inter = await self.standin.interact(self.id, 4, self._channel(channel), data, f"{name} [{option}]")
        await inter.response(timeout)
        assert inter.choices is not None
        return inter.choices

    # ---- components ---------------------------------------------------------------------------
    def _component_target(self, message: Message) -> Message:
        m = self.standin.messages.get(message.id)
        if m is None or m.deleted:
            raise LookupError(f"message {message.id} does not exist (any more)")
        if m.ephemeral and m.interaction_user_id != self.id:
            raise PermissionError(f"{self.name} cannot see someone else's ephemeral message {m.id}")
        return m

    async def click(
        self,
        message: Message,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        wait: bool = True,
        timeout: float = 15.0,
    ) -> Interaction:
        """Press a button on ``message``, found by ``custom_id`` or ``label``."""
        m = self._component_target(message)
        item = m.find_item(custom_id, label)
        if item.get("type") != 2 or item.get("style") == 5:
            raise TypeError(f"{item.get('custom_id') or item.get('label')!r} is not a clickable button")
        if item.get("disabled"):
            raise PermissionError(f"button {item.get('label')!r} is disabled")
        data = {"custom_id": item["custom_id"], "component_type": 2}
        inter = await self.standin.interact(self.id, 3, m.channel_id, data, f"click {item['custom_id']}", m)
        return await self._finish(inter, wait, timeout)

    async def select(
        self,
        message: Message,
        values: list[str],
        custom_id: str | None = None,
        *,
        wait: bool = True,
        timeout: float = 15.0,
    ) -> Interaction:
        """Choose ``values`` in a string select on ``message`` (the only one, or by custom_id)."""
        m = self._component_target(message)
        if custom_id is None:
            selects = [c for c in m.items if c.get("type") == 3]
            if len(selects) != 1:
                raise LookupError(f"message {m.id} has {len(selects)} selects; name one by custom_id")
            item = selects[0]
        else:
            item = m.find_item(custom_id)
        if item.get("type") != 3:
            raise TypeError(f"{item.get('custom_id')!r} is not a string select")
        if item.get("disabled"):
            raise PermissionError("the select is disabled")
        allowed = [o["value"] for o in item.get("options", [])]
        bad = [v for v in values if v not in allowed]
        if bad:
            raise ValueError(f"{bad} are not options of the select; options: {allowed}")
        if not item.get("min_values", 1) <= len(values) <= item.get("max_values", 1):
            raise ValueError(f"choose {item.get('min_values', 1)}-{item.get('max_values', 1)} values")
        data = {"custom_id": item["custom_id"], "component_type": 3, "values": values}
        inter = await self.standin.interact(self.id, 3, m.channel_id, data, f"select {item['custom_id']}", m)
        return await self._finish(inter, wait, timeout)

    async def submit_modal(
        self, shown: Interaction, values: dict[str, str], *, wait: bool = True, timeout: float = 15.0
    ) -> Interaction:
        """Fill in and submit the modal the bot showed in answer to ``shown``."""
        modal = shown.modal
        if modal is None:
            raise LookupError("that interaction was not answered with a modal")
        rows = []
        for row in modal["components"]:
            items = []
            for c in row.get("components", []):
                items.append(
                    {"type": c["type"], "custom_id": c["custom_id"], "value": values.get(c["custom_id"], "")}
                )
            rows.append({"type": 1, "components": items})
        data = {"custom_id": modal["custom_id"], "components": rows}
        inter = await self.standin.interact(
            self.id, 5, shown.channel_id, data, f"modal {modal['custom_id']}", shown.message
        )
        return await self._finish(inter, wait, timeout)

    # ---- plain messages -----------------------------------------------------------------------
    async def say(self, content: str, channel: int | dict[str, Any] | None = None) -> Message:
        """Post a message as this user (dispatched as MESSAGE_CREATE where intents allow)."""
        return await self.standin.post_message(self._channel(channel), {"content": content}, [], self.id)

    def dms(self) -> list[Message]:
        """Messages the bot sent this user by DM."""
        return self.standin.dms_to(self.id)
