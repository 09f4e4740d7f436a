"""Secrets over many random games: nothing hidden reaches a public message or image.

Games differ in what they hide, so the test finds hidden information itself:
from a real state S it builds variants S' by swapping two leaf values of the
state (a card in a hand with one in the deck, two face-down tiles, ...). A
variant whose public view (``view(S', None)``) equals S's differs only in what
the public may not see. For every such pair, everything the bot shows in the
game's thread must be the same for S and S':

- the status sentence and the public board PNG (byte for byte);
- after the same move in both, when the public views still agree (leaving out
  the move's own event texts, which a view may keep in a log): the public event
  texts, the status and the move's public notation (``/history``);
- and through Tables: the whole board update (text, PNG, buttons) and the
  update after the same move, for pairs written into a real database.

(Move choices are offered privately behind a "Your move" button, so the labels
of legal moves - which depend on a player's own secrets - are not public.)
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from engine import core
from engine.core import IllegalAction
from render import default_names
from render import get as renderer
from store import Store
from tables import Tables
from tests.playout import random_states
from tests.reliability._util import games_at, keys, new_table, record, size

SKIP_TOP = {"rng", "options", "game", "seats"}
Path_ = tuple[Any, ...]


def leaves(node: Any, path: Path_ = ()) -> Iterator[tuple[Path_, Any]]:
    if isinstance(node, dict):
        for k, v in node.items():
            if path or k not in SKIP_TOP:
                yield from leaves(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from leaves(v, (*path, i))
    elif isinstance(node, (str, int)) and not isinstance(node, bool):
        yield path, node


def put(state: dict[str, Any], path: Path_, value: Any) -> None:
    node: Any = state
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value


# Leaves that only record, as text, what other parts of the state already hold. Swapping
# one makes a state no game can reach (its record and its facts disagree), and the move
# that announces the record then "leaks" a difference that cannot exist. "*" matches any
# key or index.
DERIVED: dict[str, list[Path_]] = {
    # The texts of what the player has drawn for the card being turned over: the same
    # drawings are in the sheet (compared to pending/before), and swapped there.
    "dungeon-drawers": [("players", "*", "pending", "log", "*")],
}


def derived(key: str, path: Path_) -> bool:
    return any(
        len(pat) == len(path) and all(a == "*" or a == b for a, b in zip(pat, path, strict=True))
        for pat in DERIVED.get(key, [])
    )


def variants(state: dict[str, Any], rnd: random.Random, tries: int, key: str) -> Iterator[dict[str, Any]]:
    """States with two same-typed leaves swapped (keeps every multiset of cards intact)."""
    flat = [(p, v) for p, v in leaves(state) if not derived(key, p)]
    by_type: dict[type, list[tuple[Path_, Any]]] = {}
    for p, v in flat:
        by_type.setdefault(type(v), []).append((p, v))
    pools = [v for v in by_type.values() if len(v) > 1]
    if not pools:
        return
    for _ in range(tries):
        pool = rnd.choice(pools)
        (p1, v1), (p2, v2) = rnd.sample(pool, 2)
        if v1 == v2:
            continue
        s2 = json.loads(json.dumps(state))
        put(s2, p1, v2)
        put(s2, p2, v1)
        yield s2


def safe(f: Any, *a: Any) -> Any:
    """A swapped state may break the game's own invariants; such variants are skipped."""
    try:
        return f(*a)
    except Exception:  # noqa: BLE001
        return None


def public_events(events: list[core.Event]) -> list[str]:
    return [e.text for e in events if e.seat is None]


def without_texts(view: Any, texts: set[str]) -> Any:
    """``view`` with every string in ``texts`` replaced by one mark. A view that keeps
    a log of public events (Dungeon Lords keeps the Combat's) would otherwise differ
    after the move exactly where the events differ, and the pair would be passed as
    "the move revealed it" without comparing the events at all."""
    if isinstance(view, dict):
        return {k: without_texts(v, texts) for k, v in view.items()}
    if isinstance(view, list):
        return [without_texts(v, texts) for v in view]
    return "<event>" if isinstance(view, str) and view in texts else view


@pytest.mark.parametrize("key", keys())
def test_hidden_information_never_reaches_the_public(key: str) -> None:
    game = core.get(key)
    board = renderer(key).board
    rnd = random.Random(f"secrets:{key}")
    games = size(1, 12)
    per_game = size(4, 25)
    tries = size(25, 150)
    pairs = moves_compared = pngs = 0
    problems: list[str] = []
    for g in range(games):
        for state in random_states(game, 100 + g, per_game):
            pub = game.view(state, None)
            status = game.status(state)
            png = None
            for s2 in variants(state, rnd, tries, key):
                if safe(game.view, s2, None) != pub:
                    continue  # the public may see this difference
                pairs += 1
                if png is None or pairs % 10 == 0:  # rendering is the slow part: every 10th pair
                    png = board(pub, default_names(state["seats"]))
                    assert board(game.view(s2, None), default_names(state["seats"])) == png, (
                        f"{key}: public PNG differs"
                    )
                    pngs += 1
                st2 = safe(game.status, s2)
                if st2 is not None and st2 != status:
                    problems.append(f"status: {status!r} vs {st2!r}")
                for seat in sorted(game.to_act(state)):
                    for a in rnd.sample(game.legal_actions(state, seat), 1):
                        pf = game.public_format(state, seat, a)
                        pf2 = safe(game.public_format, s2, seat, a)
                        if pf2 is not None and pf2 != pf:
                            problems.append(f"public notation: {pf!r} vs {pf2!r}")
                        after, ev = game.apply(state, seat, a)
                        try:
                            after2, ev2 = game.apply(s2, seat, a)
                        except IllegalAction:
                            continue
                        except Exception:  # noqa: BLE001 - an inconsistent variant
                            continue
                        texts = set(public_events(ev)) | set(public_events(ev2))
                        if without_texts(safe(game.view, after2, None), texts) != without_texts(
                            game.view(after, None), texts
                        ):
                            continue  # the move revealed the difference: fine
                        moves_compared += 1
                        if public_events(ev) != public_events(ev2):
                            problems.append(f"public events: {public_events(ev)} vs {public_events(ev2)}")
                        if safe(game.status, after2) != game.status(after):
                            problems.append("status after the move differs")
    record(
        "secrets_engine",
        game=key,
        games=games,
        states=games * per_game,
        hidden_variants=pairs,
        moves_compared=moves_compared,
        pngs_compared=pngs,
        leaks=len(problems),
        examples=problems[:3],
    )
    assert pairs > 0 or not any(game.view(s, 0) != game.view(s, None) for s in random_states(game, 1, 5))
    assert not problems, f"{key}: {len(problems)} leaks, e.g. {problems[:3]}"


@pytest.mark.parametrize("key", keys())
async def test_tables_updates_hide_secrets(key: str, db_target: str) -> None:
    game = core.get(key)
    rnd = random.Random(f"tables-secrets:{key}")
    store = await Store(db_target).open()
    t = Tables(store)
    want = size(2, 40)
    found = compared_moves = skipped_turn = 0
    t0 = time.perf_counter()
    try:
        for g in range(40):
            if found >= want:
                break
            for state in random_states(game, 500 + g, 6):
                pub = game.view(state, None)
                s2 = next(
                    (v for v in variants(state, rnd, 200, key) if safe(game.view, v, None) == pub), None
                )
                if s2 is None or safe(game.status, s2) is None:
                    continue
                if safe(game.to_act, s2) != game.to_act(state):
                    skipped_turn += 1  # whose turn is public in the thread; the view may omit it
                    continue
                found += 1
                (a, users_a), (b, users_b) = await games_at(t, key, state, s2)
                ua, ub = await t.board(a), await t.board(b)
                pa, pb = [users_a.index(u) for u in ua.ping], [users_b.index(u) for u in ub.ping]
                assert (ua.text, ua.png, ua.choose, pa) == (ub.text, ub.png, ub.choose, pb), (
                    f"{key}: the public board differs with hidden information: {ua.text!r} vs {ub.text!r}"
                )
                seat = min(game.to_act(state))
                act = rnd.choice(game.legal_actions(state, seat))
                try:
                    game.apply(s2, seat, act)
                except Exception:  # noqa: BLE001 - not legal in the variant
                    break
                ua = await t.act(a, users_a[seat], game.format(act))
                ub = await t.act(b, users_b[seat], game.format(act))
                ra, rb = await store.get(a), await store.get(b)
                assert ra is not None and rb is not None
                if game.view(ra.state, None) == game.view(rb.state, None):  # type: ignore[arg-type]
                    compared_moves += 1
                    assert ua.text == ub.text, f"{key}: public text leaks: {ua.text!r} vs {ub.text!r}"
                    pa, pb = [users_a.index(u) for u in ua.ping], [users_b.index(u) for u in ub.ping]
                    assert ua.png == ub.png and ua.choose == ub.choose and pa == pb
                break
    finally:
        await store.close()
    record(
        "secrets_tables",
        game=key,
        hidden_pairs=found,
        moves_compared=compared_moves,
        skipped_turn_not_in_view=skipped_turn,
        seconds=round(time.perf_counter() - t0, 1),
    )


def private_texts(game: core.Game, state: dict[str, Any], events: list[core.Event]) -> set[str]:
    """What only one seat may read now: its private events, /hand text and turn header."""
    out = {e.text for e in events if e.seat is not None}
    if not game.is_over(state):
        for s in range(state["seats"]):
            out |= {game.private_text(state, s), game.header(state, s)}
    return out


@pytest.mark.parametrize("key", [*keys(), "test-turns"])
async def test_a_turns_summary_never_holds_a_secret(key: str, tmp_path: Any) -> None:
    """Issue 26 Tests: "a turn's public summary never holds what the rules keep secret".
    Whole games through Tables, every seat a person choosing at random: every turn's
    board text (and the mover's "turn so far", which is private) against every private
    text the game produced: private events, /hand texts and turn headers."""
    game = core.get(key)
    store = await Store(str(tmp_path / "s.db")).open()
    t = Tables(store)
    rnd = random.Random(f"turn-summary:{key}")
    secrets: set[str] = set()
    public: set[str] = set()
    boards: list[str] = []
    try:
        gid, users = await new_table(t, key, seed=41)
        for _ in range(size(150, 2000)):
            row = await store.get(gid)
            assert row is not None and row.state is not None
            if row.status != "active":
                break
            seat = rnd.choice(sorted(game.to_act(row.state)))
            action = rnd.choice(game.legal_actions(row.state, seat))
            after, events = game.apply(row.state, seat, action)
            secrets |= private_texts(game, row.state, events)
            public |= {e.text for e in events if e.seat is None} | {game.status(row.state)}
            update = await t.act(gid, users[seat], game.format(action))
            if update.post:
                boards.append(update.text)
                await t.mark_posted(update)
    finally:
        await store.close()
    named = {Tables.named(row, s) for s in secrets} | secrets
    lines = {ln.strip() for s in named for ln in s.splitlines() if len(ln.strip()) >= 12}
    shown = {Tables.named(row, p) for p in public} | public
    checked = {s for s in named | lines if s and s not in shown and not any(s in p for p in shown)}
    for text in boards:
        for secret in checked:
            assert secret not in text, f"{key}: private text {secret!r} in a turn's board: {text!r}"
    record("secrets_turn_summary", game=key, boards=len(boards), secrets_checked=len(checked))
    assert boards, "no board was posted: nothing was checked"


# ---- computer players (issue 30): what a thinking worker receives ----------------------


@pytest.mark.parametrize("key", ["test-race", *core.available()])
async def test_a_computer_players_job_holds_only_its_seats_view(key: str, tmp_path: Any) -> None:
    """Every job a computer player's worker receives, captured as it is sent (pickled,
    as a process pool sends it), is exactly (game, the seat's view, its legal moves,
    a seed, the level): a state that differs only in what the seat cannot see gives
    the same bytes, and neither the game's random seed nor anything else of the state
    is in it. The players are "hard" (searching) ones; the worker here answers with
    the easy player's move, so whole games play in seconds."""
    import pickle

    from tables import thinking

    game = core.get(key)
    sent: list[tuple[dict[str, Any], int, bytes]] = []
    real_job_for = thinking.job_for

    def capture(g: core.Game, state: dict[str, Any], seat: int, level: str) -> thinking.Job:
        job = real_job_for(g, state, seat, level)
        sent.append((json.loads(json.dumps(state)), seat, pickle.dumps(job)))
        return job

    import tables.play

    store = await Store(str(tmp_path / "ai.db")).open()
    t = Tables(store, thinker=thinking.Thinker(0, run=thinking.easy))
    try:
        # Patched where step_ai looks it up: the jobs Tables really sends.
        orig = tables.play.job_for
        tables.play.job_for = capture  # type: ignore[assignment]
        try:
            # Seeds of nine digits: a seed found in a job's bytes is no coincidence.
            for seed in range(987_654_321, 987_654_321 + size(2, 10)):
                lobby = await t.create(0, "host", key, seed=seed, take_seat=False)
                for _ in range(game.min_players):
                    await t.add_ai(lobby.game_id, 0, "hard")
                await t.start(lobby.game_id, None, run_ai=False)
                for _ in range(size(60, 400)):
                    if await t.step_ai(lobby.game_id) is None:
                        break
        finally:
            tables.play.job_for = orig  # type: ignore[assignment]
    finally:
        t.close()
        await store.close()
    assert sent, "the computer players were asked nothing"
    rnd = random.Random(7)
    compared = 0
    for state, seat, blob in sent[:: max(1, len(sent) // size(40, 400))]:
        job = pickle.loads(blob)
        assert job == thinking.Job(
            key,
            game.view(state, seat),
            game.legal_actions(state, seat),
            thinking.ai_seed(state, seat),
            "hard",
        ), "a job is the seat's view, legal moves, seed and level, nothing more"
        assert str(state["rng"]["seed"]).encode() not in blob, "the game's random seed never reaches a worker"
        assert re.fullmatch(r"[0-9a-f]{64}", job.seed), "the seed is a digest, not the game's randomness"
        for other in variants(state, rnd, size(30, 200), key):
            if safe(game.view, other, seat) != job.view:
                continue  # the seat would see the difference
            same = safe(real_job_for, game, other, seat, "hard")
            if same is None:
                continue
            compared += 1
            assert same.legal == job.legal, "legal moves depend on what the seat cannot see"
            assert same.seed == job.seed, "the seed depends on what the seat cannot see"
            assert pickle.dumps(same) == blob, "what the seat cannot see changed what the worker receives"
    assert compared or key != "test-race", "no pair of states differing in a secret was compared"
    record("ai_jobs_hide_secrets", game=key, jobs=len(sent), secret_pairs=compared)


def shown(panel: Any) -> Any:
    """What a seat's lasting private place shows of its turn (cogs/place.py builds the
    message from the panel): everything but the ids of the game and version."""
    import dataclasses

    out = dataclasses.asdict(panel)
    out.pop("game_id"), out.pop("version")
    if out["step"] is not None:
        out["step"].pop("game_id"), out["step"].pop("version")
    return out


@pytest.mark.parametrize("key", keys())
async def test_a_seats_place_shows_only_its_seats_view(key: str, db_target: str) -> None:
    """Issue 37: a turn put into a seat's lasting private place (a DM or a private
    thread) is the same for two states that seat cannot tell apart: swapping what the
    other seats hide (or what nobody sees) changes nothing in that seat's place."""
    game = core.get(key)
    rnd = random.Random(f"place-secrets:{key}")
    store = await Store(db_target).open()
    t = Tables(store)
    want, found = size(2, 30), 0
    try:
        for g in range(30):
            if found >= want:
                break
            for state in random_states(game, 700 + g, 6):
                seat = min(game.to_act(state))
                mine = game.view(state, seat)
                s2 = next(
                    (v for v in variants(state, rnd, 200, key) if safe(game.view, v, seat) == mine), None
                )
                if (
                    s2 is None
                    or safe(game.to_act, s2) != game.to_act(state)
                    or safe(game.header, s2, seat) is None
                ):
                    continue
                if safe(game.legal_actions, s2, seat) is None:
                    continue
                (a, users_a), (b, users_b) = await games_at(t, key, state, s2)
                ra, rb = await store.get(a), await store.get(b)
                assert ra is not None and rb is not None
                pa = await t.panel(a, users_a[seat], ra.version)
                pb = await t.panel(b, users_b[seat], rb.version)
                assert shown(pa) == shown(pb), f"{key}: a seat's place shows what it may not see"
                found += 1
                break
    finally:
        await store.close()
    record("secrets_place", game=key, hidden_pairs=found)
    assert found > 0, f"{key}: no pair of states the seat cannot tell apart was compared"
