"""Games in progress survive every release (issue 27): at start-up every stored game
whose rules revision is older than its engine's is carried to the newest one, its
upgrade point recorded, and its thread told once, in words, what changed for the
rest of the game. How to make a rules change: docs/storage.md."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from engine import core
from store import Conflict, GameRow
from tables.base import TablesBase
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
        newest one (at start-up, before any interaction). Returns (carried, failed);
        a game that cannot be carried is logged and left as it was."""
        done = failed = 0
        for game_id, key, _rev, ups in await self.store.revisions():
            if key not in core.available():
                continue
            game = core.get(key)
            begun = 2 if _rev is None else int(_rev)
            if (int(ups[-1]["to"]) if ups else begun) >= game.revision:
                continue
            async with self._lock(game_id):
                row = await self._load(game_id)
                log_ = await self.store.log(game_id)
                try:
                    state, point = await asyncio.to_thread(carried, row, log_)
                    await self.store.carry(game_id, row.version, state, [*row.upgrades, point])
                    done += 1
                except Conflict:
                    continue  # another process carried it at the same moment
                except Exception:
                    failed += 1
                    log.exception("game %s could not be carried to rules revision %s", game_id, game.revision)
        if done or failed:
            log.info("rules revisions: %d games carried to the newest rules, %d could not be", done, failed)
        return done, failed

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
