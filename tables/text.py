"""The words of a board message: players' names in engine texts, the final
scores, and fitting it all in one Discord message."""

from __future__ import annotations

from engine import core, search
from engine.wording import mend
from store import GameRow, SeatRow

# Discord's 2000 characters, less room for the pings.
MESSAGE_ROOM = 1900

# Names drawn on images are cut to this many characters (boards have room for
# about this much beside a seat's marks).
NAME_ROOM = 16


def plural(n: int, noun: str, many: str | None = None) -> str:
    """ "1 game", "2 games" (``many``: an irregular plural)."""
    return f"{n} {noun if n == 1 else (many or noun + 's')}"


def seat_label(s: SeatRow) -> str:
    """A seat's name as messages show it: a computer player's says its strength
    in words, "Bot 1 (Hard AI)"."""
    return f"{s.name} ({search.level(s.level).name} AI)" if s.is_ai else s.name


def display_name(row: GameRow, seat: int) -> str:
    return seat_label(row.seats[seat])


def display_names(row: GameRow) -> list[str]:
    """Every seat's display name, as messages show them."""
    return [display_name(row, s) for s in range(len(row.seats))]


def short_name(name: str, room: int = NAME_ROOM) -> str:
    name = " ".join(name.split())
    return name if len(name) <= room else name[: room - 1].rstrip() + "…"


def image_names(row: GameRow) -> list[str]:
    """The names renderers draw: the players' display names, shortened to fit."""
    return [short_name(s.name) for s in row.seats]


def named(row: GameRow, text: str) -> str:
    """An engine text as players read it: every seat reference ("Player N")
    replaced by that seat's display name, and its slips of grammar mended (stored
    texts are mended where shown: engine/wording.py)."""
    return mend(core.name_seats(text, display_names(row)))


def fit_message(head: str, news: list[str], tail: str, room: int = MESSAGE_ROOM) -> str:
    """Intro, then as many of the latest news lines as fit, then the status or
    final scores, which always survive: a long run of AI moves shortens the
    middle, never the end."""
    tail = tail[:room]
    head = head[: max(0, room - len(tail) - 1)]
    budget = room - len(tail) - len(head) - 2
    kept: list[str] = []
    for line in reversed(news):
        cost = len(line) + 1
        if cost > budget - 60:  # keep room for the "earlier moves" line
            break
        kept.append(line)
        budget -= cost
    kept.reverse()
    dropped = len(news) - len(kept)
    if dropped:
        kept.insert(0, f"... {dropped} earlier line(s) not shown; /history has every move.")
    return "\n".join(part for part in (head, *kept, tail) if part)


def result_text(row: GameRow) -> str:
    """The final scores, place by place, and the winner."""
    game = core.get(row.game_key)
    assert row.state is not None
    res = game.result(row.state)
    lines = ["**Final scores**"]
    for place, group in enumerate(res.ranking, 1):
        for s in group:
            parts = ", ".join(f"{k} {v}" for k, v in (res.breakdown[s] if res.breakdown else {}).items())
            shared = " (shared)" if len(group) > 1 else ""
            lines.append(
                f"{place}. {display_name(row, s)}: {res.scores[s]}{shared}" + (f" ({parts})" if parts else "")
            )
    winners = " and ".join(display_name(row, s) for s in res.winners)
    lines.append(f"Winner: {winners}!")
    return "\n".join(lines)
