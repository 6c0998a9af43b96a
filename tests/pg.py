"""A throwaway PostgreSQL server for tests and benchmarks.

``DEERFLOW_MEMORY_TEST_PG_DSN`` wins when set. Otherwise Debian's PostgreSQL
binaries (``initdb``/``pg_ctl``, installed by ``.ci/postgres.sh``) start a
server on 127.0.0.1 and a free port, in a temporary directory, with trust
auth; as root they run as the ``postgres`` user. One server per process is
shared by every test module and stopped at exit.

When no server can start, :func:`postgres_dsn_or_skip` skips with a loud
reason locally but fails when ``CI`` is set: CI must run the Postgres tests.
"""

from __future__ import annotations

import atexit
import os
import shutil
import socket
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

DSN_ENV = "DEERFLOW_MEMORY_TEST_PG_DSN"
_SEARCH_DIRS = ("/usr/lib/postgresql",)


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL server could be started or reached."""


@dataclass
class PostgresServer:
    """A running server: its DSN, and how to stop it (no-op for an external one)."""

    dsn: str
    data_dir: Path | None = None
    as_user: str | None = None
    pg_ctl: str | None = None

    def stop(self) -> None:
        if self.data_dir is None or self.pg_ctl is None:
            return
        cmd = [self.pg_ctl, "stop", "-D", str(self.data_dir / "data"), "-m", "immediate", "-w"]
        subprocess.run(_as(self.as_user, cmd), capture_output=True, timeout=30, check=False)
        shutil.rmtree(self.data_dir, ignore_errors=True)


def _as(user: str | None, cmd: list[str]) -> list[str]:
    if not user:
        return cmd
    # (runuser lives in /usr/sbin, which a root shell's PATH may lack: newcomer 321's run
    # skipped 70 Postgres tests with "No such file or directory: 'runuser'")
    path = os.pathsep.join((os.environ.get("PATH", ""), "/usr/sbin", "/sbin"))
    return [shutil.which("runuser", path=path) or "runuser", "-u", user, "--", *cmd]


def find_bin(name: str) -> str | None:
    """Path of a PostgreSQL server binary (PATH first, then Debian's versioned dirs)."""
    found = shutil.which(name)
    if found:
        return found
    for root in _SEARCH_DIRS:
        for version in sorted(Path(root).glob("*"), reverse=True):
            candidate = version / "bin" / name
            if candidate.exists():
                return str(candidate)
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_postgres() -> PostgresServer:
    """Start a fresh server; raise :class:`PostgresUnavailable` saying why it cannot."""
    initdb, pg_ctl = find_bin("initdb"), find_bin("pg_ctl")
    if not initdb or not pg_ctl:
        raise PostgresUnavailable(
            "PostgreSQL server binaries (initdb, pg_ctl) not found: run `bash .ci/postgres.sh` "
            f"(apt-get install postgresql) or set {DSN_ENV}"
        )
    user = None
    if os.geteuid() == 0:
        user = "postgres"
        try:
            import pwd

            pw = pwd.getpwnam(user)
        except KeyError as e:
            raise PostgresUnavailable("running as root but there is no 'postgres' user") from e
    base = Path(tempfile.mkdtemp(prefix="dfm-pg-"))
    if user:
        os.chown(base, pw.pw_uid, pw.pw_gid)
    data = base / "data"
    port = free_port()
    steps = [
        [initdb, "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"],
        [
            pg_ctl,
            "start",
            "-D",
            str(data),
            "-l",
            str(base / "log"),
            "-w",
            "-t",
            "60",
            "-o",
            f"-h 127.0.0.1 -p {port} -k {base} -F -c max_connections=100",
        ],
    ]
    for cmd in steps:
        done = subprocess.run(_as(user, cmd), capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            log = (base / "log").read_text() if (base / "log").exists() else ""
            shutil.rmtree(base, ignore_errors=True)
            raise PostgresUnavailable(
                f"{Path(cmd[0]).name} failed ({done.returncode}): "
                f"{done.stderr.strip()} {log[-2000:]}"
            )
    return PostgresServer(f"postgresql://postgres@127.0.0.1:{port}/postgres", base, user, pg_ctl)


_STARTS = 3
_lock = threading.Lock()
_server: PostgresServer | None = None
_failure: str | None = None


def shared_postgres() -> PostgresServer:
    """The process-wide server (external DSN or started once, stopped at exit)."""
    global _server, _failure
    with _lock:
        if _server is not None:
            return _server
        if _failure is not None:
            raise PostgresUnavailable(_failure)
        if os.environ.get(DSN_ENV):
            _server = PostgresServer(os.environ[DSN_ENV])
            return _server
        # A start can lose its port to another run between free_port() and pg_ctl, or time
        # out on a loaded machine (a newcomer's run beside CI skipped 71 tests): tried again.
        for attempt in range(_STARTS):
            try:
                _server = start_postgres()
                break
            except (PostgresUnavailable, OSError, subprocess.SubprocessError) as e:
                if attempt + 1 == _STARTS:
                    _failure = f"{e} (after {_STARTS} starts)"
                    raise PostgresUnavailable(_failure) from e
        atexit.register(_server.stop)
        return _server


def postgres_dsn_or_skip() -> str:
    """DSN of the shared server; skip loudly (fail under CI) when none can start."""
    import pytest

    try:
        return shared_postgres().dsn
    except PostgresUnavailable as e:
        message = f"POSTGRES TESTS NOT RUN: {e}"
        if os.environ.get("CI"):
            pytest.fail(message + " (CI must run them)", pytrace=False)
        pytest.skip(message)
        raise  # unreachable: skip raises


def drop_prefix(dsn: str, prefix: tuple[str, ...]) -> None:
    """Delete every store item under a namespace prefix (test cleanup on a shared server)."""
    import psycopg

    text = ".".join(prefix)
    like = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + ".%"
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(
            r"DELETE FROM store WHERE prefix = %s OR prefix LIKE %s ESCAPE '\'", (text, like)
        )


_stores: dict[str, object] = {}


def shared_postgres_store(dsn: str) -> object:
    """One set-up ``PostgresStore`` per DSN for the whole process (closed at exit).

    Tests isolate themselves with a unique namespace prefix instead of a fresh
    database: connecting and running the store migrations once keeps the suite fast.
    """
    from langgraph.store.postgres import PostgresStore

    with _lock:
        store = _stores.get(dsn)
        if store is None:
            manager = PostgresStore.from_conn_string(dsn)
            store = manager.__enter__()
            store.setup()
            atexit.register(manager.__exit__, None, None, None)
            _stores[dsn] = store
        return store
