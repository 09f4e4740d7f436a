"""Malformed and hostile inputs: notation, option values, custom_ids."""

from __future__ import annotations

import random
import string

NASTY: list[str] = [
    "",
    " ",
    "\x00",
    "\t\n\r",
    "\x1b[31mred\x1b[0m",
    "a" * 100_000,
    " " * 50_000 + "x",
    "1" * 5_000,
    "9" * 400,
    "-1",
    "0",
    "-0",
    "1e309",
    "nan",
    "inf",
    "None",
    "null",
    "true",
    "{}",
    "[]",
    "{'a': 1}",
    '{"x": [1, 2]}',
    "'; DROP TABLE games; --",
    '" OR 1=1 --',
    "%s%s%s%n",
    "{0}{1}{__class__}",
    "${jndi:ldap://x}",
    "<@123456789012345678>",
    "@everyone",
    "@here",
    "```\n```",
    "\u202eevil",
    "\u200b\u200b",
    "é",
    "🐉" * 50,
    "\ud800",
    "\uffff\ufffe",
    "Ａ１",
    "٣",
    "①",
    "../../etc/passwd",
    "\\x00\\n",
    "A1 " * 3000,
    "play play play",
    "__import__('os').system('true')",
]

ALPHABET = string.printable + "éß漢字🐉\u200b\u202e\x00\x7f\ud800٣①Ａ"


def mutate(rnd: random.Random, text: str) -> str:
    """One random mutation of ``text`` (usually a legal notation)."""
    if not text:
        return rnd.choice(NASTY)
    i = rnd.randrange(len(text) + 1)
    op = rnd.randrange(10)
    if op == 0:
        return text[:i] + rnd.choice(ALPHABET) + text[i:]
    if op == 1:
        return text[:i] + text[i + 1 :]
    if op == 2:
        return text[:i] + rnd.choice(ALPHABET) + text[i + 1 :]
    if op == 3:
        return text + " " + text
    if op == 4:
        return text.swapcase()
    if op == 5:
        return "".join(str(rnd.choice([-1, 0, 99, 10**20])) if c.isdigit() else c for c in text)
    if op == 6:
        return text + rnd.choice(NASTY)[:200]
    if op == 7:
        return rnd.choice(NASTY)[:200] + text
    if op == 8:
        return text.replace(" ", rnd.choice(["", "  ", "\t", ",", ";"]))
    return "".join(rnd.sample(text, len(text)))


def hostile_texts(rnd: random.Random, legal: list[str], n: int) -> list[str]:
    out: list[str] = []
    for i in range(n):
        if i < len(NASTY) and rnd.random() < 0.5:
            out.append(NASTY[i])
        elif legal and rnd.random() < 0.8:
            t = rnd.choice(legal)
            for _ in range(rnd.randint(1, 3)):
                t = mutate(rnd, t)
            out.append(t)
        else:
            out.append("".join(rnd.choice(ALPHABET) for _ in range(rnd.randint(0, 40))))
    return out


BAD_VALUES: list[object] = [
    None,
    "",
    "maybe",
    "true",
    "x" * 10_000,
    "\x00",
    2,
    -1,
    10**100,
    1.5,
    float("nan"),
    float("inf"),
    [],
    {},
    [True],
    {"a": 1},
]

BAD_KEYS: list[str] = [
    "",
    " ",
    "colour",
    "setup ",
    "SETUP",
    "__class__",
    "'; DROP TABLE games; --",
    "x" * 5000,
    "\x00",
    "🐉",
]

OPTION_TEXTS: list[str] = [
    "a=b=c",
    "=",
    "=1",
    "x=",
    "novalue",
    "x" * 10_000 + "=1",
    "setup=1",
    "a=1,b=2;c=3",
    "\x00=\x00",
    "'; DROP TABLE games; --=1",
]


def custom_ids(gid: int, version: int) -> list[str]:
    """Hostile versions of the three DynamicItem templates (lk:lobby, lk:mv, lk:hand)."""
    big = str(2**63 - 1)
    ids = [
        f"lk:mv:{gid}:{version}:0",
        f"lk:mv:{gid}:{version - 1}:0",
        f"lk:mv:{gid}:{version + 1}:0",
        f"lk:mv:{gid}:{version}:999999",
        f"lk:mv:{gid}:{big}:{big}",
        f"lk:mv:{gid}:{version}:-1",
        f"lk:mv:{gid}:{version}:0 ",
        f"lk:mv:{gid}:{version}:0\n",
        f"lk:mv:{gid}:{version}:00000000000000000000000",
        f"lk:mv:{gid}::0",
        f"lk:mv:{gid}:{version}",
        f"lk:mv:{gid}:٣:٣",
        f"lk:mv:{big}:0:0",
        "lk:mv:0:0:0",
        f"lk:hand:{gid}",
        f"lk:hand:{big}",
        "lk:hand:0",
        f"lk:hand:{gid}' OR 1=1",
        f"lk:lobby:{gid}:join",
        f"lk:lobby:{gid}:leave",
        f"lk:lobby:{gid}:ai",
        f"lk:lobby:{gid}:start",
        f"lk:lobby:{gid}:delete",
        f"lk:lobby:{gid}:JOIN",
        f"lk:lobby:{big}:join",
        f"lk:lobby:{gid}:join:extra",
        f"lk:addai:{gid}",
        f"lk:addai:{big}",
        f"lk:addai:{gid}:hard",
        "lk:addai:",
        "lk:lobby::join",
        "lk:" + "x" * 200,
        "",
    ]
    return ids


# Numbers past SQLite's 64-bit integers: the templates' \d+ accepts them.
HUGE_IDS: list[str] = ["lk:hand:" + "9" * 30, "lk:mv:" + "9" * 30 + ":0:0", "lk:lobby:" + "9" * 30 + ":join"]


def random_option_value(rnd: random.Random, choices: tuple[object, ...] | list[object]) -> object:
    """A value for an option: often one it offers, else hostile or a mutation of one."""
    r = rnd.random()
    if choices and r < 0.3:
        return rnd.choice(list(choices))
    if r < 0.55:
        return rnd.choice(BAD_VALUES)
    if r < 0.8:
        return mutate(rnd, str(rnd.choice(list(choices)) if choices else "x"))
    return rnd.choice([rnd.randint(-(10**20), 10**20), rnd.uniform(-1e6, 1e6), rnd.random() < 0.5])


def random_options(rnd: random.Random, options: dict[str, tuple[object, ...]]) -> dict[str, object]:
    """1-3 option names (mostly real, sometimes hostile or mutated) with random values."""
    out: dict[str, object] = {}
    names = list(options)
    for _ in range(rnd.randint(1, 3)):
        r = rnd.random()
        if names and r < 0.7:
            name = rnd.choice(names)
        elif r < 0.85 or not names:
            name = rnd.choice(BAD_KEYS)
        else:
            name = mutate(rnd, rnd.choice(names))
        out[name] = random_option_value(rnd, options.get(name, ()))
    return out


HOSTILE_NUMBERS = [
    "0",
    "-1",
    "00",
    "007",
    str(2**31),
    str(2**63 - 1),
    str(2**63),
    "9" * 30,
    "٣",
    "①",
    "1 ",
    "",
]


def random_custom_id(rnd: random.Random, valid: list[str]) -> str:
    """A valid custom_id (a button of this game) with some of its numbers replaced by
    hostile or nearby ones (so most still match a template and reach Tables), or
    mutated freely one to three times."""
    cid = rnd.choice(valid)
    if rnd.random() < 0.7:
        parts = cid.split(":")
        for i, part in enumerate(parts):
            if part.isdigit() and rnd.random() < 0.6:
                n = int(part)
                parts[i] = rnd.choice(
                    [*HOSTILE_NUMBERS, str(n + 1), str(max(0, n - 1)), str(n + rnd.randint(2, 50))]
                )
        return ":".join(parts)
    for _ in range(rnd.randint(1, 3)):
        cid = mutate(rnd, cid)
    return cid
