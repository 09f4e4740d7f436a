"""The /game new options text: name=value pairs, and a sentence for anything else."""

from __future__ import annotations

import pytest

from tables import TableError, parse_options


def test_options_are_read_as_literals() -> None:
    assert parse_options("open_treasure=true beginner=no players=4 delta=-2 name=red") == {
        "open_treasure": True,
        "beginner": False,
        "players": 4,
        "delta": -2,
        "name": "red",
    }
    assert parse_options(None) == {} and parse_options("  ") == {}


@pytest.mark.parametrize("value", ["1\u2460", "--5", "\u0663", "9" * 5000, "1e3", "-"])
def test_odd_numbers_stay_text_and_never_crash(value: str) -> None:
    # The fuzzer's finds: int() refused these after isdigit() had let them through.
    assert parse_options(f"players={value}") == {"players": value}


def test_a_part_without_equals_is_one_sentence() -> None:
    with pytest.raises(TableError, match="Options are written name=value"):
        parse_options("open_treasure")
