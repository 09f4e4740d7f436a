"""The past of a game: the move log (``/history``), replays of a finished game,
and taking back one's last move (``/undo``)."""

from __future__ import annotations

import asyncio

import render
from engine import core
from store import Conflict
from tables.base import TablesBase, replayed
from tables.results import TableError, Update
from tables.text import display_name, image_names


class HistoryMixin(TablesBase):
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
        board = render.get(row.game_key).board
        png = await asyncio.to_thread(board, game.view(state, None), image_names(row))
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
            renew = game.turn_id(row.state) != game.turn_id(state)
            arm, disarm = await self._timer_changes(row, before, after, renew=renew)
            try:
                await self.store.undo(game_id, row.version, entries[-1][0], state, arm, disarm)
            except Conflict:
                raise TableError("The game moved on at the same moment; the move stands.") from None
        return await self.board(game_id, intro=f"{display_name(row, seat)} took back their last move.")
