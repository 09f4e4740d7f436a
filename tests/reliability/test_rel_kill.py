"""kill -9 at random points during scripted moves: after every restart no
confirmed move is lost, none is applied twice, every game resumes and replays
from seed + log to its stored snapshot, and each move made is posted exactly
once (the poster of owed boards is killed at random too)."""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from engine import core
from store import Store
from tables import Tables
from tests.playout import replay
from tests.reliability._util import LONG, ROOT, keys, record, size

DRIVER = Path(__file__).with_name("driver.py")

# Posts every owed board with the bot's own code (cogs.posting.post_owed, board_nonce and
# all) into a file standing for the threads: one JSON line a message, with the nonce the
# bot gave Discord. Run as its own process so it can be killed between the send and the
# mark, like the bot.
POSTER = """
import asyncio, json, sys
sys.path.insert(0, {root!r})
import discord
from cogs.posting import post_owed
from store import Store
from tables import Tables

SINK = {sink!r}
DIE_AFTER = {die_after!r}  # sends; then SIGKILL between the send and the mark (0: never)
SENT = [0]

class Sent:
    jump_url = "https://discord.com/channels/1/2/3"

class Thread(discord.abc.Messageable):
    def __init__(self, gid):
        self.gid = gid
    async def _get_channel(self):
        return self
    async def send(self, content=None, nonce=None, **kw):
        since, upto = CURRENT[self.gid]
        with open(SINK, "a") as f:
            f.write(json.dumps([nonce, self.gid, since, upto]) + "\\n")
            f.flush()
        SENT[0] += 1
        if SENT[0] == DIE_AFTER:
            import os, signal
            os.kill(os.getpid(), signal.SIGKILL)
        return Sent()

CURRENT = {{}}

class Client:
    def __init__(self, tables):
        self.tables = tables
    def get_channel(self, thread_id):
        return Thread(thread_id)
    async def fetch_channel(self, thread_id):
        return Thread(thread_id)

async def main():
    store = await Store({db!r}).open()
    t = Tables(store)
    real_owed_board = t.owed_board
    async def owed_board(gid):  # what the board covers, for the sink; the posting is the bot's
        update = await real_owed_board(gid)
        if update is not None:
            CURRENT[gid] = (await store.posted_moves(gid), update.moves)
        return update
    t.owed_board = owed_board
    try:
        for row in await store.games():  # the driver plays without threads: give each one
            if row.thread_id is None:
                await store.set_refs(row.id, thread_id=row.id)
        await post_owed(Client(t))
    finally:
        await store.close()

asyncio.run(main())
"""


def post_owed(db: str, sink: Path, kill_after: float | None, die_after: int = 0) -> None:
    """Post what is owed; SIGKILL the poster after ``kill_after`` seconds if given, or
    right after its ``die_after``-th board was sent (before it is marked posted)."""
    code = POSTER.format(root=str(ROOT), db=str(db), sink=str(sink), die_after=die_after)
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stderr=subprocess.PIPE, text=True)
    if kill_after is not None:
        time.sleep(kill_after)
        proc.send_signal(signal.SIGKILL)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode in (0, -signal.SIGKILL), err[-3000:]


async def check_posted(db: str, sink: Path) -> int:
    """Each move made is posted exactly once: the threads (the sink, with a repeated
    nonce dropped as Discord drops it) got boards whose move ranges follow each other
    with no gap and no overlap, ending at the game's last move, or at the start of a
    turn still in progress (one board a turn: its moves wait for the turn's board,
    and nothing is owed meanwhile). Returns boards posted."""
    seen: set[str] = set()
    ranges: dict[int, list[tuple[int, int]]] = {}
    for line in sink.read_text().splitlines() if sink.exists() else []:
        nonce, gid, since, moves = json.loads(line)
        if nonce in seen:
            continue  # Discord answers an enforced nonce again with the first message
        seen.add(nonce)
        ranges.setdefault(gid, []).append((since, moves))
    store = await Store(db).open()
    try:
        rows = await store._fetch("SELECT id, moves FROM games WHERE status IN ('active', 'over')")
        owed = set(await store.owed())
    finally:
        await store.close()
    for gid, moves in rows:
        covered = 0
        for since, upto in ranges.get(gid, []):
            assert since == covered, f"game {gid}: board for moves {since + 1}..{upto} after {covered}"
            assert upto >= since
            covered = upto
        assert covered <= moves and gid not in owed, f"game {gid}: moves {covered + 1}..{moves} never posted"
    return len(seen)


def run_until_killed(
    db: str, moves: int, run: int, kill_after: int, delay: float, keys_: list[str]
) -> tuple[list[tuple[int, int, int, str]], bool]:
    """Start the driver; SIGKILL it ``delay`` s after its ``kill_after``-th confirmed
    move. Returns every move it confirmed (read to the end of the pipe, so lines
    printed just before the kill count too) and whether it was killed."""
    proc = subprocess.Popen(
        [
            sys.executable,
            str(DRIVER),
            str(db),
            "--moves",
            str(moves),
            "--seed",
            "3",
            "--run",
            str(run),
            "--keys",
            ",".join(keys_),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    confirmed: list[tuple[int, int, int, str]] = []
    killed = False

    def parse(line: str) -> None:
        if line.startswith("OK "):
            _, gid, seq, seat, note = line.rstrip("\n").split(" ", 4)
            confirmed.append((int(gid), int(seq), int(seat), note))
        elif line.startswith("REFUSED"):
            proc.kill()
            raise AssertionError(f"the driver's legal move was refused: {line}")

    for line in proc.stdout:
        parse(line)
        if len(confirmed) >= kill_after:
            time.sleep(delay)
            proc.send_signal(signal.SIGKILL)
            killed = True
            break
    rest, err = proc.communicate(timeout=120)
    for line in rest.splitlines():
        parse(line)
    if not killed:
        assert proc.returncode == 0, err[-3000:]
    else:
        assert proc.returncode in (0, -signal.SIGKILL), err[-3000:]
    return confirmed, killed


async def check_database(db: str, confirmed: list[tuple[int, int, int, str]], kills: int) -> dict[str, int]:
    if not db.startswith("postgresql"):
        con = sqlite3.connect(db)
        try:
            assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        finally:
            con.close()
    store = await Store(db).open()
    try:
        games = await store._fetch("SELECT id, game_key, seed, status, moves, state FROM games ORDER BY id")
        logs: dict[int, list[tuple[int, int, str]]] = {}
        for gid, seq, seat, note in await store._fetch(
            "SELECT game_id, seq, seat, notation FROM actions WHERE undone=0 ORDER BY game_id, seq"
        ):
            logs.setdefault(gid, []).append((seq, seat, note))
        seats = {
            r[0]: r[1] for r in await store._fetch("SELECT game_id, count(*) FROM seats GROUP BY game_id")
        }
    finally:
        await store.close()
    unconfirmed = 0
    over = 0
    for gid, key, seed, status, moves, state_json in games:
        log = logs.get(gid, [])
        # One row per move, numbered 1..moves: nothing lost in between, nothing twice.
        assert [s for s, _, _ in log] == list(range(1, moves + 1)), f"game {gid}: log is not 1..{moves}"
        if status in ("active", "over"):
            game = core.get(key)
            state = json.loads(state_json)
            rebuilt = replay(game, seats[gid], seed, None, [(seat, n) for _, seat, n in log])
            assert rebuilt == state, f"game {gid}: seed + log does not replay to the stored snapshot"
            assert (status == "over") == game.is_over(state), f"game {gid}: status {status}"
            over += status == "over"
        unconfirmed += moves - sum(1 for c in confirmed if c[0] == gid)
    by_game = {gid: {s: n for s, _, n in log} for gid, log in logs.items()}
    for gid, seq, _seat, note in confirmed:
        assert by_game.get(gid, {}).get(seq) == note, f"confirmed move {gid}#{seq} {note!r} was lost"
    assert len({(g, s) for g, s, _, _ in confirmed}) == len(confirmed), "a move was confirmed twice"
    # A kill can land after a commit and before the line is printed: at most one such move per kill.
    assert 0 <= unconfirmed <= kills, f"{unconfirmed} unconfirmed moves after {kills} kills"
    return {"games": len(games), "over": over, "unconfirmed_but_saved": unconfirmed}


async def resume_everything(db: str) -> int:
    """A fresh process' view: every running game loads, renders and offers a move."""
    store = await Store(db).open()
    try:
        t = Tables(store)
        n = 0
        for row in await store.games(status="active"):
            update = await t.board(row.id)
            assert update.png is not None and not update.over
            game = core.get(row.game_key)
            assert row.state is not None
            assert all(game.legal_actions(row.state, s) for s in game.to_act(row.state))
            n += 1
        return n
    finally:
        await store.close()


async def test_kill9_during_moves_loses_nothing(db_target: str, tmp_path: Path) -> None:
    target = size(16, 1000)
    kill_every = size(8, 20)
    ks = keys()
    db = db_target
    sink = tmp_path / "threads.jsonl"
    posted = 0
    rnd = random.Random(2024)
    confirmed: list[tuple[int, int, int, str]] = []
    kills = runs = 0
    t0 = time.perf_counter()
    min_kills = 2 if not LONG else 20
    while len(confirmed) < target or kills < min_kills:
        # Ask for more moves than the kill point, so every run can be killed.
        after = rnd.randint(1, kill_every)
        got, killed = run_until_killed(
            db, max(target - len(confirmed), 0) + after + 1, runs, after, rnd.uniform(0, 0.15), ks
        )
        confirmed += got
        kills += killed
        runs += 1
        # After every restart the owed boards go out; the poster is killed too, then
        # run again to the end, like a bot killed while posting and restarted.
        post_owed(db, sink, rnd.uniform(0.2, 1.0))
        post_owed(db, sink, None, die_after=1)  # killed between a send and its mark: resent, one nonce
        post_owed(db, sink, None)
        posted = await check_posted(db, sink)
        if not LONG or runs % 10 == 0:
            await check_database(db, confirmed, kills)
    figures = await check_database(db, confirmed, kills)
    resumed = await resume_everything(db)
    assert kills >= min_kills
    record(
        "kill9" + ("_postgresql" if db.startswith("postgresql") else ""),
        confirmed_moves=len(confirmed),
        kills=kills,
        restarts=runs,
        games=figures["games"],
        finished=figures["over"],
        resumed_active=resumed,
        saved_but_unconfirmed=figures["unconfirmed_but_saved"],
        lost=0,
        applied_twice=0,
        boards_posted=posted,
        games_played=ks,
        seconds=round(time.perf_counter() - t0, 1),
    )
