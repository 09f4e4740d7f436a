"""What a Monster Inn player reads about his own turn: the private header, the private
text, the What now? choices and the notes under each option.

Found by mutation testing (docs/testing.md): each test fails on a mutant of
engine/monster_inn/views.py that every other Monster Inn test let through."""

from __future__ import annotations

import pytest

from engine.monster_inn import views
from engine.monster_inn.data import MONSTERS
from tests.monster_inn.helpers import GAME


def _with_pool(kind: str, n: int) -> dict:
    s = GAME.new(3, None, 1)
    s["pool"] = {"type": kind, "n": n}
    return s


@pytest.mark.parametrize("n", [1, 3])
def test_the_exchange_is_said_to_cost_the_pool_plus_two_of_the_other_kind(n: int) -> None:
    # "replace it with the same number of the other kind of Treasure plus 2": with the
    # pool at n gold, the exchange pays n + 2 gems (n = 2 would not tell n + 2 from 2n).
    s = _with_pool("gold", n)
    seat = s["turn"]
    s["players"][seat]["gem"] = 9
    choices = " ".join(views._choices(s, seat))
    assert f"take the pool's {n} gold and pay {n + 2} gems into it" in choices
    note = views.option_notes(s, seat, ["swap"])["swap"]
    assert note.startswith(f"You get {n} gold back and pay {n + 2} gems")


def test_the_private_text_counts_each_supported_monster_once() -> None:
    # "Place 1 Treasure of your choice from your personal supply on the selected Monster":
    # one supported monster holds one treasure, and the private text says so.
    s = GAME.new(3, None, 1)
    p = s["players"][0]
    monster = next(iter(MONSTERS))
    p["monsters"] = [{"card": monster, "support": 1}, {"card": monster, "support": 0}]
    assert "; 1 more lie on your monsters as support." in views.private_text(s, 0)


def test_the_header_marks_only_the_supported_monster() -> None:
    # "This Treasure must remain on the Monster until the end of the game": the player's
    # header shows it on the monster that holds it, and on no other.
    s = GAME.new(3, None, 1)
    monster = MONSTERS[next(iter(MONSTERS))]
    s["players"][0]["monsters"] = [{"card": monster.id, "support": 1}, {"card": monster.id, "support": 0}]
    label = f"{monster.letter}{monster.value}"
    assert f"Your monsters: {label} (+1), {label}." in views.header(s, 0, True)


def test_the_header_shows_pool_and_deck_while_the_game_runs_and_not_after() -> None:
    s = _with_pool("gem", 2)
    running = views.header(s, 0, True)
    assert "Pool: 2 gems." in running and "Deck: " in running
    s["over"] = True
    done = views.header(s, 0, True)
    assert "Pool:" not in done and "Deck:" not in done


def test_the_bonus_options_say_how_many_are_left_in_the_supply() -> None:
    # "you also gain 1 Treasure of your choice from the supply": each option says how
    # many of that kind the supply still holds.
    s = GAME.new(3, None, 1)
    s["supply"] = {"gold": 4, "gem": 1}
    notes = views.option_notes(s, 0, ["bonus-gold", "bonus-gem"])
    assert notes == {
        "bonus-gold": "From the supply (4 left there).",
        "bonus-gem": "From the supply (1 left there).",
    }


def test_what_now_says_what_the_inn_holds_and_what_leaving_takes() -> None:
    # "Each Dungeon Master gains exactly 1 Creature each round": What now? counts the
    # creatures in the inn and names the one the next to leave takes.
    s = GAME.new(3, None, 1)
    first = views._phase(s).split(". ", 1)[1]
    assert first.startswith(
        f"The inn holds {len(s['inn'])} creatures; whoever leaves next takes the leftmost, "
    )
    answer = views.what_now(s, s["turn"], [s["turn"]])
    assert f"The inn holds {len(s['inn'])} creatures" in answer and "Your choices:" in answer
