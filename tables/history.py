"""The past of a game: the move log (``/history``), replays of a finished game,
and taking back one's last move (``/undo``)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import render
from engine import core
from store import Conflict, GameRow
from tables.base import TablesBase
from tables.replay import Replay, replayed
from tables.results import Panel, TableError, Update
from tables.text import display_name, image_names
from tables.upkeep import PAUSED

TAKEN_BACK = "Your last move was taken back; your turn goes on."


class HistoryMixin(TablesBase):
    if TYPE_CHECKING:  # tables/chooser.py, tables/turns.py

        async def _panel_of(
            self, row: GameRow, user_id: int, seat: int, turn: list[str] | None = None
        ) -> Panel: ...

        def _forget(self, game_id: int) -> None: ...

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
        lines = await asyncio.to_thread(_history_lines, row, entries, first, per_page)
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
        moves = [(seat, note) for _q, seat, note in entries[:move]]
        # A move played on the frozen engine of an older release is drawn through
        # the carry, so today's renderer draws it (tables/replay.py).
        state = await asyncio.to_thread(lambda: Replay(row).run(moves).carried())
        board = render.get(row.game_key).board
        png = await asyncio.to_thread(board, game.view(state, None), image_names(row))
        return f"{game.title} #{row.id} after move {move} of {len(entries)}.", png

    async def undo(self, game_id: int, user_id: int) -> Update:
        """Take back the user's last move, if nobody has acted since and it revealed nothing.
        A move inside the user's turn that no board has shown yet is taken back quietly
        (issue 26: one board a turn): the thread stays as it is, and the Update carries
        the turn as it stands again for the user's private message (``post`` False,
        ``next`` their panel). A move a board showed gets a board of the state restored."""
        async with self._lock(game_id):
            row = await self._load(game_id)
            if row.status != "active" or row.state is None:
                raise TableError("Only a running game's moves can be taken back.")
            seat = row.seat_of(user_id)
            if seat is None:
                raise TableError("You are not a player in this game.")
            if await self.is_paused(game_id):  # nothing moves while paused, back neither (issue 39)
                raise TableError(PAUSED)
            game = core.get(row.game_key)
            entries = await self.store.log(game_id)
            if any(int(p["at"]) >= len(entries) for p in row.upgrades):
                raise TableError("The game's rules were updated since the last move, so it stands.")
            if not entries or entries[-1][1] != seat:
                raise TableError("You can only take back your own move, and only before anyone else acts.")
            state = await asyncio.to_thread(replayed, row, [(s, note) for _q, s, note in entries[:-1]])
            action = game.parse(entries[-1][2])
            if not game.can_undo(state, row.state, seat, action):
                raise TableError(
                    "That move revealed something new (a draw, a die roll or a hidden card), so it stands."
                )
            before, after = game.to_act(row.state), game.to_act(state)
            renew = game.turn_id(row.state) != game.turn_id(state)
            arm, disarm = await self._timer_changes(row, before, after, renew=renew)
            # Unseen: the thread is up to date and its last board came before the move.
            shown = await self.store.posted_moves(game_id)
            unseen = (
                not renew
                and (await self.store.flags(game_id))[2] >= row.version
                and shown < entries[-1][0]
                and seat in after
            )
            try:
                version = await self.store.undo(game_id, row.version, entries[-1][0], state, arm, disarm)
            except Conflict:
                raise TableError("The game moved on at the same moment; the move stands.") from None
            self._forget(game_id)  # the moves kept since the last board: one is gone
            if unseen:
                # Nothing to show the table: the thread stays up to date (a crash before
                # this mark leaves a board owed, which is posted as after any restart).
                await self.store.mark_posted(game_id, version, shown)
                now = await self._load(game_id)
                assert now.state is not None
                update = Update(now.id, now.version, now.thread_id, "", post=False, moves=now.moves)
                update.next = await self._panel_of(now, user_id, seat)
                update.turn = update.next.turn
                others = [now.seats[s] for s in sorted(game.to_act(now.state)) if s != seat]
                update.acting = [s.user_id for s in others if s.user_id is not None and not s.is_ai]
                return update
        return await self.board(game_id, intro=f"{display_name(row, seat)} took back their last move.")


def _history_lines(
    row: GameRow, entries: list[tuple[int, int, int | None, str, float]], first: int, per: int
) -> list[str]:
    """The lines of one /history page: the moves from ``first``, each shown as the
    public saw it under the rules it was played with. CPU-bound (a replay)."""
    rep = Replay(row).run([(seat, note) for _q, seat, _u, note, _at in entries[:first]])
    lines = []
    for i, (_seq, seat, _uid, note, at) in enumerate(entries[first : first + per], first):
        shown = rep.public_format(seat, note)
        lines.append(f"{i + 1}. {display_name(row, seat)}: `{shown}` <t:{int(at)}:R>")
        rep.step(seat, note)
    return lines
