"""The guide's message keeps within Discord's limits (issue 28 item 4): an embed's
description of at most 4,096 characters, at most 25 buttons, custom_ids read back by
their dynamic items; "What now?" sits on every running game's board."""

from __future__ import annotations

import asyncio
import re

import pytest

from cogs.guide import GUIDE_ITEMS, guide_message
from cogs.posting import board_view
from engine import core
from tables import GuidePage, Update
from tables.rules import DOCS, guide_sections


@pytest.mark.parametrize("key", core.available())
def test_every_guide_page_fits_an_embed_and_its_buttons(key: str) -> None:
    sections = guide_sections((DOCS / f"{key}.md").read_text(encoding="utf-8"))
    names = [s.name for s in sections]
    templates = [cls.__discord_ui_compiled_template__ for cls in GUIDE_ITEMS]
    for i, sec in enumerate(sections):
        for p, text in enumerate(sec.pages):
            page = GuidePage(f"Game: {sec.name}", text, i, p, len(sec.pages), names)
            embed, view, files = guide_message(key, page)
            data = embed.to_dict()
            assert len(data["description"]) <= 4096 and len(data["title"]) <= 256
            assert len(data["description"]) + len(data["title"]) <= 6000
            items = [c for row in view.to_components() for c in row["components"]]
            assert len(items) <= 25 and all(len(c["custom_id"]) <= 100 for c in items)
            assert all(1 <= len(c["label"]) <= 80 for c in items)
            for c in items:
                assert sum(bool(t.fullmatch(c["custom_id"])) for t in templates) == 1, c["custom_id"]
            assert files == []


def test_what_now_is_on_every_running_board() -> None:
    async def build() -> tuple[list[str], list[str]]:
        running = board_view(Update(game_id=5, version=3, thread_id=1, text="", choose=True))
        over = board_view(Update(game_id=5, version=3, thread_id=1, text="", over=True))
        labels = [c["label"] for row in running.to_components() for c in row["components"]]
        done = [c["label"] for row in over.to_components() for c in row["components"]]
        return labels, done

    labels, done = asyncio.run(build())
    assert "What now?" in labels and "What now?" not in done


# Issue 40 item 1: an embed draws no Markdown table and keeps every line break.
TABLE_SYNTAX = re.compile(r"^\s*\|.*\|\s*$|^\s*\|?\s*-{3,}\s*\|", re.MULTILINE)
# What may start a line of its own in an embed: a list item, a bold heading, a quote, a fence.
LINE_START = re.compile(r"^\s*([-*+]\s|\d{1,3}[.)]\s|\*\*|>|```)")


def mid_sentence_breaks(text: str) -> list[str]:
    """The lines of ``text`` that continue the sentence of the line before them."""
    lines = text.split("\n")
    return [
        f"{a[-40:]!r} / {b[:40]!r}"
        for a, b in zip(lines, lines[1:], strict=False)
        if a.strip() and b.strip() and not LINE_START.match(b) and not a.rstrip().endswith("**")
    ]


@pytest.mark.parametrize("key", core.available())
def test_every_guide_page_reads_as_discord_draws_it(key: str) -> None:
    """ "Embeds do not draw Markdown tables": every page of every section, built into
    the embed the cog sends, holds no table syntax and no hard line break in the
    middle of a sentence (a phone would break the sentence there)."""
    sections = guide_sections((DOCS / f"{key}.md").read_text(encoding="utf-8"))
    names = [s.name for s in sections]
    for i, sec in enumerate(sections):
        for p, text in enumerate(sec.pages):
            embed, _view, _files = guide_message(key, GuidePage(f"Game: {sec.name}", text, i, p, 1, names))
            shown = embed.to_dict()["description"]
            assert len(shown) <= 4096
            assert not TABLE_SYNTAX.search(shown), (sec.name, TABLE_SYNTAX.search(shown))
            assert not mid_sentence_breaks(shown), (sec.name, mid_sentence_breaks(shown)[:3])


def test_a_table_reads_as_a_list_with_each_cost() -> None:
    """The Lords orders table's costs survive as list lines a player can read."""
    sections = guide_sections((DOCS / "dungeon-lords.md").read_text(encoding="utf-8"))
    orders = next(s for s in sections if s.name.startswith("The eight orders"))
    text = "\n".join(orders.pages)
    assert "- **Get Food**: Space I: pay 1 gold: 2 food; Space II: Evil +1: 3 food" in text
    assert "- **Warrior**: only health" in "\n".join(p for s in sections for p in s.pages)
