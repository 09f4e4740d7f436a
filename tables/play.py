"""Play: who may act, one move from a button or typed notation, the AI loop,
and the lists of moves (autocomplete, private buttons)."""

from __future__ import annotations

import asyncio
import importlib
import logging
import re
import time
from typing import TYPE_CHECKING

import render
from engine import core
from engine.core import Action, Event, IllegalAction
from store import CommitUnknown, DatabaseTimeout, GameRow
from tables import ratings
from tables.base import NOT_TAKEN, UNSURE, MoveTaken, TablesBase
from tables.results import TableError, Update
from tables.text import display_name, named
from tables.thinking import RETHINK, Job, job_for
from tables.turns import ONLY_MOVE, Said, only_move, public, said
from tables.upkeep import PAUSED

log = logging.getLogger("lairkeeper.tables")

# "/play #<version>.<index>": an autocomplete value standing for a move too long to send.
CHOICE_REF = re.compile(r"#(\d{1,9})\.(\d{1,4})")

STALE = "That button belongs to an earlier board; use the newest one."


def parse_move(row: GameRow, text: str) -> Action:
    """A typed move, or TableError with one sentence."""
    game = core.get(row.game_key)
    try:
        return game.parse(text.strip())
    except IllegalAction as exc:
        raise TableError(named(row, str(exc))) from None
    except (ValueError, IndexError, KeyError, TypeError):
        # A parser tripped on odd input (e.g. '①'.isdigit() is True but
        # int('①') fails): still the player's typo, not the bot's failure.
        # Not the text itself: a refused secret order is still the player's secret.
        log.info("parser of %s refused a %d-character move with an exception", row.game_key, len(text))
        raise TableError(
            f"'{text.strip()[:40]}' is not a move in {game.title}; pick one from the list or see /rules."
        ) from None


def not_your_turn(row: GameRow) -> str:
    """The refusal of a move out of turn, saying whose turn it is and what they do:
    "It is not your turn: Bob is choosing a card." (issue 28)."""
    game = core.get(row.game_key)
    assert row.state is not None
    status = named(row, game.status(row.state)).strip()
    acting = [display_name(row, s) for s in sorted(game.to_act(row.state))]
    for name in acting:  # a sentence of the status that starts with the player's name
        for lead in ("", ": ", ". "):
            at = status.find(lead + name + " ") if lead else (0 if status.startswith(name + " ") else -1)
            if at < 0:
                continue
            body = status[at + len(lead) :].rstrip(".")
            where = status[:at].strip(" :.")
            return f"It is not your turn: {body}." + (f" {where}." if where else "")
    if any(name in status for name in acting):
        return f"It is not your turn. {status}"
    waiting = " and ".join(acting) if len(acting) <= 2 else ", ".join(acting[:-1]) + " and " + acting[-1]
    return f"It is not your turn: {waiting} {'is' if len(acting) == 1 else 'are'} to play." + (
        f" {status}" if status else ""
    )


def _draw_opening(game_key: str) -> None:
    game = core.get(game_key)
    state = game.new(game.min_players, None, 0)
    render.get(game_key).board(game.view(state, None), render.default_names(game.min_players))


class PlayMixin(TablesBase):
    if TYPE_CHECKING:  # tables/turns.py

        async def _after_move(
            self, game_id: int, before: GameRow, user_id: int, seat: int, events: list[Event]
        ) -> Update: ...

        async def _board_due(self, row: GameRow) -> bool: ...

        async def news(self, row: GameRow) -> list[Said]: ...

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
            raise TableError(not_your_turn(row))
        return seat

    def _chosen(self, row: GameRow, seat: int, text: str | None, button: tuple[int, int] | None) -> Action:
        """The action a button (version, index) or typed text names."""
        if button is None:
            return parse_move(row, text or "")
        version, index = button
        if version != row.version:
            raise TableError(STALE)
        assert row.state is not None
        options = core.get(row.game_key).legal_actions(row.state, seat)
        if not 0 <= index < len(options):
            raise TableError("That choice is no longer available.")
        return options[index]

    async def act(
        self,
        game_id: int,
        user_id: int,
        text: str | None = None,
        button: tuple[int, int] | None = None,
        version: int | None = None,
        key: str | None = None,
        think: bool = True,
    ) -> Update:
        """Apply one move of ``user_id``: typed ``text`` or a clicked ``button``
        (version, choice index); ``version`` refuses the move if the game has moved
        on (the chooser's Done). Then let AI seats move, and return the board.
        ``key``: the idempotency key of the interaction (cogs/idempotency.py): kept
        with the move; a second try with the same key raises AlreadyTaken.
        ``think`` False: computer players that think in the pool do not move here
        (only those that answer at once); the Update says ``thinking`` and the
        caller lets them move after answering (``computers_move``)."""
        with self._moving(game_id):
            return await self._act(game_id, user_id, text, button, version, key, think)

    async def _act(
        self,
        game_id: int,
        user_id: int,
        text: str | None,
        button: tuple[int, int] | None,
        version: int | None,
        key: str | None = None,
        think: bool = True,
    ) -> Update:
        t0 = time.perf_counter()
        ref = CHOICE_REF.fullmatch((text or "").strip())
        if ref is not None:  # an autocomplete reference to a long move: like a button
            text, button = None, (int(ref[1]), int(ref[2]))
        try:
            row, seat, events = await self._act_locked(game_id, user_id, text, button, version, key)
        except CommitUnknown:
            raise TableError(UNSURE) from None
        except DatabaseTimeout:
            raise TableError(NOT_TAKEN) from None
        # Saved: from here on nothing may tell the player the move was not taken.
        t1 = time.perf_counter()
        await self._run_ai(game_id, think)
        try:
            update = await self._after_move(game_id, row, user_id, seat, events)
            if not think and await self._thinker_to_move(game_id):
                update.thinking, update.post = True, False  # the board comes after their moves
        except Exception:
            log.warning("game %s: move saved, board not built (it stays owed)", game_id, exc_info=True)
            raise MoveTaken() from None
        update.timings["apply_save"] = t1 - t0
        return update

    async def _thinker_to_move(self, game_id: int) -> bool:
        """Whether a computer player that thinks in the pool is to move now."""
        row = await self._load(game_id)
        if row.status != "active" or row.state is None or self.thinker.closed:
            return False
        acting = core.get(row.game_key).to_act(row.state)
        return any(row.seats[s].is_ai and row.seats[s].level != "easy" for s in acting)

    async def computers_move(self, game_id: int) -> Update | None:
        """After a person was answered: the computer players move (thinking as long
        as they need), then the turn's board, if one is owed (None otherwise)."""
        with self._moving(game_id):
            before = await self._load(game_id)
            await self._run_ai(game_id)
            now = await self._load(game_id)
            if now.version == before.version or not await self._board_due(now):
                return None
            return await self.board(game_id, events=public(await self.news(now)), before=before)

    async def _act_locked(
        self,
        game_id: int,
        user_id: int,
        text: str | None,
        button: tuple[int, int] | None,
        version: int | None,
        key: str | None = None,
    ) -> tuple[GameRow, int, list[Event]]:
        """Load, check, apply and save one move under the game's lock."""
        async with self._lock(game_id):
            row = await self._load(game_id)
            await self._not_again(game_id, key)
            stale = version if button is None else button[0]
            if stale is not None and stale != row.version and row.seat_of(user_id) is not None:
                raise TableError(STALE)
            seat = self._acting_seat(row, user_id)
            if await self.is_paused(game_id):
                raise TableError(PAUSED)
            game = core.get(row.game_key)
            assert row.state is not None
            action = self._chosen(row, seat, text, button)
            try:
                new, events = game.apply(row.state, seat, action)
            except IllegalAction as exc:
                raise TableError(named(row, str(exc))) from None
            await self._commit(
                row,
                [(seat, user_id, game.format(action))],
                new,
                news=[said(game, row.state, seat, action, events)],
                key=key,
            )
            # The player moved: a half-made move of theirs (typed past it) is void. Read
            # first: most moves have no draft, and a read costs less than a transaction.
            # Saved already: a failure here is logged, never reported as a refusal.
            try:
                if await self.store.get_draft(game_id, user_id) is not None:
                    await self.store.set_draft(game_id, user_id, row.version, None)
            except Exception:
                log.warning("game %s: draft of a saved move not cleared", game_id, exc_info=True)
        return row, seat, events

    # ---- the AI, and moves a person has no choice about ------------------------------
    async def step_ai(self, game_id: int) -> list[Event] | None:
        """One move the bot makes: an AI seat's, else a person's only legal move
        that reveals nothing (issue 26 item 3; the ``auto_play`` setting). Returns
        its events, or None when every seat to act has a choice to make.

        A computer player thinks (up to seconds, tables/thinking.py) on a snapshot,
        outside the game's lock: a person's click in the same game (simultaneous
        orders) is never held up by it. The move is applied under the lock only if
        the game is where the player saw it, else the player thinks again."""
        for _ in range(RETHINK):
            row = await self._load(game_id)
            if row.status != "active" or row.state is None or await self.is_paused(game_id):
                return None
            game = core.get(row.game_key)
            acting = sorted(game.to_act(row.state))
            ai_seats = [s for s in acting if row.seats[s].is_ai]
            intro: list[Event] = []
            job: Job | None = None
            if ai_seats:
                seat = ai_seats[0]
                job = job_for(game, row.state, seat, row.seats[seat].level)
                action = await self.thinker.decide(job)
            else:
                humans = [s for s in acting if not row.seats[s].is_ai]
                if not humans or not (await self.settings_for(row)).get("auto_play", True):
                    return None
                found = await asyncio.to_thread(only_move, game, row.state, humans)
                if found is None:
                    return None
                seat, action = found
                intro = [Event(ONLY_MOVE.format(core.seat_ref(seat)))]
            async with self._lock(game_id):
                now = await self._load(game_id)
                if now.status != "active" or now.state is None or await self.is_paused(game_id):
                    return None
                if now.version != row.version and not (
                    job is not None and self._same_decision(now, seat, job)
                ):
                    continue  # the game moved on while the player thought: think again
                new, events = game.apply(now.state, seat, action)
                told = said(game, now.state, seat, action, intro + events)
                await self._commit(now, [(seat, None, game.format(action))], new, news=[told])
                return told.events
        log.info("game %s: the AI's move was overtaken %d times; it moves at the next turn", game_id, RETHINK)
        return None

    @staticmethod
    def _same_decision(now: GameRow, seat: int, job: Job) -> bool:
        """Whether a decision made for ``job`` still stands in ``now``: the seat is
        still a computer seat of that level and to act, and sees exactly what it saw,
        with the same legal moves (another seat's secret order came in meanwhile).
        The player decided on that view and those moves alone, so it would decide
        the same again (up to its randomness)."""
        game = core.get(now.game_key)
        assert now.state is not None
        s = now.seats[seat]
        return (
            s.is_ai
            and s.level == job.level
            and seat in game.to_act(now.state)
            and game.view(now.state, seat) == job.view
            and game.legal_actions(now.state, seat) == job.legal
        )

    async def _run_ai(self, game_id: int, think: bool = True) -> list[Event]:
        """Let the bot move (AI seats, a person's only move) until a person must
        choose (``think`` False: or a computer player that thinks in the pool is to
        move). An AI failure is logged and stops the loop: the moves already taken
        stand, and the next start retries."""
        out: list[Event] = []
        with self._moving(game_id):
            return await self._ai_loop(game_id, out, think)

    async def _ai_loop(self, game_id: int, out: list[Event], think: bool = True) -> list[Event]:
        while True:
            try:
                if not think and await self._thinker_to_move(game_id):
                    return out
                events = await self.step_ai(game_id)
            except TableError:
                break  # another task moved the game on at the same moment
            except DatabaseTimeout:  # the moves already taken stand; the timer loop goes on
                log.warning("AI move in game %s waits for the database", game_id)
                break
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
        # What is imported only when first used (the picture of what changed since a
        # player's last move, tables/since.py; the rating library, tables/ratings.py)
        # is loaded here too, off the loop, before a player's click needs it.
        await asyncio.to_thread(importlib.import_module, "render.since")
        await asyncio.to_thread(ratings.model)
        for key in core.available():
            try:
                await asyncio.to_thread(_draw_opening, key)
            except Exception:  # a warm-up is a courtesy: a failure shows on the real board
                log.exception("warm-up render of %s failed", key)
        log.info("renderers warm in %.2f s", time.perf_counter() - t0)

    async def resume_all(self) -> int:
        """After a restart: let AI seats that owe a move take it. Returns games touched.
        Games resume side by side, as many at once as the pool has workers: one after
        another, a searching player's 2 s a move held every later game's board back
        (the boards are posted once all have moved)."""
        at_once = asyncio.Semaphore(max(1, self.thinker.workers))

        async def one(game_id: int) -> bool:
            async with at_once:
                return bool(await self._run_ai(game_id))

        moved = await asyncio.gather(*(one(g) for g in await self.store.active_with_ai()))
        return sum(moved)

    # ---- lists of moves ---------------------------------------------------------------
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
            label = named(row, game.describe(row.state, a))
            if not p or note.lower().startswith(p) or p in label.lower():
                # Discord caps a choice's value at 100 characters: a longer move
                # (a long hero path) is sent as a reference to this board's choice.
                value = note if len(note) <= 100 else f"#{row.version}.{i}"
                out.append((label[:100], value))
            if len(out) >= limit:
                break
        return out
