"""Lairkeeper: dungeon board games in Discord threads.

python bot.py                      run the bot (DISCORD_TOKEN from the environment or .env)
python bot.py selfplay GAME ...    play AI-only games through the real pipeline, no token needed
python bot.py migrate --to URL     copy the SQLite database (LAIRKEEPER_DB) into an empty PostgreSQL one
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
log = logging.getLogger("lairkeeper")

SETTINGS = {
    "DISCORD_TOKEN": "the bot token from the Discord developer portal (required to run the bot)",
    "LAIRKEEPER_DB": "path of the SQLite database file (default lairkeeper.db), or a postgresql:// URL "
    "(several bot processes share one PostgreSQL database)",
    "LAIRKEEPER_SHARD_COUNT": "total number of Discord shards of the bot (unset: one connection, no sharding)",
    "LAIRKEEPER_SHARDS": "the shards this process runs, e.g. 0-3 or 0,2 (default: all of LAIRKEEPER_SHARD_COUNT)",
    "LAIRKEEPER_TIMER_LEASE": "seconds a process holds a due timer it claimed, or its shards' timers after its "
    "last sign of life, before another process may fire them (default 120)",
    "LAIRKEEPER_DB_TIMEOUT": "seconds any database query or transaction may take before the bot gives up and "
    "says so (default 5)",
    "LAIRKEEPER_TURN_MESSAGE_SECONDS": "seconds after a player's last click in their private turn message that "
    "the bot still brings their next turn into it (default 840; Discord's tokens live 900; 0: never)",
    "LAIRKEEPER_LOG_LEVEL": "logging level: DEBUG, INFO, WARNING (default INFO)",
    "LAIRKEEPER_DEV_GUILD": "a server id: sync slash commands to that server only, instantly (for development)",
    "LAIRKEEPER_DISCORD_BASE": "TEST-ONLY: base URL of a local Discord stand-in, e.g. http://127.0.0.1:8080",
}

NO_TOKEN = (
    "No DISCORD_TOKEN is set: create an application at https://discord.com/developers/applications, "
    "add a bot, copy its token, and put DISCORD_TOKEN=<token> in the environment or in a .env file."
)


def load_dotenv(path: Path) -> None:
    """Minimal .env support: KEY=VALUE lines; the real environment wins."""
    if not path.exists():
        return
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, value = line.split("=", 1)
        key = key.strip().removeprefix("export ").strip()
        os.environ.setdefault(key, value.strip().strip('"').strip("'"))


def configure_logging() -> None:
    level = os.environ.get("LAIRKEEPER_LOG_LEVEL", "INFO").upper()
    logging.basicConfig(
        level=getattr(logging, level, logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    # No token, typed secret move or private text in the log at any level (issue 27).
    from cogs.logsafe import install

    install()


def db_timeout() -> float:
    """LAIRKEEPER_DB_TIMEOUT in seconds (ValueError when it is not a positive number)."""
    text = (os.environ.get("LAIRKEEPER_DB_TIMEOUT") or "5").strip()
    value = float(text)
    if not 0.1 <= value <= 600:
        raise ValueError(text)
    return value


def point_at_standin(base: str) -> None:
    """Test-only: talk to a local Discord stand-in instead of discord.com."""
    import discord
    import yarl

    base = base.rstrip("/")
    discord.http.Route.BASE = f"{base}/api/v10"
    ws = base.replace("http://", "ws://").replace("https://", "wss://")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"{ws}/gateway")
    log.warning("TEST-ONLY: using the Discord stand-in at %s", base)


def quiet_voice() -> None:
    """The bot has no voice features: discord.py's start-up warnings that PyNaCl and
    davey (voice libraries) are missing are noise in every log, so they are off."""
    import discord

    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False


async def sync_commands(bot, store) -> bool:  # type: ignore[no-untyped-def]
    """Sync the slash command tree only when it changed since the last sync: Discord
    rate-limits command updates. The hash of the tree (with its scope and the
    application) is kept in the store's meta table. Returns whether it synced."""
    import hashlib
    import json

    import discord

    guild = os.environ.get("LAIRKEEPER_DEV_GUILD")
    g = discord.Object(id=int(guild)) if guild else None
    if g is not None:
        bot.tree.copy_global_to(guild=g)
    payload = [c.to_dict(bot.tree) for c in bot.tree.get_commands(guild=g)]
    text = json.dumps(payload, sort_keys=True, default=str)
    digest = hashlib.sha256(text.encode()).hexdigest()
    key = f"command_hash:{bot.application_id}:{guild or 'global'}"
    if await store.get_meta(key) == digest:
        log.info("slash commands unchanged; not synced")
        return False
    await bot.tree.sync(guild=g)
    await store.set_meta(key, digest)
    log.info("slash commands synced (%d)", len(payload))
    return True


FIRST_LOGIN = 30.0  # seconds the first login and gateway connection may take
STORE_CLOSE = 2.0  # seconds closing the database may take when the bot stops


async def start_bot(bot, token: str, limit: float = FIRST_LOGIN) -> int:  # type: ignore[no-untyped-def]
    """Log in and connect; when Discord cannot be reached at the first login (a name
    that does not resolve, a server that accepts and never answers) say so in one
    sentence and return 5 within ``limit`` seconds. Once connected, discord.py rides
    out gateway drops and REST 5xx/429 itself; boards it could not post are posted
    when Discord is back (cogs/slowplay.py)."""
    import aiohttp
    import discord

    where = discord.http.Route.BASE
    t0 = time.monotonic()
    from cogs.stopping import stop_on_signals

    async with bot:
        stop_on_signals(bot)  # SIGTERM / SIGINT: a graceful stop, status 0 (cogs/stopping.py)
        try:
            await asyncio.wait_for(bot.login(token), limit)
        except TimeoutError:
            print(
                f"Discord did not answer within {limit:g} s at {where}; check the network.", file=sys.stderr
            )
            return 5
        except (aiohttp.ClientError, OSError) as exc:
            print(
                f"Could not reach Discord at {where} ({type(exc).__name__}); check the network.",
                file=sys.stderr,
            )
            return 5
        connect = asyncio.create_task(bot.connect())
        ready = asyncio.create_task(bot.wait_until_ready())
        left = max(1.0, limit - (time.monotonic() - t0))
        done, _ = await asyncio.wait({connect, ready}, timeout=left, return_when=asyncio.FIRST_COMPLETED)
        if ready not in done and getattr(bot, "stop_task", None) is not None:
            ready.cancel()  # stopped while connecting
            await bot.stop_task
            return 0
        if ready not in done:
            ready.cancel()
            if connect in done:
                connect.result()  # LoginFailure and the like: reported by run_bot
            connect.cancel()
            print(f"Discord's gateway did not answer within {limit:g} s; check the network.", file=sys.stderr)
            return 5
        await connect
        if getattr(bot, "stop_task", None) is not None:
            await bot.stop_task  # its last line logged
    return 0


class ConfigError(Exception):
    """A setting is wrong: one sentence for the operator."""


def parse_shards(spec: str | None, count_text: str | None) -> tuple[list[int], int] | None:
    """LAIRKEEPER_SHARDS / LAIRKEEPER_SHARD_COUNT -> (this process's shard ids, shard count),
    or None for the default: one connection, no sharding."""
    spec = (spec or "").strip()
    count_text = (count_text or "").strip()
    if not count_text:
        if spec:
            raise ConfigError(
                "LAIRKEEPER_SHARDS needs LAIRKEEPER_SHARD_COUNT (the bot's total number of shards)."
            )
        return None
    if not count_text.isdigit() or int(count_text) < 1:
        raise ConfigError(f"LAIRKEEPER_SHARD_COUNT must be a whole number of at least 1, not {count_text!r}.")
    count = int(count_text)
    if not spec:
        return list(range(count)), count
    ids: set[int] = set()
    for part in spec.split(","):
        lo, sep, hi = part.strip().partition("-")
        if not lo.isdigit() or (sep and not hi.isdigit()):
            raise ConfigError(f"LAIRKEEPER_SHARDS must look like 0-3 or 0,2,5, not {spec!r}.")
        first, last = int(lo), int(hi) if sep else int(lo)
        if first > last or last >= count:
            raise ConfigError(f"LAIRKEEPER_SHARDS {spec!r} must name shards from 0 to {count - 1}.")
        ids.update(range(first, last + 1))
    return sorted(ids), count


def make_bot(db_path: str, shards: tuple[list[int], int] | None = None):  # type: ignore[no-untyped-def]
    import discord
    from discord.ext import commands

    from cogs.components import DYNAMIC_ITEMS
    from cogs.guide import GUIDE_ITEMS
    from cogs.hints import HINT_ITEMS
    from cogs.rematch import REMATCH_ITEMS
    from store import Store
    from tables import Tables

    # One process, all guilds on one connection (the default), or the shards named.
    base = commands.Bot if shards is None else commands.AutoShardedBot

    class Lairkeeper(base):  # type: ignore[valid-type,misc]
        def __init__(self) -> None:
            # Slash commands and components need no privileged intent.
            intents = discord.Intents.none()
            intents.guilds = True
            extra: dict[str, object] = {}
            if shards is not None:
                extra = {"shard_ids": shards[0], "shard_count": shards[1]}
            super().__init__(
                command_prefix=commands.when_mentioned,
                intents=intents,
                help_command=None,
                # Every message may ping users it names, never @everyone, @here or a
                # role; messages that should ping nobody pass AllowedMentions.none().
                allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
                **extra,
            )
            # Timers and restart work of this process's guilds only; shard 0 also
            # takes the guild-less games, as Discord sends DMs to shard 0.
            self.store = Store(db_path, shards=shards, timeout=db_timeout())
            lease = os.environ.get("LAIRKEEPER_TIMER_LEASE")
            if lease:
                self.store.TIMER_LEASE = float(lease)
            self.tables: Tables | None = None
            self._max_concurrency: int | None = None

        async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
            """Logins of every process are spaced through the database: one IDENTIFY a
            max_concurrency bucket every 5 s (Discord's session start limit)."""
            if shards is None:
                return await super().before_identify_hook(shard_id, initial=initial)
            if self._max_concurrency is None:
                try:
                    _n, _url, limit = await self.http.get_bot_gateway()
                    self._max_concurrency = int(limit.get("max_concurrency", 1))
                except discord.HTTPException:
                    self._max_concurrency = 1
            bucket = (shard_id or 0) % self._max_concurrency
            wait = await self.store.identify_slot(bucket)
            if wait > 0:
                log.info("shard %s waits %.1f s for its login slot (bucket %s)", shard_id, wait, bucket)
                await asyncio.sleep(wait)

        async def setup_hook(self) -> None:
            await self.store.open()
            await self.store.listen()
            self.tables = Tables(self.store)
            for ext in ("cogs.games", "cogs.slowplay", "cogs.waiting"):
                await self.load_extension(ext)
            # The timer loop wakes when a timer is armed (here, or in another process
            # on PostgreSQL) instead of polling.
            slow = self.get_cog("SlowPlay")
            if slow is not None:
                slow.wake = self.store.wake  # type: ignore[attr-defined]
            self.add_dynamic_items(*DYNAMIC_ITEMS, *GUIDE_ITEMS, *HINT_ITEMS, *REMATCH_ITEMS)
            if shards is None or 0 in shards[0]:  # the commands are the same for every process
                await sync_commands(self, self.store)
            # AI seats that owe a move take it once connected (cogs/slowplay.py), so the
            # boards of those moves can be posted.
            log.info("ready: %d games stored", await self.store.count())
            self._warm = asyncio.create_task(self.tables.warm_up())  # kept: tasks are weakly held

        async def close(self) -> None:
            # Once: a graceful stop and the end of ``async with bot`` both close.
            if getattr(self, "_closing_all", None) is None:
                self._closing_all = asyncio.create_task(self._close_all())
            await asyncio.shield(self._closing_all)

        async def _close_all(self) -> None:
            warm = getattr(self, "_warm", None)
            if warm is not None:
                warm.cancel()
            await super().close()
            tables = getattr(self, "tables", None)
            if tables is not None:  # the computer players' worker processes
                await asyncio.to_thread(tables.close)
            try:  # a stalled database does not hold the stop past Docker's 10 s
                await asyncio.wait_for(self.store.close(), STORE_CLOSE)
            except TimeoutError:
                log.warning(
                    "the database did not close within %g s; its connections are dropped", STORE_CLOSE
                )

    return Lairkeeper()


async def preflight(db_path: str) -> None:
    from store import Store

    store = await Store(db_path).open()  # migrates an older schema, refuses a foreign one
    await store.close()


def run_bot() -> int:
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    from store import StoreError, integrity
    from store.db import check_file, is_postgres

    db_path = os.environ.get("LAIRKEEPER_DB", "lairkeeper.db")
    try:
        shards = parse_shards(os.environ.get("LAIRKEEPER_SHARDS"), os.environ.get("LAIRKEEPER_SHARD_COUNT"))
        float(os.environ.get("LAIRKEEPER_TIMER_LEASE") or 0)
    except ConfigError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except ValueError:
        print("LAIRKEEPER_TIMER_LEASE must be a number of seconds.", file=sys.stderr)
        return 2
    try:
        db_timeout()
    except ValueError:
        print("LAIRKEEPER_DB_TIMEOUT must be a number of seconds from 0.1 to 600.", file=sys.stderr)
        return 2
    if shards is not None and not is_postgres(db_path) and len(shards[0]) < shards[1]:
        log.warning("only some shards on an SQLite file: the other processes must share this file's machine")
    try:
        if not is_postgres(db_path):
            check_file(db_path)
            # Ours: its pages are read on a thread while discord.py and the cogs are
            # imported, instead of after the login (store/integrity.py).
            integrity.begin(db_path)
        else:  # reachable, ours, not newer: refused before logging in to Discord
            asyncio.run(preflight(db_path))
    except StoreError as exc:
        print(str(exc), file=sys.stderr)
        return 3
    base = os.environ.get("LAIRKEEPER_DISCORD_BASE")
    if base:
        point_at_standin(base)
    import discord

    quiet_voice()
    bot = make_bot(db_path, shards)
    try:
        return asyncio.run(start_bot(bot, token))
    except KeyboardInterrupt:
        return 0
    except discord.LoginFailure:
        print(
            "Discord refused the token: check DISCORD_TOKEN (reset it in the developer portal).",
            file=sys.stderr,
        )
        return 4
    except discord.PrivilegedIntentsRequired:
        print("Discord refused a privileged intent the bot asked for.", file=sys.stderr)
        return 4
    except StoreError as exc:
        print(str(exc), file=sys.stderr)
        return 3
    return 0


# ---- selfplay ---------------------------------------------------------------------


def percentile(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    k = min(len(s) - 1, max(0, round(p / 100 * (len(s) - 1))))
    return s[k]


class PngSaver:
    """Writes a selfplay game's images with names that say what each is:
    ``<game>-g<n>-<move>-opening|board|final.png``, ``-step-<k>``, ``-area-<seat>``."""

    def __init__(self, folder: Path | None, key: str, game_no: int) -> None:
        self.folder, self.prefix = folder, f"{key}-g{game_no}"

    def save(self, what: str, png: bytes | None, move: int | None = None) -> None:
        if self.folder is None or png is None:
            return
        at = f"-{move:04d}" if move is not None else ""
        (self.folder / f"{self.prefix}{at}-{what}.png").write_bytes(png)


async def play_one(tables, store, args: argparse.Namespace, g: int, saver: PngSaver, stats: dict) -> str:  # type: ignore[no-untyped-def]
    """One AI-only game, each move stepped and timed; returns its result line."""
    from tables.text import seat_label

    lobby = await tables.create(0, "selfplay", args.game, args.options, seed=args.seed + g, take_seat=False)
    for level in args.levels:  # one strength a seat
        await tables.add_ai(lobby.game_id, 0, level)
    gid = lobby.game_id
    # AI moves are stepped one at a time below, so each is measured.
    opening = await tables.start(gid, None, run_ai=False)
    saver.save("opening", opening.png, 0)
    areas: list[tuple[int, bytes | None]] = []
    moves = 0
    while True:
        before = await store.get(gid)
        t0 = time.perf_counter()
        events = await tables.step_ai(gid)
        if events is None:
            break
        update = await tables.board(gid, events=events, before=before)
        stats["move"].append(time.perf_counter() - t0)
        stats["render"].append(update.timings["render"])
        moves += 1
        if update.png is not None:
            stats["png"].append(len(update.png))
        saver.save("final" if update.over else "board", update.png, moves)
        for k, step in enumerate(update.steps, 1):
            saver.save(f"step-{k}", step, moves)
        if saver.folder is not None and moves % 10 == 0:  # "my area" of seat 1, mid-game below
            areas.append((moves, (await tables.private_area(gid, 0))))
    if areas:
        at, png = areas[len(areas) // 2]
        saver.save("area-seat1", png, at)
    stats["moves"] += moves
    row = await store.get(gid)
    assert row is not None and row.result is not None, "selfplay game did not finish"
    scores = ", ".join(
        f"{seat_label(s)} {sc}" for s, sc in zip(row.seats, row.result["scores"], strict=False)
    )
    winners = " and ".join(seat_label(row.seats[w]) for w in row.result["winners"])
    return f"game {g + 1}: {moves} moves; scores: {scores}; winner: {winners}"


async def selfplay(args: argparse.Namespace) -> int:
    from engine import core, search
    from store import Store
    from tables import TableError, Tables, parse_options

    game = core.get(args.game)
    levels = [lv.strip() for lv in (args.ai or "easy").split(",")]
    bad = [lv for lv in levels if lv not in search.LEVELS]
    if bad:
        print(f"--ai: {', '.join(bad)} is not a strength; use easy, normal or hard.", file=sys.stderr)
        return 2
    args.players = args.players or (len(levels) if len(levels) > 1 else game.min_players)
    if not game.min_players <= args.players <= game.max_players:
        print(f"{game.title} is for {game.min_players} to {game.max_players} players.", file=sys.stderr)
        return 2
    if len(levels) not in (1, args.players):
        print(
            f"--ai names {len(levels)} strengths for {args.players} players: one, or one a seat.",
            file=sys.stderr,
        )
        return 2
    args.levels = levels * args.players if len(levels) == 1 else levels
    try:
        args.options = parse_options(" ".join(args.option or []))
        game.resolve_options(dict(args.options))
    except (TableError, core.IllegalAction) as exc:
        print(str(exc), file=sys.stderr)
        return 2
    png_dir = Path(args.png_dir) if args.png_dir else None
    if png_dir:
        png_dir.mkdir(parents=True, exist_ok=True)
    stats: dict = {"move": [], "render": [], "png": [], "moves": 0}
    with tempfile.TemporaryDirectory(prefix="lairkeeper-") as tmp:  # removed at the end, always
        db_path = args.db or os.path.join(tmp, "selfplay.db")
        store = await Store(db_path).open()
        tables = Tables(store)
        try:
            for g in range(args.games):
                print(await play_one(tables, store, args, g, PngSaver(png_dir, args.game, g + 1), stats))
        finally:
            tables.close()
            await store.close()
    where = args.db or "temporary, removed"
    print(
        f"summary: {args.games} games of {game.title} with {args.players} players, {stats['moves']} moves; "
        f"per move median {statistics.median(stats['move']) * 1000:.1f} ms, p99 {percentile(stats['move'], 99) * 1000:.1f} ms; "
        f"render median {statistics.median(stats['render']) * 1000:.1f} ms; "
        f"PNG median {statistics.median(stats['png']) / 1024:.1f} KB; database {where}"
    )
    return 0


def selfplay_parser() -> argparse.ArgumentParser:
    from engine import core

    games = core.available()
    lines = [
        f"  {k}: {core.get(k).title}, {core.get(k).min_players}-{core.get(k).max_players} players"
        for k in games
    ]
    p = argparse.ArgumentParser(
        prog="bot.py selfplay",
        description="Play complete AI-only games through the real pipeline (tables, store, render), "
        "no Discord token needed; prints each game's scores and a timing summary.",
        epilog="games:\n" + "\n".join(lines),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("game", choices=games, metavar="GAME", help="which game: " + ", ".join(games))
    p.add_argument("--players", type=int, help="number of AI players (default: the game's minimum)")
    p.add_argument("--games", type=int, default=1, help="how many games to play (default 1)")
    p.add_argument(
        "--ai",
        metavar="LEVEL[,LEVEL...]",
        help="the computer players' strengths, easy, normal or hard: one for every seat, or one a seat "
        "in seat order (then --players defaults to their number); default easy",
    )
    p.add_argument(
        "--seed", type=int, default=1, help="seed of the first game; game n uses seed+n-1 (default 1)"
    )
    p.add_argument("--db", help="keep the games in this SQLite file (default: a temporary one, removed)")
    p.add_argument(
        "--png-dir",
        help="save every image here, named <game>-g<n>-<move>-<what>.png: the opening, each board, the "
        "final board, step images (-step-<k>) and one mid-game 'my area' image a game (-area-seat1)",
    )
    p.add_argument(
        "--option",
        action="append",
        metavar="NAME=VALUE",
        help="a game option as in /game new, e.g. --option catacombs=true (repeatable)",
    )
    return p


# ---- migrate ------------------------------------------------------------------------

TOOL_TIMEOUT = 3600.0  # seconds a query of `bot.py migrate` may take


async def migrate(args: argparse.Namespace) -> int:
    """Copy the SQLite database into an empty PostgreSQL one and verify the copy."""
    from store import Store, StoreError
    from store.db import check_file, is_postgres
    from store.migrate import copy
    from tables import replayed, same_state

    src_path = args.source or os.environ.get("LAIRKEEPER_DB", "lairkeeper.db")
    if is_postgres(src_path) or not is_postgres(args.to):
        print(
            "migrate copies an SQLite file (--from or LAIRKEEPER_DB) to a postgresql:// URL (--to).",
            file=sys.stderr,
        )
        return 2
    if not os.path.exists(src_path):
        print(f"There is no database file {src_path} to copy.", file=sys.stderr)
        return 2

    async def check(row, log):  # type: ignore[no-untyped-def]
        try:
            state = await asyncio.to_thread(replayed, row, [(seat, note) for _q, seat, note in log])
        except Exception as exc:  # an engine error on an old log is a finding, not a crash
            return f"its log does not replay ({exc})"
        return None if same_state(state, row.state) else "seed + log replay to a different snapshot"

    try:
        check_file(src_path)
        # A tool, not a player waiting: whole tables are read and copied at once.
        src = await Store(src_path, timeout=TOOL_TIMEOUT).open()
        try:
            dst = await Store(args.to, timeout=TOOL_TIMEOUT).open()
            try:
                print(f"copying {src_path} into {dst.backend.where.removeprefix('The PostgreSQL database ')}")
                counts = await copy(src, dst, check)
            finally:
                await dst.close()
        finally:
            await src.close()
    except StoreError as exc:
        print(str(exc), file=sys.stderr)
        return 3
    print(
        f"done: {counts['games']} games, {counts['actions']} logged moves, {counts['timers']} timers copied; "
        f"counts match and {counts['games_replayed']} games replay to their snapshots. "
        f"Set LAIRKEEPER_DB to the PostgreSQL URL to run on it."
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    load_dotenv(ROOT / ".env")
    configure_logging()
    if argv and argv[0] == "selfplay":
        args = selfplay_parser().parse_args(argv[1:])
        return asyncio.run(selfplay(args))
    if argv and argv[0] == "migrate":
        p = argparse.ArgumentParser(
            prog="bot.py migrate", description="copy the SQLite database into an empty PostgreSQL database"
        )
        p.add_argument("--to", required=True, help="postgresql://user:password@host/database (empty)")
        p.add_argument(
            "--from", dest="source", help="the SQLite file (default: LAIRKEEPER_DB or lairkeeper.db)"
        )
        args = p.parse_args(argv[1:])
        return asyncio.run(migrate(args))
    if argv:
        print(
            "Usage: python bot.py  |  python bot.py selfplay GAME [--players N] [--games K] [--seed S] "
            "(see selfplay --help)  |  python bot.py migrate --to postgresql://...",
            file=sys.stderr,
        )
        return 2
    return run_bot()


if __name__ == "__main__":
    sys.exit(main())
