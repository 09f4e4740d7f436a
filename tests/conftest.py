from __future__ import annotations

import os

import pytest
from hypothesis import settings as hypothesis_settings

from tests import fakegame
from tests.pgserver import db_target  # noqa: F401  (the fixture: each store test on SQLite and PostgreSQL)

# Hypothesis draws new examples every run: welcome on a developer's machine (more games
# seen over time), not in CI, where a run must be repeatable to be worth a red. CI (CI
# set in the environment, as the CI runner does) and LAIRKEEPER_HYPOTHESIS=ci use fixed
# examples; a failure found locally is printed with its seed to replay it.
hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
hypothesis_settings.register_profile("dev", print_blob=True)
hypothesis_settings.load_profile(
    os.environ.get("LAIRKEEPER_HYPOTHESIS") or ("ci" if os.environ.get("CI") else "dev")
)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--long",
        action="store_true",
        default=False,
        help="run the reliability suite at full size (1,000 killed moves, 10,000 fuzz cases per game, ...); "
        "the same as LAIRKEEPER_LONG=1",
    )


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    # Set before the test modules are imported (tests/reliability/_util.py reads it
    # once), and inherited by the processes the kill -9 test starts.
    if config.getoption("--long"):
        os.environ["LAIRKEEPER_LONG"] = "1"
        # The full figures take minutes a test on a slow machine: no per-test timeout
        # (tryfirst: pytest-timeout reads it in its own pytest_configure).
        if hasattr(config.option, "timeout"):
            config.option.timeout = 0


# Computer players think in a thread in tests (a process pool per Tables would start
# processes in every test); tests/test_thinking.py runs the real pool.
os.environ.setdefault("LAIRKEEPER_AI_WORKERS", "0")


@pytest.fixture(autouse=True, scope="session")
def _fake_game() -> None:
    fakegame.install()


@pytest.fixture(autouse=True, scope="session")
def _easy_computer_players() -> None:
    # Tests play whole games with computer players in them: at the server's default
    # strength (a search of half a second a move) they would take minutes. A test of
    # the strengths sets one (tests/test_thinking.py).
    from tables import settings

    settings.DEFAULT_SETTINGS["ai_level"] = "easy"


@pytest.fixture(autouse=True)
def _forced_decisions_forgotten() -> None:
    # tables/forced.py keeps its decisions for the process, keyed by the state: a test
    # that changes a game's rules for itself (monkeypatch) must not be answered from
    # another test's decision on an equal state, whatever order the tests run in.
    from tables import forced

    forced.forget()
