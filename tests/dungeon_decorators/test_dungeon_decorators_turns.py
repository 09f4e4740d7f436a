"""The five turn phases, the assistants, storage, the Architect, forced discard, goals and refills."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.dungeon_decorators import GAME
from engine.dungeon_decorators import rules as R

from .helpers import act, deco, grid, room_or_hall, set_dungeon, staged

BOARD = [30, 111, 171, 282]


def test_a_turn_runs_draft_build_score_refill() -> None:
    s = staged(revision=2, blue=BOARD + [1, 4, 8], hands=[["S3", "S4", "D1", "D2"], ["S5", "S6", "D3", "D4"]])
    assert s["phase"] == "draft"
    s, _ = act(s, 0, "draft 30")  # orange room, skull on its one passage edge
    assert s["phase"] == "build" and s["players"][0]["pending"] == [{"t": 30}]
    s, _ = act(s, 0, "30 D AO40 180")  # turned so its passage faces south, into the start
    # Nothing left to build, nothing to score, hand full: the turn passes on by itself.
    assert s["players"][0]["dungeon"]["AO40"]["e"] == [0, 0, 1, 0]
    assert GAME.to_act(s) == {1} and s["phase"] == "draft"


def test_score_phase_and_refill_choice() -> None:
    s = staged(
        revision=2, blue=BOARD + [1, 4, 8], hands=[["S3", "S4", "D1", "D19"], ["S5", "S6", "D3", "D4"]]
    )
    # D19 Grim Hallway: two skulls anywhere on the hallway.
    g = grid({"AO40": room_or_hall("S"), "AP41": room_or_hall("WE")})
    g[R.parse_coord("AP40")] = deco("---S")  # skull on the room AO40's east wall: not the hallway
    g[R.parse_coord("AP42")] = deco("S---")  # skull on hallway AP41's south wall
    set_dungeon(s, 0, g)
    s1, _ = act(s, 0, "draft 282")
    s1, _ = act(s1, 0, "282 D AQ41")
    assert s1["phase"] == "draft" and GAME.to_act(s1) == {1}  # nothing to score: phase skipped
    g[R.parse_coord("AP40")] = deco("--SS")  # and now a skull on AP41's north wall too
    set_dungeon(s, 0, g)
    s, _ = act(s, 0, "draft 282")
    s, _ = act(s, 0, "282 D AQ41")
    assert s["phase"] == "score"
    assert GAME.legal_actions(s, 0) == [{"a": "score", "goal": "D19"}, {"a": "done"}]
    s, _ = act(s, 0, "done")  # scoring is optional: the card stays in hand
    assert "D19" in s["players"][0]["hand"] and GAME.to_act(s) == {1}


def test_sharp_pointy_object_storage_scores_10_in_one_room() -> None:
    s = staged(revision=2, blue=BOARD + [1, 4, 8], hands=[["S3", "S4", "D1", "D2"], ["S5", "S6", "D3", "D4"]])
    g = grid({"AO40": room_or_hall("S")})
    g[R.parse_coord("AO39")] = deco("--X-")  # swords on the room's north wall
    g[R.parse_coord("AN40")] = deco("-P--")  # spikes on its west wall
    set_dungeon(s, 0, g)
    s, _ = act(s, 0, "draft 282")
    s, _ = act(s, 0, "282 D AP41")
    assert {"a": "score", "goal": "D1"} in GAME.legal_actions(s, 0)
    s, ev = act(s, 0, "score D1")
    assert s["players"][0]["score"] == 10 and s["players"][0]["scored"] == ["D1"]
    pub = GAME.view(s, None)["players"][0]
    assert pub["scored_deco"] == 1 and pub["scored_shape"] == 0  # counts by type are public
    assert any("Sharp Pointy Object Storage for 10 points" in e.text for e in ev if e.seat is None)
    # Hand down to three: both decks can give a card, so the player chooses.
    assert s["phase"] == "refill"
    s, _ = act(s, 0, "draw S")
    assert len(s["players"][0]["hand"]) == 4 and GAME.to_act(s) == {1}


def test_chic_skulls_on_swanky_spikes_scores_9_anywhere_on_the_hallway() -> None:
    s = staged(blue=BOARD + [1, 4, 8], hands=[["S3", "S4", "D1", "D2"], ["S5", "S6", "D3", "D4"]])
    # A long branching hallway: start AO41, AP41 (W-E), AQ41 (W-N), AQ40 (S) ... decorations on different tiles.
    g = grid({"AP41": room_or_hall("WEN"), "AQ41": room_or_hall("W"), "AP40": room_or_hall("S", "blue")})
    g[R.parse_coord("AP42")] = deco("S---")  # skull on AP41's south wall
    g[R.parse_coord("AQ42")] = deco("P---")  # spikes on room AQ41: a room is not the hallway
    g[R.parse_coord("AN40")] = deco("--P-")  # no wall there (the start has none): decorates nothing
    set_dungeon(s, 0, g)
    summary = R.summarise(g)
    assert R.deco_cost(summary, "D2") is None
    g[R.parse_coord("AO40")] = room_or_hall("SE")  # a hallway tile whose north wall gets spikes
    g[R.parse_coord("AO39")] = deco("--P-")
    g[R.parse_coord("AN40")] = deco("-P--")  # now spikes on AO40's west wall too
    summary = R.summarise(g)
    assert R.deco_cost(summary, "D2") == 0
    set_dungeon(s, 0, g)
    s, _ = act(s, 0, "draft 30")
    s, _ = act(s, 0, "30 D AO42")
    s, _ = act(s, 0, "score D2")
    assert s["players"][0]["score"] == 9


def test_example_9_eye_catching_monument_needs_no_direct_links() -> None:
    # Hallways at the four corners and the centre of a 3x3 block; the corners link only via others.
    cells = {
        c: room_or_hall("NESW") for c in ("AN40", "AP40", "AN42", "AP42", "AO40", "AO42", "AN41", "AP41")
    }
    g = grid(cells)
    assert R.shape_cost(R.summarise(g), "S1") == 0
    del g[R.parse_coord("AP42")]
    assert R.shape_cost(R.summarise(g), "S1") is None
    assert R.GOALS["S1"]["points"] == 8


def test_example_10_offices_of_doom_rotated_and_reflected() -> None:
    # Vertical hallway AO40-AO41-AO42, rooms at AN40 (door east) and AP42 (door west), two decorations each.
    g = grid(
        {
            "AO40": room_or_hall("SW"),
            "AO42": room_or_hall("NE"),
            "AN40": room_or_hall("E"),
            "AP42": room_or_hall("W"),
        }
    )
    for c, icons in {"AN39": "--K-", "AM40": "-T--", "AP43": "S---", "AQ42": "---W"}.items():
        g[R.parse_coord(c)] = deco(icons)
    summary = R.summarise(g)
    assert R.shape_cost(summary, "S2") == 0
    # Rotations alone do not find it: the card's Z needs mirroring to become this S.
    cells = R.GOALS["S2"]["cells"]
    for rot in range(4):
        pts = []
        for x, y, need in cells:
            for _ in range(rot):
                x, y = -y, x
            pts.append((x, y, need))
        found = False
        for px, py in summary:
            ax, ay, _ = pts[0]
            if all(R.cell_cost(summary.get((px + x - ax, py + y - ay)), n) == 0 for x, y, n in pts):
                found = True
        assert not found
    # Each room needs its two decorations.
    del g[R.parse_coord("AQ42")]
    assert R.shape_cost(R.summarise(g), "S2") is None


def test_decorative_mimic_turns_a_wild_icon_for_one_goal() -> None:
    s = staged(revision=2, blue=BOARD + [1, 4, 8], hands=[["S3", "S4", "D1", "D2"], ["S5", "S6", "D3", "D4"]])
    g = grid({"AO40": room_or_hall("S")})
    g[R.parse_coord("AO39")] = deco("--X-")
    g[R.parse_coord("AN40")] = deco("-*--")  # a wild icon where the spikes should be
    set_dungeon(s, 0, g)
    s, _ = act(s, 0, "draft 282")
    s, _ = act(s, 0, "282 D AP41")
    assert s["phase"] != "score"  # a wild icon is no decoration without a Mimic
    with pytest.raises(IllegalAction):
        act(s, s["order"][1], "score D1")
    s2 = staged(
        revision=2, blue=BOARD + [1, 4, 8], hands=[["S3", "S4", "D1", "D2"], ["S5", "S6", "D3", "D4"]]
    )
    set_dungeon(s2, 0, g)
    s2["players"][0]["tokens"]["mimic"] = 1
    s2["tokens_left"]["mimic"] -= 1
    s2, _ = act(s2, 0, "draft 282")
    s2, _ = act(s2, 0, "282 D AP41")
    s2, ev = act(s2, 0, "score D1")
    assert s2["players"][0]["score"] == 10 and s2["players"][0]["tokens"]["mimic"] == 0
    assert s2["tokens_left"]["mimic"] == 10
    assert any("1 Decorative Mimic" in e.text for e in ev)


def test_fifty_point_chits() -> None:
    s = staged(blue=BOARD + [1, 4, 8], hands=[["S3", "S4", "D1", "D2"], ["S5", "S6", "D3", "D4"]])
    g = grid({"AO40": room_or_hall("S")})
    g[R.parse_coord("AO39")] = deco("--X-")
    g[R.parse_coord("AN40")] = deco("-P--")
    set_dungeon(s, 0, g)
    s["players"][0]["score"] = 45
    s, _ = act(s, 0, "draft 282")
    s, ev = act(s, 0, "282 D AP41")
    s, ev = act(s, 0, "score D1")
    p = GAME.view(s, None)["players"][0]
    assert p["score"] == 55 and p["chits"] == 1 and s["chits_left"] == 7
    assert any("50-point chit" in e.text for e in ev)


def test_refill_reshuffles_discards_and_stops_when_nothing_is_left() -> None:
    s = staged(
        revision=2,
        blue=BOARD + [1, 4, 8],
        hands=[["S3", "S4", "D1", "D2"], ["S5", "S6", "D3", "D4"]],
        shape_deck=[],
        deco_deck=[],
    )
    s["discards"]["S"] = ["S30", "S31"]
    g = grid({"AO40": room_or_hall("S")})
    g[R.parse_coord("AO39")] = deco("--X-")
    g[R.parse_coord("AN40")] = deco("-P--")
    set_dungeon(s, 0, g)
    s, _ = act(s, 0, "draft 282")
    s, _ = act(s, 0, "282 D AP41")
    s, ev = act(s, 0, "score D1")
    # Only the shape discards can give a card: drawn automatically after a shuffle.
    assert sorted(s["players"][0]["hand"])[:2] != [] and len(s["players"][0]["hand"]) == 4
    assert len(s["decks"]["S"]) == 1 and s["discards"]["S"] == []
    assert any("shuffled" in e.text for e in ev)
    # With no cards anywhere, the hand simply stays short.
    s2 = staged(
        revision=2,
        blue=BOARD + [1, 4, 8],
        hands=[["S3", "S4", "D1", "D2"], ["S5", "S6", "D3", "D4"]],
        shape_deck=[],
        deco_deck=[],
    )
    set_dungeon(s2, 0, g)
    s2, _ = act(s2, 0, "draft 282")
    s2, _ = act(s2, 0, "282 D AP41")
    s2, _ = act(s2, 0, "score D1")
    assert len(s2["players"][0]["hand"]) == 3 and GAME.to_act(s2) == {1}


# ---- assistants ---------------------------------------------------------------------------


def test_goblin_sapper_gives_a_generic_tile_to_place_or_store() -> None:
    s = staged(blue=[30, 111, 171, 297, 1, 4])
    s, ev = act(s, 0, "draft 297")
    p = s["players"][0]
    assert [x["t"] for x in p["pending"]] == [297, "G"] and s["generic_left"] == 9
    with pytest.raises(IllegalAction, match="Place or store"):
        act(s, 0, "done")
    s, _ = act(s, 0, "G H AO40")  # straight hallway side, north-south
    assert s["players"][0]["dungeon"]["AO40"]["e"] == [1, 0, 1, 0]
    s, _ = act(s, 0, "store 297")
    assert s["players"][0]["storage"] == [297]


def test_burrow_bro_choose_one_of_three_and_chain_its_assistant() -> None:
    # 46 is a Burrow Bro; the bag gives 297 (Goblin Sapper) and 112 (another Burrow Bro).
    s = staged(blue=[30, 46, 111, 171, 297, 112, 4, 8])
    s, ev = act(s, 0, "draft 46")
    assert s["phase"] == "burrow" and s["burrow"] == [46, 297, 112]
    assert {a["tile"] for a in GAME.legal_actions(s, 0)} == {46, 297, 112}
    s, _ = act(s, 0, "keep 297")
    p = s["players"][0]
    assert [x["t"] for x in p["pending"]] == [297, "G"]  # the Sapper of the kept tile is resolved
    assert {46, 112} <= set(s["box"])
    # Keeping another Burrow Bro does not draw again.
    s2 = staged(blue=[30, 46, 111, 171, 297, 112, 4, 8])
    s2, _ = act(s2, 0, "draft 46")
    s2, _ = act(s2, 0, "keep 112")
    assert s2["phase"] == "build" and [x["t"] for x in s2["players"][0]["pending"]] == [112]


def test_exchange_draws_the_tile_first_then_the_player_chooses_the_deck() -> None:
    # "you draw a tile at random from the current bag as your draft and place it in front of you.
    # Then, draw a card from either the Shape Goals deck or the Decoration Goals deck"
    s = staged(blue=[30, 111, 171, 282, 46, 297, 4, 8])
    s, _ = act(s, 0, "exchange")
    assert s["phase"] == "exchange_draw" and s["players"][0]["pending"] == [{"t": 46}]
    assert len(s["players"][0]["hand"]) == 4  # no card yet: the deck is chosen after the tile is seen
    assert GAME.legal_actions(s, 0) == [{"a": "draw", "deck": "S"}, {"a": "draw", "deck": "D"}]
    s, _ = act(s, 0, "draw S")
    assert s["phase"] == "exchange_discard" and s["players"][0]["hand"][-1].startswith("S")


def test_exchange_with_a_burrow_bro_discards_first_then_draws() -> None:
    s = staged(blue=[30, 111, 171, 282, 46, 297, 4, 8])
    s, _ = act(s, 0, "exchange")
    s, _ = act(s, 0, "draw D")
    assert s["phase"] == "exchange_discard" and len(s["players"][0]["hand"]) == 5
    assert s["players"][0]["pending"] == [{"t": 46}]
    s, _ = act(s, 0, f"discard {s['players'][0]['hand'][0]}")
    assert s["phase"] == "burrow" and s["burrow"] == [46, 297, 4]


def test_architect_and_mimic_tokens_come_from_a_limited_supply() -> None:
    s = staged(blue=[10, 30, 111, 171, 4, 8])  # 10: Arcane Architect, 171: Decorative Mimic
    s, _ = act(s, 0, "draft 10")
    assert s["players"][0]["tokens"]["architect"] == 1 and s["tokens_left"]["architect"] == 9
    s = staged(blue=[10, 30, 111, 171, 4, 8])
    s["tokens_left"]["mimic"] = 0
    s, ev = act(s, 0, "draft 171")
    assert s["players"][0]["tokens"]["mimic"] == 0 and any("No Decorative Mimic tokens" in e.text for e in ev)


# ---- storage and forced discard -------------------------------------------------------------


def test_storage_holds_two_tiles_which_go_in_later_on_either_side() -> None:
    # Revision 3's rules, which let a tile stored this build go in at once (revision 4
    # waits for a later Build Phase: test_dungeon_decorators_revision4.py).
    s = staged(blue=[297, 30, 111, 171, 4, 8, 12, 15, 19, 23], revision=3)
    s, _ = act(s, 0, "draft 297")
    s, _ = act(s, 0, "store 297")
    s, _ = act(s, 0, "store G")
    assert s["players"][0]["storage"] == [297, "G"]
    assert {"a": "store", "tile": 297} not in GAME.legal_actions(s, 0)
    s, _ = act(s, 0, "G R AO40 180")  # the stored generic tile, room side
    s, _ = act(s, 0, "done")
    assert s["players"][0]["storage"] == [297]
    # A later turn: the stored 297 goes in on its decoration side.
    s, _ = act(s, 1, "draft 111")
    while GAME.to_act(s) == {1}:
        s, _ = GAME.apply(s, 1, GAME.ai_action(s, 1))
    s, _ = act(s, 0, f"draft {[t for t in s['board'] if t][0]}")
    s, _ = act(s, 0, "297 X AN40 90")
    assert s["players"][0]["dungeon"]["AN40"]["kind"] == "deco"


def test_store_refused_when_full() -> None:
    s = staged(blue=[297, 30, 111, 171, 4, 8])
    s["players"][0]["storage"] = [4, 8]
    s, _ = act(s, 0, "draft 297")
    with pytest.raises(IllegalAction, match="already holds two"):
        act(s, 0, "store 297")


def closed_dungeon() -> R.Grid:
    """Only AO43 is still open; every other square next to the dungeon holds a decoration tile."""
    g = grid(
        {
            "AO40": room_or_hall("S"),
            "AN41": room_or_hall("E"),
            "AP41": room_or_hall("W"),
            "AO42": room_or_hall("NS"),
        }
    )
    for c in ("AN40", "AO39", "AP40", "AM41", "AQ41", "AN42", "AP42"):
        g[R.parse_coord(c)] = deco("****")
    return g


def test_forced_discard_when_storage_is_full_and_nothing_fits() -> None:
    s = staged(blue=[30, 111, 171, 282, 4, 8])
    set_dungeon(s, 0, closed_dungeon())
    s["players"][0]["storage"] = [4, 12]  # two rooms: a room at AO43 would close the dungeon
    s, _ = act(s, 0, "draft 30")
    legal = GAME.legal_actions(s, 0)
    assert {a["a"] for a in legal} == {"box"}
    s, ev = act(s, 0, "box 12")  # from storage...
    assert s["players"][0]["storage"] == [4] and 12 in s["box"]
    s, _ = act(s, 0, "store 30")  # ...so the new tile can be stored
    assert s["players"][0]["storage"] == [4, 30]


def test_no_forced_discard_while_a_tile_fits() -> None:
    s = staged(blue=[30, 111, 171, 282, 4, 8])
    set_dungeon(s, 0, closed_dungeon())
    s["players"][0]["storage"] = [4, 12]
    s, _ = act(s, 0, "draft 282")  # a four-way hallway fits at AO43
    with pytest.raises(IllegalAction, match="only discard"):
        act(s, 0, "box 282")


# ---- Arcane Architect ------------------------------------------------------------------------


def test_architect_may_disconnect_temporarily_within_one_build() -> None:
    s = staged(blue=[73, 111, 171, 282, 4, 8])  # 73: straight hallway (P-P-)
    set_dungeon(s, 0, grid({"AP41": room_or_hall("WE", "orange")}))
    s["players"][0]["tokens"]["architect"] = 1
    s["tokens_left"]["architect"] = 9
    s, _ = act(s, 0, "draft 73")
    s, _ = act(s, 0, "move AP41 AQ41")  # now disconnected
    assert s["relaxed"] and R.dungeon_problem(R.to_grid(s["players"][0]["dungeon"]))
    # The autocomplete offers exactly the placements that repair the dungeon, and a fresh start.
    legal = GAME.legal_actions(s, 0)
    assert {"a": "reset"} in legal
    assert {"a": "place", "tile": 73, "side": "D", "at": "AP41", "rot": 1} in legal
    for a in legal:
        if a["a"] == "place":
            g = R.to_grid(s["players"][0]["dungeon"])
            g[R.parse_coord(a["at"])] = R.make_cell(a["tile"], a["side"], a["rot"])
            assert R.dungeon_problem(g) is None
    # The spent token goes back to the supply.
    assert s["players"][0]["tokens"]["architect"] == 0 and s["tokens_left"]["architect"] == 10
    s, _ = act(s, 0, "73 D AP41 90")  # fill the gap with the new tile
    s, _ = act(s, 0, "done")
    assert s["players"][0]["dungeon"]["AQ41"]["floor"] == "orange"
    assert GAME.to_act(s) == {1}


def test_architect_build_must_end_legal_and_reset_restores_it() -> None:
    s = staged(blue=[73, 111, 171, 282, 4, 8])
    set_dungeon(s, 0, grid({"AP41": room_or_hall("WE", "orange")}))
    s["players"][0]["tokens"]["architect"] = 1
    s["tokens_left"]["architect"] = 9
    before = s["players"][0]["dungeon"]
    s, _ = act(s, 0, "draft 73")
    s, _ = act(s, 0, "move AP41 AQ43")
    s, _ = act(s, 0, "73 D AO40")
    with pytest.raises(IllegalAction, match="connected path"):
        act(s, 0, "done")
    assert GAME.legal_actions(s, 0) == [{"a": "reset"}]
    s, _ = act(s, 0, "reset")
    assert s["players"][0]["dungeon"] == before and s["players"][0]["tokens"]["architect"] == 1
    assert s["tokens_left"]["architect"] == 9 and [x["t"] for x in s["players"][0]["pending"]] == [73]


def test_architect_turns_but_never_flips_and_never_moves_the_start() -> None:
    s = staged(revision=2, blue=[73, 111, 171, 282, 4, 8])
    set_dungeon(s, 0, grid({"AP41": room_or_hall("WE", "orange")}))
    s["players"][0]["tokens"]["architect"] = 2
    s, _ = act(s, 0, "draft 73")
    with pytest.raises(IllegalAction, match="starting tile"):
        act(s, 0, "move AO41 AO43")
    # One token changes one tile: swapping two tiles would take two.
    s2 = staged(revision=2, blue=[73, 111, 171, 282, 4, 8])
    set_dungeon(s2, 0, grid({"AP41": room_or_hall("WE", "orange"), "AO40": room_or_hall("S")}))
    s2["players"][0]["tokens"]["architect"] = 1
    s2, _ = act(s2, 0, "draft 73")
    with pytest.raises(IllegalAction, match="already built"):
        act(s2, 0, "move AP41 AO40")
    with pytest.raises(IllegalAction, match="two Arcane Architect"):
        act(s2, 0, "swap AP41 AO40")
    cell = R.make_cell(111, "X", 0)
    assert R.turned(cell, 1) == R.make_cell(111, "X", 1)  # turning keeps the side; nothing mirrors
    s, _ = act(s, 0, "turn AP41 90")  # W-E becomes N-S: cut off from the start until fixed
    assert s["players"][0]["dungeon"]["AP41"]["e"] == [1, 0, 1, 0]
    with pytest.raises(IllegalAction):
        act(s, 0, "done")


def test_a_card_drawn_at_refill_waits_for_the_next_score_phase() -> None:
    # D36 Dusty Passage needs one spiderweb on the hallway; it is on top of the decoration deck.
    s = staged(
        revision=2,
        blue=BOARD + [1, 4, 8, 12, 15, 19],
        hands=[["S3", "S5", "D1", "D2"], ["S4", "S6", "D3", "D4"]],
        deco_deck=["D36", "D35"],
    )
    g = grid({"AO40": room_or_hall("S"), "AP41": room_or_hall("WE")})
    g[R.parse_coord("AO39")] = deco("--X-")
    g[R.parse_coord("AN40")] = deco("-P--")
    g[R.parse_coord("AP42")] = deco("W---")  # a web on the hallway's wall
    set_dungeon(s, 0, g)
    s, _ = act(s, 0, "draft 30")
    s, _ = act(s, 0, "30 D AO42")
    s, _ = act(s, 0, "score D1")
    s, _ = act(s, 0, "draw D")
    assert "D36" in s["players"][0]["hand"] and GAME.to_act(s) == {1}  # no second score phase now
    s, _ = act(s, 1, "draft 111")
    while GAME.to_act(s) == {1}:
        s, _ = GAME.apply(s, 1, GAME.ai_action(s, 1))
    # Next turn, once the build is done, it can be scored.
    first = next(t for t in s["board"] if t)
    s, _ = act(s, 0, f"draft {first}")
    s, _ = act(s, 0, f"store {first}")
    s, _ = act(s, 0, "done")
    s, _ = act(s, 0, "score D36")
    assert "D36" in s["players"][0]["scored"]


def test_scored_points_stay_when_an_architect_breaks_the_goal() -> None:
    s = staged(
        revision=2,
        blue=BOARD + [1, 4, 8, 12, 15, 19],
        hands=[["S3", "S4", "D1", "D2"], ["S5", "S6", "D3", "D4"]],
    )
    g = grid({"AO40": room_or_hall("S")})
    g[R.parse_coord("AO39")] = deco("--X-")
    g[R.parse_coord("AN40")] = deco("-PT-")  # spikes towards the room, a table below
    set_dungeon(s, 0, g)
    s["players"][0]["tokens"]["architect"] = 1
    s["tokens_left"]["architect"] = 9
    s, _ = act(s, 0, "draft 282")
    s, _ = act(s, 0, "282 D AP41")
    s, _ = act(s, 0, "done")
    s, _ = act(s, 0, "score D1")
    s, _ = act(s, 0, "draw S")
    s, _ = act(s, 1, "draft 111")
    while GAME.to_act(s) == {1}:
        s, _ = GAME.apply(s, 1, GAME.ai_action(s, 1))
    first = next(t for t in s["board"] if t)
    s, _ = act(s, 0, f"draft {first}")
    s, _ = act(s, 0, f"store {first}")
    s, _ = act(s, 0, "turn AN40 270")  # the table now faces the room instead of the spikes
    s, _ = act(s, 0, "done")
    assert R.deco_cost(R.summarise(R.to_grid(s["players"][0]["dungeon"])), "D1") is None
    assert s["players"][0]["score"] == 10


def test_a_mimic_can_complete_a_decorated_hallway_in_a_shape() -> None:
    # S13 Trophy Hall: hallway with 2+ decorations, hallway, hallway with 2+ decorations, in a row.
    g = grid({"AN41": room_or_hall("WE"), "AP41": room_or_hall("WE")})
    for c, icons in {"AN40": "--K-", "AN42": "T---", "AP40": "--S-", "AP42": "*---"}.items():
        g[R.parse_coord(c)] = deco(icons)
    assert R.shape_cost(R.summarise(g), "S13") == 1  # one wild icon to turn into a decoration
    g[R.parse_coord("AP42")] = deco("B---")
    assert R.shape_cost(R.summarise(g), "S13") == 0


def test_refill_of_two_cards_may_mix_decks_one_at_a_time() -> None:
    s = staged(revision=2, blue=BOARD + [1, 4, 8], hands=[["S4", "S5", "D1", "D2"], ["S3", "S6", "D3", "D4"]])
    g = grid({"AO40": room_or_hall("S"), "AO42": room_or_hall("N")})  # S4 Twin Cells: room, hallway, room
    g[R.parse_coord("AO39")] = deco("--X-")
    g[R.parse_coord("AN40")] = deco("-P--")
    set_dungeon(s, 0, g)
    s, _ = act(s, 0, "draft 282")
    s, _ = act(s, 0, "282 D AP41")
    s, _ = act(s, 0, "score D1")
    s, _ = act(s, 0, "score S4")
    assert s["phase"] == "refill" and len(s["players"][0]["hand"]) == 2
    top_shape = s["decks"]["S"][0]
    s, ev = act(s, 0, "draw S")
    assert s["phase"] == "refill" and top_shape in s["players"][0]["hand"]
    assert any(top_shape in e.text for e in ev if e.seat == 0)  # seen before choosing the next deck
    s, _ = act(s, 0, "draw D")
    assert len(s["players"][0]["hand"]) == 4 and GAME.to_act(s) == {1}
    assert sorted(c[0] for c in s["players"][0]["hand"]) == ["D", "D", "S", "S"]


def test_every_offered_move_has_a_short_label() -> None:
    import random

    s = GAME.new(3, None, 13)
    r = random.Random(13)
    while not GAME.is_over(s):
        seat = min(GAME.to_act(s))
        legal = GAME.legal_actions(s, seat)
        for a in legal:
            label = GAME.describe(s, a)
            assert 0 < len(label) <= 80, label
        s, _ = GAME.apply(s, seat, r.choice(legal))
