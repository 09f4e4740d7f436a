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


def _mark(draw: ImageDraw.ImageDraw, img: Image.Image, number: int, box: tuple[int, int, int, int]) -> None:
    """A numbered disc beside ``box``: left of it, else right, else above, where it
    hides nothing; left of it (over whatever is there) when no side is free."""
    r = base.TEXT_KEY // 2 + 6
    cy = (box[1] + box[3]) // 2
    spots = [(box[0] - r - 6, cy), (box[2] + r + 6, cy), (box[0] + r, box[1] - r - 4)]
    cx, cy = next(((x, y) for x, y in spots if _plain(img, x, y, r)), spots[0])
    cx = max(r, min(img.width - r, cx))
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
    for number, lab in find_labels(labels, callouts).items():
        _mark(draw, img, number, label_box(lab))
    return base.to_png(base.to_palette(img))
