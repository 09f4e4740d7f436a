"""A real PostgreSQL for the tests.

Which server: ``LAIRKEEPER_TEST_POSTGRES`` (a ``postgresql://`` URL of a server
the tests may create databases on) when set; else a server on 127.0.0.1:5432
(user postgres) when one answers; else a throwaway cluster started here with
Debian's ``initdb``/``pg_ctl`` (as the ``postgres`` user when run as root, on a
free port, fsync off) and stopped when the test run ends. Each test gets a fresh
schema in a database the run creates and drops.

``db_target`` is the fixture the store and reliability tests take: a file path
(SQLite) or a ``postgresql://`` URL of a fresh database, once per backend.
"""

from __future__ import annotations

import asyncio
import atexit
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

_server: dict[str, Any] = {}
_lock = threading.Lock()


def _run(coro: Any) -> Any:
    """Run a coroutine on a loop of its own (a test's loop may be running)."""
    out: dict[str, Any] = {}

    def target() -> None:
        try:
            out["v"] = asyncio.run(coro)
        except BaseException as exc:  # handed back to the caller
            out["e"] = exc

    t = threading.Thread(target=target)
    t.start()
    t.join()
    if "e" in out:
        raise out["e"]
    return out.get("v")


async def _answers(url: str) -> bool:
    import asyncpg

    try:
        con = await asyncpg.connect(url, timeout=3)
    except (OSError, asyncpg.PostgresError, TimeoutError):
        return False
    await con.close()
    return True


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return versions[-1] if versions else None


def _start_cluster() -> str:
    url, stop, _data = _new_cluster()
    atexit.register(stop)
    return url


def _new_cluster() -> tuple[str, Any, Path]:
    """Start a throwaway cluster: (its URL, a function that stops and removes it, its
    data directory)."""
    initdb, pg_ctl = _bin("initdb"), _bin("pg_ctl")
    if not initdb or not pg_ctl:
        raise RuntimeError(
            "no PostgreSQL server answers and initdb is not installed (apt-get install postgresql)"
        )
    root = os.geteuid() == 0
    d = Path(tempfile.mkdtemp(prefix="lairkeeper-pg-"))
    data = d / "data"
    prefix: list[str] = []
    if root:  # initdb refuses to run as root
        shutil.chown(d, "postgres", "postgres")
        prefix = ["runuser", "-u", "postgres", "--"]
    subprocess.run(
        [*prefix, initdb, "-A", "trust", "-U", "postgres", "--no-sync", "-D", str(data)],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    port = _free_port()
    opts = f"-p {port} -k {d} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300"
    subprocess.run(
        [*prefix, pg_ctl, "-D", str(data), "-w", "-l", str(d / "log"), "-o", opts, "start"],
        check=True,
        stdout=subprocess.DEVNULL,
    )

    def stop() -> None:
        subprocess.run([*prefix, pg_ctl, "-D", str(data), "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(d, ignore_errors=True)

    return f"postgresql://postgres@127.0.0.1:{port}/postgres", stop, data


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (read from /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry))
    return out


class FrozenCluster:
    """A PostgreSQL cluster of the test's own (never the shared server) that can be
    frozen like a stalled machine: every one of its processes stopped with SIGSTOP
    (connections stay open, nothing answers), then thawed with SIGCONT."""

    def __init__(self) -> None:
        self.url, self._stop, self.data = _new_cluster()
        self.frozen: list[int] = []

    def pids(self) -> list[int]:
        """The postmaster and every process it started."""
        master = int((self.data / "postmaster.pid").read_text().split()[0])
        return [master, *children(master)]

    def freeze(self) -> None:
        import signal

        master = self.pids()[0]
        os.kill(master, signal.SIGSTOP)  # the postmaster first: it starts no new process meanwhile
        self.frozen.append(master)
        for pid in children(master):
            try:
                os.kill(pid, signal.SIGSTOP)
            except ProcessLookupError:  # a backend that ended since it was listed (a full CI run saw one)
                continue
            self.frozen.append(pid)

    def thaw(self) -> None:
        import signal

        for pid in self.frozen:
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
        self.frozen = []

    def close(self) -> None:
        self.thaw()
        self._stop()


@contextmanager
def frozen_cluster() -> Iterator[FrozenCluster]:
    """A throwaway cluster for freezing; always thawed and removed afterwards."""
    c = FrozenCluster()
    try:
        yield c
    finally:
        c.close()


def server_url() -> str:
    """The URL of a server the tests may create databases on (started once a run)."""
    with _lock:
        if "url" not in _server:
            try:
                env = os.environ.get("LAIRKEEPER_TEST_POSTGRES")
                local = "postgresql://postgres@127.0.0.1:5432/postgres"
                if env:
                    _server["url"] = env
                elif _run(_answers(local)):
                    _server["url"] = local
                else:
                    _server["url"] = _start_cluster()
            except Exception as exc:  # every PostgreSQL test fails with this reason
                _server["url"] = None
                _server["why"] = str(exc)
        if _server["url"] is None:
            raise RuntimeError(f"no PostgreSQL for the tests: {_server['why']}")
        return str(_server["url"])


def _with_db(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


async def _admin(url: str, sql: str) -> None:
    import asyncpg

    con = await asyncpg.connect(url)
    try:
        await con.execute(sql)
    finally:
        await con.close()


def run_database() -> str:
    """This test run's own database: created at first use, dropped when the run ends."""
    with _lock:
        if "db" in _server:
            return str(_server["db"])
    url = server_url()
    name = f"lk_test_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    _run(_admin(url, f'CREATE DATABASE "{name}"'))
    atexit.register(lambda: _run(_admin(url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')))
    with _lock:
        _server["db"] = _with_db(url, name)
    return str(_server["db"])


@contextmanager
def fresh_database() -> Iterator[str]:
    """A URL whose every connection works in a new, empty schema of the run's
    database (``search_path``), dropped afterwards. (CREATE DATABASE per test took
    about a second each; a schema takes milliseconds and is as empty.)"""
    db = run_database()
    schema = "t_" + uuid.uuid4().hex[:12]
    _run(_admin(db, f"CREATE SCHEMA {schema}"))
    try:
        yield f"{db}?search_path={schema}"
    finally:
        _run(_admin(db, f"DROP SCHEMA {schema} CASCADE"))


BACKENDS = ["sqlite", "postgresql"]


@pytest.fixture(params=BACKENDS)
def db_target(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database the test may use: an SQLite file path, or a fresh PostgreSQL database's URL."""
    if request.param == "sqlite":
        yield str(tmp_path / "test.db")
        return
    with fresh_database() as url:
        yield url
