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
with a note that its play-by-play is not in the public view."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import Any

from PIL import Image

from render.base import PALETTE, SEAT_COLOURS, box, canvas, grid, seat_colour, text, text_width, to_png

W = 900
MAX_IMAGES = 8
LINE = 32
LOG_SIZE = 24
BODY = 24
STEP_SIZE = 26
TOP = 116
CELL = 52
PANEL_W = 34 + 5 * CELL + 16
PANEL_H = 28 + 30 + 4 * CELL + 12
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
        lines = _added(before[key], after[key])
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


def _draw_grid(
    draw: Any, p: dict[str, Any], p_after: dict[str, Any] | None, tile: str | None, x: int, y: int
) -> None:
    """The dungeon as on the board (tunnels brown, rooms blue and framed, conquered crossed);
    tiles conquered in this battle are framed in yellow; the battle tile is boxed."""
    cell, cols, rows = CELL, 5, 4
    gx, gy = x + 34, y + 30
    for c, t in p["grid"].items():
        ci, ri = ord(c[0]) - 65, int(c[1:]) - 1
        r = (gx + ci * cell + 2, gy + ri * cell + 2, gx + (ci + 1) * cell - 2, gy + (ri + 1) * cell - 2)
        was = bool(t["c"])
        now = bool(p_after and p_after["grid"].get(c, {}).get("c"))
        colour = (70, 70, 78) if was or now else PALETTE["brown"] if t["k"] == "t" else PALETTE["blue"]
        draw.rectangle(r, fill=colour)
        if t["k"] == "r" and not (was or now):
            draw.rectangle((r[0] + 5, r[1] + 5, r[2] - 5, r[3] - 5), outline=PALETTE["white"], width=2)
        if now and not was:
            # Conquered in this battle: a yellow frame around the cross, which stays in view
            # (issue 28: the "NEW" tag used to cover the red cross).
            draw.rectangle(r, outline=PALETTE["yellow"], width=5)
        if was or now:
            draw.line((r[0] + 6, r[1] + 6, r[2] - 6, r[3] - 6), fill=PALETTE["bad"], width=3)
            draw.line((r[0] + 6, r[3] - 6, r[2] - 6, r[1] + 6), fill=PALETTE["bad"], width=3)
    grid(draw, (gx, gy), cols, rows, cell, size=20)
    if tile and tile in p["grid"]:
        ci, ri = ord(tile[0]) - 65, int(tile[1:]) - 1
        draw.rectangle(
            (gx + ci * cell - 2, gy + ri * cell - 2, gx + (ci + 1) * cell + 2, gy + (ri + 1) * cell + 2),
            outline=PALETTE["accent"],
            width=5,
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


def _draw_party(draw: Any, rows: list[Row], x: int, y: int, width: int) -> int:
    """One line per member: name, health bar, "left/max" (or PRISON, or what is known)."""
    if not rows:
        text(draw, (x, y), "nobody", BODY, "muted")
        return y + LINE
    for name, left, hp, captured, *note in rows:
        text(draw, (x, y), name, BODY)
        bx = x + 190
        bw = max(40, width - 190 - 90)
        draw.rectangle((bx, y + 3, bx + bw, y + 23), fill=PALETTE["panel2"])
        if hp > 0 and left > 0 and not note:
            draw.rectangle((bx, y + 3, bx + int(bw * min(left, hp) / hp), y + 23), fill=PALETTE["good"])
        if note:
            text(draw, (bx + 8, y + 1), note[0], 20, "muted")
        status = "PRISON" if captured else ("?" if note else f"{left}/{hp}")
        text(draw, (bx + bw + 8, y), status, BODY, "bad" if captured else "text")
        y += LINE
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
        (m.short, 0, m.hp, True) if m.uid in caught else (m.short, 0, m.hp, False, "left the dungeon alive")
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
        out.append("Thrown into prison: " + ", ".join(a.get("name") or adventurer(a) for a in new_prison))
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
    width = W - 32
    out: list[tuple[str, str, int]] = []
    if b.missing:
        why = (
            "the board keeps only the last combat lines"
            if _same_combat(before, after)
            else "the log is cleared as Combat ends"
        )
        note = (
            f"The play-by-play of this battle is not in the public view ({why}); below is what the boards show."
            if not b.lines
            else "The first lines of this battle are no longer in the public view."
        )
        out += [("muted", part, 20) for part in wrap(note, width, 20)]
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
        shown = named(ln, names)
        for k, part in enumerate(wrap(shown, width - 16, LOG_SIZE)):
            out.append((_line_colour(ln), ("" if k == 0 else "  ") + part, LOG_SIZE))
    return out


def _title(draw: Any, before: dict[str, Any], after: dict[str, Any], b: Battle, names: list[str]) -> None:
    draw.rectangle([0, 0, W, TOP - 10], fill=PALETTE["panel"])
    seat = b.seat
    col = seat_colour(seat) if seat is not None else PALETTE["text"]
    who = f"{names[seat]}'s dungeon" if seat is not None else "a dungeon"
    rnd = f"round {b.round} of {before['combat_rounds']}" if b.round else "a round"
    if b.upto:
        rnd = f"rounds {b.round}-{b.upto} of {before['combat_rounds']}"
    text(draw, (16, 8), f"Year {before['year']} combat, {rnd}: {who}", 30, col)
    card = _cards(before, after).get(b.card or "")
    if b.upto:
        sub = "One image for these rounds: which of them the party fought is not in the public view."
    else:
        where = b.tile or "? (not in the public view)"
        if seat is not None and b.tile in before["players"][seat]["grid"]:
            t = before["players"][seat]["grid"][b.tile]
            if t["k"] == "r":
                where += " (" + before["components"]["rooms"].get(t["room"], t["room"]) + ")"
        sub = f"Battle on {where}.   Combat Card: {b.card or '?'}"
        if card:
            fat = b.fatigue if b.fatigue is not None else card["fatigue"]
            sub += f" ({card['speed']} spell, fatigue {fat})"
    for k, part in enumerate(wrap(sub, W - 32, 24)[:2]):
        text(draw, (16, 48 + 30 * k), part, 24)


def _upper(draw: Any, before: dict[str, Any], after: dict[str, Any], b: Battle, start: list[Member]) -> None:
    """The dungeon with the battle tile, the party as it entered and the monsters ready."""
    y = TOP
    p0 = before["players"][b.seat] if b.seat is not None else None
    p1 = after["players"][b.seat] if b.seat is not None and len(after["players"]) > b.seat else None
    if p0 is not None:
        box(draw, (8, y, 8 + PANEL_W, y + PANEL_H), "panel")
        taken = p1 is not None and any(
            t.get("c") and not p0["grid"].get(c, {}).get("c") for c, t in p1["grid"].items()
        )
        caption = "Boxed: battle; yellow: just taken" if taken else "Dungeon (battle tile boxed)"
        text(draw, (18, y + 4), caption, 20, "muted")
        _draw_grid(draw, p0, p1 if p1 is not None and p1["grid"] else None, b.tile, 8, y + 28)
    px = PANEL_W + 28
    entering = "Party entering the battle" if b.first_round else "Party on the last board"
    text(draw, (px, y), entering, 24, "accent")
    rows: list[Row] = [(m.short, m.left, m.hp, False) for m in start]
    py = _draw_party(draw, rows, px, y + 34, W - px - 16)
    if p0 is not None:
        ready = [
            before["components"]["monsters"].get(m["id"], m["id"]) for m in p0["monsters"] if m["up"] is True
        ]
        lines = wrap(f"Monsters ready: {', '.join(ready) or 'none'}", W - px - 16, 22)[:3]
        for k, part in enumerate(lines + [f"Trap Cards in hand: {p0['traps']}"]):
            text(draw, (px, py + 6 + k * 28), part, 22, "muted")


def _image(before: dict[str, Any], after: dict[str, Any], b: Battle, names: list[str]) -> bytes:
    start = _members(before, b.seat) if b.seat is not None else []
    result = _result(before, after, b)
    facts = _facts(before, after, b)
    body = _body(before, after, b, names)
    party_h = 34 + LINE * max(1, len(start)) + 4 * 28 + 8
    upper = max(PANEL_H, party_h)
    body_h = sum(40 if k == "step" else LINE for k, _, _ in body)
    res_h = (40 + LINE * max(1, len(result)) if result else 0) + LINE * len(facts) + 16
    img, draw = canvas(W, TOP + upper + 16 + body_h + res_h + 16)
    _title(draw, before, after, b, names)
    _upper(draw, before, after, b, start)
    y = TOP + upper + 16
    for kind, s, size in body:
        if kind == "step":
            draw.rectangle((8, y + 2, W - 8, y + 36), fill=PALETTE["panel2"])
            text(draw, (16, y + 6), s, size, "accent")
            y += 40
        else:
            text(draw, (16 if kind == "muted" else 24, y), s, size, kind)
            y += LINE
    if result or facts:
        y += 8
        if result:
            text(draw, (16, y), "After the battle" if b.first_round else "After this move", 24, "accent")
            y = _draw_party(draw, result, 24, y + 36, W - 48)
        for f in facts:
            text(draw, (24, y), f, BODY, "yellow")
            y += LINE
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
