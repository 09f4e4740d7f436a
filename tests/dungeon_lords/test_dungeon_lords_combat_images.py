"""Combat step images (RENDERER.steps of render/dungeon_lords.py): one image per battle,
drawn from the two public views only."""

from __future__ import annotations

import copy
import io
import re
import time
from functools import cache
from typing import Any

import pytest
from PIL import Image

from engine import core
from engine.dungeon_lords.data import CARDS
from render import default_names
from render.dungeon_lords import RENDERER
from render.dungeon_lords_combat import MAX_IMAGES, _battles, _members, _step_of, _track

G: Any = core.get("dungeon-lords")


def render_steps(before: dict[str, Any], after: dict[str, Any]) -> list[bytes]:
    """The step images between two public views, drawn as tables/ draws them."""
    assert RENDERER.steps is not None
    return [job() for job in RENDERER.steps(before, after, default_names(len(before["players"])))]


HEADER = re.compile(r"^-- Player (\d+): battle on (\S+);")
ROUND = re.compile(r"^Combat round (\d+): ")

Move = tuple[dict[str, Any], dict[str, Any], dict[str, Any], dict[str, Any], list[str]]


@cache
def _game(players: int, seed: int, expansion: bool) -> tuple[Move, ...]:
    """Every move of an AI game: (state before, state after, public view before, public
    view after, public event texts)."""
    options = None if expansion else {"expansion": False}
    state = G.new(players, options, seed)
    out: list[Move] = []
    while not G.is_over(state):
        seat = min(G.to_act(state))
        new, events = G.apply(state, seat, G.ai_action(state, seat))
        out.append(
            (state, new, G.view(state, None), G.view(new, None), [e.text for e in events if e.seat is None])
        )
        state = new
    return tuple(out)


GAMES = [(2, 3, True), (3, 5, False), (4, 2, True)]


def _moves() -> list[Move]:
    return [m for g in GAMES for m in _game(*g)]


def _combat(events: list[str]) -> list[tuple[int, int]]:
    """(seat, round) of the battles a move resolved, in order, from its public events."""
    out, rnd = [], 0
    for e in events:
        r = ROUND.match(e)
        if r:
            rnd = int(r.group(1))
        h = HEADER.match(e)
        if h:
            out.append((int(h.group(1)) - 1, rnd))
    return out


def test_moves_without_combat_give_no_images() -> None:
    quiet = [m for m in _moves() if not _combat(m[4])]
    assert len(quiet) > 300
    for _, _, before, after, _ in quiet:
        assert render_steps(before, after) == []


def test_one_image_per_battle_in_the_order_they_were_fought() -> None:
    fought = [m for m in _moves() if _combat(m[4])]
    assert len(fought) >= 12, "the sample games reach Combat in both Years"
    year_end = multi = 0
    for _, _, before, after, events in fought:
        real = _combat(events)
        battles = _battles(before, after)
        drawn = [(b.seat, b.round) for b in battles]
        rounds = {r for _, r in real}
        if len(rounds) == 1:
            assert drawn == real, events
        else:
            # Several rounds in one move: battles whose lines the public log lost are drawn once
            # per dungeon; the rest one by one, in order.
            multi += 1
            shown = [(b.seat, b.round) for b in battles if not b.missing]
            assert shown == real[len(real) - len(shown) :]
            assert set(drawn) <= set(real)
            assert {s for s, _ in drawn} == {s for s, _ in real}
        if after["year"] != before["year"]:
            year_end += 1  # the public combat log is emptied: these are drawn from the boards
            assert all(b.missing and not b.lines for b in battles)
        images = render_steps(before, after)
        assert len(images) == min(MAX_IMAGES, len(battles))
    assert year_end >= 2 and multi >= 1


def test_images_are_small_phone_sized_palette_pngs_drawn_fast() -> None:
    fought = [m for m in _moves() if _combat(m[4])][:10]
    render_steps(fought[0][2], fought[0][3])  # fonts load once
    count, spent = 0, 0.0
    for _, _, before, after, _ in fought:
        t = time.perf_counter()
        images = render_steps(before, after)
        spent += time.perf_counter() - t
        count += len(images)
        for png in images:
            img = Image.open(io.BytesIO(png))
            img.load()
            assert img.format == "PNG" and img.mode == "P"
            assert img.width == 1200 and img.height <= 2000  # issue 28: the phone floor is set at 1,200 px
            assert len(png) <= 250_000
    # ~40 ms an image on an idle machine; generous for a busy CI runner.
    assert spent / count < 0.25


def test_battle_lines_are_the_new_log_lines_with_each_battle_header() -> None:
    """Where the public log still holds a battle, its image carries exactly its lines."""
    checked = 0
    for state, new, before, after, events in _moves():
        if not _combat(events) or after["year"] != before["year"]:
            continue
        # The whole log of this Combat is in the public view (combat_log_full), so every
        # battle's lines are drawn, not only those in the board's 14-line window.
        added = new["combat"]["log"][len(state["combat"]["log"]) :]
        assert after["combat_log_full"] == new["combat"]["log"]
        visible = added
        shown = [ln for b in _battles(before, after) for ln in b.lines]
        assert shown == [ln for ln in visible if not HEADER.match(ln)]
        checked += 1
    assert checked >= 8


def test_hit_points_replayed_from_the_log_match_the_board_after_the_battle() -> None:
    checked = 0
    for _, _, before, after, events in _moves():
        seats = _combat(events)
        if len({r for _, r in seats}) != 1 or after["year"] != before["year"] or after["phase"] == "over":
            continue  # one round, and the parties still on the board afterwards
        for b in _battles(before, after):
            if b.missing or b.seat is None:
                continue
            moved = [p["at"] for p in before["paladins"]] != [p["at"] for p in after["paladins"]]
            if moved and not any("prison" in ln and "Paladin" in ln for ln in b.lines):
                continue  # a paladin moving during the round (now in the log) is not yet replayed by _track
            members = _members(before, b.seat)
            _track(members, b.lines)
            now = {m.uid: m.left for m in _members(after, b.seat)}
            for m in members:
                assert (m.uid in now) != m.captured
                # The public view has no paladin "bonus" (Create Food): compare adventurers only.
                if not m.captured and not m.key.endswith("paladin"):
                    assert now[m.uid] == m.left, (m, b.lines)
            checked += 1
    assert checked >= 6


def _hide_differently(state: dict[str, Any]) -> dict[str, Any]:
    """The same game with different secrets: other Trap Cards in hand, other unrevealed
    Combat Cards, other orders, other seen cards, other face-down pets."""
    s = copy.deepcopy(state)
    y = str(s["year"])
    cards = s["decks"][y]["cards"]
    revealed = s["combat"]["round"]
    cards[revealed:] = list(reversed(cards[revealed:]))
    for p in s["players"]:
        p["traps"] = ["stone"] * len(p["traps"])
        p["seen"] = []
        if p.get("pets"):
            p["pets"] = list(reversed(p["pets"]))
    for k in s["orders"]:
        s["orders"][k] = list(reversed(s["orders"][k]))
    return s


def test_secrets_do_not_change_the_images() -> None:
    fought = [m for m in _moves() if _combat(m[4])]
    for state, new, before, after, _ in fought[:6]:
        b2, a2 = G.view(_hide_differently(state), None), G.view(_hide_differently(new), None)
        assert render_steps(before, after) == render_steps(b2, a2)
        assert render_steps(before, after)


def test_log_lines_are_sorted_into_the_battle_phase_steps() -> None:
    lines = [
        ("The bard (L1) sings: 1 Courage Token(s).", "start"),
        ("Player 1 springs Rolling Stone.", "trap"),
        ("Rolling Stone deals 3 to the warrior (L2) (1 left).", "trap"),
        ("The party casts Magic Shield.", "fast"),
        ("Magic Shield absorbs 1 damage.", "monsters"),  # the shield works as a monster strikes
        ("Goblin deals 1 to the warrior (L2) (0 left).", "monsters"),
        ("The warrior (l2) is knocked out and thrown into Player 1's prison.", "monsters"),
        ("The party heals.", "heal"),
        ("The party conquers C1; Player 1 loses 1 Evil.", "conquer"),
        ("Fatigue deals 1 to the priest (L1) (2 left).", "conquer"),
        ("The poison deals 1 to the priest (L1) (1 left).", "end"),
    ]
    step = "start"
    for line, want in lines:
        step = _step_of(line, step, CARDS["shield"], {"Rolling Stone"})
        assert step == want, line
    # A slow spell is cast after the monsters, and its healing stays with it.
    assert _step_of("The party casts Regeneration.", "monsters", CARDS["regeneration"], set()) == "slow"
    assert _step_of("The party heals.", "slow", CARDS["regeneration"], set()) == "slow"
    # Steps never go back: a trap's name seen late (no such line) keeps the current step.
    assert (
        _step_of("Rolling Stone deals 1 to the thief (L1) (1 left).", "monsters", None, {"Rolling Stone"})
        == "monsters"
    )


def test_hit_points_follow_damage_prison_and_healing_by_the_priests() -> None:
    view = {
        "paladins": [],
        "players": [
            {
                "party": [
                    {"cls": "warrior", "level": 2, "hp": 4, "icons": 0, "dmg": 0, "uid": "a1"},
                    {"cls": "warrior", "level": 2, "hp": 4, "icons": 0, "dmg": 2, "uid": "a2"},
                    {"cls": "priest", "level": 1, "hp": 3, "icons": 2, "dmg": 0, "uid": "a3"},
                ]
            }
        ],
    }
    members = _members(view, 0)
    _track(
        members,
        [
            # Two "warrior (L2)": the line's numbers say which one (2 left before, 1 dealt -> a2).
            "Goblin deals 1 to the warrior (L2) (1 left).",
            "Troll deals 4 to the warrior (L2) (0 left).",
            "The warrior (l2) is knocked out and thrown into Player 1's prison.",
            "The party heals.",
        ],
    )
    assert [(m.uid, m.left, m.captured) for m in members] == [
        ("a1", 0, True),
        ("a2", 3, False),
        ("a3", 3, False),
    ]


def test_over_the_cap_the_battles_without_lines_are_left_out_first(monkeypatch: pytest.MonkeyPatch) -> None:
    import render.dungeon_lords_combat as steps

    for _, _, full_before, full_after, _ in _moves():
        # Views without the whole log (as saved before combat_log_full existed) lose
        # early battles' lines to the 14-line window: the case the cap must handle.
        before = {k: v for k, v in full_before.items() if k != "combat_log_full"}
        after = {k: v for k, v in full_after.items() if k != "combat_log_full"}
        battles = _battles(before, after)
        bare = [b for b in battles if b.missing and not b.lines]
        if len(bare) >= 2 and len(battles) - len(bare) >= 1:
            break
    else:
        raise AssertionError("no move with lost and visible battles in the sample games")
    full = render_steps(before, after)
    monkeypatch.setattr(steps, "MAX_IMAGES", len(battles) - 2)
    capped = render_steps(before, after)
    assert len(capped) == len(battles) - 2
    assert capped == full[2:], "the two earliest battles without lines are the ones left out"


def test_step_images_name_the_players_and_write_levels_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21: images name players by their display names, never "P2"."""
    import render.dungeon_lords_combat as C

    seen: list[str] = []
    real = C.text
    monkeypatch.setattr(C, "text", lambda d, xy, s, *a: (seen.append(s), real(d, xy, s, *a)))
    names = ["Ann", "Bob", "Cyd", "Dee"]
    fought = [m for m in _moves() if _combat(m[4])][:4]
    assert RENDERER.steps is not None
    for _, _, before, after, _ in fought:
        for job in RENDERER.steps(before, after, names[: len(before["players"])]):
            job()
    joined = " ".join(seen)
    assert "'s dungeon" in joined and any(f"{n}'s dungeon" in joined for n in names)
    assert not re.search(r"\bP[1-4]\b|\bPlayer [1-4]\b|\([lL]\d", joined)


def test_every_step_image_meets_the_phone_floor() -> None:
    """Issue 28's floor as issue 40 raised it, at 1,200 px wide: "no text under 30 px; ... the numbers a player decides by at
    36 px or more": in every battle of three games (2, 3 and 4 players, base and expansion),
    every label is 30 px or more, and every blow, hit-point count, prisoner, conquest, Evil
    change and Combat Card fatigue is 40 px or more."""
    from .test_dungeon_lords_phone import COMBAT_KEYS, combat_labels, floor_faults

    fought = [(before, after, len(before["players"])) for _, _, before, after, ev in _moves() if _combat(ev)]
    pictures = [p for before, after, n in fought for p in combat_labels([(before, after)], default_names(n))]
    assert len(pictures) >= 20
    sizes = {size for labels, _ in pictures for _, size, _ in labels}
    assert min(sizes) >= 30 and max(sizes) >= 40  # issue 40's floor
    for labels, _ in pictures:
        assert not floor_faults(labels), floor_faults(labels)[:5]
        # The title and the party's hit points are on every picture.
        assert any(COMBAT_KEYS["title"].search(s) for s, _, _ in labels)
        assert any(COMBAT_KEYS["hit points"].search(s) for s, _, _ in labels) or any(
            s == "nobody" for s, _, _ in labels
        )
