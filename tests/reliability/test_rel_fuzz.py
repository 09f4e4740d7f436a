"""A fuzzer of malformed and hostile input for every installed game: typed
notation (engine and Tables.act), option values at Tables.create, and the
custom_ids of the persistent buttons. Never a crash: always a clear sentence
(IllegalAction / TableError), and nothing saved."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest

from cogs.components import DYNAMIC_ITEMS
from engine import core
from engine.core import IllegalAction
from store import Store
from tables import TableError, Tables, parse_options
from tests.playout import random_states
from tests.reliability._hostile import (
    BAD_KEYS,
    BAD_VALUES,
    HUGE_IDS,
    OPTION_TEXTS,
    custom_ids,
    hostile_texts,
    mutate,
    random_custom_id,
    random_options,
)
from tests.reliability._util import clear_sentence, keys, new_table, record, size, style_problem, user_of

SLOW_CASE_S = 2.0  # a single input taking longer than this is a denial of service


def where(exc: BaseException) -> str:
    import traceback

    tb = traceback.extract_tb(exc.__traceback__)[-1]
    return f"{type(exc).__name__} at {tb.filename.split('/main/')[-1]}:{tb.lineno}"


def report(
    test: str,
    key: str,
    bucket: str,
    cases: int,
    refused: int,
    accepted: int,
    slowest: float,
    crashes: list[tuple[str, str, str]],
) -> None:
    """A fuzz test's figures for one game (with the style problems seen in ``bucket``),
    then no crash allowed."""
    record(
        test,
        game=key,
        cases=cases,
        refused=refused,
        accepted=accepted,
        crashes=len(crashes),
        crash_kinds=sorted({c[1] for c in crashes}),
        slowest_s=round(slowest, 3),
        **style_figures(bucket),
    )
    no_crashes(key, crashes)


def no_crashes(key: str, crashes: list[tuple[str, str, str]]) -> None:
    """Every input must end in a clear refusal or a legal move: any other exception fails."""
    kinds = sorted({c[1] for c in crashes})
    assert not crashes, (
        f"{key}: {len(crashes)} inputs crashed instead of a clear refusal ({'; '.join(kinds)}), "
        f"e.g. {[c[2][:60] for c in crashes[:3]]}"
    )


# Style problems seen, per test and game: (kind, example input, sentence), reported in the figures.
STYLE: dict[str, list[tuple[str, str, str]]] = {}


def check_sentence(text: str, what: str, bucket: str = "") -> None:
    """A refusal is a clear sentence. What a player reads (anything from Tables) must
    also be one short line without the control characters of a hostile input; the
    engines' own texts (which Tables cleans) only have their style counted."""
    why = clear_sentence(text)
    assert why is None, f"{what}: refusal is not a clear sentence ({why}): {text[:200]!r}"
    soft = style_problem(text)
    if bucket.startswith("engine:"):
        if soft:
            STYLE.setdefault(bucket, []).append((soft, what[:80], text[:120]))
    else:
        assert soft is None, f"{what}: a player would read a refusal that is {soft}: {text[:200]!r}"


def style_figures(bucket: str) -> dict[str, Any]:
    seen = STYLE.get(bucket, [])
    kinds: dict[str, int] = {}
    for kind, _, _ in seen:
        kinds[kind] = kinds.get(kind, 0) + 1
    return {"style_problems": kinds, "style_examples": [list(e) for e in seen[:3]]}


@pytest.mark.parametrize("key", keys())
def test_engine_refuses_hostile_notation_cleanly(key: str) -> None:
    game = core.get(key)
    rnd = random.Random(f"fuzz:{key}")
    total = size(300, 10_000)
    states = random_states(game, 5, size(6, 40))
    cases = refused = accepted = 0
    slowest = 0.0
    crashes: list[tuple[str, str, str]] = []
    for i, state in enumerate(states):
        seats = sorted(game.to_act(state))
        legal = [game.format(a) for s in seats for a in game.legal_actions(state, s)]
        frozen = json.dumps(state, sort_keys=True)
        per_state = total // len(states) + (1 if i < total % len(states) else 0)
        for text in hostile_texts(rnd, legal, per_state):
            cases += 1
            t = time.perf_counter()
            try:
                action = game.parse(text.strip())
            except IllegalAction as exc:
                check_sentence(str(exc), f"{key} parse({text[:60]!r})", f"engine:{key}")
                refused += 1
                continue
            except Exception as exc:  # noqa: BLE001 - a crash is what the fuzzer looks for
                crashes.append((type(exc).__name__, where(exc), text))
                continue
            finally:
                slowest = max(slowest, time.perf_counter() - t)
            seat = rnd.choice(seats)
            try:
                game.apply(state, seat, action)
                accepted += 1
                json.dumps(game.format(action))  # what the log would store
            except IllegalAction as exc:
                check_sentence(str(exc), f"{key} apply({text[:60]!r})", f"engine:{key}")
                refused += 1
            except Exception as exc:  # noqa: BLE001
                crashes.append((type(exc).__name__, where(exc), text))
            assert json.dumps(state, sort_keys=True) == frozen, (
                f"{key}: apply({text[:60]!r}) changed the state"
            )
    assert slowest < SLOW_CASE_S, f"{key}: one input took {slowest:.2f} s"
    report("fuzz_engine", key, f"engine:{key}", cases, refused, accepted, slowest, crashes)


async def snapshot(t: Tables, gid: int) -> tuple[int, int, str, str]:
    row = await t.store.get(gid)
    assert row is not None
    return row.version, row.moves, row.status, json.dumps(row.state, sort_keys=True)


@pytest.fixture
async def tables(db_target: str):  # type: ignore[no-untyped-def]
    store = await Store(db_target).open()
    yield Tables(store)
    await store.close()


@pytest.mark.parametrize("key", keys())
async def test_tables_refuse_hostile_moves_and_save_nothing(key: str, tables: Tables) -> None:
    t = tables
    game = core.get(key)
    rnd = random.Random(f"tables:{key}")
    total = size(60, 10_000)
    gid, users = await new_table(t, key, seed=11)
    cases = refused = accepted = 0
    slowest = 0.0
    crashes: list[tuple[str, str, str]] = []
    while cases < total:
        row = await t.store.get(gid)
        assert row is not None and row.state is not None
        if row.status != "active":
            gid, users = await new_table(t, key, seed=11 + cases)
            continue
        seats = sorted(game.to_act(row.state))
        legal = [game.format(a) for s in seats for a in game.legal_actions(row.state, s)]
        for text in hostile_texts(rnd, legal, min(50, total - cases)):
            cases += 1
            seat = rnd.choice(seats)
            user = rnd.choice([users[seat], users[seat], users[(seat + 1) % len(users)], 424242])
            before = await snapshot(t, gid)
            moves_before = len(await t.store.log(gid))
            t0 = time.perf_counter()
            try:
                await t.act(gid, user, text)
                accepted += 1
                slowest = max(slowest, time.perf_counter() - t0)
                break  # the game moved on: fetch the new state
            except TableError as exc:
                slowest = max(slowest, time.perf_counter() - t0)
                check_sentence(str(exc), f"{key} /play {text[:60]!r}", f"tables:{key}")
                refused += 1
            except Exception as exc:  # noqa: BLE001 - the player would get "Something went wrong"
                crashes.append((type(exc).__name__, where(exc), text))
            assert await snapshot(t, gid) == before, f"{key}: a refused /play {text[:60]!r} changed the game"
            assert len(await t.store.log(gid)) == moves_before
        else:
            # Move on with a legal move now and then, so many different states are fuzzed.
            seat = rnd.choice(seats)
            await t.act(gid, users[seat], game.format(rnd.choice(game.legal_actions(row.state, seat))))
    assert slowest < SLOW_CASE_S, f"{key}: one /play took {slowest:.2f} s"
    report("fuzz_tables", key, f"tables:{key}", cases, refused, accepted, slowest, crashes)


@pytest.mark.parametrize("key", keys())
async def test_hostile_options_are_refused_or_harmless(key: str, tables: Tables) -> None:
    t = tables
    game = core.get(key)
    cases: list[dict[str, Any]] = [{k: True} for k in BAD_KEYS]
    for name in game.options:
        cases += [{name: v} for v in BAD_VALUES]
    cases += [{"setup": v} for v in BAD_VALUES[:6]]
    refused = accepted = text_refused = 0
    # Then random ones: real names with offered, hostile and mutated values, and
    # mutated "name=value" texts through the cog's parser (10,000 per game at full size).
    rnd = random.Random(f"options:{key}")
    choices = {n: tuple(o.choices) for n, o in game.options.items()}
    extra = size(30, 10_000)
    cases += [random_options(rnd, choices) for _ in range(extra // 2)]
    offered = [f"{n}={str(v).lower()}" for n, o in game.options.items() for v in o.choices] or ["x=1"]
    random_texts = [
        mutate(rnd, " ".join(rnd.sample(offered, min(2, len(offered))))) for _ in range(extra - extra // 2)
    ]
    for text in [*OPTION_TEXTS, *(f"{n}=garbage" for n in game.options), *random_texts]:
        try:
            cases.append(parse_options(text))
        except TableError as exc:
            check_sentence(str(exc), f"options {text[:60]!r}")
            refused += 1
            text_refused += 1
    n_before = await t.store.count()
    for opts in cases:
        try:
            lobby = await t.create(1, "host", key, opts, seed=3)
        except TableError as exc:
            check_sentence(str(exc), f"{key} options {str(opts)[:80]}")
            assert await t.store.count() == n_before, f"{key}: refused options {opts!r} saved a game"
            refused += 1
            continue
        accepted += 1
        # Accepted: only real options with values the game offers, and the game starts and plays.
        assert "setup" not in lobby.options
        for k, v in lobby.options.items():
            assert k in game.options and v in game.options[k].choices, (k, v)
        for s in range(1, game.min_players):
            await t.join(lobby.game_id, user_of(lobby.game_id, s), f"p{s}")
        update = await t.start(lobby.game_id, 1)
        assert update.png is not None
        n_before = await t.store.count()
    record(
        "fuzz_options",
        game=key,
        cases=len(cases) + text_refused,
        refused=refused,
        accepted=accepted,
        crashes=0,
    )


def templates() -> dict[str, Any]:
    return {cls.__name__: cls.__discord_ui_compiled_template__ for cls in DYNAMIC_ITEMS}


async def click(t: Tables, custom_id: str, user: int) -> str | None:
    """What the button's callback would ask of Tables; None if no template matches
    (discord.py then ignores the click)."""
    for name, pattern in templates().items():
        m = pattern.fullmatch(custom_id)
        if m is None:
            continue
        gid = int(m["gid"])
        if name == "MoveButton":
            await t.act(gid, user, button=(int(m["ver"]), int(m["n"])))
        elif name == "HandButton":
            await t.hand(gid, user)
        elif name == "ChooseButton":
            await t.panel(gid, user, int(m["ver"]))
        elif name == "StepButton" and m["op"] == "done":
            await t.choose_done(gid, user, int(m["ver"]), int(m["depth"]))
        elif name == "StepButton":
            await t.choose(gid, user, int(m["ver"]), int(m["depth"]), m["op"], int(m["n"]))
        elif name == "StepSelect":
            await t.choose(gid, user, int(m["ver"]), int(m["depth"]), "pick", 0)
        elif name == "AddAISelect":
            await t.add_ai(gid, user, "easy")
        else:
            op = {"join": t.join, "leave": t.leave, "ai": t.add_ai}
            if m["op"] == "start":
                await t.start(gid, user)
            elif m["op"] == "join":
                await t.join(gid, user, "someone")
            else:
                await op[m["op"]](gid, user)
        return name
    return None


@pytest.mark.parametrize("key", keys())
async def test_hostile_custom_ids_are_refused_cleanly(key: str, tables: Tables) -> None:
    t = tables
    gid, users = await new_table(t, key, seed=21)
    lobby = await t.create(users[0], "host", key, seed=22)
    counts = {"matched": 0, "refused": 0, "ignored": 0}

    async def press(cid: str, user: int) -> None:
        # A hostile id may point at either game: a refusal must leave both as they were.
        before = [await snapshot(t, g) for g in (gid, lobby.game_id)]
        try:
            name = await click(t, cid, user)
        except TableError as exc:
            check_sentence(str(exc), f"custom_id {cid[:60]!r}")
            counts["refused"] += 1
            after = [await snapshot(t, g) for g in (gid, lobby.game_id)]
            assert after == before, f"refused {cid!r} changed a game"
            return
        counts["ignored" if name is None else "matched"] += 1

    for target in (gid, lobby.game_id):
        row = await t.store.get(target)
        assert row is not None
        for cid in custom_ids(target, row.version):
            for user in (*users, 99):
                await press(cid, user)
    # Then random mutations of this game's real buttons (10,000 per game at full size),
    # clicked by a seated player or a stranger.
    rnd = random.Random(f"custom_ids:{key}")
    for _ in range(size(30, 10_000)):
        row = await t.store.get(gid)
        assert row is not None
        valid = [f"lk:mv:{gid}:{row.version}:{i}" for i in range(3)]
        valid += [f"lk:hand:{gid}", f"lk:lobby:{lobby.game_id}:join", f"lk:lobby:{lobby.game_id}:start"]
        await press(random_custom_id(rnd, valid), rnd.choice([*users, 99]))
    matched, refused, ignored = counts["matched"], counts["refused"], counts["ignored"]
    record(
        "fuzz_custom_ids",
        game=key,
        cases=matched + refused + ignored,
        matched_and_done=matched,
        refused=refused,
        no_template=ignored,
        crashes=0,
    )


async def test_custom_id_with_a_huge_game_number(tables: Tables) -> None:
    for cid in HUGE_IDS:
        try:
            assert await click(tables, cid, 1) is not None
        except TableError as exc:
            check_sentence(str(exc), cid)
