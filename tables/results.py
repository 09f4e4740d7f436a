"""What the tables layer hands back to the cogs: plain data, no discord.

A player's mistake is a :class:`TableError` (one cleaned sentence); everything
else is a result type the cogs turn into messages."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from store import SeatRow
from tables.text import seat_label

# Buttons are offered for the current choices when there are at most this many
# (one row); more go in one select menu (issue 26: one pick, not a wall of buttons).
MAX_BUTTONS = 5

# Discord takes 10 files a message: the board and at most 8 step images.
MAX_STEP_IMAGES = 8

HOUR = 3600.0

# What a refusal may echo of a player's input: invisible characters (controls, bidi
# overrides, zero-width marks) are dropped, and a quoted echo is cut to this length.
_INVISIBLE = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]"
)
_LONG_QUOTE = re.compile(r"(?<![^\s(])'([^'\n]{41,}?)'(?=[\s.,;:!?)]|$)")
ECHO_MAX = 40
SENTENCE_MAX = 300


def clean_sentence(text: str) -> str:
    """A refusal as a player should read it: one line, no invisible characters, a
    quoted echo of the input cut to 40 characters, at most 300 characters in all.
    Engines quote the player's text back; a 100 KB paste must not come back whole."""
    text = _INVISIBLE.sub("", text.encode("utf-8", "replace").decode("utf-8"))
    text = " ".join(text.split())
    text = _LONG_QUOTE.sub(lambda m: "'" + m[1][: ECHO_MAX - 1] + "…'", text)
    if len(text) > SENTENCE_MAX:
        text = text[: SENTENCE_MAX - 1] + "…"
    return text


class TableError(Exception):
    """A player's mistake (or a refused request). ``str()`` is one sentence, cleaned
    by :func:`clean_sentence` (it usually quotes what the player typed)."""

    def __init__(self, message: str) -> None:
        super().__init__(clean_sentence(message))


@dataclass
class Lobby:
    game_id: int
    version: int
    game_key: str
    title: str
    host_id: int | None
    seats: list[SeatRow]
    min_players: int
    max_players: int
    options: dict[str, Any]
    status: str
    thread_id: int | None = None
    # People Play again seated who have not confirmed yet (issue 41).
    waiting: list[int] = field(default_factory=list)
    hints: bool = True  # the game's "Hint" button answers (the host's choice)

    @property
    def text(self) -> str:
        names = (
            ", ".join(
                seat_label(s) + (" (to confirm)" if not s.is_ai and s.user_id in self.waiting else "")
                for s in self.seats
            )
            or "nobody yet"
        )
        opts = ", ".join(f"{k}={v}" for k, v in self.options.items())
        lines = [
            f"**{self.title}** (game #{self.game_id}) - {self.min_players}-{self.max_players} players.",
            f"Seated ({len(self.seats)}): {names}.",
        ]
        if opts:
            lines.append(f"Options: {opts}.")
        if not self.hints:
            lines.append("Hints are off in this game.")
        if self.status == "lobby" and self.waiting:
            lines.append(
                "Playing again: press **I'm in** to keep your seat. The host may start once the "
                "players here have confirmed; the seats of the others open again."
            )
        if self.status == "lobby":
            lines.append("Press **Join** to take a seat; the host presses **Start** when ready.")
            # The menu's instructions live here: a phone cuts a placeholder short (issue 28).
            lines.append("To seat a computer player, pick how well it plays in the menu below.")
        elif self.status == "active":
            lines.append("The game has started in its thread.")
        else:
            lines.append(f"This game is {self.status}.")
        return "\n".join(lines)


@dataclass
class Update:
    """What the bot should show after a change to a game."""

    game_id: int
    version: int
    thread_id: int | None
    text: str
    png: bytes | None = None
    ping: list[int] = field(default_factory=list)
    actor_private: str | None = None
    private: dict[int, str] = field(default_factory=dict)  # user id -> private news
    # A human must act: the board offers a "Your move" button whose answer lists
    # that player's choices privately (public buttons would reveal what a player
    # can afford or holds).
    choose: bool = False
    dm: list[int] = field(default_factory=list)  # pinged users who opted in to DMs
    # Extra images of what happened since the last board (e.g. each step of a
    # battle), from the renderer's optional steps(view_before, view_after, names).
    steps: list[bytes] = field(default_factory=list)
    over: bool = False
    moves: int = 0
    # Players who asked to be told when they are next: (user id, sentence).
    heads_up: list[tuple[int, str]] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    # Users the text mentions on purpose besides ``ping`` (a new seat holder): the
    # only other mentions the message may ping (issue 27).
    mentions: list[int] = field(default_factory=list)
    # One board a turn (issue 26): False after a move inside a turn, when the thread
    # gets nothing and ``next`` continues the mover's private message.
    post: bool = True
    next: Panel | None = None
    # The mover's moves of the turn so far (or of the turn just ended), in words.
    turn: list[str] = field(default_factory=list)
    # After a person's move: the other people to act now (several choose at once),
    # whose private turn messages may show choices the move made out of date.
    acting: list[int] = field(default_factory=list)
    # After a person's move: computer players that think (in the pool) are still to
    # move. They move after the mover is answered (``Tables.computers_move``), and
    # the turn's board waits for them (issue 39: a reply never waits on thinking).
    thinking: bool = False


@dataclass
class Notice:
    """A timer that fired: a reminder to post, or what a deadline did."""

    kind: str  # reminder | deadline | expired
    game_id: int
    thread_id: int | None
    text: str
    ping: list[int] = field(default_factory=list)
    dm: list[int] = field(default_factory=list)
    update: Update | None = None


@dataclass
class Step:
    """One step of the move chooser as the private reply shows it.

    ``options`` are (token, label) with the players' names in; ``depth`` is the
    number of tokens chosen so far (it goes into every component's custom_id, so
    a click on an older step is refused); ``done`` is the label of the complete
    move the step already names (the Done button), or None."""

    game_id: int
    version: int
    depth: int
    prompt: str
    options: list[tuple[str, str]]
    done: str | None = None
    path: list[str] = field(default_factory=list)  # labels of the steps taken
    preview: bytes | None = None
    page: int = 0
    note: str | None = None  # one sentence about the half-made move (kept or dropped)
    descriptions: dict[str, str] = field(default_factory=dict)  # token -> a line under the option
    # Under each option of a select menu: what picking it does next (<= 100 characters).
    hints: list[str] = field(default_factory=list)
    # A pick that completed the move played it at once (no Done): the result.
    update: Update | None = None
    # The top of the private turn message (the seat's own state, its turn so far).
    head: str = ""

    PAGE = 25  # a select menu holds 25 options
    FEW = 5  # this many options or fewer are buttons

    @property
    def pages(self) -> int:
        return max(1, -(-len(self.options) // self.PAGE))

    @property
    def shown(self) -> list[tuple[str, str]]:
        """The options on this page."""
        if len(self.options) <= self.FEW:
            return self.options
        return self.options[self.page * self.PAGE : (self.page + 1) * self.PAGE]

    @property
    def text(self) -> str:
        lines = [self.note] if self.note else []
        if self.path:
            lines.append("So far: " + " - ".join(self.path))
        lines.append(self.prompt)
        if len(self.options) <= self.FEW:  # buttons carry no description: say it here
            lines += [
                f"- {label}: {self.descriptions[tok]}"
                for tok, label in self.options
                if tok in self.descriptions
            ]
        if self.done is not None and self.options:
            lines.append(f"Pick more above, or press **Done** to play it as it is: {self.done}")
        elif self.done is not None:
            lines.append(f"Press **Done** to play: {self.done}")
        if self.pages > 1:
            lines.append(f"(options page {self.page + 1} of {self.pages})")
        return "\n".join(lines)


@dataclass
class Panel:
    """The private "Your move" reply: buttons for every legal move when they fit
    (``buttons``: label, index), otherwise the chooser's current ``step``."""

    game_id: int
    version: int
    buttons: list[tuple[str, int]] = field(default_factory=list)
    step: Step | None = None
    # The top of the private turn message: the seat's own state (Game.header), and
    # its moves of this turn so far, in words.
    header: str = ""
    turn: list[str] = field(default_factory=list)
    # One sentence above the buttons (why an only move waits for the click).
    note: str | None = None

    @property
    def text(self) -> str:
        """The message above the choices (at most 1,800 characters)."""
        lines = [self.header] if self.header else []
        if self.turn:
            lines.append("This turn so far: " + "; ".join(self.turn))
        if self.step is not None:
            lines.append(self.step.text)
        else:
            if self.note:
                lines.append(self.note)
            lines.append("Your choices:")
        return "\n".join(lines)[-1800:]
