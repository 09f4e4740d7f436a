"""``/rules`` as a guide (issue 28): ``docs/rules/<game>.md`` cut by its
``## Guide:`` headings into sections of embed pages, the labelled board picture,
and the private "What now?" answer."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from pathlib import Path

import render
from engine import core
from tables.base import TablesBase
from tables.embed_text import for_embed
from tables.text import named

DOCS = Path(__file__).resolve().parents[1] / "docs" / "rules"


# ---- the guide (issue 28 item 4) -------------------------------------------------------
# ``/rules`` answers with an embed a section at a time, with a button for each section.
# The rules document is the source, cut by headings (docs/architecture.md, "The guide"):
# ``## Guide: <section>`` headings when the document has them, else every ``## `` section.

EMBED_ROOM = 4096  # Discord's limit on an embed's description
GUIDE_BUTTONS = 20  # section buttons; the rest of the 25 components page within a section
_GUIDE = re.compile(r"^## Guide: *(.+?)[ \t]*$", re.MULTILINE)
_H1H2 = re.compile(r"^#{1,2} (.+?)[ \t]*$", re.MULTILINE)
# A call-out of the board picture: "1. [Pool] ..." points at the board's label "Pool".
_CALLOUT = re.compile(r"^(\d{1,2})\. \[([^\]\n]+)\]", re.MULTILINE)
# The sections every game's guide has (a "Phase: <name>" section a phase, as the game has them).
REQUIRED = ("The goal", "Setup", "A turn|A round", "Scoring", "Marks on the board", "Variants", "The board")
BOARD_SECTION = "The board"


@dataclass
class Section:
    name: str
    pages: list[str]  # each at most EMBED_ROOM characters; together the whole section

    @property
    def callouts(self) -> list[tuple[int, str]]:
        """(number, label on the board) of the section's call-outs, in order."""
        return [(int(m[1]), m[2].strip()) for m in _CALLOUT.finditer("\n\n".join(self.pages))]


@dataclass
class GuidePage:
    """One page of the guide as the embed shows it, with the buttons around it."""

    title: str  # "Monster Inn: The goal"
    text: str  # the embed's description
    section: int
    page: int
    pages: int
    sections: list[str]  # the section buttons' labels, in order
    picture: bytes | None = None  # the labelled board, on the board section's pages


def _pieces(text: str, room: int) -> list[str]:
    """``text`` in pieces of at most ``room`` characters that join back into it
    exactly: at a line if one is in reach, else at a word, else anywhere."""
    out: list[str] = []
    while len(text) > room:
        head = text[:room]
        at = head.rfind("\n")
        if at < room // 2:
            at = head.rfind(" ")
        at = at + 1 if at >= room // 2 else room
        out.append(text[:at])
        text = text[at:]
    return [*out, text]


def paginate(text: str, room: int = EMBED_ROOM) -> list[str]:
    """``text`` in pages of at most ``room`` characters, breaking between paragraphs
    (a paragraph longer than a page between lines, then words). Nothing is cut:
    every paragraph appears whole on one page or in consecutive pieces."""
    pages: list[str] = []
    current = ""
    for para in [p for p in text.strip().split("\n\n") if p.strip()]:
        joined = f"{current}\n\n{para}" if current else para
        if len(joined) <= room:
            current = joined
            continue
        if current:
            pages.append(current)
        parts = _pieces(para, room)
        pages.extend(parts[:-1])
        current = parts[-1]
    if current or not pages:
        pages.append(current)
    return pages


def _cut(doc: str, heading: re.Pattern[str]) -> list[tuple[str, str]]:
    """(name, body) of each section the ``heading`` pattern opens; a body ends at
    the next heading of level one or two."""
    out: list[tuple[str, str]] = []
    for m in heading.finditer(doc):
        after = doc[m.end() :]
        nxt = _H1H2.search(after)
        out.append((m[1].strip(), (after[: nxt.start()] if nxt else after).strip()))
    return out


def guide_sections(doc: str) -> list[Section]:
    """The guide a rules document gives: its ``## Guide:`` sections, or (a document
    not yet written that way) every ``#`` and ``##`` section, with any text before
    the first heading as "About"."""
    found = _cut(doc, _GUIDE)
    if not found:
        first = _H1H2.search(doc)
        intro = (doc[: first.start()] if first else doc).strip()
        found = ([("About", intro)] if intro else []) + [(n, body) for n, body in _cut(doc, _H1H2) if body]
    # Written for a Markdown reader, shown in an embed: tables become lists, wrapped lines join.
    return [Section(name, paginate(for_embed(body))) for name, body in found]


def missing_sections(sections: list[Section]) -> list[str]:
    """The required sections (``REQUIRED``) a guide lacks."""
    names = {s.name for s in sections}
    return [need for need in REQUIRED if not any(alt in names for alt in need.split("|"))]


def guide_picture(key: str, section: str) -> bytes | None:
    """The game's picture for a guide section (Decorators' goal shapes), if it has one."""
    view = core.get(key).guide_view(section)
    drawer = render.get(key).guide
    return drawer(section, view) if view is not None and drawer is not None else None


class RulesMixin(TablesBase):
    def guide(self, key: str) -> tuple[str, list[Section]]:
        """The game's title and its guide's sections."""
        info = self.game_info(key)
        path = DOCS / f"{info.key}.md"
        doc = path.read_text(encoding="utf-8") if path.exists() else info.blurb
        sections = guide_sections(doc) or [Section("About", paginate(info.blurb))]
        return info.title, sections[:GUIDE_BUTTONS]

    async def guide_page(self, key: str, section: int = 0, page: int = 0) -> GuidePage:
        """Page ``page`` of section ``section`` (both clamped into range), with the
        labelled board picture on the board section."""
        title, sections = self.guide(key)
        section = max(0, min(section, len(sections) - 1))
        sec = sections[section]
        page = max(0, min(page, len(sec.pages) - 1))
        picture = None
        if sec.name == BOARD_SECTION and sec.callouts:
            from tables.guide_board import labelled_board

            picture = await asyncio.to_thread(labelled_board, self.game_info(key).key, tuple(sec.callouts))
        else:
            picture = await asyncio.to_thread(guide_picture, self.game_info(key).key, sec.name)
        return GuidePage(
            title=f"{title}: {sec.name}",
            text=sec.pages[page],
            section=section,
            page=page,
            pages=len(sec.pages),
            sections=[s.name for s in sections],
            picture=picture,
        )

    async def what_now(self, game_id: int, user_id: int) -> str:
        """The private "What now?" answer: the game's ``what_now`` for the user's seat
        (a watcher gets the public one), with the players' names in."""
        row = await self._load(game_id)
        if row.state is None:
            return "This game has not started yet: the host starts it from the lobby."
        game = core.get(row.game_key)
        seat = row.seat_of(user_id)
        text = named(row, game.what_now(row.state, seat)).strip()
        if game.is_over(row.state):
            return text or "The game is over; the final scores are on the last board."
        if seat is None:
            return "You are watching this game. " + text
        return text
