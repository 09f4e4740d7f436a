import asyncio, tempfile, time, statistics
from pathlib import Path
from store import Store, SeatRow
from tests import fakegame; fakegame.install()
async def main():
    d = tempfile.mkdtemp(); path = Path(d)/"x.db"
    store = await Store(str(path)).open()
    gid = await store.create_game("test-race", {}, 5, 1)
    await store.set_seats(gid, 0, [SeatRow(0, 1, "a", False), SeatRow(1, 2, "b", False)])
    await store.start(gid, 1, {"n": 0})
    s = '{"pad":"' + "x"*5000 + '"}'
    v = 2; ts=[]
    for i in range(3000):
        t=time.perf_counter()
        v = await store.commit_move(gid, v, [(0, 1, str(i))], s, None, False)
        ts.append(time.perf_counter()-t)
    print(round(statistics.median(ts)*1e6,1), "us")
    await store.close()
asyncio.run(main())
