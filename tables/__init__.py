"""The application layer: one table is one game in one Discord thread.

Loads a game, checks who may act, applies the action, saves, renders and
returns plain results. Knows nothing of discord: cogs turn these results into
messages. Player mistakes raise :class:`TableError` with one sentence and change
nothing.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine import core
from engine.core import Event, IllegalAction
from store import Conflict, GameRow, SeatRow, Store, encode_state

log = logging.getLogger("lairkeeper.tables")

# Buttons are offered for the current choices when there are at most this many
# (Discord allows 5 rows of 5; one row stays free).
MAX_BUTTONS = 20

# "/play #<version>.<index>": an autocomplete value standing for a move too long to send.
CHOICE_REF = re.compile(r"#(\d{1,9})\.(\d{1,4})")

# Engine texts name seats "Player N"; tables put the players' names in.
PLAYER_REF = re.compile(r"\bPlayer ([1-9])\b")

HOUR = 3600.0

# Server defaults (``/settings``); a game's own settings (``/game new``) override them.
DEFAULT_SETTINGS: dict[str, Any] = {
    "deadline_hours": 0.0,  # 0 = no turn deadline
    "reminder_hours": 24.0,  # 0 = no reminders
    "on_deadline": "ai",  # ai | skip | abandon
    "channel_id": None,  # where /game new opens games (None: the channel it is used in)
}
ON_DEADLINE = ("ai", "skip", "abandon")


def check_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """Validate a settings change; raises TableError with one sentence."""
    out: dict[str, Any] = {}
    for k, v in settings.items():
        if k not in DEFAULT_SETTINGS:
            raise TableError(f"There is no setting called '{k}'.")
        if k in ("deadline_hours", "reminder_hours"):
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not 0 <= v <= 24 * 60:
                raise TableError(f"'{k}' must be a number of hours from 0 (off) to 1440 (60 days).")
            if k == "reminder_hours" and 0 < v < 0.25:
                raise TableError("Reminders can come at most every 15 minutes (0.25 hours).")
            out[k] = float(v)
        elif k == "on_deadline":
            if v not in ON_DEADLINE:
                raise TableError("'on_deadline' must be ai, skip or abandon.")
            out[k] = v
        else:
            out[k] = None if v is None else int(v)
    return out


# What a refusal may echo of a player's input: invisible characters (controls, bidi
# overrides, zero-width marks) are dropped, and a quoted echo is cut to this length.
_INVISIBLE = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]"
)
_LONG_QUOTE = re.compile(r"(?<![^\s(])'([^'\n]{41,}?)'(?=[\s.,;:!?)]|$)")
ECHO_MAX = 40
SENTENCE_MAX = 300


def clean_sentence(text: str) -> str:
    """A refusal as a player should read it: one line, no invisible characters, a
    quoted echo of the input cut to 40 characters, at most 300 characters in all.
    Engines quote the player's text back; a 100 KB paste must not come back whole."""
    text = _INVISIBLE.sub("", text.encode("utf-8", "replace").decode("utf-8"))
    text = " ".join(text.split())
    text = _LONG_QUOTE.sub(lambda m: "'" + m[1][: ECHO_MAX - 1] + "…'", text)
    if len(text) > SENTENCE_MAX:
        text = text[: SENTENCE_MAX - 1] + "…"
    return text


class TableError(Exception):
    """A player's mistake (or a refused request). ``str()`` is one sentence, cleaned
    by :func:`clean_sentence` (it usually quotes what the player typed)."""

    def __init__(self, message: str) -> None:
        super().__init__(clean_sentence(message))


@dataclass
class Lobby:
    game_id: int
    version: int
    game_key: str
    title: str
    host_id: int | None
    seats: list[SeatRow]
    min_players: int
    max_players: int
    options: dict[str, Any]
    status: str
    thread_id: int | None = None

    @property
    def text(self) -> str:
        names = ", ".join(s.name + (" (AI)" if s.is_ai else "") for s in self.seats) or "nobody yet"
        opts = ", ".join(f"{k}={v}" for k, v in self.options.items())
        lines = [
            f"**{self.title}** (game #{self.game_id}) - {self.min_players}-{self.max_players} players.",
            f"Seated ({len(self.seats)}): {names}.",
        ]
        if opts:
            lines.append(f"Options: {opts}.")
        if self.status == "lobby":
            lines.append("Press **Join** to take a seat; the host presses **Start** when ready.")
        elif self.status == "active":
            lines.append("The game has started in its thread.")
        else:
            lines.append(f"This game is {self.status}.")
        return "\n".join(lines)


@dataclass
class Notice:
    """A timer that fired: a reminder to post, or what a deadline did."""

    kind: str  # reminder | deadline
    game_id: int
    thread_id: int | None
    text: str
    ping: list[int] = field(default_factory=list)
    dm: list[int] = field(default_factory=list)
    update: Update | None = None


@dataclass
class Update:
    """What the bot should show after a change to a game."""

    game_id: int
    version: int
    thread_id: int | None
    text: str
    png: bytes | None = None
    ping: list[int] = field(default_factory=list)
    actor_private: str | None = None
    private: dict[int, str] = field(default_factory=dict)  # user id -> private news
    # A human must act: the board offers a "Your move" button whose answer lists
    # that player's choices privately (public buttons would reveal what a player
    # can afford or holds).
    choose: bool = False
    dm: list[int] = field(default_factory=list)  # pinged users who opted in to DMs
    result_png: bytes | None = None  # the final score breakdown, once the game is over
    # Extra images of what happened since the last board (e.g. each step of a
    # battle), from the renderer's optional render_steps(view_before, view_after).
    steps: list[bytes] = field(default_factory=list)
    over: bool = False
    moves: int = 0
    timings: dict[str, float] = field(default_factory=dict)


# Render modules by game key, filled on first use (tests may register their own).
RENDERERS: dict[str, Any] = {}


def renderer(game_key: str) -> Any:
    if game_key not in RENDERERS:
        RENDERERS[game_key] = importlib.import_module(f"render.{core.MODULES[game_key]}")
    return RENDERERS[game_key]


def _draw_opening(game_key: str) -> None:
    game = core.get(game_key)
    state = game.new(game.min_players, None, 0)
    renderer(game_key).render(game.view(state, None))


def display_name(row: GameRow, seat: int) -> str:
    s = row.seats[seat]
    return s.name + (" (AI)" if s.is_ai else "")


MESSAGE_ROOM = 1900
MAX_STEP_IMAGES = 8  # Discord takes 10 files a message: the board, the scores, 8 steps  # Discord's 2000 characters, less room for the pings


def fit_message(head: str, news: list[str], tail: str, room: int = MESSAGE_ROOM) -> str:
    """Intro, then as many of the latest news lines as fit, then the status or
    final scores, which always survive: a long run of AI moves shortens the
    middle, never the end."""
    tail = tail[:room]
    head = head[: max(0, room - len(tail) - 1)]
    budget = room - len(tail) - len(head) - 2
    kept: list[str] = []
    for line in reversed(news):
        cost = len(line) + 1
        if cost > budget - 60:  # keep room for the "earlier moves" line
            break
        kept.append(line)
        budget -= cost
    kept.reverse()
    dropped = len(news) - len(kept)
    if dropped:
        kept.insert(0, f"... {dropped} earlier line(s) not shown; /history has every move.")
    return "\n".join(part for part in (head, *kept, tail) if part)


def replayed(row: GameRow, moves: list[tuple[int, str]]) -> dict[str, Any]:
    """The state after ``moves`` (seat, notation) from the game's seed. CPU-bound for a
    long game, so callers run it off the event loop."""
    game = core.get(row.game_key)
    state = game.new(len(row.seats), row.options, row.seed)
    for seat, note in moves:
        state, _ = game.apply(state, seat, game.parse(note))
    return state


class Tables:
    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        self._locks: dict[int, asyncio.Lock] = {}

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def _load(self, game_id: int) -> GameRow:
        # A button's custom_id (\d+) can carry any number, and SQLite integers stop
        # at 2**63 - 1: past that, store.get would raise OverflowError.
        row = await self.store.get(game_id) if 0 < game_id < 2**63 else None
        if row is None:
            raise TableError(f"There is no game #{game_id}.")
        return row

    async def game_in(self, channel_id: int) -> GameRow:
        row = await self.store.by_thread(channel_id)
        if row is None:
            raise TableError("There is no game in this channel; use this command in a game's thread.")
        return row

    # ---- lobby -------------------------------------------------------------
    def _lobby(self, row: GameRow) -> Lobby:
        game = core.get(row.game_key)
        return Lobby(
            row.id,
            row.version,
            row.game_key,
            game.title,
            row.host_id,
            row.seats,
            game.min_players,
            game.max_players,
            row.options,
            row.status,
            row.thread_id,
        )

    async def create(
        self,
        user_id: int,
        name: str,
        game_key: str,
        options: dict[str, Any] | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        seed: int | None = None,
        take_seat: bool = True,
        settings: dict[str, Any] | None = None,
    ) -> Lobby:
        game_settings = check_settings(settings or {})
        try:
            game = core.get(game_key)
            opts = game.resolve_options(dict(options or {}))
        except IllegalAction as exc:
            raise TableError(str(exc)) from None
        opts.pop("setup", None)  # stacking decks is for tests, never for players
        seed = secrets.randbits(31) if seed is None else seed
        gid = await self.store.create_game(game_key, opts, seed, user_id, guild_id, channel_id, game_settings)
        if take_seat:
            await self.store.set_seats(gid, 0, [SeatRow(0, user_id, name, False)])
        return self._lobby(await self._load(gid))

    async def lobby(self, game_id: int) -> Lobby:
        return self._lobby(await self._load(game_id))

    async def _change_seats(self, game_id: int, change: Callable[[GameRow, list[SeatRow]], None]) -> Lobby:
        async with self._lock(game_id):
            row = await self._load(game_id)
            if row.status != "lobby":
                raise TableError("This game has already started; seats can no longer change.")
            seats = list(row.seats)
            change(row, seats)
            try:
                await self.store.set_seats(game_id, row.version, seats)
            except Conflict:
                raise TableError("The lobby changed at the same moment; please try again.") from None
            return self._lobby(await self._load(game_id))

    async def join(self, game_id: int, user_id: int, name: str) -> Lobby:
        def change(row: GameRow, seats: list[SeatRow]) -> None:
            game = core.get(row.game_key)
            if row.seat_of(user_id) is not None:
                raise TableError("You are already seated in this game.")
            if len(seats) >= game.max_players:
                raise TableError(f"This game is full ({game.max_players} players).")
            seats.append(SeatRow(len(seats), user_id, name, False))

        return await self._change_seats(game_id, change)

    async def leave(self, game_id: int, user_id: int) -> Lobby:
        def change(row: GameRow, seats: list[SeatRow]) -> None:
            seat = row.seat_of(user_id)
            if seat is None:
                raise TableError("You are not seated in this game.")
            if user_id == row.host_id:
                raise TableError("The host cannot leave; abandon the game with /game abandon instead.")
            del seats[seat]

        return await self._change_seats(game_id, change)

    async def take_over(
        self, game_id: int, user_id: int, seat_user: int | None = None, is_admin: bool = False
    ) -> Update:
        """A running game's seat goes to the AI: the player leaves (``seat_user`` is
        None or themselves), or the host / a Manage Server member hands over
        another player's seat. The AI then moves whenever that seat must act."""
        target = user_id if seat_user is None else seat_user
        async with self._lock(game_id):
            row = await self._load(game_id)
            if row.status != "active":
                raise TableError("Only a running game's seats can be handed to the AI; in a lobby use Leave.")
            if target != user_id and user_id != row.host_id and not is_admin:
                raise TableError(
                    "Only the host or a member with Manage Server can hand another player's seat to the AI."
                )
            seat = row.seat_of(target)
            if seat is None:
                raise TableError("That player holds no seat in this game.")
            try:
                await self.store.hand_to_ai(game_id, row.version, seat)
            except Conflict:
                raise TableError("The game changed at the same moment; please try again.") from None
            name = row.seats[seat].name
        events = await self._run_ai(game_id)
        return await self.board(
            game_id, events=events, intro=f"{name} left; the AI plays their seat from now on."
        )

    async def add_ai(self, game_id: int, user_id: int) -> Lobby:
        def change(row: GameRow, seats: list[SeatRow]) -> None:
            game = core.get(row.game_key)
            if row.seat_of(user_id) is None and user_id != row.host_id:
                raise TableError("Only a seated player can add an AI player.")
            if len(seats) >= game.max_players:
                raise TableError(f"This game is full ({game.max_players} players).")
            n = sum(1 for s in seats if s.is_ai) + 1
            seats.append(SeatRow(len(seats), None, f"Bot {n}", True))

        return await self._change_seats(game_id, change)

    async def set_refs(self, game_id: int, **refs: int | None) -> None:
        await self.store.set_refs(game_id, **refs)

    async def start(self, game_id: int, user_id: int | None, run_ai: bool = True) -> Update:
        async with self._lock(game_id):
            row = await self._load(game_id)
            if row.status != "lobby":
                raise TableError("This game has already started.")
            if user_id is not None and user_id != row.host_id:
                raise TableError("Only the host can start the game.")
            game = core.get(row.game_key)
            n = len(row.seats)
            if n < game.min_players:
                raise TableError(
                    f"{game.title} needs at least {game.min_players} players; {n} seated. Add an AI or wait."
                )
            state = await asyncio.to_thread(game.new, n, row.options, row.seed)
            arm, _ = await self._timer_changes(row, set(), game.to_act(state))
            try:
                await self.store.start(game_id, row.version, state, arm)
            except Conflict:
                raise TableError("The lobby changed at the same moment; please try again.") from None
        events = await self._run_ai(game_id) if run_ai else []
        return await self.board(game_id, events=events, intro=f"**{game.title}** begins!")

    async def abandon(self, game_id: int, user_id: int, is_admin: bool) -> str:
        async with self._lock(game_id):
            row = await self._load(game_id)
            if row.status not in ("lobby", "active"):
                raise TableError(f"This game is already {row.status}.")
            if user_id != row.host_id and not is_admin:
                raise TableError("Only the host or a member with Manage Server can abandon a game.")
            try:
                await self.store.abandon(game_id, row.version)
            except Conflict:
                raise TableError("The game changed at the same moment; please try again.") from None
        return f"Game #{game_id} was abandoned."

    # ---- play ----------------------------------------------------------------
    def _acting_seat(self, row: GameRow, user_id: int) -> int:
        if row.status == "lobby":
            raise TableError("This game has not started yet.")
        if row.status != "active":
            raise TableError(f"This game is {row.status}.")
        seat = row.seat_of(user_id)
        if seat is None:
            raise TableError("You are not a player in this game.")
        assert row.state is not None
        if seat not in core.get(row.game_key).to_act(row.state):
            raise TableError("It is not your turn.")
        return seat

    async def act(
        self,
        game_id: int,
        user_id: int,
        text: str | None = None,
        button: tuple[int, int] | None = None,
    ) -> Update:
        """Apply one move of ``user_id``: typed ``text`` or a clicked ``button``
        (version, choice index). Then let AI seats move, and return the board."""
        t0 = time.perf_counter()
        ref = CHOICE_REF.fullmatch((text or "").strip())
        if ref is not None:  # an autocomplete reference to a long move: like a button
            text, button = None, (int(ref[1]), int(ref[2]))
        async with self._lock(game_id):
            row = await self._load(game_id)
            if button is not None and button[0] != row.version and row.seat_of(user_id) is not None:
                raise TableError("That button belongs to an earlier board; use the newest one.")
            seat = self._acting_seat(row, user_id)
            game = core.get(row.game_key)
            assert row.state is not None
            state = row.state
            if button is not None:
                version, index = button
                if version != row.version:
                    raise TableError("That button belongs to an earlier board; use the newest one.")
                options = game.legal_actions(state, seat)
                if not 0 <= index < len(options):
                    raise TableError("That choice is no longer available.")
                action = options[index]
            else:
                try:
                    action = game.parse((text or "").strip())
                except IllegalAction as exc:
                    raise TableError(str(exc)) from None
                except (ValueError, IndexError, KeyError, TypeError):
                    # A parser tripped on odd input (e.g. '①'.isdigit() is True but
                    # int('①') fails): still the player's typo, not the bot's failure.
                    # Not the text itself: a refused secret order is still the player's secret.
                    log.info(
                        "parser of %s refused a %d-character move with an exception",
                        row.game_key,
                        len(text or ""),
                    )
                    raise TableError(
                        f"'{(text or '').strip()[:40]}' is not a move in {game.title}; pick one from the list or see /rules."
                    ) from None
            try:
                new, events = game.apply(state, seat, action)
            except IllegalAction as exc:
                raise TableError(str(exc)) from None
            await self._commit(row, [(seat, user_id, game.format(action))], new)
        t1 = time.perf_counter()
        ai_events = await self._run_ai(game_id)
        update = await self.board(game_id, events=events + ai_events, before=row, actor=(user_id, seat))
        update.timings["apply_save"] = t1 - t0
        return update

    async def _commit(
        self,
        row: GameRow,
        moves: list[tuple[int, int | None, str]],
        new: dict[str, Any],
        fired_timer: int | None = None,
    ) -> int:
        game = core.get(row.game_key)
        assert row.state is not None
        over = game.is_over(new)
        result = game.result(new).to_json() if over else None
        before, after = game.to_act(row.state), set() if over else game.to_act(new)
        arm, disarm = await self._timer_changes(row, before, after)
        # The store is handed the snapshot as text, the bytes it writes (the benchmark
        # times the encoding and the commit apart, see docs/performance.md).
        snapshot = encode_state(new)
        try:
            return await self.store.commit_move(
                row.id, row.version, moves, snapshot, result, before != after, arm, disarm, fired_timer
            )
        except Conflict:
            raise TableError(
                "That move was already taken or the game moved on; look at the newest board."
            ) from None

    # ---- settings and timers ----------------------------------------------------------
    async def settings_for(self, row: GameRow) -> dict[str, Any]:
        return {**await self.guild_settings(row.guild_id), **row.settings}

    async def _timer_changes(
        self, row: GameRow, before: set[int], after: set[int]
    ) -> tuple[list[tuple[int, str, float]], list[int]]:
        """Timers for seats that start owing a move; seats that stop owing lose theirs."""
        humans = {s.seat for s in row.seats if not s.is_ai}
        newly = sorted((after - before) & humans)
        gone = sorted((before - after) & humans)
        if not newly:
            return [], gone
        cfg = await self.settings_for(row)
        now = self.clock()
        arm: list[tuple[int, str, float]] = []
        for seat in newly:
            base = now
            uid = row.seats[seat].user_id
            away = await self.store.vacation(uid) if uid is not None else None
            if away is not None and away[1] > now:
                base = away[1]
            if cfg["reminder_hours"]:
                arm.append((seat, "reminder", base + cfg["reminder_hours"] * HOUR))
            if cfg["deadline_hours"]:
                arm.append((seat, "deadline", base + cfg["deadline_hours"] * HOUR))
        return arm, gone

    async def step_ai(self, game_id: int) -> list[Event] | None:
        """One AI move if an AI seat is to act. Returns its events, or None."""
        async with self._lock(game_id):
            row = await self._load(game_id)
            if row.status != "active" or row.state is None:
                return None
            game = core.get(row.game_key)
            ai_seats = sorted(s for s in game.to_act(row.state) if row.seats[s].is_ai)
            if not ai_seats:
                return None
            seat = ai_seats[0]
            action = await asyncio.to_thread(game.ai_action, row.state, seat)
            new, events = game.apply(row.state, seat, action)
            await self._commit(row, [(seat, None, game.format(action))], new)
            return events

    async def _run_ai(self, game_id: int) -> list[Event]:
        """Let AI seats move until a human must act. An AI failure is logged and
        stops the loop: the moves already taken stand, and the next start retries."""
        out: list[Event] = []
        while True:
            try:
                events = await self.step_ai(game_id)
            except TableError:
                break  # another task moved the game on at the same moment
            except Exception:
                log.exception("AI move failed in game %s", game_id)
                break
            if events is None:
                return out
            out.extend(events)
        return out

    async def warm_up(self) -> None:
        """Draw one opening board of every game, off the loop. The first board after a
        start-up otherwise pays for importing its renderer and loading fonts (a Dungeon
        Lords board: 230 ms cold, 60 ms warm), and a player would wait for it."""
        t0 = time.perf_counter()
        for key in core.available():
            try:
                await asyncio.to_thread(_draw_opening, key)
            except Exception:  # a warm-up is a courtesy: a failure shows on the real board
                log.exception("warm-up render of %s failed", key)
        log.info("renderers warm in %.2f s", time.perf_counter() - t0)

    async def resume_all(self) -> int:
        """After a restart: let AI seats that owe a move take it. Returns games touched."""
        n = 0
        for game_id in await self.store.active_with_ai():
            if await self._run_ai(game_id):
                n += 1
        return n

    # ---- views ---------------------------------------------------------------
    async def board(
        self,
        game_id: int,
        events: list[Event] | None = None,
        intro: str | None = None,
        before: GameRow | None = None,
        actor: tuple[int, int] | None = None,
    ) -> Update:
        row = await self._load(game_id)
        if row.state is None:
            raise TableError("This game has not started yet.")
        game = core.get(row.game_key)
        state = row.state
        view = game.view(state, None)
        t0 = time.perf_counter()
        # The board and each step image are drawn at once on worker threads: Pillow
        # lets go of the GIL while it fills, quantizes and encodes, so on two cores a
        # battle's images no longer wait for the board (docs/performance.md).
        mod = renderer(row.game_key)
        jobs: list[Any] = []
        if before is not None and before.state is not None:
            view_before = game.view(before.state, None)
            try:
                if hasattr(mod, "step_jobs"):
                    jobs = [
                        asyncio.to_thread(job) for job in mod.step_jobs(view_before, view)[:MAX_STEP_IMAGES]
                    ]
                elif hasattr(mod, "render_steps"):
                    jobs = [asyncio.to_thread(mod.render_steps, view_before, view)]
            except Exception:
                log.exception("step render failed for game %s version %s", row.id, row.version)
        drawn = await asyncio.gather(asyncio.to_thread(mod.render, view), *jobs, return_exceptions=True)
        render_s = time.perf_counter() - t0
        png = drawn[0] if isinstance(drawn[0], bytes) else None
        if isinstance(drawn[0], BaseException):  # the move is saved; a drawing failure must not hide that
            log.error("render failed for game %s version %s", row.id, row.version, exc_info=drawn[0])
        steps: list[bytes] = []
        for d in drawn[1:]:
            if isinstance(d, BaseException):
                log.error("step render failed for game %s version %s", row.id, row.version, exc_info=d)
            else:
                steps.extend(d if isinstance(d, list) else [d])
        steps = steps[:MAX_STEP_IMAGES]

        head: list[str] = [intro] if intro else []
        news = [e.text for e in events or [] if e.seat is None]
        lines: list[str] = []  # what follows the news: status or result, seats, who is away
        private: dict[int, list[str]] = {}
        for e in events or []:
            if e.seat is not None and row.seats[e.seat].user_id is not None and not row.seats[e.seat].is_ai:
                private.setdefault(row.seats[e.seat].user_id, []).append(e.text)  # type: ignore[arg-type]
        over = game.is_over(state)
        ping: list[int] = []
        choose = False
        if over:
            lines.append(self.result_text(row))
        else:
            acting = sorted(game.to_act(state))
            was = game.to_act(before.state) if before is not None and before.state is not None else set()
            names = ", ".join(display_name(row, s) for s in acting)
            status = game.status(state)
            lines.append(f"{status} Waiting for: {names}." if status else f"Waiting for: {names}.")
            for s in acting:
                uid = row.seats[s].user_id
                if uid is not None and not row.seats[s].is_ai and (s not in was or actor == (uid, s)):
                    ping.append(uid)
            choose = any(not row.seats[s].is_ai for s in acting)
        actor_private = None
        if actor is not None:
            actor_private = self.named(row, "\n".join(private.pop(actor[0], []))) or None
        # Boards and engine texts number the seats (P1, P2...): say who is who.
        lines.append("Seats: " + ", ".join(f"P{i + 1} {display_name(row, i)}" for i in range(len(row.seats))))
        if not over:
            away = await self._away_names(row)
            if away:
                lines.append(away)
        dm = [u for u in ping if await self.store.wants_dm(u)]
        result_png = None
        if over:
            try:
                result_png = await asyncio.to_thread(self._result_png, row)
            except Exception:
                log.exception("result render failed for game %s", row.id)
        return Update(
            game_id=row.id,
            version=row.version,
            thread_id=row.thread_id,
            text=fit_message(
                self.named(row, "\n".join(head)),
                [self.named(row, n) for n in news],
                self.named(row, "\n".join(lines)),
            ),
            png=png,
            ping=ping,
            actor_private=actor_private,
            private={u: self.named(row, "\n".join(t)) for u, t in private.items()},
            choose=choose,
            dm=dm,
            result_png=result_png,
            steps=steps,
            over=over,
            moves=row.moves,
            timings={"render": render_s},
        )

    @staticmethod
    def named(row: GameRow, text: str) -> str:
        """Replace the engine's "Player N" with the name of seat N-1."""

        def name(m: re.Match[str]) -> str:
            seat = int(m.group(1)) - 1
            return display_name(row, seat) if seat < len(row.seats) else m.group(0)

        return PLAYER_REF.sub(name, text)

    async def move_choices(self, game_id: int, user_id: int, version: int) -> list[tuple[str, int]]:
        """The acting user's legal moves as (label, index) for private buttons."""
        row = await self._load(game_id)
        if version != row.version:
            raise TableError("That board is out of date; use the newest one.")
        seat = self._acting_seat(row, user_id)
        game = core.get(row.game_key)
        assert row.state is not None
        options = game.legal_actions(row.state, seat)
        if len(options) > MAX_BUTTONS:
            raise TableError(
                f"You have {len(options)} possible moves: use /play and pick from the list or type one."
            )
        return [(self.named(row, game.describe(row.state, a))[:80], i) for i, a in enumerate(options)]

    def result_text(self, row: GameRow) -> str:
        game = core.get(row.game_key)
        assert row.state is not None
        res = game.result(row.state)
        lines = ["**Final scores**"]
        for place, group in enumerate(res.ranking, 1):
            for s in group:
                parts = ", ".join(f"{k} {v}" for k, v in (res.breakdown[s] if res.breakdown else {}).items())
                shared = " (shared)" if len(group) > 1 else ""
                lines.append(
                    f"{place}. {display_name(row, s)}: {res.scores[s]}{shared}"
                    + (f" ({parts})" if parts else "")
                )
        winners = " and ".join(display_name(row, s) for s in res.winners)
        lines.append(f"Winner: {winners}!")
        return "\n".join(lines)

    async def hand(self, game_id: int, user_id: int) -> tuple[str, bytes | None]:
        """Private text (and image, if the game draws one) for ``user_id``."""
        row = await self._load(game_id)
        seat = row.seat_of(user_id)
        if seat is None:
            raise TableError("You are not a player in this game.")
        if row.state is None:
            raise TableError("This game has not started yet.")
        game = core.get(row.game_key)
        text = self.named(row, game.private_text(row.state, seat))
        png = None
        mod = renderer(row.game_key)
        if hasattr(mod, "render_private"):
            try:
                png = await asyncio.to_thread(mod.render_private, game.view(row.state, seat))
            except Exception:
                log.exception("private render failed for game %s", row.id)
        return text, png

    async def choices(
        self, game_id: int, user_id: int, prefix: str = "", limit: int = 25
    ) -> list[tuple[str, str]]:
        """Autocomplete for /play: (label, notation) of legal moves matching ``prefix``."""
        row = await self.store.get(game_id)
        if row is None or row.status != "active" or row.state is None:
            return []
        seat = row.seat_of(user_id)
        game = core.get(row.game_key)
        if seat is None or seat not in game.to_act(row.state):
            return []
        out: list[tuple[str, str]] = []
        p = prefix.strip().lower()
        for i, a in enumerate(game.legal_actions(row.state, seat)):
            note = game.format(a)
            label = self.named(row, game.describe(row.state, a))
            if not p or note.lower().startswith(p) or p in label.lower():
                # Discord caps a choice's value at 100 characters: a longer move
                # (a long hero path) is sent as a reference to this board's choice.
                value = note if len(note) <= 100 else f"#{row.version}.{i}"
                out.append((label[:100], value))
            if len(out) >= limit:
                break
        return out

    # ---- results and stats ------------------------------------------------------------
    def _result_png(self, row: GameRow) -> bytes:
        from render import summary

        game = core.get(row.game_key)
        assert row.state is not None
        res = game.result(row.state)
        names = [display_name(row, s) for s in range(len(row.seats))]
        return summary.results(game.title, f"Game #{row.id}", names, res.to_json())

    async def stats(self, guild_id: int | None, game_key: str | None = None) -> tuple[str, bytes | None]:
        """Games played, wins and average scores per player in a server (optionally one game)."""
        rows = [r for r in await self.store.games(guild_id, "over") if game_key in (None, r.game_key)]
        if not rows:
            return "No finished games here yet.", None
        table: dict[int | str, dict[str, Any]] = {}
        for r in rows:
            if r.result is None:
                continue
            for s in r.seats:
                key: int | str = s.user_id if s.user_id is not None and not s.is_ai else f"AI:{s.name}"
                e = table.setdefault(
                    key, {"name": s.name + (" (AI)" if s.is_ai else ""), "games": 0, "wins": 0, "total": 0}
                )
                e["games"] += 1
                e["total"] += r.result["scores"][s.seat]
                if s.seat in r.result["winners"]:
                    e["wins"] += 1
        board = sorted(table.values(), key=lambda e: (-e["wins"], -e["total"] / e["games"], e["name"]))
        title = core.get(game_key).title if game_key else "All games"
        lines = [f"**{title}**: {len(rows)} games played."]
        for i, e in enumerate(board[:20], 1):
            lines.append(
                f"{i}. {e['name']}: {e['wins']} wins in {e['games']} games, average score {e['total'] / e['games']:.1f}"
            )
        from render import summary

        png = await asyncio.to_thread(
            summary.leaderboard,
            title,
            f"{len(rows)} games played",
            [(e["name"], e["games"], e["wins"], round(e["total"] / e["games"], 1)) for e in board[:15]],
        )
        return "\n".join(lines), png

    # ---- slow play: settings, notifications, vacations, my games ---------------------------
    async def set_guild_settings(self, guild_id: int, changes: dict[str, Any]) -> dict[str, Any]:
        current = await self.store.guild_settings(guild_id)
        current.update(check_settings(changes))
        await self.store.set_guild_settings(guild_id, current)
        return {**DEFAULT_SETTINGS, **current}

    async def guild_settings(self, guild_id: int | None) -> dict[str, Any]:
        """The server's settings over the defaults."""
        return {**DEFAULT_SETTINGS, **await self.store.guild_settings(guild_id)}

    async def set_notify(self, user_id: int, dm: bool) -> str:
        await self.store.set_dm(user_id, dm)
        if dm:
            return "You will also get a DM when it is your turn (if your DMs are open)."
        return "You will only be pinged in the game threads."

    async def set_vacation(self, user_id: int, hours: float, guild_id: int | None = None) -> str:
        """Pause the user's deadlines for ``hours`` (0 ends a vacation early)."""
        if not 0 <= hours <= 24 * 60:
            raise TableError("A vacation lasts from 0 (back now) to 1440 hours (60 days).")
        now = self.clock()
        current = await self.store.vacation(user_id)
        if hours == 0:
            if current is None or current[1] <= now:
                raise TableError("You are not on vacation.")
            await self.store.shift_deadlines(user_id, -(current[1] - now), guild_id)
            await self.store.set_vacation(user_id, now, None)
            return "Welcome back: your deadlines run again."
        until = now + hours * HOUR
        already = current[1] - now if current is not None and current[1] > now else 0.0
        await self.store.shift_deadlines(user_id, until - now - already, guild_id)
        await self.store.set_vacation(user_id, now, until)
        return f"Your deadlines are paused until <t:{int(until)}:f>; your games show you as away."

    async def _away_names(self, row: GameRow) -> str:
        now = self.clock()
        away = []
        for s in row.seats:
            if s.user_id is not None and not s.is_ai:
                v = await self.store.vacation(s.user_id)
                if v is not None and v[1] > now:
                    away.append(f"{s.name} is away until <t:{int(v[1])}:f>")
        return ("; ".join(away) + ".") if away else ""

    async def my_games(self, user_id: int, guild_id: int | None) -> list[dict[str, Any]]:
        """The user's open games, the ones waiting on them first."""
        out = []
        for row in await self.store.games_of_user(user_id, guild_id):
            game = core.get(row.game_key)
            seat = row.seat_of(user_id)
            if row.status == "lobby" or row.state is None:
                waiting, names = False, "lobby (not started)"
            else:
                acting = sorted(game.to_act(row.state))
                waiting = seat in acting
                names = ", ".join(display_name(row, s) for s in acting)
            out.append(
                {
                    "game_id": row.id,
                    "title": game.title,
                    "thread_id": row.thread_id,
                    "waiting_on_you": waiting,
                    "whose_turn": names,
                    "since": row.turn_since or row.created_at,
                }
            )
        out.sort(key=lambda g: (not g["waiting_on_you"], g["since"]))
        return out

    # ---- timers: reminders and deadlines --------------------------------------------------
    async def next_due(self) -> float | None:
        return await self.store.next_due()

    async def fire_due(self, now: float | None = None) -> list[Notice]:
        """Fire every timer due at ``now``. Each fires once: a reminder is moved to
        its next time, a deadline is consumed in the same transaction as what it does."""
        now = self.clock() if now is None else now
        notices: list[Notice] = []
        for timer_id, game_id, seat, kind, due in await self.store.claim_due(now):
            try:
                notice = await self._fire(timer_id, game_id, seat, kind, due, now)
            except TableError:
                notice = None  # the game moved on at the same moment: nothing to do
            except Exception:
                log.exception("timer %s (%s) failed for game %s", timer_id, kind, game_id)
                await self.store.reschedule(timer_id, now + HOUR)  # retry later, never spin
                notice = None
            if notice is not None:
                notices.append(notice)
        return notices

    async def _fire(
        self, timer_id: int, game_id: int, seat: int, kind: str, due: float, now: float
    ) -> Notice | None:
        async with self._lock(game_id):
            row = await self._load(game_id)
            game = core.get(row.game_key)
            if row.status != "active" or row.state is None or seat not in game.to_act(row.state):
                await self.store.reschedule(timer_id, None)
                return None
            uid = row.seats[seat].user_id
            cfg = await self.settings_for(row)
            away = await self.store.vacation(uid) if uid is not None else None
            if kind == "reminder":
                if away is not None and away[1] > now:
                    await self.store.reschedule(timer_id, away[1])
                    return None
                interval = cfg["reminder_hours"] * HOUR
                if not await self.store.reschedule(
                    timer_id, max(due + interval, now + 60) if interval else None, was=due
                ):
                    return None
                since = int(row.turn_since or row.created_at)
                ping = [uid] if uid is not None else []
                text = f"Reminder: {game.title} #{row.id} is waiting for your move (since <t:{since}:R>)."
                dm = [u for u in ping if await self.store.wants_dm(u)]
                return Notice("reminder", game_id, row.thread_id, text, ping, dm)
            # deadline
            name = display_name(row, seat)
            policy = cfg["on_deadline"]
            if policy == "abandon":
                await self.store.abandon(game_id, row.version)
                text = f"{name} missed the turn deadline, so game #{row.id} was abandoned."
                return Notice("deadline", game_id, row.thread_id, text)
            action = game.pass_action(row.state, seat) if policy == "skip" else None
            how = "was skipped"
            if action is None:
                action = await asyncio.to_thread(game.ai_action, row.state, seat)
                how = "had the AI play the move"
            new, events = game.apply(row.state, seat, action)
            await self._commit(row, [(seat, None, game.format(action))], new, fired_timer=timer_id)
        events = events + await self._run_ai(game_id)
        intro = f"{name} missed the turn deadline and {how}."
        update = await self.board(game_id, events=events, intro=intro, before=row)
        return Notice("deadline", game_id, row.thread_id, intro, update.ping, update.dm, update)

    # ---- history, replay, undo ----------------------------------------------------------------
    async def history(self, game_id: int, page: int = 1, per_page: int = 20) -> tuple[str, int]:
        """One page of the move log in the public notation. Returns (text, pages)."""
        row = await self._load(game_id)
        if row.state is None:
            raise TableError("This game has not started yet.")
        game = core.get(row.game_key)
        entries = await self.store.log_full(game_id)
        pages = max(1, -(-len(entries) // per_page))
        if not 1 <= page <= pages:
            raise TableError(f"Page {page} does not exist; this history has {pages} page(s).")
        first = (page - 1) * per_page
        state = await asyncio.to_thread(
            replayed, row, [(seat, note) for _q, seat, _u, note, _at in entries[:first]]
        )
        lines = []
        for i, (_seq, seat, _uid, note, at) in enumerate(entries[first : first + per_page], first):
            action = game.parse(note)
            shown = game.public_format(state, seat, action)
            lines.append(f"{i + 1}. {display_name(row, seat)}: `{shown}` <t:{int(at)}:R>")
            state, _ = game.apply(state, seat, action)
        head = f"**{game.title} #{row.id}** - moves {first + 1}-{first + len(lines)} of {len(entries)} (page {page}/{pages})"
        return "\n".join([head, *lines]) if lines else head + "\nNo moves yet.", pages

    async def replay_png(self, game_id: int, move: int) -> tuple[str, bytes]:
        """The public board after move number ``move`` (0 = the start) of a finished game."""
        row = await self._load(game_id)
        if row.status != "over":
            raise TableError("Replays are for finished games; use /board to see this game now.")
        game = core.get(row.game_key)
        entries = await self.store.log(game_id)
        if not 0 <= move <= len(entries):
            raise TableError(f"Choose a move from 0 to {len(entries)}.")
        state = await asyncio.to_thread(replayed, row, [(seat, note) for _q, seat, note in entries[:move]])
        png = await asyncio.to_thread(renderer(row.game_key).render, game.view(state, None))
        return f"{game.title} #{row.id} after move {move} of {len(entries)}.", png

    async def undo(self, game_id: int, user_id: int) -> Update:
        """Take back the user's last move, if nobody has acted since and it revealed nothing."""
        async with self._lock(game_id):
            row = await self._load(game_id)
            if row.status != "active" or row.state is None:
                raise TableError("Only a running game's moves can be taken back.")
            seat = row.seat_of(user_id)
            if seat is None:
                raise TableError("You are not a player in this game.")
            game = core.get(row.game_key)
            entries = await self.store.log(game_id)
            if not entries or entries[-1][1] != seat:
                raise TableError("You can only take back your own move, and only before anyone else acts.")
            state = await asyncio.to_thread(replayed, row, [(s, note) for _q, s, note in entries[:-1]])
            action = game.parse(entries[-1][2])
            if not game.can_undo(state, row.state, seat, action):
                raise TableError(
                    "That move revealed something new (a draw, a die roll or a hidden card), so it stands."
                )
            before, after = game.to_act(row.state), game.to_act(state)
            arm, disarm = await self._timer_changes(row, before, after)
            try:
                await self.store.undo(game_id, row.version, entries[-1][0], state, arm, disarm)
            except Conflict:
                raise TableError("The game moved on at the same moment; the move stands.") from None
        return await self.board(game_id, intro=f"{display_name(row, seat)} took back their last move.")
