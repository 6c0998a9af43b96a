"""Per-document write locks of the store backend: local stripes plus an optional cross-process lock.

A LangGraph store has no compare-and-swap, so :class:`StoreMemoryStorage`
holds a document's lock while it checks the revision and writes. Locks are
taken in one order (local stripe, then the cross-process lock), so they
cannot deadlock with each other.

How it fails: waiting longer than :data:`LOCK_TIMEOUT_SECONDS` for either lock
raises :class:`StorageError`; a PostgreSQL lock whose connection breaks is
released by the server with the session, and the connection is dropped.
"""

from __future__ import annotations

import asyncio
import threading
import zlib
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from langgraph.store.base import BaseStore

from deerflow_memory.caching.identity import PerObject
from deerflow_memory.errors import StorageError, UpdateLockTimeoutError
from deerflow_memory.storage.update_locks import (
    HAS_FLOCK,
    LocalUpdateLocks,
    lock_name,
    poll_flock,
)

__all__ = [
    "LOCK_TIMEOUT_SECONDS",
    "DocumentLock",
    "DocumentLocks",
    "FlockDocumentLock",
    "PostgresAdvisoryLock",
    "PostgresUpdateLocks",
]

LOCK_STRIPES = 64
LOCK_TIMEOUT_SECONDS = 60.0

T = TypeVar("T")


class DocumentLock(Protocol):
    """A lock shared by every process writing the same documents (e.g. a database lock)."""

    def acquire(self, key: str) -> object:
        """Block until ``key`` is held; return a handle for :meth:`release`."""
        ...

    def release(self, handle: object) -> None:
        """Release what :meth:`acquire` returned."""
        ...

    def close(self) -> None:
        """Free connections; the lock is unusable afterwards."""
        ...


@dataclass(slots=True)
class _Held:
    conn: Any
    key: str


class PostgresAdvisoryLock:
    """Serialize writers of one document across processes with ``pg_advisory_lock``.

    Session-level advisory locks on dedicated connections (never the store's,
    which may be shared by threads and is in autocommit mode). Waiting is capped
    by ``lock_timeout``; a timeout raises :class:`StorageError`.

    Args:
        conninfo: libpq connection string of the same database the store uses.
        max_idle: connections kept open between saves.
    """

    def __init__(self, conninfo: str, *, max_idle: int = 4) -> None:
        self._conninfo = conninfo
        self._max_idle = max_idle
        self._idle: list[Any] = []
        self._guard = threading.Lock()
        self._closed = False

    @classmethod
    def for_store(cls, store: BaseStore) -> PostgresAdvisoryLock | None:
        """Build a lock on the database of a (Async)PostgresStore, or None for other stores."""
        conn = getattr(store, "conn", None)
        names = {klass.__name__ for klass in type(store).__mro__}
        if not names & {"PostgresStore", "AsyncPostgresStore"} or conn is None:
            return None
        if isinstance(getattr(conn, "conninfo", None), str):  # a psycopg_pool pool
            return cls(conn.conninfo)
        info = getattr(conn, "info", None)
        if info is None:
            return None
        from psycopg.conninfo import make_conninfo

        params = dict(info.get_parameters())
        if info.password:
            params["password"] = info.password
        return cls(make_conninfo(**params))

    def _connect(self) -> Any:
        import psycopg

        conn = psycopg.connect(self._conninfo, autocommit=True)
        conn.execute(f"SET lock_timeout = '{int(LOCK_TIMEOUT_SECONDS * 1000)}ms'")
        return conn

    def acquire(self, key: str) -> object:
        with self._guard:
            if self._closed:
                raise StorageError("the PostgreSQL advisory lock is closed")
            conn = self._idle.pop() if self._idle else None
        # An idle connection may have died with a server restart: one fresh retry.
        attempts = 2 if conn is not None else 1
        for attempt in range(attempts):
            try:
                if conn is None or conn.closed:
                    conn = self._connect()
                conn.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", (key,))
                return _Held(conn, key)
            except Exception as e:
                if conn is not None:
                    conn.close()
                conn = None
                if attempt == attempts - 1 or not _is_connection_error(e):
                    message = f"could not take the PostgreSQL lock for {key!r}: {e}"
                    raise StorageError(message) from e
        raise AssertionError("unreachable")  # pragma: no cover

    def try_acquire(self, key: str, timeout: float) -> object | None:
        """Like :meth:`acquire` but give up after ``timeout`` seconds (None then)."""
        import psycopg

        held = None
        with self._guard:
            if self._closed:
                raise StorageError("the PostgreSQL advisory lock is closed")
            conn = self._idle.pop() if self._idle else None
        try:
            if conn is None or conn.closed:
                conn = self._connect()
            conn.execute(f"SET lock_timeout = '{max(1, int(timeout * 1000))}ms'")
            try:
                conn.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", (key,))
                held = _Held(conn, key)
            except psycopg.errors.LockNotAvailable:
                pass
            conn.execute(f"SET lock_timeout = '{int(LOCK_TIMEOUT_SECONDS * 1000)}ms'")
        except Exception as e:
            if conn is not None:
                conn.close()
            raise StorageError(f"could not take the PostgreSQL lock for {key!r}: {e}") from e
        if held is None:
            self._give_back(conn)
        return held

    def clock(self) -> float:
        """The database server's time (epoch seconds): one shared clock for every replica.

        Raises:
            StorageError: the database cannot be reached.
        """
        with self._guard:
            conn = self._idle.pop() if self._idle else None
        try:
            if conn is None or conn.closed:
                conn = self._connect()
            row = conn.execute("SELECT extract(epoch FROM clock_timestamp())").fetchone()
        except Exception as e:
            if conn is not None:
                conn.close()
            raise StorageError(f"could not read the PostgreSQL clock: {e}") from e
        self._give_back(conn)
        return float(row[0])

    def _give_back(self, conn: Any) -> None:
        with self._guard:
            if not self._closed and len(self._idle) < self._max_idle:
                self._idle.append(conn)
                return
        conn.close()

    def release(self, handle: object) -> None:
        if not isinstance(handle, _Held):
            raise TypeError(f"not a handle from PostgresAdvisoryLock.acquire: {handle!r}")
        try:
            handle.conn.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", (handle.key,))
        except Exception:
            # A broken session drops its locks with it; do not reuse the connection.
            handle.conn.close()
            return
        with self._guard:
            if not self._closed and len(self._idle) < self._max_idle:
                self._idle.append(handle.conn)
                return
        handle.conn.close()

    def close(self) -> None:
        with self._guard:
            self._closed = True
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()


def _is_connection_error(error: Exception) -> bool:
    import psycopg

    return isinstance(error, psycopg.OperationalError)


class _Stripes:
    """Process-local locks, one per hash stripe of the document key."""

    def __init__(self) -> None:
        self.locks = [threading.Lock() for _ in range(LOCK_STRIPES)]

    def for_key(self, key: str) -> threading.Lock:
        return self.locks[zlib.crc32(key.encode()) % LOCK_STRIPES]


# Every StoreMemoryStorage over the same store object in this process must share
# its locks, or two storages would each "hold" a document at once. By identity:
# a store may define __eq__ without __hash__ (a dataclass), or equal two others.
_STRIPES: PerObject[_Stripes] = PerObject(_Stripes)


def stripes_for(store: BaseStore) -> _Stripes:
    return _STRIPES.get(store)


async def acquire_off_loop(acquire: Callable[[], T], release: Callable[[T], None]) -> T:
    """Run a blocking ``acquire`` on a worker thread without leaking it on cancellation."""
    task = asyncio.ensure_future(asyncio.to_thread(acquire))
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        # The thread may still get the lock after we stop waiting: give it back then.
        def _give_back(done: asyncio.Future[T]) -> None:
            if not done.cancelled() and done.exception() is None:
                release(done.result())

        task.add_done_callback(_give_back)
        raise


def take_local(lock: threading.Lock) -> bool:
    if not lock.acquire(timeout=LOCK_TIMEOUT_SECONDS):
        raise StorageError(
            f"timed out after {LOCK_TIMEOUT_SECONDS:.0f} s waiting for a memory lock"
        )
    return True


class DocumentLocks:
    """The locks one storage takes around a document write.

    Args:
        store: locks are shared by every storage over this same store object.
        cross_process: held in addition to the local stripe (e.g. a PostgreSQL lock).
    """

    def __init__(self, store: BaseStore, cross_process: DocumentLock | None) -> None:
        self._stripes = stripes_for(store)
        self.cross_process = cross_process

    @contextmanager
    def hold(self, key: str) -> Iterator[None]:
        """Hold ``key`` (blocking)."""
        local = self._stripes.for_key(key)
        take_local(local)
        try:
            lock = self.cross_process
            handle = lock.acquire(key) if lock is not None else None
            try:
                yield
            finally:
                if lock is not None:
                    lock.release(handle)
        finally:
            local.release()

    @asynccontextmanager
    async def ahold(self, key: str) -> AsyncIterator[None]:
        """Hold ``key`` without blocking the event loop."""
        local = self._stripes.for_key(key)
        if not local.acquire(blocking=False):
            await acquire_off_loop(lambda: take_local(local), lambda _: local.release())
        try:
            lock = self.cross_process
            handle = None
            if lock is not None:
                handle = await acquire_off_loop(lambda: lock.acquire(key), lock.release)
            try:
                yield
            finally:
                if lock is not None:
                    await asyncio.to_thread(lock.release, handle)
        finally:
            local.release()

    def close(self) -> None:
        """Close the cross-process lock's connections."""
        if self.cross_process is not None:
            self.cross_process.close()


class PostgresUpdateLocks(LocalUpdateLocks):
    """Update locks held as PostgreSQL advisory locks (every replica on the database waits).

    Args:
        lock: the advisory lock (its own connections).
        scope: distinguishes storages with different namespace prefixes.
    """

    def __init__(self, lock: PostgresAdvisoryLock, scope: str) -> None:
        super().__init__()
        self._advisory = lock
        self._scope = scope

    @contextmanager
    def _cross_process(
        self, user_id: str, agent_name: str | None, end: float, timeout: float
    ) -> Iterator[None]:
        import time

        key = f"deerflow_memory:update:{self._scope}:{lock_name(user_id, agent_name)}"
        handle = self._advisory.try_acquire(key, max(0.001, end - time.monotonic()))
        if handle is None:
            raise UpdateLockTimeoutError(user_id, agent_name, timeout)
        try:
            yield
        finally:
            self._advisory.release(handle)


class FlockDocumentLock:
    """A :class:`DocumentLock` made of ``flock`` files in a folder (SQLite files on a local disk).

    Makes a store's revision check and write one step across processes, so a
    save never diffs against a state another process has already changed.
    """

    def __init__(self, folder: str) -> None:
        self.folder = folder

    def acquire(self, key: str) -> object:
        import os
        import time

        if not HAS_FLOCK:  # pragma: no cover - Windows: the process-local stripe only
            return -1
        os.makedirs(self.folder, mode=0o700, exist_ok=True)
        path = os.path.join(self.folder, f"save-{zlib.crc32(key.encode()) % 1024:04d}.lock")
        fd = poll_flock(path, time.monotonic() + LOCK_TIMEOUT_SECONDS)
        if fd is None:
            raise StorageError(
                f"timed out after {LOCK_TIMEOUT_SECONDS:.0f} s waiting for a memory lock"
            )
        return fd

    def release(self, handle: object) -> None:
        import os

        assert isinstance(handle, int)
        if handle >= 0:
            os.close(handle)

    def close(self) -> None:
        return None
