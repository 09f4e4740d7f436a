"""The move chooser (issue 21 item 8): when a player's legal moves do not fit as
buttons, the private "Your move" reply narrows the move in steps built by the
game's ``chooser(state, seat, prefix)``.

The tokens chosen so far (the prefix) are kept in the store's ``drafts`` table,
keyed by game and user with the game's version: a half-made move survives a
restart, and survives another seat's move while the game's chooser still
accepts its prefix on the new state (several seats choose at once in some
phases); otherwise it is dropped with one sentence. Nothing is saved as a move
before Done, which re-validates the prefix and plays ``game.format(action)``
through the normal, version guarded :meth:`act` path, once.

Options are addressed by their index in the step (custom_ids carry game,
version, depth and index): no token ever has to fit in a custom_id."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

import render
from engine import core
from engine.core import Choice, IllegalAction
from store import GameRow
from tables.descriptions import described, fit_words, told_apart
from tables.forced import single_option_steps, why_waiting
from tables.play import PlayMixin
from tables.results import MAX_BUTTONS, Panel, Step, TableError, Update
from tables.text import image_names, named
from tables.turns import TurnsMixin, builds_moves, labels_of, the_one_move
from tables.upkeep import PAUSED

if TYPE_CHECKING:
    from tables.since import Since

log = logging.getLogger("lairkeeper.tables")

STALE_STEP = "That choice belongs to an earlier board; use the newest one."
STALE_BOARD = "That board is out of date; use the newest one."
OLD_STEP = "That step was already answered; use your newest reply."
LABEL_MAX = 80
HEADER_MAX = 400
# "Your move" opens a turn with what happened since the seat's last move (issue 37,
# tables/since.py), in what its private message leaves of Discord's 2,000 characters
# (the choices' text and the note under them, cogs/panel.py panel_message), and only
# where a few moves' lines fit.
PANEL_ROOM = 1800
SINCE_LEAST = 200


def _choice(row: GameRow, seat: int, prefix: list[str]) -> Choice:
    assert row.state is not None
    try:
        return core.get(row.game_key).chooser(row.state, seat, list(prefix))
    except IllegalAction as exc:
        raise TableError(named(row, str(exc))) from None


def build_step(row: GameRow, seat: int, prefix: list[str], page: int = 0) -> Step:
    """The step after ``prefix``, with names in its texts and the preview drawn.
    CPU-bound (the game's chooser, the preview image): run off the event loop."""
    choice = _choice(row, seat, prefix)
    path = []
    for k, token in enumerate(prefix):  # the labels of the steps taken, for "So far"
        earlier = dict(_choice(row, seat, prefix[:k]).options)
        path.append(named(row, earlier.get(token, token))[:LABEL_MAX])
    game = core.get(row.game_key)
    assert row.state is not None
    done = None
    if choice.action is not None:
        done = named(row, game.describe(row.state, choice.action))[:LABEL_MAX]
    step = Step(
        game_id=row.id,
        version=row.version,
        depth=len(prefix),
        prompt=named(row, choice.prompt),
        options=[(tok, named(row, label)[:LABEL_MAX]) for tok, label in choice.options],
        done=done,
        path=path,
        descriptions=described(row, choice),
    )
    step.page = max(0, min(page, step.pages - 1))
    if len(step.options) > Step.FEW:
        step.hints = hints(row, seat, prefix, step)
    preview = render.get(row.game_key).preview
    if preview is not None and choice.preview is not None:
        try:
            step.preview = preview(game.view(row.state, seat), choice.preview, image_names(row))
        except Exception:  # a preview is a help: the step works without it
            log.exception("preview render failed for game %s", row.id)
    return step


HINT_SECONDS = 0.25  # time spent looking one step ahead for the hints of one page


def hints(row: GameRow, seat: int, prefix: list[str], step: Step) -> list[str]:
    """Under each option on the step's page that the game does not describe: what
    picking it does (the move it plays at once, or what is chosen next), so a pick is
    never a surprise and no two options say the same thing (issue 40 item 2)."""
    game = core.get(row.game_key)
    assert row.state is not None
    out: list[str] = []
    nexts: list[Choice | None] = []
    start = time.perf_counter()
    for tok, _label in step.shown:
        nxt = None
        if tok not in step.descriptions and time.perf_counter() - start <= HINT_SECONDS:
            # The game's own description says more; and a hint is a help, never worth
            # a slow answer (a Decorators chooser step can take half a second).
            try:
                nxt = _choice(row, seat, _skipped(row, seat, [*prefix, tok], finish=True))
            except TableError:
                nxt = None
        nexts.append(nxt)
        if nxt is None:
            out.append("")
        elif nxt.action is not None and not nxt.options:
            out.append(fit_words("Plays at once: " + named(row, game.describe(row.state, nxt.action))))
        else:
            out.append(fit_words("Then: " + named(row, nxt.prompt)))
    return told_apart(row, out, nexts, step.shown)


def _skipped(row: GameRow, seat: int, prefix: list[str], finish: bool) -> list[str]:
    """``prefix`` carried through the steps with one option (tables/forced.py)."""
    assert row.state is not None
    try:
        return single_option_steps(core.get(row.game_key), row.state, seat, prefix, finish)
    except IllegalAction as exc:
        raise TableError(named(row, str(exc))) from None


def _back(row: GameRow, seat: int, prefix: list[str]) -> list[str]:
    """One step back, over the steps with one option that were taken for the player."""
    prefix = prefix[:-1]
    while prefix:
        choice = _choice(row, seat, prefix)
        if choice.action is not None or len(choice.options) != 1:
            break
        prefix = prefix[:-1]
    return prefix


def still_accepted(row: GameRow, seat: int, prefix: list[str]) -> bool:
    """Whether the game's chooser, on the current state, still offers every token
    of ``prefix`` step by step (another seat's move may have taken one away)."""
    for k, token in enumerate(prefix):
        try:
            options = _choice(row, seat, prefix[:k]).options
        except TableError:
            return False
        if token not in {tok for tok, _label in options}:
            return False
    try:
        _choice(row, seat, prefix)
    except TableError:
        return False
    return True


class ChooserMixin(TurnsMixin, PlayMixin):
    if TYPE_CHECKING:  # tables/since.py

        async def since(self, game_id: int, seat: int, picture: bool = True) -> Since: ...

    async def _draft(self, row: GameRow, user_id: int, seat: int) -> tuple[list[str], str | None]:
        """The user's half-made move ([] if none) and a sentence when the game moved on
        since it was made. A draft outlives another seat's move (several seats choose
        at once in some phases) while the chooser still accepts its prefix on the
        new state; otherwise it is dropped."""
        draft = await self.store.get_draft(row.id, user_id)
        if draft is None:
            return [], None
        prefix = list(draft[1])
        if draft[0] == row.version:
            return prefix, None
        fits: bool = bool(prefix) and await asyncio.to_thread(still_accepted, row, seat, list(prefix))
        if fits:
            await self.store.set_draft(row.id, user_id, row.version, prefix)
            return prefix, "The game moved on meanwhile; your choices so far still stand."
        await self.store.set_draft(row.id, user_id, row.version, None)
        note = (
            "The game moved on and your half-made move no longer fits; please choose again."
            if prefix
            else None
        )
        return [], note

    async def _acting(
        self, game_id: int, user_id: int, version: int, stale: str = STALE_STEP, kept: bool = False
    ) -> tuple[GameRow, int]:
        """The game and the user's seat; ``version`` must be the current one, or (``kept``)
        the user must have a half-made move that may have outlived the change."""
        row = await self._load(game_id)
        if version != row.version and not (kept and await self.store.get_draft(game_id, user_id)):
            raise TableError(stale)
        seat = self._acting_seat(row, user_id)
        if await self.is_paused(game_id):
            raise TableError(PAUSED)
        return row, seat

    async def panel(self, game_id: int, user_id: int, version: int) -> Panel:
        """The private answer to "Your move": the seat's own state, its moves of this
        turn so far, and a button per legal move when they fit, else the chooser's
        step (resuming a half-made move). The board's button opens the current turn
        even when moves were made since that board (one board a turn)."""
        row = await self._load(game_id)
        if version > row.version:
            raise TableError(STALE_BOARD)
        seat = self._acting_seat(row, user_id)
        if await self.is_paused(game_id):
            raise TableError(PAUSED)
        panel = await self._panel_of(row, user_id, seat)
        # What happened since the seat's last move (nothing, while its own turn goes on).
        since = await self.since(game_id, seat, picture=False)
        room = PANEL_ROOM - len(panel.text) - 1
        if not since.empty and room > SINCE_LEAST:
            panel.header = "\n".join(p for p in (since.text(room), panel.header) if p)
        return panel

    async def _head(self, row: GameRow, seat: int) -> str:
        """The top of the seat's private turn message: its own state (the game's
        header) and its moves of this turn so far, in words."""
        assert row.state is not None
        header = named(row, core.get(row.game_key).header(row.state, seat))[:HEADER_MAX]
        turn = [named(row, label) for label in labels_of(await self.news(row), seat)]
        return "\n".join(p for p in (header, "This turn so far: " + "; ".join(turn) if turn else "") if p)

    async def _panel_of(self, row: GameRow, user_id: int, seat: int, turn: list[str] | None = None) -> Panel:
        game = core.get(row.game_key)
        assert row.state is not None
        header = named(row, game.header(row.state, seat))[:HEADER_MAX]
        if turn is None:
            turn = [named(row, label) for label in labels_of(await self.news(row), seat)]
        legal = game.legal_actions(row.state, seat)
        # An only move waiting for the click because playing it would tell a secret: say so.
        why = await asyncio.to_thread(why_waiting, game, row.state, seat, the_one_move)
        if len(legal) <= MAX_BUTTONS and not builds_moves(game):
            labels = [(named(row, game.describe(row.state, a))[:LABEL_MAX], i) for i, a in enumerate(legal)]
            return Panel(row.id, row.version, buttons=labels, header=header, turn=turn, note=why)
        prefix, note = await self._draft(row, user_id, seat)
        try:
            prefix = await asyncio.to_thread(_skipped, row, seat, prefix, False)
            step = await asyncio.to_thread(build_step, row, seat, prefix)
        except TableError:  # the saved prefix leads nowhere any more: start afresh
            await self.store.set_draft(row.id, user_id, row.version, None)
            prefix = await asyncio.to_thread(_skipped, row, seat, [], False)
            step = await asyncio.to_thread(build_step, row, seat, prefix)
        if prefix:
            await self.store.set_draft(row.id, user_id, row.version, prefix)
        step.note = " ".join(n for n in (note, why) if n) or None
        return Panel(row.id, row.version, step=step, header=header, turn=turn)

    async def choose(
        self,
        game_id: int,
        user_id: int,
        version: int,
        depth: int,
        op: str,
        index: int = 0,
        key: str | None = None,
        think: bool = True,
    ) -> Step:
        """One chooser click: ``pick`` option ``index``, go ``back`` one step, or show
        ``page`` number ``index`` of a long step. ``depth`` is the step the click
        belongs to; a click on an older reply is refused and changes nothing. A click
        made before another seat's move keeps the half-made move if it still fits;
        a pick is then shown again rather than taken, since the options it counted
        may have changed. ``key``: the click's idempotency key, for a pick that plays
        the move (a retried click is answered AlreadyTaken); ``think`` as for ``act``."""
        async with self._lock(game_id):
            if op == "pick":
                await self._not_again(game_id, key)
            row, seat = await self._acting(game_id, user_id, version, kept=True)
            prefix, note = await self._draft(row, user_id, seat)
            if note is not None and version != row.version:
                if op == "pick" or not prefix:
                    step = await asyncio.to_thread(build_step, row, seat, prefix)
                    step.note = note + (" Pick again below." if prefix else "")
                    step.head = await self._head(row, seat)
                    return step
            elif version != row.version:
                raise TableError(STALE_STEP)
            if depth != len(prefix):
                raise TableError(OLD_STEP)
            prefix, page = self._click(row, seat, prefix, op, index)
            if op == "pick":  # the steps after it with one option are taken with it
                prefix = await asyncio.to_thread(_skipped, row, seat, prefix, True)
            choice = _choice(row, seat, prefix)
            if op == "pick" and choice.action is not None and not choice.options:
                # Nothing is left to choose: the pick plays the move (no Done).
                done_text = core.get(row.game_key).format(choice.action)
                await self.store.set_draft(game_id, user_id, row.version, None)
            else:
                step = await asyncio.to_thread(build_step, row, seat, prefix, page)
                step.note = note
                step.head = await self._head(row, seat)
                await self.store.set_draft(game_id, user_id, row.version, prefix)
                return step
        return await self._play_prefix(game_id, user_id, row, prefix, done_text, key, think)

    async def _play_prefix(
        self,
        game_id: int,
        user_id: int,
        row: GameRow,
        prefix: list[str],
        text: str,
        key: str | None,
        think: bool = True,
    ) -> Step:
        """Play the move a completed prefix names; the draft comes back if refused."""
        try:
            update = await self.act(game_id, user_id, text=text, version=row.version, key=key, think=think)
        except TableError:
            await self.store.set_draft(game_id, user_id, row.version, prefix)
            raise
        return Step(game_id, update.version, len(prefix), "", [], update=update)

    @staticmethod
    def _click(row: GameRow, seat: int, prefix: list[str], op: str, index: int) -> tuple[list[str], int]:
        """The prefix and page after one click."""
        if op == "pick":
            options = _choice(row, seat, prefix).options
            if not 0 <= index < len(options):
                raise TableError("That choice is no longer available.")
            return [*prefix, options[index][0]], 0
        if op == "back":
            if not prefix:
                raise TableError("This is the first step; there is nothing to go back to.")
            return _back(row, seat, prefix), 0
        if op == "page":
            return prefix, index
        raise TableError("That button does nothing.")

    async def choose_done(
        self,
        game_id: int,
        user_id: int,
        version: int,
        depth: int,
        key: str | None = None,
        think: bool = True,
    ) -> Update:
        """Done: play the move the half-made prefix names, once, if it is legal now.
        The draft is taken away before the move is played (and given back if the move
        is refused), so a second Done finds nothing to play (and one with the same
        ``key``, the click's idempotency key, is answered AlreadyTaken)."""
        async with self._lock(game_id):
            await self._not_again(game_id, key)
            row, seat = await self._acting(game_id, user_id, version, kept=True)
            prefix, note = await self._draft(row, user_id, seat)
            if version != row.version and note is None:
                raise TableError(STALE_STEP)
            if not prefix and note is not None:
                raise TableError(note)
            if depth != len(prefix):
                raise TableError(OLD_STEP)
            action = _choice(row, seat, prefix).action
            if action is None:
                raise TableError("The move is not complete yet; choose the next step first.")
            note_text = core.get(row.game_key).format(action)
            await self.store.set_draft(game_id, user_id, row.version, None)
        try:
            return await self.act(game_id, user_id, text=note_text, version=row.version, key=key, think=think)
        except TableError:
            await self.store.set_draft(game_id, user_id, row.version, prefix)
            raise
