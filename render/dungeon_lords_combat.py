"""Dungeon Lords combat as a sequence of images (render_steps).

One image per battle (one dungeon in one combat round), in the order they were
resolved. Each image shows the round, the Combat Card, the dungeon with the tile
fought on, the party as it entered (hit points), the log lines of the battle
grouped by Battle Phase step (traps, fast spell, monsters, slow spell, healing,
conquering and fatigue, end of round), and the result: the party afterwards,
who went to prison, what was conquered, the Evil change.

Only the two PUBLIC views are used (plus the static card/monster/trap data), so
nothing hidden can be drawn. The public view keeps only the last 14 combat log
lines and empties them when a Year's Combat ends; a battle whose lines are gone
is still drawn from what the two views show (party, prison, conquests, Evil),
with a note that its play-by-play is not in the public view."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import Any

from PIL import Image

from engine.dungeon_lords.data import CARDS, MONSTERS, TRAPS
from render.base import PALETTE, SEAT_COLOURS, box, canvas, grid, seat_colour, text, text_width, to_png

W = 820
MAX_IMAGES = 8
LINE = 24
LOG_SIZE = 18
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
CARD_BY_NAME = {c["name"]: c for c in CARDS.values()}
MONSTER_NAMES = {m["name"] for m in MONSTERS.values()}
TRAP_NAMES = {t["name"] for t in TRAPS.values()}
HEADER = re.compile(r"^-- Player (\d+): battle on (\S+); Combat Card: (.+) \(fatigue (\d+)\)\.$")
ROUND = re.compile(r"^Combat round (\d+): the Combat Card is (.+)\.$")
DEALS = re.compile(r"^(.+?) deals (\d+) to (.+) \((\d+) left\)\.$")
PRISON = re.compile(r"^(.+) is knocked out and thrown into Player (\d+)'s prison\.$")


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
    key: str  # the label the combat log uses, lower case ("the warrior (l2)", "the dwarven paladin")
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
        name = f"{CLS.get(a['cls'], a['cls'].capitalize())} L{a.get('level', '')}"
        heal = int(a.get("icons", 0)) if a["cls"] == "priest" else 0
        key = f"the {a['cls']} (l{a.get('level', '')})"
        out.append(Member(key, name, hp, hp - int(a["dmg"]), heal, str(a.get("uid", key))))
    return out


def _find(members: list[Member], key: str, left: int | None = None) -> Member | None:
    """The member a log line names. Two of one class and level share a label: prefer the one
    whose hit points fit the line (``left`` = what it had before, when the line says)."""
    key = key.lower()
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


def _step_of(line: str, current: str, card: dict[str, Any] | None) -> str:
    """Which Battle Phase step a log line belongs to; steps only move forward."""
    at = STEP_INDEX[current]

    def go(step: str) -> str:
        return step if STEP_INDEX[step] >= at else current

    d = DEALS.match(line)
    if d:
        src = d.group(1)
        if src in TRAP_NAMES:
            return go("trap")
        if src in MONSTER_NAMES:
            return go("monsters")
        if src == "Fatigue":
            return go("conquer")
        if src == "The poison":
            return go("end")
        if src == "The Stareplant":
            return current
        return current
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


def _battles(before: dict[str, Any], after: dict[str, Any]) -> list[Battle]:
    same = _same_combat(before, after)
    if same:
        # The whole log of this Combat when the view carries it; else the 14-line window.
        key = (
            "combat_log_full" if "combat_log_full" in before and "combat_log_full" in after else "combat_log"
        )
        lines = _added(before[key], after[key])
    else:
        lines = []
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
    if not rounds and not lines:
        return []
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
    first_round = rounds[0][0] if rounds else (found[0].round if found else None)
    for b in found:
        if b.round is None:
            b.round = first_round
    if not rounds:
        rounds = [(first_round or 0, found[0].card or "")]
    same = _same_combat(before, after)
    # The battles expected, round by round: in the first round every dungeon with a party (or
    # a paladin) and a tile to fight on; later, those still known to hold a party.
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
    last: Battle | None = None
    if orphan:
        # The start of the earliest visible battle fell out of the log window: its lines belong
        # to the last battle whose header is gone; the seat shows in lines like "P2's prison".
        seats = {int(x) - 1 for x in re.findall(r"\bPlayer (\d+)\b", " ".join(orphan))}
        if prefix and (not seats or prefix[-1][0] in seats):
            s, r, card = prefix.pop()
            last = Battle(s, r, None, card or None, None, orphan, True)
        else:
            # Not expected (its party fell in this move): it comes just before the first
            # visible battle, in that battle's round unless it plays later in the round.
            seat = min(seats) if seats else None
            at = found[0].round if found else first_round
            if found and seat is not None and at and order.index(seat) > order.index(found[0].seat or 0):
                at -= 1
            card = next((c for k, c in rounds if k == at), "")
            last = Battle(seat, at, None, card or None, None, orphan, True)
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
    for b in lost:
        b.tile = _tile_from(b.lines, before, after, b.seat)
        if b.card in CARD_BY_NAME:
            b.fatigue = CARD_BY_NAME[b.card]["fatigue"]
    out = lost + found
    for b in out:
        b.first_round = b.round in (first_round, None)
    seen: set[int | None] = set()
    for b in reversed(out):
        b.last_for_seat = b.seat not in seen
        seen.add(b.seat)
    return out


# ---- drawing ----------------------------------------------------------------------------------
def _wrap(s: str, width: float, size: int) -> list[str]:
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
    if ln.startswith("P") and "springs" in ln or "withdraws" in ln:
        return "yellow"
    return "text"


def _room_short(room: str) -> str:
    """The board's abbreviation, so a tile reads the same on the board and here. Imported at
    call time: render.dungeon_lords imports this module as it loads."""
    import render.dungeon_lords as board

    return str(getattr(board, "ROOM_SHORT", {}).get(room, room[:5].capitalize()))


def _draw_grid(
    draw: Any, p: dict[str, Any], p_after: dict[str, Any] | None, tile: str | None, x: int, y: int
) -> None:
    cell, cols, rows = 44, 5, 4
    gx, gy = x + 26, y + 24
    for c, t in p["grid"].items():
        ci, ri = ord(c[0]) - 65, int(c[1:]) - 1
        rect = (gx + ci * cell + 1, gy + ri * cell + 1, gx + (ci + 1) * cell - 1, gy + (ri + 1) * cell - 1)
        was = bool(t["c"])
        now = bool(p_after and p_after["grid"].get(c, {}).get("c"))
        colour = PALETTE["brown"] if t["k"] == "t" else PALETTE["blue"]
        if was or now:
            colour = PALETTE["grey"]
        draw.rectangle(rect, fill=colour)
        label = "T" if t["k"] == "t" else _room_short(t.get("room", "R"))
        text(draw, (rect[0] + cell / 2, rect[1] + 14), label, 16, "white", "mm")
        if now and not was:
            text(draw, (rect[0] + cell / 2, rect[1] + 32), "NEW", 16, "black", "mm")
        elif was:
            text(draw, (rect[0] + cell / 2, rect[1] + 32), "conq", 16, "black", "mm")
    grid(draw, (gx, gy), cols, rows, cell)
    if tile and tile in p["grid"]:
        ci, ri = ord(tile[0]) - 65, int(tile[1:]) - 1
        draw.rectangle(
            (gx + ci * cell - 2, gy + ri * cell - 2, gx + (ci + 1) * cell + 2, gy + (ri + 1) * cell + 2),
            outline=PALETTE["accent"],
            width=4,
        )


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    fg = list(PALETTE.values()) + list(SEAT_COLOURS)
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


def _draw_party(draw: Any, rows: list[Row], x: int, y: int, width: int) -> int:
    """One line per member: name, hit-point bar, "left/max" (or PRISON, or what is known)."""
    if not rows:
        text(draw, (x, y), "nobody", 18, "muted")
        return y + LINE
    for name, left, hp, captured, *note in rows:
        text(draw, (x, y), name, 18)
        bx = x + 150
        bw = max(40, width - 150 - 70)
        draw.rectangle((bx, y + 2, bx + bw, y + 18), fill=PALETTE["panel2"])
        if hp > 0 and left > 0:
            draw.rectangle((bx, y + 2, bx + int(bw * min(left, hp) / hp), y + 18), fill=PALETTE["good"])
        if note:
            draw.rectangle((bx, y + 2, bx + bw, y + 18), fill=PALETTE["panel2"])
            text(draw, (bx + 8, y), note[0], 16, "muted")
        status = "PRISON" if captured else ("?" if note else f"{left}/{hp}")
        text(draw, (bx + bw + 8, y), status, 18, "bad" if captured else "text")
        y += LINE
    return y


def _image(before: dict[str, Any], after: dict[str, Any], b: Battle) -> bytes:
    seat = b.seat
    same = _same_combat(before, after)
    p0 = before["players"][seat] if seat is not None else None
    p1 = after["players"][seat] if seat is not None and len(after["players"]) > seat else None
    start = _members(before, seat) if seat is not None else []
    tracked = _members(before, seat) if seat is not None else []
    _track(tracked, b.lines)
    card = CARD_BY_NAME.get(b.card or "")
    # Result rows: exact from the after view while it still holds this Combat's party.
    result: list[Row] = []
    if seat is not None and b.last_for_seat and p0 is not None and p1 is not None:
        if same:
            now = {m.uid: m for m in _members(after, seat)}
            for m in start:
                m2 = now.pop(m.uid, None)
                result.append((m.short, m2.left, m2.hp, False) if m2 else (m.short, 0, m.hp, True))
        elif not b.missing and b.first_round:
            result = _party_rows(tracked)
        else:
            # The Year's Combat is over and the log is gone: the prison says who was caught;
            # the others walked out, with hit points the public view no longer shows.
            caught = {str(a.get("uid", a.get("name"))) for a in p1["prison"][len(p0["prison"]) :]}
            result = [
                (m.short, 0, m.hp, True)
                if m.uid in caught
                else (m.short, 0, m.hp, False, "left the dungeon alive")
                for m in start
            ]
    elif not b.missing:
        result = _party_rows(tracked)

    # Lines grouped by step.
    sections: list[tuple[str, list[str]]] = []
    step = "start"
    for ln in b.lines:
        step = _step_of(ln, step, card)
        title = dict(STEPS)[step]
        if not sections or sections[-1][0] != title:
            sections.append((title, []))
        sections[-1][1].append(ln)

    facts: list[str] = []
    if seat is not None and p0 is not None and p1 is not None and b.last_for_seat:
        new_prison = p1["prison"][len(p0["prison"]) :] if len(p1["prison"]) >= len(p0["prison"]) else []
        if new_prison:
            names = ", ".join(
                a.get("name") or f"{CLS.get(a.get('cls', ''), a.get('cls', '?'))} L{a.get('level', '')}"
                for a in new_prison
            )
            facts.append(f"Thrown into prison: {names}")
        conq = sorted(c for c, t in p1["grid"].items() if t["c"] and not p0["grid"].get(c, {}).get("c"))
        if conq:
            facts.append("Conquered: " + ", ".join(conq))
        if p1["evil"] != p0["evil"]:
            facts.append(f"Evil: {p0['evil']} -> {p1['evil']}")

    width = W - 32
    wrapped: list[tuple[str, str, int]] = []  # (kind, text, size)
    if b.missing:
        why = "the board keeps only the last combat lines" if same else "the log is cleared as Combat ends"
        note = (
            f"The play-by-play of this battle is not in the public view ({why}); below is what the boards show."
            if not b.lines
            else "The first lines of this battle are no longer in the public view."
        )
        for part in _wrap(note, width, 16):
            wrapped.append(("muted", part, 16))
    for title, lines in sections:
        wrapped.append(("step", title, 20))
        for ln in lines:
            ln = re.sub(r"\(l(\d+)\)", r"(L\1)", ln)
            for k, part in enumerate(_wrap(ln, width - 16, LOG_SIZE)):
                wrapped.append((_line_colour(ln), ("" if k == 0 else "  ") + part, LOG_SIZE))
    top = 76
    panel_h = 38 + 4 * 44 + 16
    party_h = 30 + LINE * max(1, len(start))
    upper = max(panel_h, party_h + 28 + LINE * 2)
    body = sum(30 if k == "step" else LINE for k, _, _ in wrapped)
    res_h = (34 + LINE * max(1, len(result)) if result else 0) + LINE * len(facts) + 16
    height = top + upper + 16 + body + res_h + 16
    img, draw = canvas(W, height)

    draw.rectangle([0, 0, W, 64], fill=PALETTE["panel"])
    col = seat_colour(seat) if seat is not None else PALETTE["text"]
    who = f"P{seat + 1}'s dungeon" if seat is not None else "a dungeon"
    rnd = f"round {b.round}/{before['combat_rounds']}" if b.round else "a round"
    if b.upto:
        rnd = f"rounds {b.round}-{b.upto}/{before['combat_rounds']}"
    text(draw, (16, 6), f"Year {before['year']} combat, {rnd}: {who}", 24, col)
    fat = b.fatigue if b.fatigue is not None else (card["fatigue"] if card else None)
    if b.upto:
        sub = "One image for these rounds: which of them the party fought is not in the public view"
    else:
        sub = f"Battle on {b.tile or '? (not in the public view)'}" + (
            f"   Combat Card: {b.card}" if b.card else "   Combat Card: ?"
        )
        if card:
            sub += f" ({card['speed']} spell, fatigue {fat})"
    text(draw, (16, 38), sub[:90], 18)

    y = top
    if p0 is not None:
        box(draw, (8, y, 8 + 270, y + panel_h), "panel")
        text(draw, (18, y + 2), "Dungeon (battle tile boxed)", 16, "muted")
        _draw_grid(draw, p0, p1 if p1 is not None and p1["grid"] else None, b.tile, 8, y + 24)
    px = 296
    entering = "Party entering the battle" if b.first_round else "Party on the last board"
    text(draw, (px, y), entering, 18, "accent")
    py = _draw_party(draw, [(m.short, m.left, m.hp, False) for m in start], px, y + 28, W - px - 16)
    if p0 is not None:
        ready = [m["id"] for m in p0["monsters"] if m["up"] is True]
        mons = ", ".join(MONSTERS[i]["name"] if i in MONSTERS else i for i in ready) or "none"
        for k, part in enumerate(_wrap(f"Monsters ready: {mons}", W - px - 16, 16)[:2]):
            text(draw, (px, py + 4 + k * 20), part, 16, "muted")
        text(draw, (px, py + 46), f"Trap Cards in hand: {p0['traps']}", 16, "muted")
    y = top + upper + 16

    for kind, s, size in wrapped:
        if kind == "step":
            draw.rectangle((8, y + 2, W - 8, y + 26), fill=PALETTE["panel2"])
            text(draw, (16, y + 4), s, size, "accent")
            y += 30
        else:
            text(draw, (16 if kind == "muted" else 24, y), s, size, kind)
            y += LINE

    if result or facts:
        y += 8
        if result:
            after_title = "After the battle" if b.first_round else "After this move"
            text(draw, (16, y), after_title, 20, "accent")
            y = _draw_party(draw, result, 24, y + 30, W - 48)
        for f in facts:
            text(draw, (24, y), f, 18, "yellow")
            y += LINE
    # A fixed palette (our colours and their anti-aliasing blends) maps faster than an adaptive one.
    return to_png(img.quantize(palette=_palette(), dither=Image.Dither.NONE))


def step_jobs(before: dict[str, Any], after: dict[str, Any]) -> list[Callable[[], bytes]]:
    """One drawing job per combat battle that happened between two public views, so
    tables/ can draw them on several threads at once ([] if none)."""
    battles = _battles(before, after)
    # Over the cap, the battles with no line left go first: they add least to the board.
    while len(battles) > MAX_IMAGES and any(b.missing and not b.lines for b in battles):
        battles.remove(next(b for b in battles if b.missing and not b.lines))
    return [partial(_image, before, after, b) for b in battles[:MAX_IMAGES]]


def render_steps(before: dict[str, Any], after: dict[str, Any]) -> list[bytes]:
    """Images of the combat battles that happened between two public views ([] if none)."""
    return [job() for job in step_jobs(before, after)]
