"""The turn is the unit the table sees (issue 26): moves are saved one by one, but
the thread gets ONE board a turn, when ``Game.turn_id`` changes (or the game
ends), summing up every public move since the last board in words.

- ``Said``: one saved move as the summary needs it (who, the mover's own label, events).
- The news of the moves since the last board are kept in memory per game, chained
  by version, so a turn's board costs no replay; when the chain is broken (a restart,
  another process, an undo) they are replayed from the seed and the log instead.
- ``only_move``: a person's only legal move that tells nobody a secret, played for them.
- ``play_turn``: a missed deadline plays the seat's whole turn, not one move of it.

Whether a board is owed is the store's ``posted_version``: a move inside a turn
keeps an up-to-date thread up to date (``Store.commit_move``), so a board is due
exactly when a turn changed since the last board reached the thread."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine import core
from engine.core import Action, Event, IllegalAction, State
from store import GameRow
from tables.base import TablesBase
from tables.forced import tells_nothing
from tables.replay import Replay
from tables.results import Panel, Update
from tables.text import named

log = logging.getLogger("lairkeeper.tables")

# A deadline plays at most this many moves of one seat's turn (a game whose turn
# never ends for the AI must not spin the timer loop).
MAX_TURN_MOVES = 200
# Games whose unposted news are kept in memory (each entry is a turn's moves).
MAX_KEPT = 5000
ONLY_MOVE = "{} had only one possible move; it was played for them."
LABEL_ROOM = 100  # a move's label in "this turn so far"


@dataclass
class Said:
    """One saved move: the seat, its label for the mover ("this turn so far") and
    every event of it (public ones go on the board, private ones to their seat)."""

    seat: int
    label: str
    events: list[Event] = field(default_factory=list)


@dataclass
class Pending:
    since: int  # moves at the last board that reached the thread
    version: int  # the game version the kept moves lead to
    moves: list[Said]
    # Each kept commit: (the version it made, whether it began a new turn).
    commits: list[tuple[int, bool]] = field(default_factory=list)


def said(game: core.Game, state: State, seat: int, action: Action, events: list[Event]) -> Said:
    try:
        label = game.describe(state, action)
    except Exception:  # a label is a courtesy; the move stands without it
        label = game.format(action)
    return Said(seat, label, list(events))


def builds_moves(game: core.Game) -> bool:
    """Whether the game builds its moves step by step (overrides ``chooser``):
    then its legal list is only a sample, and the chooser is always offered."""
    return type(game).chooser is not core.Game.chooser


def the_one_move(game: core.Game, state: State, seat: int) -> Action | None:
    """``seat``'s only legal move, or None when it has a choice."""
    legal = game.legal_actions(state, seat)
    if not builds_moves(game):
        return legal[0] if len(legal) == 1 else None
    if len(legal) > 1:  # a sample of the legal moves, but two of them are a choice already
        return None
    prefix: list[str] = []
    for _ in range(16):  # a chooser with one option a step, down to the complete move
        choice = game.chooser(state, seat, prefix)
        if choice.action is not None:
            return choice.action if not choice.options else None
        if len(choice.options) != 1:
            return None
        prefix.append(choice.options[0][0])
    return None


def only_move(game: core.Game, state: State, seats: list[int]) -> tuple[int, Action] | None:
    """A (seat, move) where the seat's only legal move would be its only one in every
    situation the other players cannot tell apart (the house rule, tables/forced.py), so
    playing it for them tells nobody anything (``may_play_for`` is a game's own veto on
    top). A die it rolls or a tile it draws is no secret of the player's: it would come
    out the same at their click, and nothing is left to decide (issue 40: "Resolve the
    encounter" goes straight on). CPU-bound."""
    for seat in seats:
        try:
            action = the_one_move(game, state, seat)
            if action is None:
                continue
            game.apply(state, seat, action)  # a move the rules refuse is left to the player
        except IllegalAction:
            continue
        if game.may_play_for(state, seat, action) and tells_nothing(game, state, seat, action, the_one_move):
            return seat, action
    return None


def play_turn(
    game: core.Game,
    state: State,
    seat: int,
    skip: bool,
    decide: Callable[[State, int], Action] | None = None,
) -> tuple[State, list[Action], list[Said], bool]:
    """The rest of ``seat``'s turn played for it: moves until the turn id changes or
    the seat no longer acts. ``skip``: the rules' pass where there is one; ``decide``
    the computer player's move (the timers': in the pool, tables/thinking.py; None:
    the game's easy player). Returns the state after, the moves, what they said, and
    whether every move was a pass. Blocking: run it in a thread."""
    turn = game.turn_id(state)
    moves: list[Action] = []
    out: list[Said] = []
    passed = True
    for _ in range(MAX_TURN_MOVES):
        if game.is_over(state) or seat not in game.to_act(state):
            break
        if moves and game.turn_id(state) != turn:
            break
        action = game.pass_action(state, seat) if skip else None
        if action is None:
            passed = False
            action = decide(state, seat) if decide is not None else game.ai_action(state, seat)
        new, events = game.apply(state, seat, action)
        out.append(said(game, state, seat, action, events))
        moves.append(action)
        state = new
    return state, moves, out, passed and bool(moves)


def replay_news(row: GameRow, entries: list[tuple[int, int, str]], since: int) -> list[Said]:
    """What the moves after move number ``since`` said, replayed from the seed. CPU-bound.

    ``since`` is a move's number in the log (``row.moves`` when the board went out), not
    a count: a move taken back keeps its number (the log is append-only) and is left
    out of ``entries``, so after an /undo the standing moves are fewer than the numbers."""
    before = [(seat, note) for seq, seat, note in entries if seq <= since]
    after = [(seat, note) for seq, seat, note in entries if seq > since]
    # The one replay (tables/replay.py): each move on the rules it was played under.
    rep = Replay(row).run(before)
    out: list[Said] = []
    for seat, note in after:
        engine, state, action = rep.engine, rep.state, rep.parse(note)
        events = [Event(e.text, e.seat) for e in rep.step(seat, note)]  # a frozen engine's Events too
        out.append(said(engine, state, seat, action, events))
    return out


def public(news: list[Said]) -> list[Event]:
    return [e for s in news for e in s.events if e.seat is None]


class TurnsMixin(TablesBase):
    if TYPE_CHECKING:  # the other parts of the facade

        async def _panel_of(
            self, row: GameRow, user_id: int, seat: int, turn: list[str] | None = None
        ) -> Panel: ...

    async def _after_move(
        self, game_id: int, before: GameRow, user_id: int, seat: int, events: list[Event]
    ) -> Update:
        """What a person's move (and the bot's moves after it) shows: the turn's board
        when a turn changed since the last board, else nothing for the thread; and the
        mover's private message: its news, its moves of the turn in words, and its
        next step while the same turn goes on."""
        now = await self._load(game_id)
        game = core.get(now.game_key)
        assert now.state is not None and before.state is not None
        news = await self.news(now)
        # The thread is owed a board exactly when a turn changed since the last one
        # (a move inside a turn keeps an up-to-date thread so): the turn is over.
        due = await self._board_due(now)
        if due:
            update = await self.board(game_id, events=public(news), before=before, actor=(user_id, seat))
        else:
            update = Update(now.id, now.version, now.thread_id, "", post=False, moves=now.moves)
        update.actor_private = named(now, "\n".join(e.text for e in events if e.seat == seat)) or None
        update.turn = [named(now, label)[:LABEL_ROOM] for label in labels_of(news, seat)]
        if not due and seat in game.to_act(now.state) and now.seat_of(user_id) == seat:
            update.next = await self._panel_of(now, user_id, seat, update.turn)
        if not game.is_over(now.state):
            others = [now.seats[s] for s in sorted(game.to_act(now.state)) if s != seat]
            update.acting = [s.user_id for s in others if s.user_id is not None and not s.is_ai]
        return update

    @property
    def _pending(self) -> dict[int, Pending]:
        return self._kept_news

    async def _remember(self, row: GameRow, version: int, news: list[Said], changed: bool = True) -> None:
        """After a commit of ``row`` (now at ``version``; ``changed``: it began a new
        turn): keep what its moves said."""
        kept = self._pending
        cur = kept.get(row.id)
        if cur is not None and cur.version == row.version and cur.since + len(cur.moves) == row.moves:
            cur.moves.extend(news)
            cur.version = version
            cur.commits.append((version, changed))
            return
        if await self.store.posted_moves(row.id) == row.moves:
            kept.pop(row.id, None)
            if len(kept) >= MAX_KEPT:
                kept.pop(next(iter(kept)))
            kept[row.id] = Pending(row.moves, version, list(news), [(version, changed)])
        else:
            kept.pop(row.id, None)

    def _covered(self, game_id: int, version: int) -> int:
        """The newest version a board of ``version`` leaves the thread up to date with:
        moves made inside the same turn since (while the board was on its way) owe
        the thread nothing either. Only what this process saw, by version."""
        cur = self._pending.get(game_id)
        if cur is None or cur.version <= version:
            return version
        later = [(v, changed) for v, changed in cur.commits if v > version]
        if [v for v, _c in later] != list(range(version + 1, cur.version + 1)) or any(c for _v, c in later):
            return version
        return cur.version

    async def news(self, row: GameRow) -> list[Said]:
        """What every move since the last board that reached the thread said."""
        marked = await self.store.marked_moves(row.id)
        cur = self._pending.get(row.id)
        chained = cur is not None and cur.version == row.version and cur.since + len(cur.moves) == row.moves
        if marked is None:
            # No board of this game was ever marked (a game from before boards were
            # tracked, a benchmark's database): only what this process saw, no replay.
            return cur.moves if chained and cur is not None else []
        since = marked
        if chained and cur is not None and cur.since <= since <= row.moves:
            return cur.moves[since - cur.since :]
        entries = await self.store.log(row.id)
        try:
            return await asyncio.to_thread(replay_news, row, entries, since)
        except Exception:  # the board still goes out, without the news lines
            log.exception("could not replay the moves of game %s for its board", row.id)
            return []

    def _posted(self, game_id: int, moves: int) -> None:
        """A board covering the first ``moves`` moves reached the thread."""
        cur = self._pending.get(game_id)
        if cur is None:
            return
        if cur.since <= moves <= cur.since + len(cur.moves):
            del cur.moves[: moves - cur.since]
            cur.since = moves
        else:
            self._pending.pop(game_id, None)

    def _forget(self, game_id: int) -> None:
        self._pending.pop(game_id, None)

    async def _owes_board(self, game_id: int) -> bool:
        """Whether the thread is owed a board: a turn changed since the last one."""
        return await self._board_due(await self._load(game_id))

    async def _board_due(self, row: GameRow) -> bool:
        return (await self.store.flags(row.id))[2] < row.version


def labels_of(news: list[Said], seat: int) -> list[str]:
    return [s.label for s in news if s.seat == seat]
