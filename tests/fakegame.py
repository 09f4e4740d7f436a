"""A tiny game used to test the layers above the engine without depending on a
real game: players in turn add 1-3 to a shared total; each holds a secret card
drawn at setup; the game ends when the total reaches 10. The player who reached
it scores their secret card plus 5; the others score their card."""

from __future__ import annotations

import io
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
        return {"total": state["total"], "turn": state["turn"], "cards": cards, "seats": state["seats"]}

    def status(self, state: State) -> str:
        return f"The total is {state['total']}."

    def private_text(self, state: State, seat: int) -> str:
        return f"Your secret card is {state['cards'][seat]}."

    def is_over(self, state: State) -> bool:
        return state["winner"] is not None

    def result(self, state: State) -> Result:
        scores = [c + (5 if i == state["winner"] else 0) for i, c in enumerate(state["cards"])]
        return Result(scores, core.rank(scores), [{"card": c} for c in state["cards"]])

    def ai_action(self, state: State, seat: int) -> int:
        return 3 if state["total"] >= 7 else 1


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
