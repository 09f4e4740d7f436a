"""``pytest --long`` switches the reliability suite to its full figures."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.reliability._util import ROOT, record, size


def test_mode_is_recorded() -> None:
    record("mode", size=size(1, 2))


def _sizes(tmp_path: Path, *flags: str) -> list[dict[str, object]]:
    out = tmp_path / f"figures{len(flags)}.json"
    env = {k: v for k, v in os.environ.items() if k != "LAIRKEEPER_LONG"}
    env["LAIRKEEPER_REL_OUT"] = str(out)
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:randomly",
            *flags,
            "tests/reliability/test_rel_mode.py::test_mode_is_recorded",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 0, p.stdout[-2000:]
    return [json.loads(line) for line in out.read_text().splitlines()]


def test_long_flag_runs_the_full_figures(tmp_path: Path) -> None:
    assert _sizes(tmp_path) == [{"test": "mode", "long": False, "size": 1}]
    assert _sizes(tmp_path, "--long") == [{"test": "mode", "long": True, "size": 2}]
