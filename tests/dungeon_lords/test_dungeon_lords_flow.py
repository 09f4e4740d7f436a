"""Setup, the Year's structure, secret orders, placement and resolution order."""

from __future__ import annotations

import io
import json

from PIL import Image

from render import dungeon_lords as render

from .helpers import G, act, ai_until, new


def test_setup_gives_each_player_the_starting_dungeon() -> None:
    for n in (2, 3, 4):
        s = G.new(n, None, 5)
        assert s["phase"] == "inacc" and G.to_act(s) == set(range(n))
        for p in s["players"]:
            assert (p["gold"], p["food"], p["imps"], p["evil"]) == (3, 3, 3, 5)
            assert sorted(p["grid"]) == ["C1", "C2", "C3"]


def test_initial_inaccessible_choice_is_secret_and_simultaneous() -> None:
    s = G.new(3, None, 5)
    drawn = s["inacc_draw"]["0"]
    assert len(drawn) == 3
    pub = G.view(s, None)
    assert "private" not in pub and f'"{drawn[0]}"' not in json.dumps(pub["players"])
    assert G.view(s, 0)["private"]["inacc_draw"] == drawn
    assert G.view(s, 1)["private"]["inacc_draw"] != drawn or s["inacc_draw"]["1"] == drawn
    s = act(s, 0, f"keep {drawn[1]}")
    assert G.to_act(s) == {1, 2}
    for seat in (1, 2):
        s = act(s, seat, f"keep {s['inacc_draw'][str(seat)][0]}")
    assert sorted(s["players"][0]["inacc"]) == sorted([drawn[0], drawn[2]])
    assert s["phase"] == "orders"


def test_new_round_reveals_monsters_rooms_and_next_round_preview() -> None:
    for n, k in ((2, 3), (3, 3), (4, 4)):
        s = new(n)
        assert len(s["offer"]["monsters"]) == 3 and len(s["offer"]["rooms"]) == 2
        assert len(s["next_advs"]) == k
        levels = [a["level"] for a in s["next_advs"]]
        assert levels == sorted(levels)
        assert s["next_event"] in ("taxes", "payday", "special") and s["event"] is None


def test_dummy_rules_by_player_count() -> None:
    s = new(4)
    assert s["phase"] == "orders" and s["dummy"]["cards"] == []
    s = new(3)
    assert s["phase"] == "orders" and len(set(s["dummy"]["cards"])) == 3
    s = new(2)
    assert s["phase"] == "dummy" and len(s["dummy"]["cards"]) == 2 and G.to_act(s) == {s["start"]}
    free = [a for a in G.legal_actions(s, s["start"])]
    assert len(free) == 6
    s = act(s, s["start"], free[0])
    assert len(s["dummy"]["cards"]) == 3 and s["phase"] == "orders"


def _orders_state(n: int = 3) -> dict:
    s = new(n, seed=2)
    for p in s["players"]:
        p["inacc"] = ["traps", "rep"]
    return s


def test_orders_are_secret_until_everyone_has_given_them() -> None:
    a = _orders_state()
    assert G.to_act(a) == {0, 1, 2}
    a1 = act(a, 0, "orders food mine dig")
    b1 = act(a, 0, "orders monster room imps")
    assert G.to_act(a1) == {1, 2}
    # The public view and every other seat's view are identical whatever seat 0 ordered.
    for seat in (None, 1, 2):
        assert G.view(a1, seat) == G.view(b1, seat)
    assert render.render(G.view(a1, None)) == render.render(G.view(b1, None))
    assert G.view(a1, 0)["private"]["orders"] == ["food", "mine", "dig"]
    assert G.public_format(a, 0, "orders food mine dig") == "orders (secret)"
    assert "food" not in G.status(a1)


def test_inaccessible_orders_refused() -> None:
    s = _orders_state()
    try:
        act(s, 0, "orders traps food mine")
    except Exception as exc:  # noqa: BLE001
        assert "inaccessible" in str(exc)
    else:
        raise AssertionError("an inaccessible order was accepted")


def test_placement_waves_and_lowest_free_space() -> None:
    s = _orders_state(3)
    start = s["start"]
    order = [(start + i) % 3 for i in range(3)]
    dummy = s["dummy"]["cards"]
    for seat in range(3):
        s = act(s, seat, "orders food imps mine" if "food" not in dummy[:1] else "orders imps food mine")
    # The non-player places first in each wave, then play order from the starting player.
    board = s["board"]
    for loc in ("food", "imps", "mine"):
        seats = [x for x in board[loc] if x is not None and x >= 0]
        if -1 not in board[loc]:
            assert seats == order[: len(seats)]


def test_resolution_order_shortest_space_first_and_hire_from_space_three() -> None:
    s = _orders_state(4)
    for seat in range(4):
        s = act(s, seat, "orders monster food imps")
    queue = [(t["loc"], t["space"]) for t in s["queue"]]
    task = s["task"]
    # Get Food resolves I, II, III; Hire Monster resolves III first, then II, then I.
    assert task["loc"] == "monster" and task["space"] == 2
    assert queue == [("monster", 1), ("monster", 0)]


def test_orders_retrieval_rotates_cards() -> None:
    s = _orders_state(4)
    for seat in range(4):
        s = act(s, seat, "orders food imps mine")
    s = ai_until(s, lambda st: st["phase"] in ("orders", "dummy") and st["round"] == 2)
    inacc = s["players"][0]["inacc"]
    # the first card returns to hand; the 2nd and 3rd become inaccessible unless unused.
    assert "food" not in inacc and set(inacc) <= {"imps", "mine"}


def test_year_has_seasons_then_combat_then_second_year_then_scoring() -> None:
    s = new(2, seed=9)
    seen = set()

    def watch(st: dict) -> bool:
        seen.add((st["year"], st["round"], st["phase"] == "plan"))
        return False

    for _ in range(4000):
        if G.is_over(s):
            break
        watch(s)
        seat = min(G.to_act(s))
        s, _ = G.apply(s, seat, G.ai_action(s, seat))
    assert G.is_over(s)
    assert {(1, r, False) for r in (1, 2, 3, 4)} <= seen and {(2, r, False) for r in (1, 2, 3, 4)} <= seen
    assert s["year"] == 2


def test_public_png_is_valid_and_identical_for_hidden_traps() -> None:
    a = new(2, seed=3)
    b = new(2, seed=3)
    a["players"][0]["traps"] = ["stone"]
    b["players"][0]["traps"] = ["meal"]
    pa, pb = render.render(G.view(a, None)), render.render(G.view(b, None))
    assert pa == pb
    Image.open(io.BytesIO(pa)).verify()
    assert len(pa) < 250_000


def test_render_is_fast_and_small_for_four_players_in_combat() -> None:
    import time

    s = ai_until(new(4, seed=5), lambda st: st["phase"] == "plan")
    view = G.view(s, None)
    render.render(view)
    t = time.process_time()
    png = render.render(view)
    assert time.process_time() - t < 0.3  # generous for CI; ~0.08 s CPU on the dev machine
    assert len(png) < 250_000
    Image.open(io.BytesIO(png)).verify()
    assert view["combat_round"] == 1 and view["status"].startswith("Year 1 combat")


def test_private_image_shows_own_secrets_only() -> None:
    s = new(2)
    s["players"][0]["traps"] = ["stone"]
    assert render.render_private(G.view(s, None)) is None
    png = render.render_private(G.view(s, 0))
    assert png is not None and png[:4] == b"\x89PNG"
    assert (
        G.describe(s, "fight C1 trap stone send troll+")
        == "Fight on C1; spring Rolling Stone; send Troll (2nd attack)"
    )
