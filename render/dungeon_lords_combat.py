"""Dungeon Lords combat as a sequence of images (render_steps).

One image per battle (one dungeon in one combat round), in the order they were
resolved. Each image shows the round, the Combat Card, the dungeon with the tile
fought on, the party as it entered (hit points), the log lines of the battle
grouped by Battle Phase step (traps, fast spell, monsters, slow spell, healing,
conquering and fatigue, end of round), and the result: the party afterwards,
who went to prison, what was conquered, the Evil change.

Only the two PUBLIC views are used (component names, a Combat Card's speed and
fatigue come from ``view["components"]``), so nothing hidden can be drawn. The public view keeps only the last 14 combat log
lines and empties them when a Year's Combat ends; a battle whose lines are gone
is still drawn from what the two views show (party, prison, conquests, Evil),
with a note that its play-by-play is not in the public view.

Issue 28 (a phone shows a third of it): 1,200 px wide, no text under 26 px, and the numbers a
battle is read by at 36 px: the Combat Card's fatigue, hit points entering and after, each blow
("Troll: 3 to Priest 4, 1 left"), who was knocked out, tiles conquered, the Evil change. A blow
or a capture is drawn in those few words; the board's text keeps the engine's full sentence."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import Any

from PIL import Image

from render.base import PALETTE, SEAT_COLOURS, box, canvas, grid, seat_colour, text, text_width, to_png

# Issue 28's floor at 1,200 px wide (a phone shows a third): no text under SMALL; the numbers a
# player reads the battle by (damage, hit points left, fatigue, prison, tiles conquered) at KEY.
W = 1200
MAX_IMAGES = 8
SMALL = 30  # issue 40
LOG_SIZE = 30
NAME = 30
STEP_SIZE = 30
KEY = 40
TITLE = 42
CELL = 76
GX, GY = 38, 36  # the grid's origin in its panel, after the two caption lines and the coordinates
CAPTION = 2 * (SMALL + 6)
PANEL_W = GX + 5 * CELL + 14
PANEL_H = 8 + CAPTION + GY + 4 * CELL + 12
PX = PANEL_W + 28  # the party table, right of the dungeon
ROW = KEY + 14
CLS = {"warrior": "Warrior", "thief": "Thief", "priest": "Priest", "wizard": "Wizard", "bard": "Bard"}
STEPS = [
    ("start", "Before the traps"),
    ("trap", "1. Traps"),
    ("fast", "2. Fast spell"),
    ("monsters", "3. Monsters"),
    ("slow", "4. Slow spell"),
    ("heal", "5. Healing"),
    ("conquer", "6. Conquering and fatigue"),
    ("end", "7. End of round"),
]
STEP_INDEX = {k: i for i, (k, _) in enumerate(STEPS)}
# A seat in engine text: "Player 2" (engine.core.seat_ref), or "P2" in older logs.
SEAT = r"P(?:layer )?(\d+)"
HEADER = re.compile(rf"^-- {SEAT}: battle on (\S+); Combat Card: (.+) \(fatigue (\d+)\)\.$")
ROUND = re.compile(r"^Combat round (\d+): the Combat Card is (.+)\.$")
DEALS = re.compile(r"^(.+?) deals (\d+) to (.+) \((\d+) left\)\.$")
PRISON = re.compile(rf"^(.+) is knocked out and thrown into {SEAT}'s prison\.$")
SEAT_WORD = re.compile(rf"\b{SEAT}\b")
SPRINGS = re.compile(rf"^{SEAT} springs (.+)\.$")
# A dungeon with no tile left to fight on, said between two rounds (rules revision 5): no battle's line.
FULLY = re.compile(rf"^{SEAT}'s dungeon is fully conquered\b")


LEVEL = re.compile(r"\([lL](\d+)\)")


def named(s: str, names: list[str]) -> str:
    """Engine text for a board: each seat reference replaced by the player's display name,
    an adventurer's "(l3)" written out as "(level 3)"."""
    s = LEVEL.sub(r"(level \1)", s)
    return SEAT_WORD.sub(
        lambda m: names[int(m.group(1)) - 1] if int(m.group(1)) <= len(names) else m.group(0), s
    )


def adventurer(a: dict[str, Any], health: bool = False) -> str:
    """An adventurer tile in words: class, level (its number), and optionally health left."""
    s = f"{CLS.get(a['cls'], a['cls'].capitalize())} {a.get('level', '')}".strip()
    if health:
        hp = int(a["hp"]) + int(a.get("bonus", 0))
        s += f": {hp - int(a['dmg'])}/{hp}"
        if a.get("courage"):
            s += f" +{a['courage']} courage"
    return s


def _cards(before: dict[str, Any], after: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The Combat Cards either view shows (a card turned over by this move is only in the
    after view), by printed name."""
    both = {**before["components"]["cards"], **after["components"]["cards"]}
    return {c["name"]: c for c in both.values()}


# ---- reading the views --------------------------------------------------------------------------
def _added(old: list[str], new: list[str]) -> list[str]:
    """The lines ``new`` has beyond ``old``: both are windows on the tail of one growing log,
    so the longest end of ``old`` that starts ``new`` is the overlap."""
    for k in range(min(len(old), len(new)), 0, -1):
        if old[-k:] == new[:k]:
            return new[k:]
    return list(new)


def _same_combat(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """The after view still holds this Year's Combat (it is reset when the next Year begins)."""
    return after["year"] == before["year"] and (after["combat_round"] > 0 or after["phase"] == "over")


# A party line drawn: name, hit points left, maximum, in prison, and optionally what is known instead.
Row = tuple[Any, ...]


@dataclass
class Member:
    key: str  # the label the combat log uses, lower case ("the warrior (level 2)", "the dwarven paladin")
    short: str
    hp: int
    left: int
    heal: int = 0
    uid: str = ""
    captured: bool = False


@dataclass
class Battle:
    seat: int | None
    round: int | None = None
    tile: str | None = None
    card: str | None = None
    fatigue: int | None = None
    lines: list[str] = field(default_factory=list)
    missing: bool = False  # some or all of its log lines are not in the public view
    last_for_seat: bool = True
    first_round: bool = True  # the party on the before board is the one that entered this battle
    upto: int | None = None  # the last round, when one image stands for several


def _members(view: dict[str, Any], seat: int) -> list[Member]:
    out: list[Member] = []
    for pal in view["paladins"]:
        if pal["status"] == "field" and pal["at"] == seat:
            hp = int(pal["hp"])
            out.append(
                Member(
                    f"the {pal['name']}".lower(),
                    pal["name"],
                    hp,
                    hp - int(pal["dmg"]),
                    int(pal["heal"]),
                    pal["name"],
                )
            )
    for a in view["players"][seat]["party"]:
        hp = int(a["hp"]) + int(a.get("bonus", 0))
        name = adventurer(a)
        heal = int(a.get("icons", 0)) if a["cls"] == "priest" else 0
        key = f"the {a['cls']} (level {a.get('level', '')})"
        out.append(Member(key, name, hp, hp - int(a["dmg"]), heal, str(a.get("uid", key))))
    return out


def _find(members: list[Member], key: str, left: int | None = None) -> Member | None:
    """The member a log line names. Two of one class and level share a label: prefer the one
    whose hit points fit the line (``left`` = what it had before, when the line says)."""
    key = LEVEL.sub(r"(level \1)", key).lower()  # '(L1)' in a revision-2 log, '(level 1)' after
    same = [m for m in members if m.key == key and not m.captured]
    fit = [m for m in same if left is None or m.left == left]
    found = fit or same
    return found[0] if found else None


def _track(members: list[Member], lines: list[str]) -> None:
    """Replay the battle's log lines on the party: damage, prison, healing."""
    regen = False
    for ln in lines:
        d = DEALS.match(ln)
        if d:
            m = _find(members, d.group(3), int(d.group(4)) + int(d.group(2)))
            if m is not None:
                m.left = int(d.group(4))
            continue
        p = PRISON.match(ln)
        if p:
            m = _find(members, p.group(1), 0)
            if m is not None:
                m.left, m.captured = 0, True
            continue
        if ln.startswith("The party casts Regeneration"):
            regen = True
        elif ln.startswith("The party casts Create Food"):
            front = next((m for m in members if not m.captured), None)
            if front is not None:
                front.hp += 1
                front.left += 1
        elif ln == "The party heals.":
            # The log does not say how much: the priests' (and paladin's) icons, 2 for Regeneration.
            points = 2 if regen else sum(m.heal for m in members if not m.captured)
            regen = False
            for m in members:
                while points and not m.captured and m.left < m.hp:
                    m.left += 1
                    points -= 1


def _step_of(line: str, current: str, card: dict[str, Any] | None, traps: set[str]) -> str:
    """Which Battle Phase step a log line belongs to; steps only move forward. ``traps``: the
    names of the traps sprung so far in this battle (every trap's blow follows its
    "... springs <trap>." line); any other blow but fatigue, poison and the Stareplant's is a
    monster's (or a pet's, in the monster step)."""
    at = STEP_INDEX[current]

    def go(step: str) -> str:
        return step if STEP_INDEX[step] >= at else current

    d = DEALS.match(line)
    if d:
        src = d.group(1)
        if src in traps:
            return go("trap")
        if src == "Fatigue":
            return go("conquer")
        if src == "The poison":
            return go("end")
        if src == "The Stareplant":
            return current
        return go("monsters")
    if "springs" in line or line.startswith("The dart hits"):
        return go("trap")
    if line.startswith("The party casts"):
        fast = card["speed"] == "fast" if card else at <= STEP_INDEX["trap"]
        return go("fast" if fast else "slow")
    if "withdraws" in line or "keeps the monsters" in line or "to keep the" in line or "into a sheep" in line:
        return go("fast")
    if "Elderbeast" in line:
        return go("fast")
    if (
        line.startswith("The expert")
        or "hypnotises" in line
        or "finds no one" in line
        or "cannot attack" in line
    ):
        return go("monsters")
    if "stops the party from conquering" in line or line.startswith("Magic Shield absorbs"):
        return go("monsters")
    if line == "The party heals.":
        return current if current == "slow" else go("heal")
    if "conquer" in line or "trained imp" in line:
        return go("conquer")
    return current


def _tile_from(
    lines: list[str], before: dict[str, Any], after: dict[str, Any], seat: int | None
) -> str | None:
    """The tile of a battle whose header line is gone: named by a later line, or the one tile
    of that dungeon conquered between the views."""
    for ln in lines:
        m = re.search(r"(?:conquers|does not conquer|trap installed on) ([A-Z]\d+)\b", ln)
        if m:
            return m.group(1)
    if seat is None:
        return None
    g0, g1 = before["players"][seat]["grid"], after["players"][seat]["grid"]
    new = [c for c, t in g1.items() if t["c"] and not g0.get(c, {}).get("c")]
    return new[0] if len(new) == 1 else None


def _rounds(before: dict[str, Any], after: dict[str, Any]) -> list[tuple[int, str]]:
    """The combat rounds this move resolved, with their Combat Card names, from the general log."""
    gen = _added(before["log"], after["log"])
    rounds = [(int(m.group(1)), m.group(2)) for m in map(ROUND.match, gen) if m]
    planned = before["phase"] == "plan" and before["combat_round"] > 0
    moved = (after["year"], after["phase"], after["combat_round"]) != (
        before["year"],
        before["phase"],
        before["combat_round"],
    )
    if not rounds and planned and moved:
        rounds = [(before["combat_round"], "")]
    return rounds


def _visible(lines: list[str], rounds: list[tuple[int, str]]) -> tuple[list[Battle], list[str]]:
    """The battles whose header line is in the window, and the lines before the first header."""
    card_round = {name: r for r, name in rounds if name}
    found: list[Battle] = []
    orphan: list[str] = []
    for ln in lines:
        h = HEADER.match(ln)
        if h:
            found.append(
                Battle(
                    int(h.group(1)) - 1, card_round.get(h.group(3)), h.group(2), h.group(3), int(h.group(4))
                )
            )
        elif found:
            found[-1].lines.append(ln)
        else:
            orphan.append(ln)
    return found, orphan


def _expected(
    before: dict[str, Any], after: dict[str, Any], rounds: list[tuple[int, str]], found: list[Battle]
) -> list[tuple[int, int, str]]:
    """The battles expected, round by round: in the first round every dungeon with a party (or
    a paladin) and a tile to fight on; later, those still known to hold a party."""
    same = _same_combat(before, after)
    n = len(before["players"])
    order = [(before["start"] + i) % n for i in range(n)]
    fighters = [
        s
        for s in order
        if _members(before, s) and any(not t["c"] for t in before["players"][s]["grid"].values())
    ]
    expected: list[tuple[int, int, str]] = []
    for i, (r, card) in enumerate(rounds):
        if i:
            fighters = [
                s
                for s in fighters
                if not same or _members(after, s) or any(b.seat == s and (b.round or 0) >= r for b in found)
            ]
        expected += [(s, r, card) for s in fighters]
    return expected


def _orphan_battle(
    before: dict[str, Any],
    orphan: list[str],
    prefix: list[tuple[int, int, str]],
    found: list[Battle],
    rounds: list[tuple[int, str]],
    first_round: int | None,
) -> Battle:
    """The start of the earliest visible battle fell out of the log window: its lines belong
    to the last battle whose header is gone; the seat shows in lines like "Player 2's prison"."""
    seats = {int(x) - 1 for x in SEAT_WORD.findall(" ".join(orphan))}
    if prefix and (not seats or prefix[-1][0] in seats):
        s, r, card = prefix.pop()
        return Battle(s, r, None, card or None, None, orphan, True)
    # Not expected (its party fell in this move): it comes just before the first visible
    # battle, in that battle's round unless it plays later in the round.
    n = len(before["players"])
    order = [(before["start"] + i) % n for i in range(n)]
    seat = min(seats) if seats else None
    at = found[0].round if found else first_round
    if found and seat is not None and at and order.index(seat) > order.index(found[0].seat or 0):
        at -= 1
    card = next((c for k, c in rounds if k == at), "")
    return Battle(seat, at, None, card or None, None, orphan, True)


def _battles(before: dict[str, Any], after: dict[str, Any]) -> list[Battle]:
    if _same_combat(before, after):
        # The whole log of this Combat when the view carries it; else the 14-line window.
        key = (
            "combat_log_full" if "combat_log_full" in before and "combat_log_full" in after else "combat_log"
        )
        lines = [ln for ln in _added(before[key], after[key]) if not FULLY.match(ln)]
    else:
        lines = []
    rounds = _rounds(before, after)
    if not rounds and not lines:
        return []
    found, orphan = _visible(lines, rounds)
    first_round = rounds[0][0] if rounds else (found[0].round if found else None)
    for b in found:
        if b.round is None:
            b.round = first_round
    if not rounds:
        rounds = [(first_round or 0, found[0].card or "")]
    expected = _expected(before, after, rounds, found)
    # The log window lost a prefix of the battles: match the visible ones to the end of the
    # expected sequence; what precedes them is what was lost.
    j = len(expected)
    for b in reversed(found):
        k = j - 1
        while k >= 0 and expected[k][:2] != (b.seat, b.round):
            k -= 1
        if k >= 0:
            j = k
    prefix = expected[:j]
    last = _orphan_battle(before, orphan, prefix, found, rounds, first_round) if orphan else None
    lost: list[Battle] = []
    for s, r, card in prefix:
        # Several rounds of one dungeon with no line left are one image: which of them the
        # party still fought cannot be told from the boards.
        same_seat = next((b for b in lost if b.seat == s), None)
        if same_seat is not None:
            same_seat.upto, same_seat.card = r, None
        else:
            lost.append(Battle(s, r, None, card or None, None, [], True))
    if last is not None:
        lost.append(last)
    cards = _cards(before, after)
    for b in lost:
        b.tile = _tile_from(b.lines, before, after, b.seat)
        if b.card in cards:
            b.fatigue = cards[b.card]["fatigue"]
    out = lost + found
    seen: set[int | None] = set()
    for b in reversed(out):
        b.first_round = b.round in (first_round, None)
        b.last_for_seat = b.seat not in seen
        seen.add(b.seat)
    return out


# ---- drawing ----------------------------------------------------------------------------------
def wrap(s: str, width: float, size: int) -> list[str]:
    """``s`` in lines no wider than ``width`` pixels at ``size``, broken between words."""
    # Measuring text is slow: most lines are short enough not to need it.
    if len(s) * size * 0.6 <= width or text_width(s, size) <= width:
        return [s]
    words, out, cur = s.split(), [], ""
    for w in words:
        trial = f"{cur} {w}".strip()
        if cur and text_width(trial, size) > width:
            out.append(cur)
            cur = w
        else:
            cur = trial
    return out + ([cur] if cur else [])


def _line_colour(ln: str) -> str:
    if "thrown into" in ln or "vanishes" in ln:
        return "good"
    if "conquers" in ln:
        return "bad"
    if "springs" in ln or "withdraws" in ln:
        return "yellow"
    return "text"


COURAGE = re.compile(r"^Courage cancels (\d+) damage to (.+)\.$")
# Other lines whose number changes the damage or the fatigue: drawn whole at KEY.
MORE = re.compile(r"absorbs \d+ damage|: \+\d+ fatigue|strikes with \+\d+")
WHO = re.compile(r"^the (\w+) \(level (\d+)\)$", re.I)


def _who(s: str) -> str:
    """A log's "the priest (level 4)" as the party table names it: "Priest 4"."""
    s = LEVEL.sub(r"(level \1)", s)
    m = WHO.match(s)
    if m:
        return f"{CLS.get(m.group(1).lower(), m.group(1).capitalize())} {m.group(2)}"
    return s[4:] if s.lower().startswith("the ") else s


def _log_line(ln: str, names: list[str]) -> tuple[str, int]:
    """A log line as drawn, with its size: a blow, a capture or a conquest says its numbers
    in a few words at KEY (the board's text keeps the full sentence); the rest at LOG_SIZE."""
    d = DEALS.match(ln)
    if d:
        return f"{d.group(1)}: {d.group(2)} to {_who(d.group(3))}, {d.group(4)} left", KEY
    p = PRISON.match(ln)
    if p:
        seat = int(p.group(2))
        owner = names[seat - 1] if seat <= len(names) else f"Player {seat}"
        return f"{_who(p.group(1))} knocked out: {owner}'s prison", KEY
    c = COURAGE.match(ln)
    if c:
        return f"Courage: {c.group(1)} damage cancelled, {_who(c.group(2))}", KEY
    if "conquer" in ln or MORE.search(ln):
        return named(ln, names), KEY
    return named(ln, names), LOG_SIZE


def _draw_grid(
    draw: Any, p: dict[str, Any], p_after: dict[str, Any] | None, tile: str | None, x: int, y: int
) -> None:
    """The dungeon as on the board (tunnels brown, rooms blue and framed, conquered crossed);
    tiles conquered in this battle are framed in yellow; the battle tile is boxed."""
    cell, cols, rows = CELL, 5, 4
    gx, gy = x + GX, y + GY
    for c, t in p["grid"].items():
        ci, ri = ord(c[0]) - 65, int(c[1:]) - 1
        r = (gx + ci * cell + 2, gy + ri * cell + 2, gx + (ci + 1) * cell - 2, gy + (ri + 1) * cell - 2)
        was = bool(t["c"])
        now = bool(p_after and p_after["grid"].get(c, {}).get("c"))
        colour = (70, 70, 78) if was or now else PALETTE["brown"] if t["k"] == "t" else PALETTE["blue"]
        draw.rectangle(r, fill=colour)
        if t["k"] == "r" and not (was or now):
            draw.rectangle((r[0] + 6, r[1] + 6, r[2] - 6, r[3] - 6), outline=PALETTE["white"], width=3)
        if now and not was:
            # Conquered in this battle: a yellow frame around the cross, which stays in view
            # (issue 28: the "NEW" tag used to cover the red cross).
            draw.rectangle(r, outline=PALETTE["yellow"], width=6)
        if was or now:
            draw.line((r[0] + 8, r[1] + 8, r[2] - 8, r[3] - 8), fill=PALETTE["bad"], width=4)
            draw.line((r[0] + 8, r[3] - 8, r[2] - 8, r[1] + 8), fill=PALETTE["bad"], width=4)
    grid(draw, (gx, gy), cols, rows, cell, size=SMALL)
    if tile and tile in p["grid"]:
        ci, ri = ord(tile[0]) - 65, int(tile[1:]) - 1
        draw.rectangle(
            (gx + ci * cell - 3, gy + ri * cell - 3, gx + (ci + 1) * cell + 3, gy + (ri + 1) * cell + 3),
            outline=PALETTE["accent"],
            width=6,
        )


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    fg = list(PALETTE.values()) + list(SEAT_COLOURS) + [(70, 70, 78)]
    cols: list[tuple[int, ...]] = list(fg)
    for b in (PALETTE["bg"], PALETTE["panel"], PALETTE["panel2"]):
        for c in fg:
            for t in (0.25, 0.5, 0.75):
                cols.append(tuple(round(b[i] + (c[i] - b[i]) * t) for i in range(3)))
    flat = [v for c in list(dict.fromkeys(cols))[:256] for v in c]
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat + [0] * (768 - len(flat)))
    return pal


def _party_rows(members: list[Member]) -> list[Row]:
    return [(m.short, m.left, m.hp, m.captured) for m in members]


def _draw_party(draw: Any, start: list[Member], result: list[Row], x: int, y: int, width: int) -> int:
    """One row per member: name, hit points entering, and (when known) a health bar and the
    hit points after the battle, PRISON, or what is known instead. Returns the y below."""
    if not start:
        text(draw, (x, y), "nobody", NAME, "muted")
        return y + ROW
    right = x + width  # "after" is right-aligned there: "PRISON" at KEY is its widest
    bx, bw = x + 330, max(40, width - 330 - 20 - int(text_width("PRISON", KEY)))
    if result:
        text(draw, (x + 230, y), "entering", SMALL, "muted")
        text(draw, (right, y), "after", SMALL, "muted", "ra")
    y += SMALL + 8
    for k, m in enumerate(start):
        text(draw, (x, y + 4), m.short, NAME)
        text(draw, (x + 230, y), f"{m.left}/{m.hp}", KEY)
        if k < len(result):
            _, left, hp, captured, *note = result[k]
            if not note:
                draw.rectangle((bx, y + 8, bx + bw, y + KEY - 4), fill=PALETTE["panel2"])
            if hp > 0 and left > 0 and not note:
                draw.rectangle(
                    (bx, y + 8, bx + int(bw * min(left, hp) / hp), y + KEY - 4), fill=PALETTE["good"]
                )
            if note:
                text(draw, (bx, y + 4), note[0], NAME, "muted")
            status = "PRISON" if captured else ("?" if note else f"{left}/{hp}")
            text(draw, (right, y), status, KEY, "bad" if captured else "text", "ra")
        y += ROW
    return y


def _result(before: dict[str, Any], after: dict[str, Any], b: Battle) -> list[Row]:
    """The party after the battle: exact from the after view while it still holds this
    Combat's party; else from the battle's lines; else what the prison tells."""
    seat = b.seat
    if seat is None:
        return []
    start = _members(before, seat)
    tracked = _members(before, seat)
    _track(tracked, b.lines)
    p0 = before["players"][seat]
    p1 = after["players"][seat] if len(after["players"]) > seat else None
    if not (b.last_for_seat and p1 is not None):
        return [] if b.missing else _party_rows(tracked)
    if _same_combat(before, after):
        now = {m.uid: m for m in _members(after, seat)}
        out: list[Row] = []
        for m in start:
            m2 = now.pop(m.uid, None)
            out.append((m.short, m2.left, m2.hp, False) if m2 else (m.short, 0, m.hp, True))
        return out
    if not b.missing and b.first_round:
        return _party_rows(tracked)
    # The Year's Combat is over and the log is gone: the prison says who was caught; the
    # others walked out, with health the public view no longer shows.
    caught = {str(a.get("uid", a.get("name"))) for a in p1["prison"][len(p0["prison"]) :]}
    return [
        (m.short, 0, m.hp, True) if m.uid in caught else (m.short, 0, m.hp, False, "walked out")
        for m in start
    ]


def _facts(before: dict[str, Any], after: dict[str, Any], b: Battle) -> list[str]:
    """Prisoners taken, tiles conquered and the Evil change, from the two boards."""
    seat = b.seat
    if seat is None or not b.last_for_seat or len(after["players"]) <= seat:
        return []
    p0, p1 = before["players"][seat], after["players"][seat]
    out: list[str] = []
    new_prison = p1["prison"][len(p0["prison"]) :] if len(p1["prison"]) >= len(p0["prison"]) else []
    if new_prison:
        out.append("To prison: " + ", ".join(a.get("name") or adventurer(a) for a in new_prison))
    conq = sorted(c for c, t in p1["grid"].items() if t["c"] and not p0["grid"].get(c, {}).get("c"))
    if conq:
        out.append("Conquered: " + ", ".join(conq))
    if p1["evil"] != p0["evil"]:
        out.append(f"Evil: {p0['evil']} -> {p1['evil']}")
    return out


def _body(
    before: dict[str, Any], after: dict[str, Any], b: Battle, names: list[str]
) -> list[tuple[str, str, int]]:
    """The battle's log lines as (colour or "step", text, size), grouped by Battle Phase step."""
    card = _cards(before, after).get(b.card or "")
    width = W - 40
    out: list[tuple[str, str, int]] = []
    if b.missing:
        why = (
            "only the last lines are kept"
            if _same_combat(before, after)
            else "the log is cleared as Combat ends"
        )
        note = (
            f"This battle's play-by-play is not on the board ({why}); below is what the boards show."
            if not b.lines
            else "The first lines of this battle are no longer on the board."
        )
        out += [("muted", part, SMALL) for part in wrap(note, width, SMALL)]
    step, title = "start", ""
    traps: set[str] = set()
    for ln in b.lines:
        sprung = SPRINGS.match(ln)
        if sprung:
            traps.add(sprung.group(2))
        step = _step_of(ln, step, card, traps)
        if dict(STEPS)[step] != title:
            title = dict(STEPS)[step]
            out.append(("step", title, STEP_SIZE))
        shown, size = _log_line(ln, names)
        for k, part in enumerate(wrap(shown, width - 16, size)):
            out.append((_line_colour(ln), ("" if k == 0 else "  ") + part, size))
    return out


def _title_lines(
    before: dict[str, Any], after: dict[str, Any], b: Battle, names: list[str]
) -> list[tuple[str, int]]:
    """The title (round and dungeon) and what the battle is fought with: tile and Combat Card,
    its fatigue at KEY."""
    seat = b.seat
    who = f"{names[seat]}'s dungeon" if seat is not None else "a dungeon"
    rnd = f"round {b.round} of {before['combat_rounds']}" if b.round else "a round"
    if b.upto:
        rnd = f"rounds {b.round}-{b.upto} of {before['combat_rounds']}"
    out = [(part, TITLE) for part in wrap(f"Year {before['year']} combat, {rnd}: {who}", W - 32, TITLE)]
    card = _cards(before, after).get(b.card or "")
    if b.upto:
        sub = "Which of these rounds the party fought is not on the board."
        return out + [(part, NAME) for part in wrap(sub, W - 32, NAME)]
    where = b.tile or "a tile the board no longer shows"
    if seat is not None and b.tile in before["players"][seat]["grid"]:
        t = before["players"][seat]["grid"][b.tile]
        if t["k"] == "r":
            where += " (" + before["components"]["rooms"].get(t["room"], t["room"]) + ")"
    sub = f"Battle on {where}." + (f"  {b.card}" if b.card else "")
    if card:
        fat = b.fatigue if b.fatigue is not None else card["fatigue"]
        sub += f": {card['speed']} spell, fatigue {fat}"
    return out + [(part, KEY) for part in wrap(sub, W - 32, KEY)[:2]]


def _notes(before: dict[str, Any], b: Battle) -> list[str]:
    """The lines under the dungeon: the monsters ready and the Trap Cards in hand."""
    if b.seat is None:
        return []
    p0 = before["players"][b.seat]
    ready = [
        before["components"]["monsters"].get(m["id"], m["id"]) for m in p0["monsters"] if m["up"] is True
    ]
    lines = wrap(f"Monsters ready: {', '.join(ready) or 'none'}", PANEL_W, SMALL)[:4]
    return lines + [f"Trap Cards in hand: {p0['traps']}"]


def _left(
    draw: Any, before: dict[str, Any], after: dict[str, Any], b: Battle, notes: list[str], y: int
) -> int:
    """The dungeon with the battle tile, and the notes under it."""
    p0 = before["players"][b.seat] if b.seat is not None else None
    p1 = after["players"][b.seat] if b.seat is not None and len(after["players"]) > b.seat else None
    if p0 is None:
        return y
    box(draw, (8, y, 8 + PANEL_W, y + PANEL_H), "panel")
    taken = p1 is not None and any(
        t.get("c") and not p0["grid"].get(c, {}).get("c") for c, t in p1["grid"].items()
    )
    text(draw, (20, y + 6), "Boxed: the battle tile", SMALL, "muted")
    if taken:
        text(draw, (20, y + 6 + SMALL + 6), "Yellow: conquered now", SMALL, "muted")
    _draw_grid(draw, p0, p1 if p1 is not None and p1["grid"] else None, b.tile, 8, y + 8 + CAPTION)
    y += PANEL_H + 8
    for part in notes:
        text(draw, (12, y), part, SMALL, "muted")
        y += SMALL + 8
    return y


def _right(draw: Any, b: Battle, start: list[Member], result: list[Row], facts: list[str], y: int) -> int:
    """The party entering and after the battle, then who went to prison, what was
    conquered and the Evil change, at KEY."""
    width = W - PX - 16
    head = ("Party entering" if b.first_round else "Party on the last board") + (
        ", then after" if result else ""
    )
    text(draw, (PX, y), head, NAME, "accent")
    y = _draw_party(draw, start, result, PX, y + NAME + 4, width)
    for f in facts:
        for part in wrap(f, width, KEY):
            text(draw, (PX, y), part, KEY, "yellow")
            y += ROW
    return y


def _height(
    tops: list[tuple[str, int]],
    body: list[tuple[str, str, int]],
    start: list[Member],
    facts: list[str],
    notes: list[str],
) -> tuple[int, int]:
    """The title band's height and the whole image's, exactly as drawn (a measuring pass)."""
    top = 14 + sum(size + 12 for _, size in tops) + 8
    left = PANEL_H + 8 + len(notes) * (SMALL + 8) if notes else 0
    right = (
        NAME
        + 4
        + (SMALL + 8 + ROW * len(start) if start else ROW)
        + ROW * sum(len(wrap(f, W - PX - 16, KEY)) for f in facts)
    )
    body_h = sum(STEP_SIZE + 16 if k == "step" else size + 12 for k, _, size in body)
    return top, top + 16 + max(left, right) + 16 + body_h + 16


def _image(before: dict[str, Any], after: dict[str, Any], b: Battle, names: list[str]) -> bytes:
    start = _members(before, b.seat) if b.seat is not None else []
    result, facts = _result(before, after, b), _facts(before, after, b)
    body, tops = _body(before, after, b, names), _title_lines(before, after, b, names)
    notes = _notes(before, b)
    top, height = _height(tops, body, start, facts, notes)
    img, draw = canvas(W, height)
    draw.rectangle([0, 0, W, top - 8], fill=PALETTE["panel"])
    col = seat_colour(b.seat) if b.seat is not None else PALETTE["text"]
    y = 14
    for s, size in tops:
        text(draw, (16, y), s, size, col if size == TITLE else "text")
        y += size + 12
    y = top + 16
    y = max(_left(draw, before, after, b, notes, y), _right(draw, b, start, result, facts, y)) + 16
    for kind, s, size in body:
        if kind == "step":
            draw.rectangle((8, y + 2, W - 8, y + STEP_SIZE + 12), fill=PALETTE["panel2"])
            text(draw, (16, y + 6), s, size, "accent")
            y += STEP_SIZE + 16
        else:
            text(draw, (16 if kind == "muted" else 24, y), s, size, kind)
            y += size + 12
    # A fixed palette (our colours and their anti-aliasing blends) maps faster than an adaptive one.
    return to_png(img.quantize(palette=_palette(), dither=Image.Dither.NONE))


def steps(before: dict[str, Any], after: dict[str, Any], names: list[str]) -> list[Callable[[], bytes]]:
    """One drawing job per combat battle that happened between two public views, so
    tables/ can draw them on several threads at once ([] if none)."""
    battles = _battles(before, after)
    # Over the cap, the battles with no line left go first: they add least to the board.
    while len(battles) > MAX_IMAGES and any(b.missing and not b.lines for b in battles):
        battles.remove(next(b for b in battles if b.missing and not b.lines))
    return [partial(_image, before, after, b, names) for b in battles[:MAX_IMAGES]]
