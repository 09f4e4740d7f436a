"""Issue 27: every interaction handler goes through ``cogs.common.guarded``, which
acknowledges the interaction before any database work. A handler added without it
(a new command, a new button) fails here, naming itself."""

from __future__ import annotations

import ast
from pathlib import Path

COGS = Path(__file__).resolve().parents[1] / "cogs"


def _decorated_as_command(fn: ast.AsyncFunctionDef) -> bool:
    for d in fn.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        if isinstance(target, ast.Attribute) and target.attr == "command":
            return True
    return False


def _calls(fn: ast.AST, name: str) -> bool:
    for node in ast.walk(fn):
        if isinstance(node, ast.Call):
            f = node.func
            if (isinstance(f, ast.Name) and f.id == name) or (
                isinstance(f, ast.Attribute) and f.attr == name
            ):
                return True
    return False


def handlers() -> list[tuple[str, ast.AsyncFunctionDef]]:
    """Slash command callbacks and component (DynamicItem) callbacks in cogs/."""
    out = []
    for path in sorted(COGS.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for cls in [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]:
            is_item = any("DynamicItem" in ast.unparse(b) for b in cls.bases)
            for fn in cls.body:
                if not isinstance(fn, ast.AsyncFunctionDef):
                    continue
                if _decorated_as_command(fn) or (is_item and fn.name == "callback"):
                    out.append((f"{path.name}:{cls.name}.{fn.name}", fn))
    return out


def test_every_handler_is_acknowledged_first_through_guarded() -> None:
    found = handlers()
    assert len(found) >= 20, f"only {len(found)} handlers found: the scan is broken"
    missing = [name for name, fn in found if not _calls(fn, "guarded")]
    assert missing == [], f"handlers that do not go through cogs.common.guarded: {missing}"
