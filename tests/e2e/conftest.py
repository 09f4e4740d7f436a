from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.harness import BotProcess
from tests.standin import StandIn


@pytest.fixture
async def standin() -> AsyncIterator[StandIn]:
    s = await StandIn().start()
    yield s
    await s.close()


@pytest.fixture
async def bot(standin: StandIn, tmp_path: Path) -> AsyncIterator[BotProcess]:
    b = BotProcess(standin, tmp_path / "lairkeeper.db", tmp_path / "bot.log")
    await b.start()
    yield b
    await b.stop()
    # Shown by pytest only when the test failed.
    print(f"---- bot log ({b.log}) ----\n{b.tail(200)}")
    print(f"---- stand-in: unknown routes {standin.unknown}, refusals {standin.errors}")
