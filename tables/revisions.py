"""Games in progress survive every release (issue 27): once the bot is connected every
stored game whose rules revision is older than its engine's is carried to the newest
one (a game touched sooner as it is loaded; issue 39), its upgrade point recorded, its
half-made moves carried with it, and its thread told once, in words, what changed for
the rest of the game. How to make a rules change: docs/storage.md."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import Any

from engine import core
from store import Conflict, DatabaseTimeout, GameRow
from tables.base import TablesBase
from tables.drafts import carried_drafts
from tables.replay import FROZEN, Replay, carry, current_revision, same_state
from tables.results import Notice

log = logging.getLogger("lairkeeper.tables")


def carried(row: GameRow, log_: list[tuple[int, int, str]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``row``'s snapshot carried to its engine's newest revision, and the upgrade
    point to record. The snapshot is what the live game holds, so it is what is
    carried; a revision-1 snapshot whose log does not replay to it on the frozen
    engine is carried all the same (the players' game goes on) and logged, since
    its replays will not match (``bot.py migrate`` reports such a game).
    CPU-bound: run off the event loop."""
    game = core.get(row.game_key)
    assert row.state is not None
    frm = current_revision(row)
    state = row.state
    if frm == FROZEN:
        try:
            ok = same_state(Replay(row).run([(seat, note) for _q, seat, note in log_]).state, row.state)
        except Exception:  # a log the frozen engine refuses: the same finding
            ok = False
        if not ok:
            log.warning("game %s: its log does not replay to its snapshot on the frozen engine", row.id)
    state = carry(game, state, frm, game.revision)
    point = {"at": len(log_), "from": frm, "to": game.revision, "told": row.status != "active"}
    return state, point


def _carried_with_drafts(
    row: GameRow, log_: list[tuple[int, int, str]], drafts: list[tuple[int, int, list[str]]]
) -> tuple[dict[str, Any], dict[str, Any], dict[int, list[str]]]:
    """The carried snapshot and upgrade point, and each half-made move carried with
    the game (tables/drafts.py). CPU-bound: run off the event loop."""
    state, point = carried(row, log_)
    after = replace(row, state=state, upgrades=[*row.upgrades, point])
    return state, point, carried_drafts(row, after, drafts)


def changes_text(row: GameRow, point: dict[str, Any]) -> str:
    """What the thread is told once about an upgrade, in players' words."""
    game = core.get(row.game_key)
    texts = game._upgrade_module().CHANGES
    changes = [texts[n] for n in range(int(point["from"]) + 1, int(point["to"]) + 1) if n in texts]
    said = " ".join(changes) if changes else "Nothing changes for the rest of this game."
    return f"The bot was updated, and {game.title} #{row.id} continues under its newest rules. {said}"


class RevisionsMixin(TablesBase):
    async def upgrade_games(self) -> tuple[int, int]:
        """Carry every stored game whose revision is older than its engine's to the
        newest one. Run once connected (cogs/slowplay.py), not before the login: the
        games to carry are found by one query, and a game touched before its turn
        comes is carried then (``_up_to_date``). Returns (carried, failed); a game
        that cannot be carried is logged and left as it was."""
        done = failed = 0
        newest = {key: core.get(key).revision for key in core.available()}
        for game_id in await self.store.stale_games(newest):
            async with self._lock(game_id):
                row = await self.store.get(game_id)
                if row is None or current_revision(row) >= newest[row.game_key]:
                    continue  # carried meanwhile (a click, or another process)
                outcome = await self._carry(row)
            done += outcome is True
            failed += outcome is False
        if done or failed:
            log.info("rules revisions: %d games carried to the newest rules, %d could not be", done, failed)
        return done, failed

    async def _up_to_date(self, row: GameRow) -> GameRow:
        game = core.get(row.game_key) if row.game_key in core.available() else None
        if game is None or row.state is None or current_revision(row) >= game.revision:
            return row
        if row.id in self._uncarried:
            return row  # it failed once this run (logged); it stays as it was
        await self._carry(row)
        return await self.store.get(row.id) or row

    async def _carry(self, row: GameRow) -> bool | None:
        """Carry one game and the half-made moves kept in it (one transaction, under
        its version). True: carried; None: another caller carried it first; False:
        it cannot be carried (logged, left as it was)."""
        try:
            log_ = await self.store.log(row.id)
            drafts = await self.store.drafts_of(row.id)
            state, point, kept = await asyncio.to_thread(_carried_with_drafts, row, log_, drafts)
            await self.store.carry(row.id, row.version, state, [*row.upgrades, point], kept)
            return True
        except Conflict:
            return None
        except DatabaseTimeout:
            raise  # the database stalls: the game is carried on a later try, not given up
        except Exception:
            self._uncarried.add(row.id)
            newest = core.get(row.game_key).revision
            log.exception("game %s could not be carried to rules revision %s", row.id, newest)
            return False

    async def upgrade_notices(self) -> list[Notice]:
        """Running games whose thread has not been told what changed: each told once
        (claimed before it is returned, so two processes never both tell)."""
        out: list[Notice] = []
        for game_id, _key, _rev, ups in await self.store.revisions(untold=True):
            if all(p.get("told") for p in ups):
                continue
            row = await self._load(game_id)
            now = [{**p, "told": True} for p in row.upgrades]
            if not await self.store.claim_told(game_id, row.upgrades, now):
                continue
            for p in row.upgrades:
                if not p.get("told"):
                    out.append(Notice("upgrade", game_id, row.thread_id, changes_text(row, p)))
        return out
