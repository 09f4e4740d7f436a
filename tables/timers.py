"""Slow play: reminders and turn deadlines (stored timers), vacations, my games."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from engine import core
from engine.core import Action, State
from store import DatabaseTimeout, GameRow
from tables.base import TablesBase
from tables.results import HOUR, Notice, TableError
from tables.text import display_name
from tables.thinking import RETHINK, job_for
from tables.turns import play_turn, public
from tables.upkeep import PAUSE_SHIFT

if TYPE_CHECKING:
    from tables.turns import Said

log = logging.getLogger("lairkeeper.tables")


def one_board_a_game(notices: list[Notice]) -> list[Notice]:
    """Two deadlines of one game firing in one pass each built a board from every
    move since the thread's last board, so the second repeated the first's lines
    (issue 39). The game's last board covers them all: it alone is posted, led by
    what the earlier deadlines did."""
    last = {n.game_id: i for i, n in enumerate(notices) if n.update is not None}
    earlier: dict[int, list[str]] = {}
    out: list[Notice] = []
    for i, n in enumerate(notices):
        if n.update is None:
            out.append(n)
        elif last[n.game_id] != i:
            earlier.setdefault(n.game_id, []).append(n.text)
        else:
            if n.game_id in earlier:
                n.update.text = "\n".join([*earlier[n.game_id], n.update.text])
            out.append(n)
    return out


class TimersMixin(TablesBase):
    if TYPE_CHECKING:  # tables/turns.py

        async def _owes_board(self, game_id: int) -> bool: ...

        async def news(self, row: GameRow) -> list[Said]: ...

    async def set_vacation(self, user_id: int, hours: float) -> str:
        """Pause the user's deadlines for ``hours`` (0 ends a vacation early). One
        vacation a person (issue 39): it pauses their deadlines in every game of every
        server, wherever it was started, and ends everywhere wherever it is ended."""
        if not 0 <= hours <= 24 * 60:
            raise TableError("A vacation lasts from 0 (back now) to 1440 hours (60 days).")
        now = self.clock()
        current = await self.store.vacation(user_id)
        left = current[1] - now if current is not None and current[1] > now else 0.0
        if hours == 0:
            if not left:
                raise TableError("You are not on vacation.")
            # Deadlines come back by the time not spent away, never into the past: a
            # deadline due within the hour gets the hour (the shortest deadline there is).
            await self.store.go_away(user_id, now, None, -left, now + HOUR)
            return "Welcome back: your deadlines run again."
        until = now + hours * HOUR
        await self.store.go_away(user_id, now, until, until - now - left, now)
        return f"Your deadlines are paused until <t:{int(until)}:f> in all your games; they show you as away."

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
            except DatabaseTimeout:
                # The database stalls: the timer stays claimed until its lease ends,
                # then fires (a deadline's move commits with the timer's removal, so
                # it never fires twice). Not postponed by an hour.
                raise
            except Exception:
                log.exception("timer %s (%s) failed for game %s", timer_id, kind, game_id)
                await self.store.reschedule(timer_id, now + HOUR)  # retry later, never spin
                notice = None
            if notice is not None:
                notices.append(notice)
        return one_board_a_game(notices)

    async def _fire(
        self, timer_id: int, game_id: int, seat: int, kind: str, due: float, now: float
    ) -> Notice | None:
        for _ in range(RETHINK):
            async with self._lock(game_id):
                row = await self._load(game_id)
                game = core.get(row.game_key)
                if row.status != "active" or row.state is None or seat not in game.to_act(row.state):
                    await self.store.reschedule(timer_id, None)
                    return None
                if await self.is_paused(game_id):  # armed while paused: wait for the resume
                    await self.store.reschedule(timer_id, due + PAUSE_SHIFT)
                    return None
                if kind == "reminder":
                    return await self._remind(row, timer_id, seat, due, now)
                name = display_name(row, seat)
                settings = await self.settings_for(row)
                policy = settings["on_deadline"]
                if policy == "abandon":
                    await self.store.abandon(game_id, row.version)
                    text = f"{name} missed the turn deadline, so game #{row.id} was abandoned."
                    return Notice("deadline", game_id, row.thread_id, text)
            # The deadline owns the turn: the seat's whole turn is played (moves until
            # the turn id changes or the seat no longer acts) by a computer player of the
            # server's strength, thinking outside the lock and any transaction; then it is
            # saved in one transaction with the timer, so a crash never leaves a seat
            # owing half a turn undeadlined.
            level = settings["ai_level"]

            def decide(state: State, s: int, game: core.Game = game, level: str = level) -> Action:
                return self.thinker.decide_now(job_for(game, state, s, level))

            new, actions, news, passed = await asyncio.to_thread(
                play_turn, game, row.state, seat, policy == "skip", decide
            )
            async with self._lock(game_id):
                if (await self._load(game_id)).version != row.version:
                    continue  # a move came in while the turn was played: look again
                moves: list[tuple[int, int | None, str]] = [(seat, None, game.format(a)) for a in actions]
                await self._commit(row, moves, new, fired_timer=timer_id, news=news)
                break
        else:
            return None  # the game kept moving: the timer stays claimed and fires again
        how = "was skipped" if passed else "had the AI play the turn"
        await self._run_ai(game_id)
        intro = f"{name} missed the turn deadline and {how}."
        if not await self._owes_board(game_id):  # the turn goes on for others: no board yet
            return Notice("deadline", game_id, row.thread_id, intro)
        after = await self._load(game_id)
        update = await self.board(
            game_id, events=public(await self.news(after)), intro=intro, before=row, actor=(-1, seat)
        )
        return Notice("deadline", game_id, row.thread_id, intro, update.ping, update.dm, update)

    async def _remind(self, row: GameRow, timer_id: int, seat: int, due: float, now: float) -> Notice | None:
        uid = row.seats[seat].user_id
        away = await self.store.vacation(uid) if uid is not None else None
        if away is not None and away[1] > now:
            await self.store.reschedule(timer_id, away[1])
            return None
        interval = (await self.settings_for(row))["reminder_hours"] * HOUR
        if not await self.store.reschedule(
            timer_id, max(due + interval, now + 60) if interval else None, was=due
        ):
            return None
        since = int(row.turn_since or row.created_at)
        ping = [uid] if uid is not None else []
        title = core.get(row.game_key).title
        text = f"Reminder: {title} #{row.id} is waiting for your move (since <t:{since}:R>)."
        dm = [u for u in ping if await self.store.wants_dm(u)]
        return Notice("reminder", row.id, row.thread_id, text, ping, dm)
