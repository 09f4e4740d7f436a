"""The stand-in tested with a tiny discord.py bot running in this process: if the
real client parses what the stand-in sends and the stand-in records what the
client does, the end-to-end tests can trust both."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import AsyncIterator

import discord
import pytest
import yarl
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.standin import StandIn


def png(colour: str = "red") -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (8, 8), colour).save(buf, "PNG")
    return buf.getvalue()


class Counter(discord.ui.DynamicItem[discord.ui.Button], template=r"tiny:count:(?P<n>\d+)"):
    """A persistent button: the state lives in the custom_id."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", custom_id=f"tiny:count:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(self.n + 1))
        await interaction.response.edit_message(content=f"count is {self.n + 1}", view=view)


class Picker(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(custom_id="tiny:pick", options=[discord.SelectOption(label=x, value=x) for x in "abc"])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"picked {select.values[0]}", ephemeral=True)


class Ask(discord.ui.Modal, title="Ask"):
    answer = discord.ui.TextInput(label="Answer", custom_id="tiny:answer")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"you said {self.answer.value}")


def make_bot() -> commands.Bot:
    intents = discord.Intents.none()
    intents.guilds = True
    bot = commands.Bot(command_prefix="!", intents=intents, guild_ready_timeout=0.05, help_command=None)
    grp = app_commands.Group(name="calc", description="Arithmetic")
    sub = app_commands.Group(name="int", description="Integers", parent=grp)

    @sub.command(name="add", description="Add two numbers")
    async def add(interaction: discord.Interaction, a: int, b: int = 1) -> None:
        await interaction.response.send_message(f"{a} + {b} = {a + b}")

    bot.tree.add_command(grp)

    @bot.tree.command(name="hello", description="A PNG and a button")
    async def hello(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(0))
        await interaction.response.send_message(
            "hello <@1>", file=discord.File(io.BytesIO(png()), filename="board.png"), view=view
        )

    @bot.tree.command(name="slow", description="Deferred, then a followup")
    @app_commands.describe(private="Answer privately")
    async def slow(interaction: discord.Interaction, private: bool = False) -> None:
        await interaction.response.defer(ephemeral=private, thinking=True)
        await asyncio.sleep(0.05)
        # Discord ignores this flag: the first followup keeps the deferral's visibility.
        await interaction.followup.send("done thinking", ephemeral=not private)
        await interaction.followup.send(
            "second", ephemeral=True, file=discord.File(io.BytesIO(png("blue")), "b.png")
        )

    @bot.tree.command(name="secret", description="Ephemeral")
    async def secret(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("only you", ephemeral=True, view=Picker())

    @bot.tree.command(name="thread", description="Open a thread and talk in it")
    async def thread(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("lobby")
        message = await interaction.original_response()
        t = await message.create_thread(name="Game #1", auto_archive_duration=10080)
        await t.send("in the thread", file=discord.File(io.BytesIO(png("green")), "g.png"))
        again = bot.get_channel(t.id) or await bot.fetch_channel(t.id)
        await again.send(f"pinging {interaction.user.mention}")

    @bot.tree.command(name="dm", description="DM someone")
    async def dm(interaction: discord.Interaction, user: discord.User) -> None:
        try:
            await user.send("psst")
            text = "sent"
        except discord.Forbidden as exc:
            text = f"refused {exc.code}"
        await interaction.response.send_message(text, ephemeral=True)

    @bot.tree.command(name="word", description="Autocomplete")
    async def word(interaction: discord.Interaction, value: str) -> None:
        await interaction.response.send_message(f"word {value}")

    @word.autocomplete("value")
    async def word_ac(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        words = ["apple", "apricot", "banana"] + [f"w{i}" for i in range(40)]
        return [app_commands.Choice(name=w.upper(), value=w) for w in words if w.startswith(current)][:25]

    @bot.tree.command(name="ask", description="A modal")
    async def ask(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(Ask())

    @bot.tree.command(name="lazy", description="Too slow to acknowledge")
    async def lazy(interaction: discord.Interaction) -> None:
        await asyncio.sleep(0.4)
        try:
            await interaction.response.send_message("late")
        except discord.NotFound:
            bot.late = True  # type: ignore[attr-defined]

    async def setup_hook() -> None:
        bot.add_dynamic_items(Counter)
        await bot.tree.sync()

    async def before_identify_hook(shard_id: int | None, *, initial: bool = False) -> None:
        pass  # discord.py waits 5 s before a fresh IDENTIFY (Discord's rate limit); the stand-in has none

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    bot.before_identify_hook = before_identify_hook  # type: ignore[method-assign]
    return bot


@pytest.fixture
async def standin(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[StandIn]:
    s = await StandIn().start()
    monkeypatch.setattr(discord.http.Route, "BASE", f"{s.base}/api/v10")
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(f"ws://127.0.0.1:{s.port}/gateway")
    )
    yield s
    await s.close()


@pytest.fixture
async def bot(standin: StandIn) -> AsyncIterator[commands.Bot]:
    b = make_bot()
    task = asyncio.create_task(b.start("dummy-token"))
    await standin.wait_ready(10)
    await asyncio.wait_for(b.wait_until_ready(), 10)
    yield b
    await b.close()
    await asyncio.wait_for(task, 10)


async def test_login_identify_and_command_sync(standin: StandIn, bot: commands.Bot) -> None:
    assert standin.token == "dummy-token"
    assert bot.user is not None and bot.user.id == standin.bot_id
    assert bot.application_id == standin.app_id
    guild = bot.get_guild(standin.guild_id)
    assert guild is not None and guild.get_channel(standin.channel_id) is not None
    names = {c["name"] for c in standin.commands[None]}
    assert {"calc", "hello", "slow", "secret", "thread", "dm", "word", "ask"} <= names
    calc = standin.command("calc")
    assert calc["options"][0]["type"] == 2 and calc["options"][0]["options"][0]["name"] == "add"
    assert standin.unknown == [] and standin.errors == []


async def test_slash_with_png_and_button_click(standin: StandIn, bot: commands.Bot) -> None:
    alice = standin.user(11, "alice")
    bob = standin.user(12, "bob")
    r = await alice.slash("hello")
    m = await r.reply()
    assert r.response_type == 4 and not m.ephemeral and m.channel_id == standin.channel_id
    assert m.interaction_user_id == 11 and m.content == "hello <@1>"
    assert len(m.pngs) == 1 and Image.open(io.BytesIO(m.pngs[0])).size == (8, 8)
    assert m.custom_ids == ["tiny:count:0"]
    c = await bob.click(m, label="Count 0")
    assert c.response_type == 7 and (await c.reply()) is m
    assert m.content == "count is 1" and m.custom_ids == ["tiny:count:1"]
    assert m.history[0]["content"] == "hello <@1>"
    with pytest.raises(LookupError):
        await bob.click(m, "tiny:count:0")  # the old button is gone from the message
    assert all(i.ack_seconds is not None and i.ack_seconds < 3 for i in standin.interactions.values())


async def test_subcommand_group_with_options(standin: StandIn, bot: commands.Bot) -> None:
    alice = standin.user(11, "alice")
    r = await alice.slash("calc int add", a=2, b=40)
    assert (await r.reply()).content == "2 + 40 = 42"
    r = await alice.slash("calc int add", a=5)
    assert (await r.reply()).content == "5 + 1 = 6"
    with pytest.raises(TypeError):
        await alice.slash("calc int add", b=1)  # required option missing
    with pytest.raises(TypeError):
        await alice.slash("calc int add", a=1, c=2)


async def test_deferred_reply_keeps_deferral_visibility(standin: StandIn, bot: commands.Bot) -> None:
    alice = standin.user(11, "alice")
    r = await alice.slash("slow")
    first, second = await r.replies(2)
    assert r.response_type == 5
    assert (
        first is r.original and first.content == "done thinking" and not first.ephemeral and not first.loading
    )
    assert second.ephemeral and second.content == "second" and len(second.pngs) == 1
    r = await alice.slash("slow", private=True)
    first, _ = await r.replies(2)
    assert first.ephemeral and first.content == "done thinking"


async def test_ephemeral_reply_and_select(standin: StandIn, bot: commands.Bot) -> None:
    alice = standin.user(11, "alice")
    bob = standin.user(12, "bob")
    r = await alice.slash("secret")
    m = await r.reply()
    assert m.ephemeral and not standin.is_public(m) and m not in standin.public_messages()
    with pytest.raises(PermissionError):
        await bob.select(m, ["a"])
    with pytest.raises(ValueError):
        await alice.select(m, ["z"])
    s = await alice.select(m, ["b"])
    assert (await s.reply()).content == "picked b" and (await s.reply()).ephemeral


async def test_thread_from_message_and_mentions(standin: StandIn, bot: commands.Bot) -> None:
    alice = standin.user(11, "alice")
    r = await alice.slash("thread")
    lobby = await r.reply()
    said = await standin.wait_for_message(lambda m: m.content.startswith("pinging"))
    assert len(standin.threads) == 1
    t = standin.threads[0]
    assert int(t["id"]) == lobby.id == lobby.thread_id and int(t["parent_id"]) == standin.channel_id
    in_thread = standin.channel_messages(lobby.id)
    assert [m.content for m in in_thread] == ["in the thread", "pinging <@11>"]
    assert in_thread[0].pngs and said.mentions == [11]
    assert bot.get_channel(lobby.id) is not None  # THREAD_CREATE reached the client


async def test_dm_and_closed_dms(standin: StandIn, bot: commands.Bot) -> None:
    alice = standin.user(11, "alice")
    bob = standin.user(12, "bob", dms_closed=True)
    r = await alice.slash("dm", user=alice)
    assert (await r.reply()).content == "sent"
    assert [m.content for m in alice.dms()] == ["psst"]
    assert not standin.is_public(alice.dms()[0])
    r = await alice.slash("dm", user=bob)
    assert (await r.reply()).content == "refused 50007"
    assert bob.dms() == []


async def test_autocomplete(standin: StandIn, bot: commands.Bot) -> None:
    alice = standin.user(11, "alice")
    choices = await alice.autocomplete("word", "value", "ap")
    assert choices == [{"name": "APPLE", "value": "apple"}, {"name": "APRICOT", "value": "apricot"}]
    assert len(await alice.autocomplete("word", "value", "")) == 25
    with pytest.raises(TypeError):
        await alice.autocomplete("calc int add", "a", "1")  # no autocomplete on that option


async def test_modal(standin: StandIn, bot: commands.Bot) -> None:
    alice = standin.user(11, "alice")
    r = await alice.slash("ask")
    assert r.response_type == 9 and r.modal is not None
    s = await alice.submit_modal(r, {"tiny:answer": "forty-two"})
    assert (await s.reply()).content == "you said forty-two"


async def test_late_acknowledgement_is_refused(standin: StandIn, bot: commands.Bot) -> None:
    standin.ack_deadline = 0.2
    alice = standin.user(11, "alice")
    r = await alice.slash("lazy", wait=False)
    await standin.wait_until(lambda: getattr(bot, "late", False), 5, "the bot to see the refusal")
    assert not r.responded and any("10062" in e for e in standin.errors)


async def test_reconnect_resume_and_fresh_identify(standin: StandIn, bot: commands.Bot) -> None:
    alice = standin.user(11, "alice")
    assert standin.identifies == 1
    await standin.drop_connection()
    # An interaction created while the socket is down is replayed on RESUME.
    r = await alice.slash("calc int add", a=1, b=1)
    assert (await r.reply()).content == "1 + 1 = 2"
    assert standin.resumes == 1 and standin.identifies == 1
    await standin.reconnect_request()
    await standin.wait_until(lambda: standin.resumes == 2, 10, "a second RESUME")
    await standin.invalidate_session()
    await standin.wait_until(lambda: standin.identifies == 2, 15, "a fresh IDENTIFY")
    r = await alice.slash("hello")
    m = await r.reply()
    c = await alice.click(m, "tiny:count:0")
    assert c.response_type == 7 and m.content == "count is 1"
    assert standin.unknown == []


async def test_unknown_route_is_a_logged_404(standin: StandIn, bot: commands.Bot) -> None:
    with pytest.raises(discord.NotFound):
        await bot.http.request(discord.http.Route("GET", "/stickers/{sticker_id}", sticker_id=1))
    assert standin.unknown == ["GET /stickers/1"]
