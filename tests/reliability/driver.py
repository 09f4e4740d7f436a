"""Plays scripted moves through the real pipeline (Store + Tables.act) and prints
each confirmed move, so a test can SIGKILL it anywhere and check what survived.

    python tests/reliability/driver.py DB --moves N --seed S --run R --keys k1,k2

Every printed ``OK <game id> <seq> <seat> <notation>`` line is a move whose
Tables.act returned (committed, rendered). Games are created as needed (all
seats human); a lobby left half-made by a kill is finished first.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine import core  # noqa: E402
from store import Store  # noqa: E402
from tables import TableError, Tables  # noqa: E402
from tests.reliability._util import user_of  # noqa: E402


async def finish_lobby(t: Tables, gid: int, players: int) -> None:
    row = await t.store.get(gid)
    assert row is not None
    for s in range(len(row.seats), players):
        await t.join(gid, user_of(gid, s), f"player{s + 1}")
    await t.start(gid, None)


async def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("db")
    p.add_argument("--moves", type=int, required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--run", type=int, default=0)
    p.add_argument("--keys", required=True)
    p.add_argument("--tables", type=int, default=0, help="games kept running at once (default: one per key)")
    a = p.parse_args()
    keys = a.keys.split(",")
    if "test-race" in keys:
        from tests import fakegame

        fakegame.install()
    rnd = random.Random(f"{a.seed}:{a.run}")
    store = await Store(a.db).open()
    t = Tables(store)
    want = a.tables or len(keys)
    done = 0
    try:
        while done < a.moves:
            rows = await store.games()
            for row in rows:
                if row.status == "lobby":
                    players = core.get(row.game_key).min_players + row.seed % 2
                    players = min(players, core.get(row.game_key).max_players)
                    await finish_lobby(t, row.id, players)
            active = [r for r in await store.games(status="active")]
            if len(active) < want:
                n = len(rows)
                key = keys[n % len(keys)]
                game = core.get(key)
                seed = a.seed * 100_000 + n
                lobby = await t.create(0, "host", key, seed=seed, take_seat=False)
                players = min(game.min_players + seed % 2, game.max_players)
                await finish_lobby(t, lobby.game_id, players)
                continue
            row = rnd.choice(active)
            assert row.state is not None
            game = core.get(row.game_key)
            seat = rnd.choice(sorted(game.to_act(row.state)))
            text = game.format(rnd.choice(game.legal_actions(row.state, seat)))
            user = row.seats[seat].user_id
            assert user is not None
            try:
                update = await t.act(row.id, user, text)
            except TableError as exc:  # never expected: the move was legal when chosen
                print(f"REFUSED {row.id} {exc}", flush=True)
                return 1
            print(f"OK {row.id} {update.moves} {seat} {text}", flush=True)
            done += 1
    finally:
        await store.close()
    print("DONE", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
