from __future__ import annotations

import pytest

from tests import fakegame


@pytest.fixture(autouse=True, scope="session")
def _fake_game() -> None:
    fakegame.install()
