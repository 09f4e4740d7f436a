"""Markdown as a Discord embed draws it (issue 40 item 1).

The rules documents are written for a Markdown reader (GitHub, an editor), but an
embed's description does not draw tables and keeps every line break: a table comes
out as raw ``| a | b |`` rows and a paragraph wrapped at 110 columns breaks in the
middle of its sentences on a phone. ``for_embed`` turns such text into what an
embed draws well: each table row a list line, each paragraph one line, a small
heading a bold line. Code blocks are left exactly as written."""

from __future__ import annotations

import re

_FENCE = "```"
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_HEADING = re.compile(r"^\s*#{1,6}\s+(.+?)\s*#*\s*$")
# A line that starts a block of its own: a list item, a heading, a quote, a table, a fence.
_BLOCK_START = re.compile(r"^\s*([-*+]\s|\d{1,3}[.)]\s|#{1,6}\s|>|\||```)")


def _cells(row: str) -> list[str]:
    """The cells of one table row, ``\\|`` read as a bar inside a cell."""
    inner = row.strip().removeprefix("|").removesuffix("|")
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", inner)]


def table_as_list(rows: list[str]) -> list[str]:
    """A Markdown table as list lines: the first cell in bold, then each other cell
    after its column's heading ("- **Get Food**: Space I: pay 1 gold: 2 food; ...").
    A two-column table needs no headings: "- **Warrior**: only health"."""
    body = [r for r in rows if not _TABLE_RULE.match(r)]
    if not body:
        return []
    head, *data = [_cells(r) for r in body]
    if not data:  # a table of one row: its cells are the facts
        return ["- " + "; ".join(c for c in head if c)]
    out = []
    for cells in data:
        first, rest = cells[0], cells[1:]
        if len(head) == 2:
            parts = [c for c in rest if c]
        else:
            parts = [f"{h}: {c}" if h else c for h, c in zip(head[1:], rest, strict=False) if c]
        out.append(f"- **{first}**: " + "; ".join(parts) if parts else f"- **{first}**")
    return out


def _join(lines: list[str]) -> list[str]:
    """Lines wrapped by hand joined back: a line that starts no block of its own
    continues the one before it (a paragraph, or the list item it is indented under)."""
    out: list[str] = []
    for line in lines:
        if out and out[-1].strip() and line.strip() and not _BLOCK_START.match(line):
            out[-1] = out[-1].rstrip() + " " + line.strip()
        else:
            out.append(line.rstrip())
    return out


def for_embed(text: str) -> str:
    """``text`` (Markdown) as an embed's description should carry it: tables as
    lists, headings in bold, each paragraph and list item on one line."""
    out: list[str] = []
    pending: list[str] = []  # prose lines since the last block that is kept as written
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.strip().startswith(_FENCE):
            end = next(
                (j for j in range(i + 1, len(lines)) if lines[j].strip().startswith(_FENCE)), len(lines) - 1
            )
            out += _join(pending) + lines[i : end + 1]
            pending, i = [], end + 1
            continue
        if _TABLE_ROW.match(line):
            end = i
            while end < len(lines) and _TABLE_ROW.match(lines[end]):
                end += 1
            out += _join(pending) + table_as_list(lines[i:end])
            pending, i = [], end
            continue
        heading = _HEADING.match(line)
        if heading:
            out += [*_join(pending), f"**{heading[1]}**"]
            pending = []
        else:
            pending.append(line)
        i += 1
    out += _join(pending)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip()
