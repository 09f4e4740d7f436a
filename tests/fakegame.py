"""A tiny game used to test the layers above the engine without depending on a
real game: players in turn add 1-3 to a shared total; each holds a secret card
drawn at setup; the game ends when the total reaches 10. The player who reached
it scores their secret card plus 5; the others score their card."""

from __future__ import annotations

import io
import random
from typing import Any

from PIL import Image, ImageDraw

from engine import core
from engine.core import Event, IllegalAction, Result, Rng, State
from render import Renderer, register


class Race(core.Game):
    key = "test-race"
    title = "Race to Ten"
    min_players = 2
    max_players = 4
    options = {"open_cards": core.Option(False, "show every secret card")}

    def _setup(self, state: State, setup: Any) -> None:
        deck = list(range(1, 10))
        Rng(state).shuffle(deck)
        state.update(total=0, turn=0, cards=deck[: state["seats"]], winner=None)

    def to_act(self, state: State) -> set[int]:
        return set() if self.is_over(state) else {state["turn"] % state["seats"]}

    def legal_actions(self, state: State, seat: int) -> list[int]:
        return [n for n in (1, 2, 3)] if seat in self.to_act(state) else []

    def _apply(self, state: State, seat: int, action: int) -> list[Event]:
        if action not in (1, 2, 3):
            raise IllegalAction("You may add 1, 2 or 3.")
        state["total"] += action
        if state["total"] >= 10:
            state["winner"] = seat
        state["turn"] += 1
        return [
            Event(f"Seat {seat + 1} adds {action}; the total is {state['total']}."),
            Event(f"Your card is still {state['cards'][seat]}.", seat),
        ]

    def parse(self, text: str) -> int:
        if text.strip() not in ("1", "2", "3"):
            raise IllegalAction("Type 1, 2 or 3.")
        return int(text)

    def format(self, action: int) -> str:
        return str(action)

    def describe(self, state: State, action: int) -> str:
        return f"Add {action}"

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        cards = [
            c if (seat == i or state["options"]["open_cards"] or self.is_over(state)) else None
            for i, c in enumerate(state["cards"])
        ]
        return {
            "total": state["total"],
            "turn": state["turn"],
            "cards": cards,
            "seats": state["seats"],
            "viewer": seat,
        }

    def status(self, state: State) -> str:
        return f"The total is {state['total']}."

    def private_text(self, state: State, seat: int) -> str:
        return f"Your secret card is {state['cards'][seat]}."

    def is_over(self, state: State) -> bool:
        return state["winner"] is not None

    def result(self, state: State) -> Result:
        scores = [c + (5 if i == state["winner"] else 0) for i, c in enumerate(state["cards"])]
        return Result(scores, core.rank(scores), [{"card": c} for c in state["cards"]])

    # The computer player sees what a player sees (core.Game.ai_action gives it the
    # seat's view and legal moves), like the real games' ai.py.
    def ai_choose(self, view: dict[str, Any], legal: list[Any], rnd: random.Random) -> int:
        return 3 if view["total"] >= 7 else 1

    # ---- search (engine/search.py): a game that can be searched without an ai.py ----
    def sample(self, view: dict[str, Any], rnd: random.Random) -> State:
        """The secret cards nobody showed this seat, dealt from the cards it has not seen."""
        unseen = [c for c in range(1, 10) if c not in view["cards"]]
        rnd.shuffle(unseen)
        cards = [c if c is not None else unseen.pop() for c in view["cards"]]
        return {
            "game": self.key,
            "seats": view["seats"],
            "options": {"open_cards": False},
            "rng": {"seed": rnd.randrange(2**31), "n": 1},
            "revision": 2,
            "total": view["total"],
            "turn": view["turn"],
            "cards": cards,
            "winner": None,
        }

    def evaluate(self, state: State, seat: int) -> float:
        if self.is_over(state):
            from engine.search import terminal_value

            return terminal_value(self, state, seat)
        return 0.5

    def rollout_action(self, state: State, seat: int, rnd: random.Random) -> Any:
        return self.ai_choose(self.view(state, seat), self.legal_actions(state, seat), rnd)

    def search_params(self) -> Any:
        from engine.search import Params

        return Params()

    def search_moves(
        self,
        view: dict[str, Any],
        legal: list[Any],
        rnd: random.Random,
        wide: float = 1.0,
        settle: int = 0,
        deadline: float | None = None,
    ) -> list[Any]:
        return legal


def render(view: dict[str, Any]) -> bytes:
    img = Image.new("RGB", (200, 60), (0, 0, 0))
    d = ImageDraw.Draw(img)
    d.text((5, 5), f"total {view['total']} cards {view['cards']}", fill=(255, 255, 255))
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


RENDERER = Renderer(board=lambda view, names: render(view))


def install() -> None:
    core._loaded[Race.key] = Race()
    core.MODULES.setdefault(Race.key, "fakegame")
    register(Race.key, RENDERER)
    install_turns()


class Turns(Race):
    """A game whose turns have several moves (issue 26): a seat adds 1-3 (``1``-``3``),
    then marks the total high or low (``4``/``5``; only high when the total is odd:
    a person's only move, which reveals nothing); then the next seat. After every
    second round all seats vote at once (``6``/``7``, secret until all are in): ONE
    turn id for the whole vote. Ends when the total reaches 15 after a mark."""

    key = "test-turns"
    title = "Turns to Fifteen"

    def _setup(self, state: State, setup: Any) -> None:
        super()._setup(state, setup)
        state.update(stage="add", votes={}, round=0, result=[])

    def to_act(self, state: State) -> set[int]:
        if self.is_over(state):
            return set()
        if state["stage"] == "vote":
            return set(range(state["seats"])) - {int(s) for s in state["votes"]}
        return {state["turn"] % state["seats"]}

    def turn_id(self, state: State) -> str:
        if state["stage"] == "vote":
            return f"vote {state['round']}"
        return f"seat {state['turn'] % state['seats']} turn {state['turn']}"

    def legal_actions(self, state: State, seat: int) -> list[int]:
        if seat not in self.to_act(state):
            return []
        if state["stage"] == "add":
            return [1, 2, 3]
        if state["stage"] == "mark":
            return [4] if state["total"] % 2 else [4, 5]
        return [6, 7]

    def _apply(self, state: State, seat: int, action: int) -> list[Event]:
        if action not in self.legal_actions(state, seat):
            raise IllegalAction("That is not one of your moves now.")
        ref = core.seat_ref(seat)
        if state["stage"] == "add":
            state["total"] += action
            state["stage"] = "mark"
            return [Event(f"{ref} adds {action}; the total is {state['total']}.")]
        if state["stage"] == "mark":
            word = "high" if action == 4 else "low"
            state["result"].append(word)
            state["turn"] += 1
            state["stage"] = "add"
            if state["total"] >= 15:
                state["winner"] = seat
            elif state["turn"] % state["seats"] == 0:
                state["round"] += 1
                if state["round"] % 2 == 0:
                    state["stage"] = "vote"
            return [Event(f"{ref} marks the total {word}.")]
        state["votes"][str(seat)] = action
        events = [
            Event(f"{ref} has voted."),
            Event(f"You voted {'aye' if action == 6 else 'nay'} in secret.", seat),
        ]
        if len(state["votes"]) == state["seats"]:
            ayes = sum(1 for v in state["votes"].values() if v == 6)
            events.append(Event(f"The votes are in: {ayes} aye, {state['seats'] - ayes} nay."))
            state.update(stage="add", votes={})
        return events

    def parse(self, text: str) -> int:
        if text.strip() not in ("1", "2", "3", "4", "5", "6", "7"):
            raise IllegalAction("Type a number from 1 to 7.")
        return int(text)

    def describe(self, state: State, action: int) -> str:
        return {4: "Mark high", 5: "Mark low", 6: "Vote aye", 7: "Vote nay"}.get(action, f"Add {action}")

    def header(self, state: State, seat: int) -> str:
        return f"Your card: {state['cards'][seat]}. Total: {state['total']}."

    def ai_choose(self, view: dict[str, Any], legal: list[Any], rnd: random.Random) -> int:
        return int(legal[-1])

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        # Who has voted is said in the thread ("has voted"); how, only to the voter.
        votes = state["votes"]
        return {
            **super().view(state, seat),
            "stage": state["stage"],
            "round": state["round"],
            "result": list(state["result"]),
            "voted": sorted(int(s) for s in votes),
            "my_vote": votes.get(str(seat)) if seat is not None else None,
        }

    def sample(self, view: dict[str, Any], rnd: random.Random) -> State:
        """Race's deal, and the votes of the others who have voted dealt at random."""
        state = super().sample(view, rnd)
        me = view["viewer"]
        votes = {str(s): (view["my_vote"] if s == me else rnd.choice((6, 7))) for s in view["voted"]}
        state.update(stage=view["stage"], round=view["round"], result=list(view["result"]), votes=votes)
        return state


def install_turns() -> None:
    core._loaded[Turns.key] = Turns()
    core.MODULES.setdefault(Turns.key, "fakegame")
    register(Turns.key, RENDERER)
