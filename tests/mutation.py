"""Mutation testing of one module with cosmic-ray: which small breaks of the product
does no test notice?

    .venv/bin/pip install -e ".[mutation]"
    .venv/bin/python -m tests.mutation tables/turns.py [--tests tests/test_turns.py ...] [--sample 60]
    .venv/bin/python -m tests.mutation cogs/posting.py --only post_board,board_nonce,_send_board,post_owed

Each mutant (an operator flipped, a constant changed, a condition negated, ...) is
applied to a copy of the committed tree (``git archive HEAD``, so the work tree is never
touched) and the module's tests are run against it; a mutant the tests stay green on
"survives". The run writes ``mutation-results/<module>.md``: the counts and every
survivor as a diff, to be killed by a new test or explained in docs/testing.md.
Not part of the test suite or CI (minutes to hours a module).
"""

from __future__ import annotations

import argparse
import ast
import json
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# The tests that speak for each module (a mutant is judged by these alone).
TESTS = {
    "engine/monster_inn/rules.py": ["tests/monster_inn/test_monster_inn_rules.py"],
    "engine/monster_inn/views.py": [
        "tests/monster_inn/test_monster_inn_secrets.py",
        "tests/monster_inn/test_monster_inn_views.py",
    ],
    "engine/dungeon_lair/board.py": [
        "tests/dungeon_lair/test_dungeon_lair_rules.py",
        "tests/dungeon_lair/test_dungeon_lair_map.py",
    ],
    "engine/dungeon_decorators/rules.py": [
        "tests/dungeon_decorators/test_dungeon_decorators_placement.py",
        "tests/dungeon_decorators/test_dungeon_decorators_scoring.py",
        "tests/dungeon_decorators/test_dungeon_decorators_rounds.py",
    ],
    "engine/dungeon_drawers/rules.py": [
        "tests/dungeon_drawers/test_dungeon_drawers_build.py",
        "tests/dungeon_drawers/test_dungeon_drawers_path.py",
        "tests/dungeon_drawers/test_dungeon_drawers_defend.py",
        "tests/dungeon_drawers/test_dungeon_drawers_scoring.py",
    ],
    "engine/dungeon_lords/combat.py": ["tests/dungeon_lords/test_dungeon_lords_combat.py"],
    "tables/turns.py": ["tests/test_turns.py", "tests/test_live_turns.py", "tests/test_chooser.py"],
    "tables/play.py": ["tests/test_tables.py", "tests/test_turns.py", "tests/test_thinking.py"],
    "cogs/posting.py": [
        "tests/test_bot.py",
        "tests/test_cog_ack.py",
        "tests/reliability/test_rel_kill.py",
        "tests/test_posting.py",
    ],
    "tests/reliability/test_rel_twins.py": ["tests/reliability/test_rel_twins.py"],
}


def game_tests(module: str) -> list[str]:
    """engine/<game>/...: that game's own tests."""
    parts = Path(module).parts
    if parts[0] == "engine" and len(parts) > 2:
        return [f"tests/{parts[1]}"]
    return []


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("module", help="a file of the project, e.g. tables/turns.py")
    ap.add_argument("--tests", nargs="*", help="test files or folders (default: the module's own, see TESTS)")
    ap.add_argument("--sample", type=int, default=0, help="test only this many mutants, drawn at random")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default="", help="keep the mutants of these functions only: NAME[,NAME]")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds a mutant's tests may take")
    args = ap.parse_args()
    tests = args.tests or TESTS.get(args.module) or game_tests(args.module)
    if not tests:
        ap.error(f"no tests known for {args.module}: name them with --tests")
    out = ROOT / "mutation-results"
    out.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="lk-mutation-") as tmp:
        tree = Path(tmp) / "tree"
        tree.mkdir()
        archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        test_cmd = f"{sys.executable} -m pytest -x -q -p no:randomly -p no:cacheprovider {' '.join(tests)}"
        config = Path(tmp) / "cr.toml"
        config.write_text(
            "[cosmic-ray]\n"
            f'module-path = "{args.module}"\n'
            f"timeout = {args.timeout}\n"
            "excluded-modules = []\n"
            f'test-command = "{test_cmd}"\n'
            '[cosmic-ray.distributor]\nname = "local"\n'
        )
        session = Path(tmp) / "session.sqlite"
        cr = [sys.executable, "-m", "cosmic_ray.cli"]
        subprocess.run([*cr, "init", str(config), str(session)], cwd=tree, check=True)
        if args.only:
            names = [n for n in args.only.split(",") if n]
            keep_lines(session, function_lines(tree / args.module, names))
        total = sample(session, args.sample, args.seed)
        t0 = time.perf_counter()
        subprocess.run([*cr, "exec", str(config), str(session)], cwd=tree, check=True)
        seconds = time.perf_counter() - t0
        dump = subprocess.run(
            [*cr, "dump", str(session)], cwd=tree, check=True, capture_output=True, text=True
        )
    report = summarize(args.module, tests, dump.stdout, total, seconds)
    path = out / (args.module.replace("/", "_") + ".md")
    path.write_text(report)
    print(report.split("\n## ")[0])
    print(f"written: {path.relative_to(ROOT)}")
    return 0


def function_lines(path: Path, names: list[str]) -> list[tuple[int, int]]:
    """The line ranges (first, last) of the functions or methods called ``names`` in ``path``."""
    found = [
        (node.name, node.lineno, node.end_lineno or node.lineno)
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in names
    ]
    missing = set(names) - {name for name, _, _ in found}
    if missing:
        raise SystemExit(f"no function {', '.join(sorted(missing))} in {path.name}")
    return [(first, last) for _, first, last in found]


def keep_lines(session: Path, ranges: list[tuple[int, int]]) -> None:
    """Drop the session's mutants whose line lies outside ``ranges``."""
    con = sqlite3.connect(session)
    try:
        rows = con.execute("SELECT job_id, start_pos_row FROM mutation_specs").fetchall()
        drop = [(job,) for job, line in rows if not any(a <= line <= b for a, b in ranges)]
        for table in ("mutation_specs", "work_items"):
            con.executemany(f"DELETE FROM {table} WHERE job_id=?", drop)
        con.commit()
    finally:
        con.close()


def sample(session: Path, n: int, seed: int) -> int:
    """Keep ``n`` of the session's mutants, drawn at random; returns how many there were."""
    con = sqlite3.connect(session)
    try:
        ids = [r[0] for r in con.execute("SELECT job_id FROM work_items")]
        if n and n < len(ids):
            drop = set(ids) - set(random.Random(seed).sample(ids, n))
            for table in ("mutation_specs", "work_items"):
                con.executemany(f"DELETE FROM {table} WHERE job_id=?", [(j,) for j in drop])
            con.commit()
        return len(ids)
    finally:
        con.close()


def summarize(module: str, tests: list[str], dump: str, total: int, seconds: float) -> str:
    killed = survived = other = 0
    survivors: list[str] = []
    for line in dump.splitlines():
        item, result = json.loads(line)
        outcome = (result or {}).get("test_outcome")
        if outcome == "killed":
            killed += 1
        elif outcome == "survived":
            survived += 1
            spec = item["mutations"][0]
            survivors.append(
                f"### {spec['operator_name']} at line {spec['start_pos'][0]}\n\n```diff\n{result.get('diff', '')}\n```\n"
            )
        else:
            other += 1
    tested = killed + survived + other
    head = (
        f"# Mutation testing of {module}\n\n"
        f"Tests: {', '.join(tests)}. Mutants: {total} in the module, {tested} tested; "
        f"{killed} killed, {survived} survived, {other} incompetent or timed out; "
        f"{seconds / 60:.1f} min.\n"
    )
    return head + "\n## Survivors\n\n" + ("\n".join(survivors) or "None.\n")


if __name__ == "__main__":
    raise SystemExit(main())
