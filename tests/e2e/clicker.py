"""Whole games played by clicks only, through the real bot process and the Discord
stand-in (issue 26 item 5). One driver, shared by the clicks benchmark
(``python -m bench --only clicks``, bench/clicks.py) and the end-to-end tests
(tests/e2e/test_e2e_clicks.py).

The humans play as a new user would: whoever the game waits on looks at their private
turn message first - the bot carries a player's new turn into it while its token lives
(cogs/live.py), as a person sees it updated after the ping - and clicks there when it
offers choices; else they press "Your move" on the newest board in the thread. Then
they click, at random (seeded), among the components the bot shows them privately -
every button and every option of every select menu on their private turn message (edited
in place or new). A click refused there (out of date) sends them to "Your move". Two
exceptions, as a person plays: navigation is never chosen at random (Back,
Previous/Next page, "Show my hand", Cancel, Undo: a player who goes back at random
would never finish; nor is starting over, Dungeon Drawers' Erase, which wipes what the
face-up card installed and begins the card again - the rulebook's "erase and rebuild":
pressed at random it cost 14-35 Erase clicks a 2-player game, plus the elements placed
again, and build turns of 23-44 clicks; the chooser still offers it), and once a move is
complete its Done is pressed (``done_bias`` 1.0; None: Done is one choice among the others, and a random walker then extends a
Drawers path or a refill for hundreds of clicks: 1,354 clicks for a 2-player Drawers
game instead of about 800, the issue's 841). Nothing is typed.

Who the game waits on is read from the database (the driver's only oracle: a player
knows it from the ping and from their own private message); everything clicked is
what the bot put on a message. The figures are counted from what reached the
stand-in and from the game's move log (see :func:`turns_of`).
"""

from __future__ import annotations

import asyncio
import random
import re
import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import core
from tables.forced import WAITS_FOR_YOU
from tests.e2e.harness import CHOOSE_ID, GOES_ON, Table, board_move
from tests.standin import Actor, Interaction, Message, StandIn
from tests.standin.server import SUPPRESS_NOTIFICATIONS

# Navigation: offered on a private message, never chosen at random (see the module doc).
NAVIGATION = re.compile(r"(back|previous|next|show my hand|my hand|cancel|undo|start over)", re.I)
NAVIGATION_IDS = re.compile(r"lk:(hand:|cx:\d+:\d+:\d+:(back|page):)")
# Starting a part of the turn over, as a button or a select option: Dungeon Drawers' Erase
# ("you can erase and rebuild elements installed using this Card": the card begun again).
START_OVER = re.compile(r"(erase|start over)\b", re.I)
YOUR_MOVE = "Your move"
ANSWER_TIMEOUT = 30.0  # a click not answered in this time counts as unanswered
QUIET = 0.04  # the bot has finished answering when the stand-in saw no request for this long
QUIET_AFTER_MOVE = 0.15
SLOW_GAP = (
    24 * 3600.0
)  # slow mode: the time between a player's turns (tokens live 15 minutes)  # ... after a click that left the player without a private message
# A player whose turn begins looks at their private turn message this long for the bot to
# bring the new turn into it (it does so beside the mover's answer), before "Your move".
GLANCE = 2.0
SLOW_GLANCE = 20.0  # slow mode: the player comes back a day later; the turn has long been put there


class Stuck(RuntimeError):
    """A clicks-only player can go no further (no button leads on)."""


def offered(m: Message | None, start_over: bool = False) -> list[tuple[dict[str, Any], str | None]]:
    """What a player may choose on a private message: (button, None) for each button and
    (select, value) for each option of each select menu; navigation left out, and
    starting over unless ``start_over`` (it is a choice, never made at random)."""
    if m is None or m.deleted:
        return []
    out: list[tuple[dict[str, Any], str | None]] = []
    for c in m.items:
        if c.get("disabled") or NAVIGATION_IDS.match(str(c.get("custom_id", ""))):
            continue
        if c.get("type") == 2 and c.get("style") != 5:
            label = str(c.get("label") or "").strip()
            if not NAVIGATION.fullmatch(label) and (start_over or not START_OVER.match(label)):
                out.append((c, None))
        elif c.get("type") == 3:
            out.extend(
                (c, str(o["value"]))
                for o in c.get("options", [])
                if start_over or not START_OVER.match(str(o.get("label") or ""))
            )
    return out


def choose_button(m: Message) -> str | None:
    """The "Your move" button of a board (by its custom_id, or its label)."""
    for b in m.buttons:
        cid = str(b.get("custom_id", ""))
        if CHOOSE_ID.fullmatch(cid) or (b.get("label") == YOUR_MOVE and cid):
            return cid
    return None


def is_done(item: dict[str, Any]) -> bool:
    """A button that plays the move built so far."""
    return ":done:" in str(item.get("custom_id", "")) or str(item.get("label") or "").startswith("Done")


@dataclass
class Click:
    seat: int
    moves_before: int  # moves in the log when the click was made
    seconds: float | None  # click -> the last message changed in answer (None: unanswered)
    what: str  # "Your move", or the label of the button / option chosen
    opened: bool  # the click was "Your move" on a board
    # The message offered this one choice only (issue 40 point 5), and whether it said
    # why the click was left to the player (the move would tell a secret).
    single: bool = False
    said_why: bool = False


@dataclass
class Turns:
    """The game's move log cut into turns (see :func:`turns_of`)."""

    seat_of_turn: list[int]  # turn number - 1 -> seat
    turn_of_move: list[int]  # move number - 1 -> turn number - 1
    simultaneous_phases: int
    starts: set[int]  # k >= 1 where a new turn begins with states[k] (the game's end included)


def turns_of(game: core.Game, states: list[dict[str, Any]], seats: list[int]) -> Turns:
    """Turns as a player counts them: a seat's turn runs from the moment the game waits
    on it until it waits on somebody else (the seat is no longer to act), or until a new
    turn begins (the game's ``turn_id`` changes; with the default ids, the seats to act,
    a seat leaving a simultaneous phase changes the id but begins no new turn). ``states[k]`` is the state
    before move ``k + 1``; ``seats[k]`` the seat that made it. A simultaneous phase is a
    turn in which at least two seats moved while several were to act."""
    acts: list[frozenset[int]] = []
    ids: list[str] = []
    for s in states:
        over = game.is_over(s)
        acts.append(frozenset() if over else frozenset(game.to_act(s)))
        ids.append("" if over else game.turn_id(s))
    seat_of_turn: list[int] = []
    turn_of_move: list[int] = []
    current: dict[int, int] = {}  # seat -> its turn now
    phase_movers: list[set[int]] = []  # per phase (several seats to act at its start): who moved
    phase: set[int] | None = None
    plain = [i == ",".join(str(s) for s in sorted(a)) for i, a in zip(ids, acts, strict=True)]
    # With the default ids (the seats to act), a seat finishing its part of a
    # simultaneous phase changes the id; that is not a new turn.
    starts = {
        k
        for k in range(1, len(states))
        if ids[k] != ids[k - 1] and not (plain[k] and plain[k - 1] and acts[k] and acts[k] < acts[k - 1])
    }
    for k, seat in enumerate(seats):
        if k == 0 or k in starts:
            current.clear()  # a new turn for everyone
            phase = set() if len(acts[k]) >= 2 else None
            if phase is not None:
                phase_movers.append(phase)
        for s in [s for s in current if s not in acts[k]]:
            del current[s]
        if seat not in current:
            current[seat] = len(seat_of_turn)
            seat_of_turn.append(seat)
        turn_of_move.append(current[seat])
        if phase is not None:
            phase.add(seat)
    return Turns(seat_of_turn, turn_of_move, sum(1 for p in phase_movers if len(p) >= 2), starts)


@dataclass
class ClickGame:
    """One game by clicks only. ``humans`` users take the first seats (the host first),
    ``ais`` AI players the rest."""

    standin: StandIn
    db: Path
    key: str
    humans: list[Actor]
    ais: int = 0
    seed: int = 1
    options: str | None = None
    done_bias: float | None = 1.0  # chance to press Done when it is offered among others (None: uniform)
    rng: random.Random = field(init=False)
    table: Table = field(init=False)
    clicks: list[Click] = field(default_factory=list)
    complete: bool = False
    seconds: float = 0.0
    log: Callable[[str], None] | None = None
    _store: Any = None
    # Each player's private turn message: the newest one "Your move" opened, or the one
    # their last click was answered in (edited in place), which the bot may edit again
    # when their next turn comes.
    _panels: dict[int, Message | None] = field(default_factory=dict)
    # The number of edits of that message when a click on it was refused: until it is
    # edited again it offers nothing a click would take.
    _refused: dict[int, int] = field(default_factory=dict)
    _mark: int = 0
    # Slow mode (issue 37): every turn begins more than 15 minutes (the stand-in's clock,
    # which ages interaction tokens) after the player's last click, as in a slow game.
    slow: bool = False
    _last: int | None = None  # who made the last click
    _looked: set[int] = field(default_factory=set)  # players who looked for their first turn
    _to_mover: int = 0  # notifications that reached the player whose click they answered

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.table = Table(self.standin, self.humans, rng=self.rng, place=None)  # the server's setting

    @property
    def game(self) -> core.Game:
        return core.get(self.key)

    async def __aenter__(self) -> ClickGame:
        from store import Store

        self._store = await Store(str(self.db)).open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._store is not None:
            await self._store.close()

    async def open(self) -> None:
        """The lobby by clicks (not counted), the game's seed fixed before Start so a run
        can be repeated."""

        async def fix_seed() -> None:
            async with self._store.transaction() as tx:
                await tx.execute("UPDATE games SET seed = ? WHERE id = ?", self.seed, self.table.game_id)

        opts = {"options": self.options} if self.options else {}
        await self.table.open(self.key, ais=self.ais, before_start=fix_seed, **opts)
        self._mark = self.table.boards[-1].seq  # what the play posts comes after the opening board

    # ---- playing -------------------------------------------------------------------------
    async def _row(self) -> Any:
        row = await self._store.get(self.table.game_id)
        assert row is not None
        return row

    def _seat(self, row: Any, who: Actor) -> int:
        seat = row.seat_of(who.id)
        assert seat is not None, f"{who.name} holds no seat"
        return int(seat)

    async def play(self, max_clicks: int | None = None, seconds: float | None = None) -> None:
        """Click until the game ends, ``max_clicks`` clicks were made or ``seconds`` passed."""
        t0 = time.monotonic()
        who: Actor | None = None
        refused_opens = 0
        while True:
            row = await self._row()
            if row.status != "active":
                self.complete = row.status == "over"
                break
            if (max_clicks is not None and len(self.clicks) >= max_clicks) or (
                seconds is not None and time.monotonic() - t0 > seconds
            ):
                break
            to_act = self.game.to_act(row.state)
            acting = [h for h in self.humans if self._seat(row, h) in to_act]
            if not acting:
                await self._wait_version(row.version)
                continue
            if who not in acting:  # several to act: one takes a whole turn, then the next
                who = self.rng.choice(acting)
            assert who is not None
            if self.slow and (who.id != self._last or not self._choices(who)):
                self.standin.advance(SLOW_GAP)  # a day between turns: every token has expired
            choices = self._choices(who)
            # A player looks at their private turn message first; at their first turn, at
            # their lasting private place (the bot puts the turn there just after the board).
            if not choices and (self._panels.get(who.id) is not None or who.id not in self._looked):
                self._looked.add(who.id)
                choices = await self._glance(who)
            if choices:
                await self._pick(row, who, choices)
                refused_opens = 0
            elif await self._open(row, who):
                refused_opens = 0
            else:
                refused_opens += 1
                if refused_opens >= 3:
                    raise Stuck(
                        f"{self.key}: {who.name} is to act but 'Your move' leads nowhere: "
                        f"{self._panels.get(who.id)!r}"
                    )
                await self._wait_board(self.standin.mark(), 5.0)
        self.seconds = time.monotonic() - t0

    async def undo_inside_a_turn(
        self,
        clicks: int = 150,
        where: Callable[[Actor, Message], bool] | None = None,
        later: float = 0.0,
    ) -> tuple[Actor, Message, int, Message]:
        """Plays on click by click, ``clicks`` clicks at most, until /undo takes back a
        move inside a turn: after each click whose player's private turn message says the
        turn goes on (and that ``where`` accepts), that player sends /undo ``later``
        seconds on (the stand-in's clock: an expired click token). Returns the player,
        that message, the stand-in's mark before /undo and its answer."""
        for _ in range(clicks):
            await self.play(max_clicks=len(self.clicks) + 1)
            row = await self._row()
            last = self.clicks[-1].seat if self.clicks else None
            who = next((h for h in self.humans if row.seat_of(h.id) == last), None)
            m = self._panels.get(who.id) if who is not None else None
            if who is None or m is None or not m.content.startswith(GOES_ON):
                continue
            if where is not None and not where(who, m):
                continue
            self.standin.advance(later)
            mark = self.standin.mark()
            answer = await (await who.slash("undo", channel=self.table.thread_id)).reply()
            if "taken back" in answer.content:
                return who, m, mark, answer
            # else that move stands (it revealed something): play on
        raise AssertionError(f"no move inside a turn could be taken back in {clicks} clicks")

    async def _glance(self, who: Actor) -> list[tuple[dict[str, Any], str | None]]:
        """``who`` was pinged and looks at their private turn message for a moment: what it
        offers once the bot has brought their turn into it (nothing if it does not)."""
        try:
            # In a slow game the player comes back a day later: the turn is long there.
            wait = SLOW_GLANCE if self.slow else GLANCE
            await self.standin.wait_until(lambda: self._choices(who), wait, "the turn in the message")
        except TimeoutError:
            pass
        return self._choices(who)

    def _place(self, who: Actor) -> Message | None:
        """The newest message the bot put in ``who``'s lasting private place, if any."""
        mine = [m for m in self.standin.log if not m.deleted and self._turn_in_place(m, who.id)]
        return mine[-1] if mine else None

    def _turn_in_place(self, m: Message, user_id: int) -> bool:
        """A turn message in the player's place (not the silent list of games waiting)."""
        return self.standin.in_place_of(m, user_id) and not m.flags & SUPPRESS_NOTIFICATIONS

    def _choices(self, who: Actor) -> list[tuple[dict[str, Any], str | None]]:
        """What ``who``'s private turn message offers now (nothing while a click on it
        was refused and it has not changed since). A turn the bot put into the player's
        lasting private place after that message is the one they look at."""
        m = self._panels.get(who.id)
        placed = self._place(who)
        if placed is not None and placed is not m and offered(placed) and (m is None or placed.seq > m.seq):
            self._panels[who.id] = m = placed
            self._refused.pop(who.id, None)
        if m is None or self._refused.get(who.id) == len(m.history):
            return []
        return offered(m)

    async def _pick(self, row: Any, who: Actor, choices: list[tuple[dict[str, Any], str | None]]) -> None:
        panel = self._panels[who.id]
        assert panel is not None
        done = [(c, v) for c, v in choices if v is None and is_done(c)]
        if done and self.done_bias is not None and self.rng.random() < self.done_bias:
            item, value = done[0]
        else:
            item, value = self.rng.choice(choices)
        # What the message said and offered when the choice was made (the answer edits it);
        # starting over counts as a choice here (it is one, only never made at random).
        shown, single = panel.content, len(offered(panel, start_over=True)) == 1
        if value is None:
            what = str(item.get("label") or item.get("custom_id"))
            r = await who.click(panel, item["custom_id"], wait=False)
        else:
            what = next(str(o.get("label")) for o in item["options"] if str(o["value"]) == value)
            r = await who.select(panel, [value], item["custom_id"], wait=False)
        await self._answered(row, who, r, what, opened=False, clicked=panel)
        if single:
            self.clicks[-1].single = True
            self.clicks[-1].said_why = WAITS_FOR_YOU in shown

    async def _open(self, row: Any, who: Actor) -> bool:
        """``who`` presses "Your move" on the newest board offering it; whether a private
        message with something to choose came back."""
        boards = self.standin.find_messages(lambda m: self.table.is_board(m) and choose_button(m) is not None)
        if not boards:
            raise Stuck(f"{self.key}: {who.name} is to act but no board offers '{YOUR_MOVE}'")
        board = boards[-1]
        cid = choose_button(board)
        assert cid is not None
        r = await who.click(board, cid, wait=False)
        await self._answered(row, who, r, YOUR_MOVE, opened=True)
        return bool(self._choices(who))

    async def _answered(
        self, row: Any, who: Actor, r: Interaction, what: str, opened: bool, clicked: Message | None = None
    ) -> None:
        """Wait for the answer and for the bot to go quiet; note the click. The player's
        private turn message is now the newest private message of the answer that
        offers a choice, else the message clicked on if the answer edited it ("Move
        taken": the next turn may come into it); a click answered only by a new
        message without choices (a refusal) leaves that message offering nothing."""
        self.table.replies.append(r)
        mark = self.standin.mark()
        try:
            await r.reply(ANSWER_TIMEOUT)
        except TimeoutError:
            pass
        moved_on = True
        for m in r.messages:
            if (m.ephemeral or self.standin.in_place_of(m, who.id)) and offered(m):
                moved_on = False
        await self._quiet(QUIET_AFTER_MOVE if moved_on else QUIET)
        self.clicks.append(Click(self._seat(row, who), row.moves, r.answered_seconds, what, opened))
        self._last = who.id
        to_mover = [m for m in self.standin.find_messages(after=mark) if who.id in self.standin.notified(m)]
        if to_mover and self.log is not None:
            self.log(
                f"    {self.key}: {who.name}'s click {what!r} was answered with a notification: {to_mover}"
            )
        self._to_mover += len(to_mover)
        mine = [m for m in r.messages if m.ephemeral or self.standin.in_place_of(m, who.id)]
        with_choice = [m for m in mine if offered(m)]
        if with_choice:
            self._panels[who.id] = with_choice[-1]
            self._refused.pop(who.id, None)
        elif clicked is not None and clicked in mine:
            self._panels[who.id] = clicked
            self._refused.pop(who.id, None)
        elif clicked is not None:  # refused: the message stays, its choices are spent
            self._refused[who.id] = len(clicked.history)
        if self.log is not None and len(self.clicks) % 100 == 0:
            self.log(f"    {self.key}: {len(self.clicks)} clicks, {row.moves} moves")

    async def _quiet(self, quiet: float, limit: float = 30.0) -> None:
        """Until the stand-in has seen no request for ``quiet`` seconds (the bot is done)."""
        end = time.monotonic() + limit
        n = len(self.standin.requests)
        while time.monotonic() < end:
            await asyncio.sleep(quiet)
            if len(self.standin.requests) == n:
                return
            n = len(self.standin.requests)

    async def _wait_version(self, version: int, limit: float = 30.0) -> None:
        """The game waits on no human: the bot is still playing (AI seats); wait for it."""
        end = time.monotonic() + limit
        while time.monotonic() < end:
            await asyncio.sleep(0.05)
            row = await self._row()
            if row.version != version or row.status != "active":
                return
        raise Stuck(f"{self.key}: the game waits on no human and does not move on")

    async def _wait_board(self, mark: int, limit: float) -> None:
        try:
            await self.standin.wait_for_message(self.table.is_board, limit, after=mark)
        except TimeoutError:
            pass

    # ---- the figures ---------------------------------------------------------------------------
    async def figures(self) -> dict[str, Any]:
        """The benchmark's figures for this game (issue 26 item 5)."""
        row = await self._row()
        entries = await self._store.log(self.table.game_id)
        game = self.game
        state = game.new(len(row.seats), row.options, row.seed)
        states = [state]
        for _seq, seat, note in entries:
            state, _events = game.apply(state, seat, game.parse(note))
            states.append(state)
        seats = [seat for _seq, seat, _note in entries]
        cut = turns_of(game, states, seats)
        human_seats = {s.seat for s in row.seats if not s.is_ai and s.user_id is not None}
        human_ids = {h.id for h in self.humans}
        per_turn: dict[int, int] = {}
        per_move: dict[int, int] = {}
        opened: set[int] = set()  # turns in which "Your move" was pressed
        for c in self.clicks:  # a click counts for the seat's next move in the log
            nxt = next((i for i in range(c.moves_before, len(seats)) if seats[i] == c.seat), None)
            if nxt is None:
                continue  # clicks after the seat's last move (the game ended meanwhile)
            per_move[nxt] = per_move.get(nxt, 0) + 1
            turn = cut.turn_of_move[nxt]
            per_turn[turn] = per_turn.get(turn, 0) + 1
            if c.opened:
                opened.add(turn)
        human_turns = [t for t, s in enumerate(cut.seat_of_turn) if s in human_seats]
        clicked = [per_turn[t] for t in human_turns if t in per_turn]
        thread = [
            m
            for m in self.standin.log
            if m.seq > self._mark and m.channel_id == self.table.thread_id and self.standin.is_public(m)
        ]
        boards = [m for m in thread if self.table.is_board(m)]
        shown = [board_move(m) for m in boards]
        private = [
            m
            for m in self.standin.log
            if m.seq > self._mark and m.ephemeral and m.interaction_user_id in human_ids
        ]
        answered = [c.seconds for c in self.clicks if c.seconds is not None]
        after = [m for m in self.standin.log if m.seq > self._mark]
        places = [m for m in after if any(self._turn_in_place(m, h) for h in human_ids)]
        newest = {m.channel_id: m for m in places}  # the last turn message in each place
        opened_places = {m.channel_id for m in places}
        out: dict[str, Any] = {
            "game": self.key,
            "players": len(row.seats),
            "humans": len(self.humans),
            "complete": self.complete,
            "moves": len(entries),
            "turns": len(human_turns),
            "public_boards": len(boards),
            # A ping is a thread message that notifies (the issue's "229 board images ...
            # each with a ping"): a simultaneous phase's one board pings every seat in it
            # at once, which is still one ping of the thread. People notified: people_pinged.
            "pings": sum(1 for m in thread if m.pinged),
            "ping_messages": sum(1 for m in thread if m.pinged),
            "people_pinged": sum(len(m.pinged) for m in thread),
            "pings_not_to_act": wrong_pings(game, row, states, thread),
            # boards a player would not expect: no new turn since the board before (the
            # bot's moves for whoever has no choice may follow a turn's end on its board)
            "boards_inside_turns": inside_turns([0, *shown], cut.starts),
            "boards_repeated": len(shown) - len(set(shown)),
            "clicks": len(self.clicks),
            "clicks_per_turn_median": statistics.median(clicked) if clicked else None,
            "clicks_per_turn_max": max(clicked) if clicked else None,
            "private_messages": len(private),
            "seconds_per_click_p99": round(percentile(answered, 99), 3) if answered else None,
            "simultaneous_phases": cut.simultaneous_phases,
            "unanswered_clicks": len(self.clicks) - len(answered),
            "turns_played_for_them": sum(1 for t in human_turns if t not in per_turn),
            # Clicks on a private message offering one thing to press (issue 40 point 5),
            # those whose message said why the click was left to the player (the move
            # would tell a secret), and what was pressed most.
            "single_option_clicks": sum(1 for c in self.clicks if c.single),
            "single_option_clicks_for_secrets": sum(1 for c in self.clicks if c.single and c.said_why),
            "single_option_labels": Counter(c.what[:40] for c in self.clicks if c.single).most_common(4),
            # "Your move" presses, and the human turns played without one (the turn came
            # into the player's private message)
            "your_move_clicks": sum(1 for c in self.clicks if c.opened),
            "turns_in_private_message": sum(1 for t in human_turns if t in per_turn and t not in opened),
            "seconds": round(self.seconds, 1),
            "seed": self.seed,
            "slow": self.slow,
            # issue 37: notifications (a new DM, a ping) per person, those that reached
            # the player whose own click they answered, the lasting private places
            # opened and the messages put there, and older turn messages still clickable
            "notifications": sum(len(self.standin.notified(m) & human_ids) for m in after),
            "notifications_to_mover": self._to_mover,
            "places_created": len(opened_places),
            "place_messages": len(places),
            "old_place_messages_live": sum(1 for m in places if offered(m) and newest[m.channel_id] is not m),
        }
        if self.key == "dungeon-drawers":
            paths = [
                per_move.get(i, 0)
                for i, (_q, seat, note) in enumerate(entries)
                if note.startswith("path") and seat in human_seats
            ]
            out["path_clicks_max"] = max(paths) if paths else None
            out["path_clicks"] = paths
            # a build turn: a human turn begun in the build phase (take a card, draw it, turn it over)
            first = {t: cut.turn_of_move.index(t) for t in human_turns}
            builds = [
                per_turn[t] for t in human_turns if t in per_turn and states[first[t]].get("phase") == "build"
            ]
            out["build_turn_clicks_median"] = statistics.median(builds) if builds else None
            out["build_turn_clicks_max"] = max(builds) if builds else None
        return out


def inside_turns(shown: list[int | None], starts: set[int]) -> int:
    """Boards (by the move each shows, the opening board first) with no new turn since
    the board before; the same move's board twice counts too."""
    seen = [k for k in shown if k is not None]
    return sum(1 for a, b in zip(seen, seen[1:], strict=False) if not any(a < j <= b for j in starts))


def wrong_pings(game: core.Game, row: Any, states: list[dict[str, Any]], thread: list[Message]) -> int:
    """Pings of people who were not to act when the message came: on a board, the state
    after the move it shows (its file name says which); any other message (no move
    number) counts against the newest state."""
    user_of = {s.seat: s.user_id for s in row.seats if s.user_id is not None and not s.is_ai}
    wrong = 0
    for m in thread:
        if not m.pinged:
            continue
        k = board_move(m)
        state = states[k if k is not None and k < len(states) else -1]
        acting = set() if game.is_over(state) else {user_of.get(s) for s in game.to_act(state)}
        wrong += sum(1 for u in m.pinged if u not in acting)
    return wrong


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100), as bench/common.py computes it."""
    s = sorted(values)
    k = min(len(s) - 1, max(0, int(round(p / 100 * (len(s) - 1)))))
    return s[k]


async def click_game(
    standin: StandIn,
    db: Path,
    key: str,
    players: int,
    humans: int,
    seed: int,
    max_clicks: int | None = None,
    seconds: float | None = None,
    options: str | None = None,
    log: Callable[[str], None] | None = None,
    first_user: int = 26_000,
    done_bias: float | None = 1.0,
    slow: bool = False,
) -> tuple[ClickGame, dict[str, Any]]:
    """Open a game of ``players`` seats (``humans`` of them people, the rest AI), play it
    by clicks only, and return the driver and its figures. The bot must be running."""
    actors = [standin.user(first_user + i, f"player{i + 1}") for i in range(humans)]
    async with ClickGame(
        standin,
        db,
        key,
        actors,
        ais=players - humans,
        seed=seed,
        options=options,
        log=log,
        done_bias=done_bias,
        slow=slow,
    ) as g:
        await g.open()
        await g.play(max_clicks, seconds)
        return g, await g.figures()
