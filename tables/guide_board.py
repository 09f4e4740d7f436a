"""The guide's picture (issue 28 item 4): a real board in the middle of a game, its
parts marked with numbered call-outs that the guide's "The board" section explains
("1. [Pool] ..." points at the label "Pool" on the board)."""

from __future__ import annotations

import io
import random
from functools import lru_cache

from PIL import Image, ImageDraw

import render
from engine import core
from render import base

SEED = 28  # the same picture every time for a game (and a test can check it)
# A game whose seed-28 half-way board lacks a part the guide points at: Dungeon Lords'
# rules revision 4 changed its random games, and seed 28's middle fell outside Combat.
SEEDS = {"dungeon-lords": 31}


def middle_state(key: str, players: int, seed: int | None = None) -> core.State:
    """A state about half-way through a game of random legal moves."""
    seed = SEEDS.get(key, SEED) if seed is None else seed
    game = core.get(key)
    pick = random.Random(seed)
    state = game.new(players, None, seed)
    seen = [state]
    while not game.is_over(state) and len(seen) < 2000:
        seat = pick.choice(sorted(game.to_act(state)))
        state, _ = game.apply(state, seat, pick.choice(game.legal_actions(state, seat)))
        seen.append(state)
    return seen[len(seen) // 2]


def label_box(lab: base.Label) -> tuple[int, int, int, int]:
    """Where a recorded label's ink lies on its image."""
    mask, x0, y0 = base._stamp(lab.s, lab.size, lab.anchor, "1" if lab.mono else "L")
    left, top = round(lab.xy[0]) + x0, round(lab.xy[1]) + y0
    return left, top, left + mask.width, top + mask.height


def find_labels(labels: list[base.Label], callouts: tuple[tuple[int, str], ...]) -> dict[int, base.Label]:
    """Call-out number -> the first label on the board containing its words."""
    found: dict[int, base.Label] = {}
    for number, words in callouts:
        want = words.lower()
        for lab in labels:
            if want in lab.s.lower():
                found[number] = lab
                break
    return found


def _plain(img: Image.Image, cx: int, cy: int, r: int) -> bool:
    """Whether the square around (cx, cy) lies on the image and holds one colour (no
    text or piece for the disc to hide)."""
    if cx - r < 0 or cy - r < 0 or cx + r > img.width or cy + r > img.height:
        return False
    colours = img.crop((cx - r, cy - r, cx + r, cy + r)).getcolors(4)
    return colours is not None and len(colours) == 1


def _meets(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def marker_spot(
    img: Image.Image, box: tuple[int, int, int, int], others: list[tuple[int, int, int, int]]
) -> tuple[int, int]:
    """Where the numbered disc for the label in ``box`` goes: left of it, else right,
    above or below, on plain ground; else on a spot that covers no label; never on
    its own label (a disc over "Draft board" left "raft board" to read)."""
    r = MARKER_R
    cy = (box[1] + box[3]) // 2
    spots = [
        (box[0] - r - 6, cy),
        (box[2] + r + 6, cy),
        (box[0] + r, box[1] - r - 4),
        (box[0] + r, box[3] + r + 4),
        (box[2] - r, box[1] - r - 4),
        (box[2] - r, box[3] + r + 4),
    ]
    on_image = [(x, y) for x, y in spots if r <= x <= img.width - r and r <= y <= img.height - r]
    free = [
        (x, y)
        for x, y in on_image
        if not any(_meets((x - r, y - r, x + r, y + r), o) for o in [box, *others])
    ]
    for x, y in free:
        if _plain(img, x, y, r):
            return x, y
    if free:
        return free[0]
    clear_of_own = [(x, y) for x, y in on_image if not _meets((x - r, y - r, x + r, y + r), box)]
    if clear_of_own:  # the least of other labels hidden
        return min(
            clear_of_own,
            key=lambda p: sum(_overlap((p[0] - r, p[1] - r, p[0] + r, p[1] + r), o) for o in others),
        )
    return max(r, min(img.width - r, spots[0][0])), cy


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> int:
    return max(0, min(a[2], b[2]) - max(a[0], b[0])) * max(0, min(a[3], b[3]) - max(a[1], b[1]))


MARKER_R = base.TEXT_KEY // 2 + 6  # the numbered disc's radius


def _mark(draw: ImageDraw.ImageDraw, number: int, spot: tuple[int, int]) -> None:
    cx, cy, r = spot[0], spot[1], MARKER_R
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(220, 30, 30), outline=(255, 255, 255), width=3)
    base.text(draw, (cx, cy), str(number), base.TEXT_KEY - 6, (255, 255, 255), "mm")


@lru_cache(maxsize=8)
def labelled_board(key: str, callouts: tuple[tuple[int, str], ...]) -> bytes:
    """The middle board of a game at 4 players (or the nearest count allowed) with
    each call-out's number drawn beside the label it names."""
    game = core.get(key)
    players = min(max(4, game.min_players), game.max_players)
    state = middle_state(key, players)
    with base.recording() as labels:
        png = render.get(key).board(game.view(state, None), render.default_names(players))
    img = Image.open(io.BytesIO(png)).convert("RGB")
    draw = ImageDraw.Draw(img)
    for number, spot in marker_spots(img, labels, callouts).items():
        _mark(draw, number, spot)
    return base.to_png(base.to_palette(img))


def marker_spots(
    img: Image.Image, labels: list[base.Label], callouts: tuple[tuple[int, str], ...]
) -> dict[int, tuple[int, int]]:
    """Call-out number -> the centre of its disc, each chosen before any is drawn."""
    boxes = [label_box(lab) for lab in labels]
    spots: dict[int, tuple[int, int]] = {}
    r = MARKER_R
    for number, lab in find_labels(labels, callouts).items():
        own = label_box(lab)
        discs = [(x - r, y - r, x + r, y + r) for x, y in spots.values()]
        spots[number] = marker_spot(img, own, [b for b in boxes if b != own] + discs)
    return spots
