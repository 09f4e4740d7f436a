"""``/rules``: the "How to play" section of ``docs/rules/<game>.md`` as the
message, the rest of the document as an attached file."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tables.base import TablesBase

DOCS = Path(__file__).resolve().parents[1] / "docs" / "rules"

# The section a player reads in Discord (issue 21 item 7): at most this long.
HOW_TO_PLAY_MAX = 1800

_HOW = re.compile(r"^## How to play[ \t]*$", re.MULTILINE | re.IGNORECASE)
_NEXT = re.compile(r"^#{1,2} ", re.MULTILINE)


@dataclass
class Rules:
    text: str  # the message: title, players, blurb, then how to play
    attachment: bytes | None  # the rest of the document (markdown), if any
    filename: str


def cut(text: str, room: int) -> str:
    """``text`` cut at a line (or else a word) so it fits in ``room`` characters."""
    if len(text) <= room:
        return text
    head = text[: room - 1]
    line = head.rsplit("\n", 1)[0]
    return (line if len(line) > room // 2 else head.rsplit(" ", 1)[0]) + "…"


def split_doc(doc: str) -> tuple[str, str]:
    """(what to post, the rest). The ``## How to play`` section when the document
    has one; else its first paragraph, with the whole document as the rest."""
    found = _HOW.search(doc)
    if found is not None:
        after = doc[found.end() :]
        nxt = _NEXT.search(after)
        section = after[: nxt.start()] if nxt else after
        rest = doc[: found.start()] + (after[nxt.start() :] if nxt else "")
        return cut(section.strip(), HOW_TO_PLAY_MAX), rest.strip()
    paragraphs = [p.strip() for p in doc.split("\n\n") if p.strip() and not p.lstrip().startswith("#")]
    first = paragraphs[0] if paragraphs else ""
    return cut(first, HOW_TO_PLAY_MAX), doc.strip()


class RulesMixin(TablesBase):
    def rules(self, key: str) -> Rules:
        info = self.game_info(key)
        head = f"**{info.title}** ({info.min_players}-{info.max_players} players). {info.blurb}".strip()
        path = DOCS / f"{info.key}.md"
        if not path.exists():
            return Rules(head, None, "")
        section, rest = split_doc(path.read_text(encoding="utf-8"))
        text = head + ("\n\n" + section if section else "")
        if rest:
            text += "\n(The full rules are attached.)"
        return Rules(text, rest.encode("utf-8") if rest else None, f"{info.key}-rules.md")
