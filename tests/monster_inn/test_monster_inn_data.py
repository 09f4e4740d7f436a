"""creatures.json: the 40 cards as the rulebook lists them, validated at import."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from engine import core
from engine.monster_inn import data
from engine.monster_inn.data import CARDS, HUMANOIDS, KINDS, MONSTERS, DataError, validate

DOC = json.loads((core.DATA_ROOT / "monster-inn" / "creatures.json").read_text())


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


def test_a_humanoid_back_never_identifies_a_card() -> None:
    # Card overview: the "Facedown Humanoid Card" shows its "Combat Value Range (1-5, 6-10,
    # 11-15, 16-20)" and its "Skulls (1-4)". House decision (docs/rules/monster-inn.md): the
    # skulls are fixed by range, so each of the four backs is shared by five cards.
    backs: dict[tuple[str, int], list[str]] = {}
    for h in HUMANOIDS.values():
        backs.setdefault((h.range, h.skulls), []).append(h.id)
    assert sorted(backs) == [("1-5", 1), ("11-15", 3), ("16-20", 4), ("6-10", 2)]
    assert all(len(ids) == 5 for ids in backs.values())


def test_a_beaten_monster_scores_0_or_even_minus_never_more() -> None:
    # "Each Monster with a Humanoid underneath it gains 0 or even minus Fame. Calculate the loss
    # by subtracting the Skulls depicted on the Humanoid from the Skulls depicted on the Monster."
    # The cards make that true without a clamp: a humanoid that is not weaker never has fewer
    # skulls. Both outcomes the text names occur, and the rulebook example's -1 too.
    outcomes = {
        m.skulls - h.skulls for h in HUMANOIDS.values() for m in MONSTERS.values() if h.value >= m.value
    }
    assert max(outcomes) == 0 and -1 in outcomes and min(outcomes) < 0


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
        (lambda d: d["cards"][20].update(skulls=2), "share one number of skulls"),
        (lambda d: d["cards"][0].update(skulls=2), "0 or minus"),
    ],
)
def test_an_invalid_file_is_refused_with_a_clear_error(break_it, message: str) -> None:  # type: ignore[no-untyped-def]
    doc = copy.deepcopy(DOC)
    break_it(doc)
    with pytest.raises(DataError, match=message):
        validate(doc)


def test_an_unreadable_file_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "monster-inn").mkdir()
    (tmp_path / "monster-inn" / "creatures.json").write_text("{not json")
    monkeypatch.setattr(core, "DATA_ROOT", tmp_path)
    with pytest.raises(DataError, match="cannot be read"):
        data.load()


def test_a_wrong_file_names_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = copy.deepcopy(DOC)
    doc["cards"].pop()
    (tmp_path / "monster-inn").mkdir()
    (tmp_path / "monster-inn" / "creatures.json").write_text(json.dumps(doc))
    monkeypatch.setattr(core, "DATA_ROOT", tmp_path)
    with pytest.raises(DataError, match="creatures.json.*40 cards"):
        data.load()
