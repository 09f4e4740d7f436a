"""A move played for a player never tells the table a secret (issue 38, the house
rule in tables/forced.py): the bot plays a person's only move only when it would be
the only one in every situation the other players cannot tell apart."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine import core
from engine.dungeon_decorators import rules as R
from engine.monster_inn.rules import KIND
from store import Store
from tables import Tables
from tables.forced import WAITS_FOR_YOU
from tables.turns import only_move
from tests.dungeon_decorators.helpers import act, deco, grid, room_or_hall, set_dungeon, staged
from tests.fakegame import Race
from tests.monster_inn.helpers import stacked
from tests.reliability._util import new_table

INN = core.get("monster-inn")
DECO = core.get("dungeon-decorators")
DECK = ["H3", "U10", "K2", "G3", "T5", "T6"]


def test_an_empty_purse_asked_for_gold_is_not_moved_out_for_her() -> None:
    """docs/rules/monster-inn.md: "a player who cannot remain is *not* moved out
    automatically ... it would tell the table that their purse is empty"."""
    state = stacked(3, DECK, treasure=[[0, 0], [3, 3], [3, 3]])
    assert INN.legal_actions(state, 0) == ["leave"], "her only move is to leave"
    assert only_move(INN, state, [0]) is None


def test_a_purse_the_whole_table_can_count_is_no_secret() -> None:
    """Where every other player knows the purse is empty (all treasure is in sight or
    in their own purses), leaving is played for her: it tells nobody anything."""
    state = stacked(3, DECK, treasure=[[0, 0], [3, 3], [3, 3]])
    # Move every coin and gem out of the mover's reach of doubt: the others' purses
    # are open to themselves, and the supply holds the rest.
    state["players"][1].update(gold=0, gem=0)
    state["players"][2].update(gold=0, gem=0)
    state["supply"] = {"gold": 25, "gem": 25}
    assert INN.legal_actions(state, 0) == ["leave"]
    assert only_move(INN, state, [0]) == (0, "leave")


def test_support_is_not_declined_for_an_empty_purse() -> None:
    """docs/rules/monster-inn.md: support "is offered even to a player with an empty
    purse, who then answers nosupport": the bot must not answer it for her."""
    state = stacked(3, DECK, treasure=[[0, 0], [3, 3], [3, 3]])
    # She has just put a second ogre in her dungeon: support may go on the first.
    state["players"][0]["monsters"] = [{"card": "O4", "support": None}, {"card": "O7", "support": None}]
    state["pending"] = {"seat": 0, "kind": "support", "monster_kind": KIND["O7"]}
    legal = INN.legal_actions(state, 0)
    assert legal == ["nosupport"], legal
    assert only_move(INN, state, [0]) is None


def _scoring_step(skulls: int) -> dict:
    """Dungeon Decorators: player 1 has built and must score or finish; D19 Grim
    Hallway (two skulls on the hallway) is in the deck, not in her hand, and her
    dungeon shows ``skulls`` skulls there. The other goals it meets, S24 and S30, are in
    player 2's hand (so player 2 knows she cannot hold them)."""
    hands = [["S3", "S4", "D1", "D2"], ["S5", "S30", "S24", "D4"]]
    s = staged(blue=[30, 111, 171, 282, 1, 4, 8], hands=hands)
    g = grid({"AO40": room_or_hall("S"), "AP41": room_or_hall("WE")})
    g[R.parse_coord("AP40")] = deco("--SS" if skulls == 2 else "---S")
    g[R.parse_coord("AP42")] = deco("S---")
    set_dungeon(s, 0, g)
    s, _ = act(s, 0, "draft 282")
    s, _ = act(s, 0, "282 D AQ41")
    assert s["phase"] == "score"
    return s


def test_finishing_is_not_played_where_a_hidden_goal_could_be_scored() -> None:
    """ "If your dungeon fulfills the conditions ... you may play those cards": her
    dungeon meets Grim Hallway, which the others cannot tell she does not hold, so
    finishing unasked would tell them; it waits for her."""
    s = _scoring_step(2)
    assert DECO.legal_actions(s, 0) == [{"a": "done"}]
    assert only_move(DECO, s, [0]) is None


def test_finishing_is_played_where_no_goal_could_be_scored() -> None:
    """Where no goal card anybody could hold is met by her dungeon, finishing tells
    nothing and is played for her (issue 40: no click with a single option)."""
    s = _scoring_step(1)
    assert DECO.legal_actions(s, 0) == [{"a": "done"}]
    assert only_move(DECO, s, [0]) == (0, {"a": "done"})


def test_the_same_question_is_dealt_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot asks whether a move may be played for her after each move, and her private
    message asks again at each click (tables/forced.py keeps the decision): the second
    ask deals nothing; another seat, or the state changed in place (as an upgrade to a
    new rules revision does, its version aside), is dealt again."""
    from tables import forced as rule
    from tables.turns import the_one_move

    dealt: list[int] = []
    real = DECO.sample
    monkeypatch.setattr(DECO, "sample", lambda view, rnd: dealt.append(1) or real(view, rnd))
    rule.forget()
    s = _scoring_step(1)
    done = {"a": "done"}
    assert only_move(DECO, s, [0]) == (0, done) and len(dealt) == rule.SAMPLES, "a yes deals them all"
    assert only_move(DECO, s, [0]) == (0, done) and len(dealt) == rule.SAMPLES, "asked again: kept"
    rule.tells_nothing(DECO, s, 1, done, the_one_move)
    assert len(dealt) > rule.SAMPLES, "another seat's question is its own"
    asked = len(dealt)
    s["players"][1]["hand"].reverse()  # the same game, the state rewritten in place
    only_move(DECO, s, [0])
    assert len(dealt) > asked, "a state changed in place is dealt again"


def test_a_no_stops_at_the_first_situation_with_another_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """Her dungeon meets Grim Hallway, which she could hold in some deals: the check stops
    at the first deal that offers her another move instead of dealing all of them."""
    from tables import forced as rule

    dealt: list[int] = []
    real = DECO.sample
    monkeypatch.setattr(DECO, "sample", lambda view, rnd: dealt.append(1) or real(view, rnd))
    rule.forget()
    assert only_move(DECO, _scoring_step(2), [0]) is None
    assert 1 <= len(dealt) < rule.SAMPLES, len(dealt)


# ---- through the tables: the message says why; steps with one option are taken --------------
async def test_an_only_move_kept_for_a_secret_says_why(tmp_path: Path) -> None:
    """Issue 40 point 5: "where it must stay (it would reveal a secret), say why in the
    message" - her only move, Leave, waits for her click, and her message says why."""
    store = await Store(str(tmp_path / "f.db")).open()
    try:
        t = Tables(store)
        gid, users = await new_table(t, "monster-inn", seed=1, players=3)
        async with store.transaction() as tx:
            state = stacked(3, DECK, treasure=[[0, 0], [3, 3], [3, 3]])
            await tx.execute("UPDATE games SET state=? WHERE id=?", json.dumps(state), gid)
        assert await t.step_ai(gid) is None, "the bot does not play it for her"
        row = await store.get(gid)
        assert row is not None
        panel = await t.panel(gid, users[0], row.version)
        assert len(panel.buttons) == 1 and panel.buttons[0][0].startswith("Leave")
        assert panel.note == WAITS_FOR_YOU and WAITS_FOR_YOU in panel.text
    finally:
        await store.close()


class Narrow(Race):
    """Moves 1-3 built in three steps: 1 and 2 share their first two steps (kind K, side
    S: the side step has one option once K is picked); 3 is kind M, side T, then 3."""

    key = "test-narrow"

    def segments(self, state: dict, seat: int, action: int) -> list[tuple[str, str]]:
        if action == 3:
            return [("m", "Kind M"), ("t", "Side T"), ("3", "Add three")]
        return [("k", "Kind K"), ("s", "Side S"), (str(action), f"Add {action}")]


@pytest.fixture
async def narrow(tmp_path: Path):  # type: ignore[no-untyped-def]
    from render import register
    from tests import fakegame

    core._loaded[Narrow.key] = Narrow()
    core.MODULES.setdefault(Narrow.key, "fakegame")
    register(Narrow.key, fakegame.RENDERER)
    store = await Store(str(tmp_path / "n.db")).open()
    t = Tables(store)
    gid, users = await new_table(t, Narrow.key, seed=2, players=2)
    row = await store.get(gid)
    assert row is not None and row.state is not None
    yield t, gid, users[min(Narrow().to_act(row.state))], row.version
    await store.close()


async def test_a_step_with_one_option_is_taken_for_the_player(narrow: Any) -> None:
    """Issue 40 point 5: "where a step has one option and pressing it reveals nothing
    and decides nothing, go straight on" - after Kind K the side (only S) is taken."""
    t, gid, user, version = narrow
    first = await t.choose(gid, user, version, 0, "page", 0)
    assert [tok for tok, _l in first.options] == ["k", "m"]
    step = await t.choose(gid, user, version, 0, "pick", 0)
    assert step.depth == 2 and [tok for tok, _l in step.options] == ["1", "2"]
    assert step.path == ["Kind K", "Side S"]
    back = await t.choose(gid, user, version, 2, "back")
    assert back.depth == 0, "Back goes to the last step that had a choice"


async def test_a_chain_of_single_steps_after_a_pick_plays_the_move(narrow: Any) -> None:
    """Kind M leaves one way on (Side T, then 3): the pick plays the move at once."""
    t, gid, user, version = narrow
    await t.choose(gid, user, version, 0, "page", 0)
    step = await t.choose(gid, user, version, 0, "pick", 1)
    assert step.update is not None
    log = await t.store.log(gid)
    assert log[-1][2] == "3"
