"""The house keeps one shape (issue 16): every game package alike, short functions,
the AI behind the contract's hook, one seat reference, renderers behind one protocol."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

import render
from engine import core

ROOT = Path(__file__).resolve().parents[1]
# legacy/ (the frozen engine of release f63664e, legacy/r1/README.md) is not checked:
# it stays exactly as released, so that games begun then replay under their rules.
MODULES = sorted(core.MODULES.values())
SHAPE = ("__init__.py", "game.py", "notation.py", "views.py", "ai.py", "data.py", "upgrade.py")


def _functions(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        (
            f"{path.relative_to(ROOT)}:{node.lineno} {node.name}",
            (node.end_lineno or node.lineno) - node.lineno + 1,
        )
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]


def test_no_function_over_80_lines_in_engine_tables_render() -> None:
    long = [
        f"{name} ({n} lines)"
        for layer in ("engine", "tables", "render")
        for path in sorted((ROOT / layer).rglob("*.py"))
        for name, n in _functions(path)
        if n > 80
    ]
    assert not long, long


@pytest.mark.parametrize("module", MODULES)
def test_every_game_package_has_the_same_modules(module: str) -> None:
    present = {p.name for p in (ROOT / "engine" / module).glob("*.py")}
    assert set(SHAPE) <= present, f"engine/{module} lacks {sorted(set(SHAPE) - present)}"


@pytest.mark.parametrize("module", MODULES)
def test_the_ai_gets_only_the_view_legal_moves_and_its_random(module: str) -> None:
    """core calls ai.choose(view, legal, rnd); no game passes the AI its state."""
    game_src = (ROOT / "engine" / module / "game.py").read_text(encoding="utf-8")
    assert "def ai_action" not in game_src, "the AI hook is core's, not the game's"
    tree = ast.parse((ROOT / "engine" / module / "ai.py").read_text(encoding="utf-8"))
    choose = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "choose")
    assert [a.arg for a in choose.args.args] == ["view", "legal", "rnd"]


@pytest.mark.parametrize("module", MODULES)
def test_one_seat_reference_in_engine_texts(module: str) -> None:
    """Seats are written core.seat_ref ("Player N"), never "P2" (tables puts names in)."""
    bad = []
    for path in sorted((ROOT / "engine" / module).glob("*.py")):
        for k, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"""f["'][^"']*\bP\{""", line):
                bad.append(f"{path.name}:{k}: {line.strip()}")
    assert not bad, bad


@pytest.mark.parametrize("key", sorted(core.MODULES))
def test_renderers_sit_behind_one_protocol_and_read_views_only(key: str) -> None:
    assert isinstance(render.get(key), render.Renderer)
    for path in (ROOT / "render").glob(f"{core.MODULES[key]}*.py"):
        src = path.read_text(encoding="utf-8")
        imports = re.findall(r"^\s*(?:from|import) (engine\S*)", src, re.M)
        assert set(imports) <= {"engine.core"}, f"{path.name} imports {imports}: renderers read views only"
    tables_src = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tables").glob("*.py"))
    assert "hasattr(" not in tables_src, "tables finds a renderer's abilities through the protocol"


def _cogs_imports() -> tuple[dict[str, set[str]], list[tuple[str, str, list[str]]]]:
    """cogs/'s imports of cogs modules: per module the ones imported at the top, and
    every import made inside a function (module, imported module, names)."""
    top: dict[str, set[str]] = {}
    local: list[tuple[str, str, list[str]]] = []
    for path in sorted((ROOT / "cogs").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top[path.stem] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("cogs."):
                dep = (node.module or "").split(".")[1]
                if node in tree.body:
                    top[path.stem].add(dep)
                else:
                    local.append((path.stem, dep, [a.name for a in node.names]))
    return top, local


def test_cogs_modules_stay_small_and_import_each_other_without_a_cycle() -> None:
    """A grab bag is split when touched (cogs/common.py was 975 lines): no module of cogs/
    over 400 lines, and the imports at the top of the modules form no cycle, so any
    module can be imported first. An import that must stay inside a function (its
    module imports this one) is checked to name what that module defines: it runs
    only on a click, where no unit test might reach it."""
    sizes = {p.name: p.read_text(encoding="utf-8").count("\n") for p in (ROOT / "cogs").glob("*.py")}
    big = {name: lines for name, lines in sizes.items() if lines > 400}
    assert not big, f"cogs/ modules over 400 lines: {big}"
    top, local = _cogs_imports()
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        assert module not in path, f"cogs import cycle: {' -> '.join([*path, module])}"
        if module not in done:
            for dep in sorted(top.get(module, ())):
                visit(dep, [*path, module])
            done.add(module)

    for module in top:
        visit(module, [])
    for module, dep, names in local:
        defined = vars(importlib.import_module(f"cogs.{dep}"))
        assert all(n in defined for n in names), f"cogs/{module}.py imports {names} from cogs.{dep}"
