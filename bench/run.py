"""Lairkeeper benchmarks: engine playouts, render, storage, the move pipeline,
start-up, whole games by clicks; and the long reliability figures.

    python -m bench [--quick] [--only engine,render,storage,pipeline,startup,clicks,backends,reliability,aiload,stats,forced,hints]
                    [--games monster-inn,...] [--out bench/results]
                    [--clicks-players min,4] [--clicks-max N] [--clicks-seconds S] [--clicks-seed K]
    python bench/run.py ...          (the same)

Writes ``<out>/latest.json`` and ``<out>/latest.md``. Not part of the test run.
The sections a run measures replace those in ``latest.json``; the others are kept
as they were (``sections_run`` says when and how each was last measured).
``clicks`` plays whole games through the real bot and the stand-in (bench/clicks.py):
full mode at each game's minimum player count and at 4 players, some minutes a game;
``--quick`` only the minimum count, each run stopped after 40 clicks.
``hints`` (bench/hints.py) asks the Hint button's search at positions of every game and
times other clicks on the same game meanwhile.
``reliability`` (the full kill -9 / race / fuzz / secrets figures, several
minutes) and ``backends`` (SQLite and PostgreSQL side by side: saves, Tables.act
with 100,000 games, throughput through the stand-in; it builds a 100,000-game
database once) run only when named in ``--only``.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: python bench/run.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import sections  # noqa: E402
from bench.common import ROOT, game_keys, machine  # noqa: E402

DEFAULT = ("engine", "render", "storage", "pipeline", "startup", "clicks")
ALL = (*DEFAULT, "backends", "reliability", "aiload", "stats", "forced", "hints")


def log(msg: str) -> None:
    print(msg, flush=True)


def run(args: argparse.Namespace) -> dict[str, Any]:
    only = tuple(args.only.split(",")) if args.only else DEFAULT
    unknown = set(only) - set(ALL)
    if unknown:
        raise SystemExit(f"unknown section(s): {', '.join(sorted(unknown))}; choose from {', '.join(ALL)}")
    keys = game_keys(args.games.split(",") if args.games else None)
    q = args.quick
    out: dict[str, Any] = {
        "when": time.strftime("%Y-%m-%d %H:%M:%S"),
        "mode": "quick" if q else "full",
        "machine": machine(),
        "games": keys,
    }
    log(f"Lairkeeper benchmarks ({out['mode']}) for {', '.join(keys)}")
    pools = None
    if {"render", "storage", "backends"} & set(only):
        from bench.dbbuild import pool

        log("real playouts for render and storage:")
        pools = pool(keys, 2 if q else 4, log)
    if "engine" in only:
        log("engine: random playouts")
        out["engine"] = sections.engine(keys, 1.0 if q else 8.0, log)
    if "render" in only:
        log("render: public board vs bare PNG encode")
        out["render"] = sections.render(keys, pools, 12 if q else 60, log)  # type: ignore[arg-type]
    if "storage" in only:
        log("storage: commit_move vs bare SQLite commit")
        out["storage"] = sections.storage(keys, pools, 100 if q else 1000, log)  # type: ignore[arg-type]
    if {"pipeline", "startup"} & set(only):
        from bench.dbbuild import cached_db, working_copy

        db, info = cached_db(keys, log)
        out["database"] = info
        log(f"database: {info}")
        with tempfile.TemporaryDirectory() as d:
            if "pipeline" in only:
                log("pipeline: Tables.act with 10,000 games stored")
                out["pipeline"] = sections.pipeline(working_copy(db, Path(d)), keys, 20 if q else 300, log)
            if "startup" in only:
                log("start-up with 10,000 games stored")
                out["startup"] = sections.startup(working_copy(db, Path(d)), 1 if q else 3, log)
    if "clicks" in only:
        from bench.clicks import clicks

        counts = args.clicks_players or ("min" if q else "min,4")
        cap = args.clicks_max if args.clicks_max is not None else (40 if q else None)
        log(f"clicks: whole games by clicks only through the bot and the stand-in ({counts} players)")
        out["clicks"] = clicks(keys, log, counts, cap, args.clicks_seconds, args.clicks_seed)
        log("clicks, slow: every turn a day after the player's last click (issue 37)")
        out["clicks_slow"] = clicks(keys, log, counts, cap, args.clicks_seconds, args.clicks_seed, slow=True)
    if "backends" in only:
        from bench import backends

        log("backends: commit_move on PostgreSQL vs a bare asyncpg commit")
        out["storage_pg"] = backends.storage_pg(keys, pools, 100 if q else 1000, log)  # type: ignore[arg-type]
        log("backends: Tables.act with 100,000 games stored, SQLite and PostgreSQL")
        out["act100k"] = backends.pipeline_both(keys, 20 if q else 200, log)
        log("backends: throughput through the stand-in")
        out["throughput"] = backends.throughput(8 if q else 16, 10 if q else 25, log)
    if "forced" in only:
        from bench.forced import forced

        log("forced: the check before a move is played for a player (issue 38)")
        out["forced"] = forced(keys, 2 if q else 6, log)
    if "hints" in only:
        from bench.hints import hint_bench

        log("hints: the Hint button's search, and clicks on the same game meanwhile (issue 40)")
        out["hints"] = hint_bench(keys, 1 if q else 6, 8 if q else 10, log)
    if "aiload" in only:
        from bench import aiload

        log("aiload: a person's moves while four hard computer players think (issue 30)")
        out["aiload"] = aiload.aiload(20.0 if q else 60.0, log)
    if "stats" in only:
        from bench.stats import stats

        log("stats: /stats and ratings with 10,000 finished games in one server (issue 41)")
        out["stats"] = stats(keys, log, 2_000 if q else 10_000)
    if "reliability" in only:
        log("reliability: pytest tests/reliability --long")
        out["reliability"] = sections.reliability(log)
    return out


def markdown(r: dict[str, Any]) -> str:
    m = r["machine"]
    lines = [
        f"# Benchmark figures ({r['mode']}, {r['when']})",
        "",
        f"Machine: {m['cpu']}, {m['cores']} cores, {m['ram_gb']} GB RAM; Python {m['python']}, "
        f"SQLite {m['sqlite']}, Pillow {m['pillow']}; load average at start {m['load_avg_at_start']}.",
        "",
    ]
    for k, v in (r.get("sections_run") or {}).items():
        lines += [
            f"Section {k} measured later ({v['mode']}, {v['when']}), load average at its start "
            f"{v['machine']['load_avg_at_start']}.",
            "",
        ]
    if "engine" in r:
        lines += [
            "## Engine: random playouts",
            "",
            "| game | playouts/s | moves/s | moves/playout |",
            "|---|---|---|---|",
        ]
        for k, v in r["engine"].items():
            lines.append(f"| {k} | {v['playouts_per_s']} | {v['moves_per_s']} | {v['moves_per_playout']} |")
        lines.append("")
    if "stats" in r:
        v = r["stats"]
        lines += [f"## /stats with {v['games']:,} finished games in one server (issue 41)", ""]
        for k in ("cold", "first", "restart", "stats", "stats_game", "player", "since", "update"):
            lines.append(
                f"- {k}: median {v[k]['median_ms']} ms, max {v[k]['max_ms']} ms ({v[k]['runs']} runs)"
            )
        lines.append("")
    if "aiload" in r:
        lines += ["## Clicks while four hard computer players think (issue 30)", ""]
        for part, v in r["aiload"].items():
            if "error" in v:
                lines.append(f"- {part}: failed: {v['error']}")
                continue
            lines.append(
                f"- {part}: {v['clicks']} clicks, answered p50 {v['click_p50_s']} s, p99 {v['click_p99_s']} s, "
                f"max {v['click_max_s']} s; within 3 s: {v['within_3s']:.0%}"
            )
        lines.append("")
    if "forced" in r:
        lines += [
            "## Moves played for a player: the check (issue 38)",
            "",
            "| game | states with one move | played for the player | median s | p90 s | max s "
            "| situations dealt median / total | asked again median s |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for k, v in r["forced"].items():
            lines.append(
                f"| {k} | {v['states']} | {v['played_for_a_player']} | {v['median_s']} | {v['p90_s']} | {v['max_s']} "
                f"| {v.get('deals_median')} / {v.get('deals_total')} | {v.get('again_median_s')} |"
            )
        lines.append("")
    lines += hints_markdown(r)
    if "render" in r:
        lines += [
            "## Render: public board (target ratio <= 2.0, PNG <= 250 KB)",
            "",
            "| game | boards | render median ms | bare encode median ms | ratio | CPU ms render / encode | CPU ratio | PNG median KB | PNG max KB | max size px | private render median ms | words mended median / max ms |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        for k, v in r["render"].items():
            lines.append(
                f"| {k} | {v['boards']} | {v['render_ms_median']} | {v['bare_encode_ms_median']} | {v['ratio']} | "
                f"{v['render_cpu_ms_median']} / {v['bare_encode_cpu_ms_median']} | {v['ratio_cpu']} | "
                f"{v['png_kb_median']} | {v['png_kb_max']} | {v['size_px_max'][0]}x{v['size_px_max'][1]} | "
                f"{v['private_render_ms_median']} | {v.get('mend_ms_median')} / {v.get('mend_ms_max')} |"
            )
        lines.append("")
    if "storage" in r:
        lines += [
            "## Storage: one move saved (target ratio <= 1.5)",
            "",
            "Each sample saves the next of 50 consecutive mid-game snapshots of one game, the same bytes in",
            "every variant. commit_move is handed the encoded snapshot (as tables/ hands it); the ratio is against",
            "a bare commit (INSERT the log row, UPDATE the snapshot, COMMIT) sent in one hop to the store's own",
            "aiosqlite worker thread, so both pay the same thread hand-off. 'transaction' is the SQL alone,",
            "timed on that thread, against the bare SQL there. The last columns: the bare commit with sqlite3",
            "on the calling thread (no driver, no thread), and the JSON encoding of the snapshot, timed apart.",
            "",
            "| game | snapshot bytes (median) | commit_move median ms | bare one-hop median ms | ratio | CPU ratio | "
            "transaction ms | bare transaction ms | ratio | with timers median ms | bare on calling thread ms | "
            "ratio to it | encode ms |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        for k, v in r["storage"].items():
            lines.append(
                f"| {k} | {v['snapshot_bytes']} | {v['commit_move_ms_median']} | {v['bare_one_hop_ms_median']} | "
                f"{v['ratio']} | {v['ratio_cpu']} | {v.get('transaction_ms_median')} | "
                f"{v.get('bare_transaction_ms_median')} | {v.get('ratio_transaction')} | {v['commit_move_with_timers_ms_median']} | "
                f"{v['bare_commit_ms_median']} | {v['ratio_vs_calling_thread']} | {v['encode_ms']} |"
            )
        lines.append("")
    if "database" in r:
        d = r["database"]
        lines += [
            f"Database for pipeline and start-up: {d['games']} games ({d['by_status']}), {d['actions']} logged "
            f"actions, {d['file_mb']} MB.",
            "",
        ]
    if "pipeline" in r:
        lines += [
            "## Move pipeline: Tables.act (target p99 <= 100 ms)",
            "",
            "| game | moves | p50 ms | p99 ms | max ms | CPU p50 ms | CPU p99 ms | load+apply+save p50 ms | render p50 ms |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for k, v in r["pipeline"].items():
            lines.append(
                f"| {k} | {v['moves']} | {v['p50_ms']} | {v['p99_ms']} | {v['max_ms']} | {v.get('cpu_p50_ms')} | "
                f"{v.get('cpu_p99_ms')} | {v['load_apply_save_p50_ms']} | {v['render_p50_ms']} |"
            )
        lines.append("")
    if "startup" in r:
        s = r["startup"]
        lines += ["## Start-up (targets <= 2 s, <= 150 MB)", "", f"Method: {s['method']}.", ""]
        for name in ("bot_10k", "bot_empty"):
            if name in s:
                lines.append(f"- {name}: {s[name]}")
        lines += [f"- parts (10,000 games, subprocess): {s['parts']}", ""]
    lines += clicks_markdown(r)
    lines += clicks_slow_markdown(r)
    lines += backends_markdown(r)
    if "reliability" in r:
        rel = r["reliability"]
        lines += ["## Reliability (long mode)", "", f"{rel['pytest']} in {rel['seconds']} s.", ""]
        for f in rel.get("figures", []):
            lines.append(f"- {json.dumps(f)}")
        lines.append("")
    return "\n".join(lines)


def hints_markdown(r: dict[str, Any]) -> list[str]:
    if "hints" not in r:
        return []
    lines = [
        "## Hints: the search, and clicks on the same game meanwhile (issue 40)",
        "",
        "A hint at positions spread over seeded random games (minimum players), searched in the real pool;",
        "'Your move' of another seat and of the asker clicked while the search runs, and alone before it.",
        "The normal strength's budget: its seconds a decision, or the game's playouts, whichever ends first.",
        "",
        "| game | players | hints (no search) | budget s (playouts) | hint p50 s | p99 s | max s | "
        "within the seconds | searches stopped by the seconds | search in the worker max s | hint minus its search p50 s | another seat's click alone p50 s | during p50 s | p99 s | the asker's click "
        "alone p50 s | during p50 s | p99 s | clicked as a search started, answered after the hint |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for k, v in r["hints"].items():
        o, w = v["other_click"], v["own_click"]
        lines.append(
            f"| {k} | {v['players']} | {v['hints']} ({v['no_search']}) | {v['budget_s']} ({v['budget_iterations']}) | "
            f"{v['hint']['p50_s']} | {v['hint']['p99_s']} | {v['hint']['max_s']} | {v['within_budget']:.0%} | "
            f"{v['stopped_by_time_budget']:.0%} | {v['search_in_worker']['max_s']} | {v['overhead_p50_s']} | {o['alone']['p50_s']} | {o['during']['p50_s']} | {o['during']['p99_s']} | {w['alone']['p50_s']} | "
            f"{w['during']['p50_s']} | {w['during']['p99_s']} | "
            f"{o['first_answered_after_the_hint'] + w['first_answered_after_the_hint']} of "
            f"{2 * (v['hints'] - v['no_search'])} |"
        )
    lines.append("")
    return lines


def clicks_markdown(r: dict[str, Any]) -> list[str]:
    if "clicks" not in r:
        return []
    lines = [
        "## Whole games by clicks only (issue 26)",
        "",
        "Through the real bot process and the stand-in; humans click at random among what the bot offers",
        "them. Targets: boards <= turns + simultaneous phases, pings <= boards, private messages <= 2 a turn,",
        "p99 under 1 s. Boards, pings and private messages count what the play posts after the opening board.",
        "",
        "| game | players (humans) | complete | moves | turns | boards | pings (messages) | clicks | "
        "clicks/turn median | max | private messages | p99 s | simultaneous phases | path clicks max | "
        "single-option clicks (kept for a secret) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for v in r["clicks"]:
        if "error" in v:
            lines.append(f"| {v['game']} | {v['players']} ({v['humans']}) | stuck: {v['error']} |")
            continue
        lines.append(
            f"| {v['game']} | {v['players']} ({v['humans']}) | {'yes' if v['complete'] else 'no'} | {v['moves']} | "
            f"{v['turns']} | {v['public_boards']} | {v['pings']} ({v.get('ping_messages', '-')}) | {v['clicks']} | "
            f"{v['clicks_per_turn_median']} | "
            f"{v['clicks_per_turn_max']} | {v['private_messages']} | {v['seconds_per_click_p99']} | "
            f"{v['simultaneous_phases']} | {v.get('path_clicks_max', '-')} | "
            f"{v.get('single_option_clicks', '-')} ({v.get('single_option_clicks_for_secrets', '-')}) |"
        )
    lines.append("")
    return lines


def clicks_slow_markdown(r: dict[str, Any]) -> list[str]:
    """The slow mode beside the fast one (issue 37): turns a day apart."""
    if "clicks_slow" not in r:
        return []
    fast = {(v["game"], v["players"]): v for v in r.get("clicks", []) if "error" not in v}
    lines = [
        "## Whole games by clicks, turns a day apart (issue 37)",
        "",
        "Every turn begins a day (the stand-in's clock) after the player's last click: no interaction",
        "token lives from one turn to the next; turns come to each player's lasting private place.",
        "",
        "| game | players (humans) | clicks (fast) | turns | notifications | to the mover | Your move | "
        "places | place messages | p99 s |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for v in r["clicks_slow"]:
        if "error" in v:
            lines.append(f"| {v['game']} | {v['players']} ({v['humans']}) | stuck: {v['error']} |")
            continue
        f = fast.get((v["game"], v["players"]), {})
        lines.append(
            f"| {v['game']} | {v['players']} ({v['humans']}) | {v['clicks']} ({f.get('clicks', '-')}) | "
            f"{v['turns']} | {v['notifications']} | {v['notifications_to_mover']} | {v['your_move_clicks']} | "
            f"{v['places_created']} | {v['place_messages']} | {v['seconds_per_click_p99']} |"
        )
    lines.append("")
    return lines


def merged(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """``new`` over ``old``: the sections measured now replace theirs, the others stay as
    they were, with the run that measured them (the top-level ``when``/``mode``/``machine``);
    ``sections_run`` says when, how and on what machine each newer section was measured."""
    meta = ("when", "mode", "machine", "games", "sections_run")
    measured = [k for k in new if k not in meta]
    kept = [k for k in old if k not in meta and k not in measured]
    out = {**old, **{k: new[k] for k in measured}} if kept else dict(new)
    runs = {k: v for k, v in (old.get("sections_run") or {}).items() if k in kept}
    if kept:
        for k in measured:
            runs[k] = {n: new[n] for n in ("when", "mode", "machine", "games")}
    if runs:
        out["sections_run"] = runs
    else:
        out.pop("sections_run", None)
    return out


def backends_markdown(r: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    if "storage_pg" in r:
        lines += [
            "## Storage on both backends: one move saved (target ratio <= 1.5)",
            "",
            "SQLite: commit_move against a bare commit of the same bytes in one hop on the store's own",
            "aiosqlite thread (as above). PostgreSQL: commit_move (row lock, version guard, log row, snapshot)",
            "against a bare asyncpg transaction (INSERT the log row, UPDATE the snapshot) on the same pooled",
            "connection.",
            "",
            "| game | snapshot bytes | SQLite commit_move ms | SQLite bare ms | SQLite ratio | "
            "PostgreSQL commit_move ms | PostgreSQL bare ms | PostgreSQL ratio | PostgreSQL p99 ms | with timers ms |",
            "|---|---|---|---|---|---|---|---|---|---|",
        ]
        for k, v in r["storage_pg"].items():
            s = r.get("storage", {}).get(k, {})
            lines.append(
                f"| {k} | {v['snapshot_bytes']} | {s.get('commit_move_ms_median', '-')} | "
                f"{s.get('bare_one_hop_ms_median', '-')} | {s.get('ratio', '-')} | {v['commit_move_ms_median']} | "
                f"{v['bare_commit_ms_median']} | {v['ratio']} | {v['commit_move_ms_p99']} | "
                f"{v['commit_move_with_timers_ms_median']} |"
            )
        lines.append("")
    if "act100k" in r:
        a = r["act100k"]
        d = a["database"]
        lines += [
            "## Tables.act with 100,000 games stored (target p99 <= 100 ms)",
            "",
            f"Database: {d['games']} games ({d['by_status']}), {d['actions']} logged actions, {d['file_mb']} MB "
            "as SQLite; the same rows copied into PostgreSQL (bot.py migrate's copy).",
            "",
            "| game | SQLite p50 ms | SQLite p99 ms | PostgreSQL p50 ms | PostgreSQL p99 ms | "
            "SQLite load+apply+save p50 | PostgreSQL load+apply+save p50 |",
            "|---|---|---|---|---|---|---|",
        ]
        for k, v in a["sqlite"].items():
            w = a["postgresql"][k]
            lines.append(
                f"| {k} | {v['p50_ms']} | {v['p99_ms']} | {w['p50_ms']} | {w['p99_ms']} | "
                f"{v['load_apply_save_p50_ms']} | {w['load_apply_save_p50_ms']} |"
            )
        lines.append("")
    if "throughput" in r:
        lines += [
            "## Sustained throughput through the stand-in",
            "",
            "Monster Inn games played at once by three users each; a move is two clicks ('Your move', then",
            "a move button) until the new board is in the thread. SQLite: one bot process. PostgreSQL: two",
            "bot processes, shards 0 and 1 of 2, the games split over a guild of each shard.",
            "",
            "| backend | processes | games at once | moves | moves/s | p50 ms | p99 ms | refusals |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for k, v in r["throughput"].items():
            lines.append(
                f"| {k} | {v['processes']} | {v['tables']} | {v['moves']} | {v['moves_per_s']} | "
                f"{v['p50_ms']} | {v['p99_ms']} | {v['errors']} |"
            )
        lines.append("")
    return lines


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--quick", action="store_true", help="fewer samples (about a minute once the database is cached)"
    )
    p.add_argument("--only", help=f"comma-separated sections: {', '.join(ALL)}")
    p.add_argument("--games", help="comma-separated game keys (default: every installed game)")
    p.add_argument("--out", default=str(ROOT / "bench" / "results"), help="where latest.json/latest.md go")
    p.add_argument(
        "--clicks-players", help="clicks: player counts, 'min', '4' or 'min,4' (default min,4; quick min)"
    )
    p.add_argument(
        "--clicks-max", type=int, help="clicks: stop each game after N clicks (default none; quick 40)"
    )
    p.add_argument(
        "--clicks-seconds",
        type=float,
        default=1800.0,
        help="clicks: stop each game after S seconds (default 1800)",
    )
    p.add_argument("--clicks-seed", type=int, default=26, help="clicks: the games' and the clickers' seed")
    args = p.parse_args(argv)
    result = run(args)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    try:
        old = json.loads((out / "latest.json").read_text())
    except (OSError, ValueError):
        old = {}
    result = merged(old, result)
    (out / "latest.json").write_text(json.dumps(result, indent=2))
    (out / "latest.md").write_text(markdown(result))
    log(f"figures written to {out / 'latest.json'} and {out / 'latest.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
