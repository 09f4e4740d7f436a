import asyncio, tempfile, time, statistics, sys
from pathlib import Path
from store import Store, SeatRow
from tests import fakegame; fakegame.install()
import store.db as sdb
async def main():
    d = tempfile.mkdtemp(); path = Path(d)/"x.db"
    store = await Store(str(path)).open()
    gid = await store.create_game("test-race", {}, 5, 1)
    await store.set_seats(gid, 0, [SeatRow(0, 1, "a", False), SeatRow(1, 2, "b", False)])
    await store.start(gid, 1, {"n": 0})
    inner=[]
    tgt = store.backend if hasattr(store, "backend") else store
    name = "_run_sync" if hasattr(store, "backend") else "_commit_move_sync"
    orig = getattr(tgt, name)
    def timed(*a):
        t=time.perf_counter(); r=orig(*a); inner.append(time.perf_counter()-t); return r
    setattr(tgt, name, timed)
    s = '{"pad":"' + "x"*5000 + '"}'
    v = 2; ts=[]
    for i in range(3000):
        t=time.perf_counter()
        v = await store.commit_move(gid, v, [(0, 1, str(i))], s, None, False)
        ts.append(time.perf_counter()-t)
    print(round(statistics.median(ts)*1e6,1), "us total", round(statistics.median(inner)*1e6,1), "inner")
    await store.close()
asyncio.run(main())
