"""creatures.json: the 40 cards as the rulebook lists them, validated at import."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from engine.monster_inn import cards
from engine.monster_inn.cards import CARDS, KINDS, CardDataError, validate

DOC = json.loads(cards.DATA.read_text())


def test_forty_cards_as_the_rulebook_lists() -> None:
    mons = [c for c in CARDS.values() if c.is_monster]
    hums = [c for c in CARDS.values() if not c.is_monster]
    assert len(mons) == 20 and len(hums) == 20
    assert sorted(c.value for c in mons) == list(range(1, 21))
    assert sorted(c.value for c in hums) == list(range(1, 21))
    assert all(1 <= c.skulls <= 4 for c in CARDS.values())
    assert {c.range for c in hums} == {"1-5", "6-10", "11-15", "16-20"}


def test_the_kinds_are_balanced() -> None:
    # Each kind: one monster in each range of five, the same total combat value and skulls.
    for k in KINDS:
        mine = [c for c in CARDS.values() if c.kind == k]
        assert sorted(c.range for c in mine) == ["1-5", "11-15", "16-20", "6-10"]
        assert sum(c.value for c in mine) == 42
        assert sum(c.skulls for c in mine) == 10
    # Monster skulls rise with combat value: 1 per range of five.
    for c in CARDS.values():
        if c.is_monster:
            assert c.skulls == (c.value - 1) // 5 + 1
    # Humanoid skulls rise within a range and on average from range to range, but the
    # ranges overlap, so the back never tells the skulls.
    means = []
    for lo in (1, 6, 11, 16):
        sk = [CARDS[f"H{v}"].skulls for v in range(lo, lo + 5)]
        assert sk == sorted(sk) and len(set(sk)) > 1
        means.append(sum(sk) / 5)
    assert means == sorted(means) and len(set(means)) == 4


@pytest.mark.parametrize(
    ("break_it", "message"),
    [
        (lambda d: d["cards"].pop(), "40 cards"),
        (lambda d: d["cards"][0].update(value=2), "each exactly once"),
        (lambda d: d["cards"][0].update(skulls=5), "outside 1-4"),
        (lambda d: d["cards"][0].update(kind="Dragons"), "unknown kind"),
        (lambda d: d["cards"][1].update(id=d["cards"][0]["id"]), "appears twice"),
        (lambda d: d["kinds"].pop(), "kinds must be"),
        (lambda d: d["ranges"].pop(), "back ranges"),
        (lambda d: d["cards"][0].update(kind="Orcs"), "has 5 monsters|has 3 monsters"),
        (lambda d: d["cards"][0].pop("value"), "bad card entry"),
    ],
)
def test_an_invalid_file_is_refused_with_a_clear_error(break_it, message: str) -> None:  # type: ignore[no-untyped-def]
    doc = copy.deepcopy(DOC)
    break_it(doc)
    with pytest.raises(CardDataError, match=message):
        validate(doc)


def test_an_unreadable_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "creatures.json"
    bad.write_text("{not json")
    with pytest.raises(CardDataError, match="cannot read"):
        cards.load(bad)
