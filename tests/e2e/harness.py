"""Run the real bot (``python bot.py``) as a subprocess against the stand-in, and
play games through it as Discord users would."""

from __future__ import annotations

import asyncio
import io
import os
import random
import re
import signal
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from engine import core
from tests.standin import Actor, Interaction, Message, StandIn

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "e2e-dummy-token"
MOVE_ID = re.compile(r"lk:mv:(\d+):(\d+):(\d+)")
CHOOSE_ID = re.compile(r"lk:ch:(\d+):(\d+)")
# The private answer to a move inside a turn (no board: the turn goes on in that message).
GOES_ON = "Move taken; your turn goes on."


async def spawn_bot(env: dict[str, str], log: Path) -> asyncio.subprocess.Process:
    """Starts ``python bot.py`` with ``env``, its output appended to ``log``."""
    with open(log, "ab") as out:
        out.write(b"\n===== bot start =====\n")
        return await asyncio.create_subprocess_exec(
            sys.executable, "bot.py", cwd=ROOT, env=env, stdout=out, stderr=asyncio.subprocess.STDOUT
        )


async def stop_process(proc: asyncio.subprocess.Process | None) -> None:
    """Stops a running bot the way a shutdown does (SIGTERM), killing it after 10 s."""
    if proc is None or proc.returncode is not None:
        return
    proc.terminate()
    try:
        await asyncio.wait_for(proc.wait(), 10)
    except TimeoutError:
        proc.kill()
        await proc.wait()


def log_tail(log: Path, n: int) -> str:
    """The last ``n`` lines of a bot's log."""
    try:
        return "\n".join(log.read_text(errors="replace").splitlines()[-n:])
    except FileNotFoundError:
        return "(no log)"


class BotProcess:
    """``python bot.py`` with a dummy token, a temp database and the test-only
    switch ``LAIRKEEPER_DISCORD_BASE`` pointing at the stand-in."""

    def __init__(self, standin: StandIn, db: Path, log: Path) -> None:
        self.standin = standin
        self.db = db
        self.log = log
        self.proc: asyncio.subprocess.Process | None = None
        self._watch: asyncio.Task[None] | None = None
        self.env: dict[str, str] = {}  # settings of this test (LAIRKEEPER_LOG_LEVEL, LAIRKEEPER_DB ...)

    async def start(self, timeout: float = 45.0) -> None:
        # Load the games and renderers here too, now: the audit redraws boards in this
        # process and must draw with the same code and data the bot loads.
        import render
        from engine import core

        for key in core.available():
            core.get(key)
            render.get(key)
        before = self.standin.identifies
        env = {
            **os.environ,
            "DISCORD_TOKEN": TOKEN,
            "LAIRKEEPER_DB": str(self.db),
            "LAIRKEEPER_DISCORD_BASE": self.standin.base,
            "LAIRKEEPER_LOG_LEVEL": "INFO",
            "PYTHONUNBUFFERED": "1",
            **self.env,
        }
        env.pop("LAIRKEEPER_DEV_GUILD", None)
        self.proc = proc = await spawn_bot(env, self.log)

        async def watch() -> None:
            await proc.wait()
            self.standin.changed()

        self._watch = asyncio.create_task(watch())
        try:
            await self.standin.wait_until(
                lambda: proc.returncode is not None or self.standin.identifies > before,
                timeout,
                "the bot to log in and IDENTIFY",
            )
        except TimeoutError:
            raise TimeoutError(f"the bot did not connect in {timeout}s; its log:\n{self.tail()}") from None
        if proc.returncode is not None:
            raise RuntimeError(f"the bot exited with {proc.returncode}; its log:\n{self.tail()}")
        await self.standin.wait_ready()

    def tail(self, n: int = 60) -> str:
        return log_tail(self.log, n)

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    async def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a crash or an OOM kill."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()
        await self.standin.wait_disconnected()

    async def stop(self) -> None:
        await stop_process(self.proc)


def decode_png(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


@dataclass
class Table:
    """One game played through Discord by test users."""

    standin: StandIn
    players: list[Actor]
    game_id: int = 0
    lobby: Message | None = None
    thread_id: int = 0
    boards: list[Message] = field(default_factory=list)
    replies: list[Interaction] = field(default_factory=list)  # every answer to a player's move
    rng: random.Random = field(default_factory=lambda: random.Random(7))
    last_answer: Message | None = None  # the private answer to the last move inside a turn
    # Where turns come to players (issue 37, /settings turns_in), set by the server's owner
    # before the game opens: "off" for the tests of the board's pings and "Your move"
    # (their flows are the fallback of the lasting place); None keeps the server's
    # setting (default: DMs; tests/e2e/test_e2e_place.py, the clicks driver).
    place: str | None = "off"
    # The mover whose own answer showed their next turn (issue 37: the board does not ping them).
    goes_on: Actor | None = None

    def by_id(self, uid: int) -> Actor:
        return next(p for p in self.players if p.id == uid)

    async def open(
        self,
        game: str,
        ais: int = 0,
        before_start: Callable[[], Awaitable[None]] | None = None,
        **options: Any,
    ) -> None:
        """Host runs /game new; the others join; ``ais`` AI players are added; the host starts
        (after ``before_start``, e.g. fixing the game's seed for a reproducible benchmark)."""
        host = self.players[0]
        if self.place is not None:
            owner = self.standin.user(self.standin.owner_id, "owner")
            await (await owner.slash("settings", turns_in=self.place)).reply()
        mark = self.standin.mark()
        r = await host.slash("game new", game=game, **options)
        # Acknowledged privately first (issue 27); the lobby is a message of its own.
        assert r.response_type == 5 and r.ack_seconds is not None and r.ack_seconds < 3
        answer = await r.reply()
        assert answer.ephemeral and "lobby" in answer.content, answer.content
        self.lobby = await self.standin.wait_for_message(
            lambda m: m.channel_id == self.standin.channel_id and not m.ephemeral and "game #" in m.content,
            10,
            after=mark,
        )
        m = re.search(r"game #(\d+)", self.lobby.content)
        assert m, self.lobby.content
        self.game_id = int(m[1])
        await self.standin.wait_until(lambda: self.lobby.thread_id is not None, 10, "the game's thread")
        assert self.lobby.thread_id is not None
        self.thread_id = self.lobby.thread_id
        for p in self.players[1:]:
            c = await p.click(self.lobby, f"lk:lobby:{self.game_id}:join")
            await c.reply()  # deferred (type 6), then the lobby is edited
            assert c.response_type == 6 and p.name in self.lobby.content
        for _ in range(ais):
            # The lobby's "Add a computer player" menu; easy: the tests' players answer at once.
            c = await host.select(self.lobby, ["easy"], f"lk:addai:{self.game_id}")
            await c.reply()
            assert c.response_type == 6
        if before_start is not None:
            await before_start()
        mark = self.standin.mark()
        start = await host.click(self.lobby, f"lk:lobby:{self.game_id}:start")
        assert start.response_type == 6  # deferred, then the lobby is edited
        await start.reply()
        self.boards.append(await self.wait_board(mark))

    def is_board(self, m: Message) -> bool:
        return (
            m.channel_id == self.thread_id and not m.ephemeral and bool(m.pngs) and m.interaction_id is None
        )

    async def wait_board(self, mark: int, timeout: float = 20.0) -> Message:
        return await self.standin.wait_for_message(self.is_board, timeout, after=mark)

    @property
    def board(self) -> Message:
        return self.boards[-1]

    @property
    def over(self) -> bool:
        return "Final scores" in self.board.content

    def to_act(self) -> list[Actor]:
        """Who the newest board waits on: whom it pings, and the mover whose own answer
        showed their next turn (never pinged for it)."""
        out = [self.by_id(u) for u in self.board.mentions if any(p.id == u for p in self.players)]
        if self.goes_on is not None and self.goes_on not in out:
            out.append(self.goes_on)
        return out

    def choose_button(self, m: Message | None = None) -> str | None:
        """The custom_id of the board's "Your move" button (``lk:ch:<game>:<version>``), if any."""
        for b in (m or self.board).buttons:
            if CHOOSE_ID.fullmatch(b.get("custom_id", "")):
                return str(b["custom_id"])
        return None

    @staticmethod
    def move_buttons(m: Message) -> list[dict[str, Any]]:
        """The move buttons (``lk:mv:<game>:<version>:<n>``) on a message."""
        return [b for b in m.buttons if MOVE_ID.fullmatch(b.get("custom_id", ""))]

    async def my_choices(self, player: Actor) -> Message:
        """``player`` presses "Your move" on the newest board; the private answer."""
        cid = self.choose_button()
        assert cid is not None, f"the board offers no 'Your move' button: {self.board!r}"
        r = await player.click(self.board, cid)
        self.replies.append(r)
        return await r.reply()

    async def choices(self, player: Actor, current: str = "") -> list[dict[str, Any]]:
        return await player.autocomplete("play", "move", current, channel=self.thread_id)

    async def play(self, player: Actor, how: str) -> Message:
        """One move of ``player``: ``button`` ("Your move", then a random private move
        button; /play when the game offers too many moves for buttons) or ``play``
        (/play with a random autocomplete choice). Returns the next board."""
        if how == "button":
            private = await self.my_choices(player)
            assert private.ephemeral
            buttons = self.move_buttons(private)
            if buttons:
                button = self.rng.choice(buttons)
                return await self._move(player, lambda: player.click(private, button["custom_id"]))
            assert "/play" in private.content, private.content
        options = await self.choices(player)
        assert options, f"{player.name} is to act but /play offers no moves"
        return await self.play_text(player, self.rng.choice(options)["value"])

    async def play_text(self, player: Actor, move: str) -> Message:
        """``/play move:<move>`` in the game's thread; returns the next board."""
        return await self._move(player, lambda: player.slash("play", channel=self.thread_id, move=move))

    async def _move(self, player: Actor, act: Any) -> Message:
        """One move; returns the next board, or the newest board when the move was
        inside a turn (one board a turn: the thread waits for the turn's end)."""
        mark = self.standin.mark()
        r = await act()
        self.replies.append(r)
        answer = await r.reply()
        assert answer.ephemeral, f"the answer to a move must be ephemeral: {answer!r}"
        assert answer.content.startswith("Move taken"), f"{player.name}: {answer.content}"
        if answer.content.startswith(GOES_ON):
            self.last_answer = answer
            return self.board
        board = await self.wait_board(mark)
        self.boards.append(board)
        self.goes_on = player if "It is your turn again" in answer.content else None
        return board


async def solo_table(standin: StandIn, key: str, uid: int, place: str | None = "off") -> Table:
    """One person ("ann", user ``uid``) and as few AI players as ``key`` allows, the game
    started; the test is skipped where the game is not installed. ``place``: see Table."""
    if key not in core.available():
        pytest.skip(f"{key} is not installed")
    t = Table(standin, [standin.user(uid, "ann")], place=place)
    await t.open(key, ais=core.get(key).min_players - 1)
    return t


@dataclass
class Replay:
    """The game as the database recorded it, replayed through the engine: every
    state, and what each seat was told privately while the game ran."""

    key: str
    seats: int
    moves: int
    secrets: set[str]  # private event texts and private_text answers while the game ran
    states: list[dict[str, Any]]
    status: str
    result: dict[str, Any] | None
    names: list[str] = field(default_factory=list)  # as the bot draws them on boards
    _png: dict[int, bytes] = field(default_factory=dict)

    def public_png(self, k: int) -> bytes:
        """The drawing of the public view after move ``k`` (0: the start), its words
        mended as the bot shows them (issue 40: slips are mended where shown, so the
        board is drawn from ``mend_all(view)``; the mending changes words only)."""
        import render
        from engine import core
        from engine.wording import mend_all

        if k not in self._png:
            view = mend_all(core.get(self.key).view(self.states[k], None))
            self._png[k] = render.get(self.key).board(view, self.names)
        return self._png[k]


async def logged_moves(db: Path, game_id: int) -> int:
    from store import Store

    store = await Store(str(db)).open()
    try:
        return len(await store.log(game_id))
    finally:
        await store.close()


async def moves_by_people(db: Path, game_id: int) -> int:
    """Moves a person made (the bot's moves for a person, an only move, carry no user)."""
    from store import Store

    store = await Store(str(db)).open()
    try:
        return sum(1 for _seq, _seat, user, _note, _at in await store.log_full(game_id) if user is not None)
    finally:
        await store.close()


async def replay(db: Path, game_id: int) -> Replay:
    from engine import core
    from store import Store
    from tables import Tables

    store = await Store(str(db)).open()
    try:
        row = await store.get(game_id)
        assert row is not None
        entries = await store.log(game_id)
    finally:
        await store.close()
    game = core.get(row.game_key)
    n = len(row.seats)
    state = game.new(n, row.options, row.seed)
    states = [state]
    secrets = {game.private_text(state, s) for s in range(n)}
    for _seq, seat, note in entries:
        state, events = game.apply(state, seat, game.parse(note))
        states.append(state)
        secrets |= {e.text for e in events if e.seat is not None}
        if not game.is_over(state):
            secrets |= {game.private_text(state, s) for s in range(n)}
    assert row.moves == len(entries)
    named = getattr(Tables, "named", None)
    if named is not None:  # the bot shows the engine's "Player N" as seat names
        secrets |= {named(row, x) for x in secrets}
    from tables.text import image_names

    return Replay(row.game_key, n, len(entries), secrets, states, row.status, row.result, image_names(row))


def audit_log(bot: BotProcess, rep: Replay) -> None:
    """The bot's own log (what a server admin reads) holds no private text either:
    no whole private sentence and no line of one (a hand, a purse, a private event)."""
    logged = bot.log.read_text(errors="replace")
    assert "ready:" in logged, "the bot log is empty: nothing was checked"
    lines = {line.strip() for s in rep.secrets for line in s.splitlines() if len(line.strip()) >= 8}
    for secret in rep.secrets | lines:
        assert secret not in logged, f"private text {secret!r} in the bot's log"


def board_move(m: Message) -> int | None:
    """The move number a board image shows, from its file name ``game<id>-move<k>.png``."""
    for a in m.attachments:
        found = re.fullmatch(r"game\d+-move(\d+)\.png", a.filename)
        if found:
            return int(found[1])
    return None


def audit(standin: StandIn, table: Table, rep: Replay, compare: int = 12, every_move: bool = True) -> None:
    """What a player would notice about secrets and boards:
    - a board after every move (``every_move``; else after every human move),
      each a PNG that decodes; ``compare`` of them (the
      first, the last and evenly spread ones: drawing all would double the suite's
      time) are byte for byte the drawing of the public view after that move, so
      nothing hidden can be in them;
    - no private sentence (purse, hand, private event) in any public message;
    - every answer to a player's own action ephemeral."""
    boards = [m for m in standin.public_messages() if table.is_board(m)]
    shown = [board_move(m) for m in boards]
    assert None not in shown
    assert shown == sorted(set(shown)) and shown[-1] == rep.moves, shown  # type: ignore[type-var]
    if every_move:  # all seats human: one board a turn, each when the turn id changed
        from engine import core

        game = core.get(rep.key)
        turns = [
            k
            for k in range(1, rep.moves + 1)
            if game.is_over(rep.states[k]) or game.turn_id(rep.states[k - 1]) != game.turn_id(rep.states[k])
        ]
        # Each board follows a turn change since the board before (the bot's moves for
        # whoever has no choice may follow it, shown on the same board).
        for prev, k in zip(shown, shown[1:], strict=False):
            assert any(prev < j <= k for j in turns), f"a board after move {k}, inside a turn"  # type: ignore[operator]
        assert len(shown) - 1 <= len(turns), (shown, turns)
    for m in boards:
        decode_png(m.pngs[0])
    step = max(1, len(boards) // max(1, compare - 1))
    for m in boards[::step] + boards[-1:]:
        k = board_move(m)
        assert k is not None
        assert m.pngs[0] == rep.public_png(k), f"the board after move {k} is not the public view's drawing"
    for m in standin.public_messages():
        for text in [m.text, *(h["content"] for h in m.history)]:
            for secret in rep.secrets:
                assert secret not in text, f"private text {secret!r} in a public message: {text!r}"
    for r in table.replies:
        for m in r.messages:
            assert m.ephemeral, f"answer to {r.name} is public: {m!r}"
