"""Memory's own SQLite connection to the database file of an app's ``SqliteStore``.

LangGraph's ``SqliteStore.from_conn_string`` closes its connection when its
``with`` block ends, without taking the store's lock, and CPython's
``sqlite3`` does not guard a close against a statement that another thread is
running: an app that closes its store while memory's outbox writer, poller or
update worker is inside a call crashes with SIGSEGV. So a
:class:`~deerflow_memory.storage.store.StoreMemoryStorage` over such a store
sends its calls to a ``SqliteStore`` of its own on the same file
(:func:`memory_store_for`: one per app store object, shared by every storage
over it), and the app's store only says whether memory may still use it: once
the app's connection is closed, each call raises what a closed
``SqliteStore`` raises. Closing the store therefore still means what the
README says (``StoreClosedError``, "Close memory before its store"), but it
can no longer crash the process.

Only a sync ``SqliteStore`` on a database file gets one. An in-memory
database (its data lives in the app's connection), a file this connection
cannot read (an encrypted one) and every other store are called as they are.
"""

from __future__ import annotations

import contextlib
import functools
import sqlite3
import threading
import weakref
from contextlib import AbstractContextManager
from typing import Any

from langgraph.store.base import BaseStore

from deerflow_memory.caching.identity import PerObject
from deerflow_memory.logs import package_logger

__all__ = ["memory_store_for", "sqlite_database_file"]

logger = package_logger(__name__)

#: Seconds a call waits on a database another connection is writing (as ``storage: sqlite``).
BUSY_TIMEOUT_SECONDS = 30.0

# Per app store object: memory's store on its file, or None (called as it is).
_MADE: PerObject[list[BaseStore | None]] = PerObject(list)
_GUARD = threading.Lock()


def _app_connection(store: BaseStore) -> sqlite3.Connection | None:
    """The ``sqlite3`` connection of a sync LangGraph ``SqliteStore``, else None."""
    names = {klass.__name__ for klass in type(store).__mro__}
    conn: Any = getattr(store, "conn", None)
    if "SqliteStore" not in names or not isinstance(conn, sqlite3.Connection):
        return None
    return conn


def sqlite_database_file(store: BaseStore) -> str | None:
    """The database file of a LangGraph ``SqliteStore``; None for other stores or in memory.

    Asked of the store's connection under the store's own lock. None, with a
    warning, when the connection cannot be asked (closed, or bound to another
    thread).
    """
    conn = _app_connection(store)
    if conn is None:
        return None
    lock = getattr(store, "lock", None)  # SqliteStore's guard of its connection
    try:
        guard = lock if isinstance(lock, AbstractContextManager) else contextlib.nullcontext()
        with guard:
            rows = conn.execute("PRAGMA database_list").fetchall()
    except (sqlite3.Error, ValueError) as e:  # closed, or bound to another thread
        logger.warning("cannot find the database file of %s: %s", type(store).__name__, e)
        return None
    files = [row[2] for row in rows if row[1] == "main"]
    return files[0] if files and files[0] else None


def memory_store_for(store: BaseStore) -> BaseStore | None:
    """A ``SqliteStore`` on memory's own connection to ``store``'s file, or None.

    Made once per app store object (every storage over it shares it) with the
    app store's index, TTL and deserializer, so what memory writes is what the
    app's store would have written. Its connection closes when the app's store
    object is collected.

    Returns:
        None when ``store`` is not a sync ``SqliteStore`` on a database file, or
        when this connection cannot read the file: memory then calls ``store``.
    """
    with _GUARD:
        made = _MADE.get(store)
        if made:
            return made[0]
        own = _open_beside(store)
        made.append(own)
        return own


def _open_beside(store: BaseStore) -> BaseStore | None:
    app = _app_connection(store)
    path = sqlite_database_file(store) if app is not None else None
    if app is None or path is None:
        return None
    conn = sqlite3.connect(
        path, check_same_thread=False, isolation_level=None, timeout=BUSY_TIMEOUT_SECONDS
    )
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        own = _store_class()(
            conn,
            app,
            deserializer=getattr(store, "_deserializer", None),
            index=getattr(store, "index_config", None),
            ttl=getattr(store, "ttl_config", None),
        )
    except Exception as e:  # an encrypted file, an index config this copy cannot take
        conn.close()
        logger.warning(
            "memory calls %s on its own connection (a second connection to %s failed: %s); "
            "closing that store while memory writes to it can crash the process",
            type(store).__name__,
            path,
            e,
        )
        return None
    weakref.finalize(store, conn.close).atexit = False  # the process's end closes it
    return own


@functools.cache
def _store_class() -> type[Any]:
    """The ``SqliteStore`` memory calls (built on first use: its import takes ~0.5 s)."""
    from langgraph.store.sqlite import SqliteStore

    class MemorySqliteStore(SqliteStore):
        """A ``SqliteStore`` on memory's connection that works while the app's store is open.

        Each :meth:`batch` first asks the app's connection whether it is closed:
        ``total_changes`` reads no table and holds the GIL throughout, and a close
        marks the connection closed before it lets other threads run, so the
        question cannot meet a close half done. A closed one raises what the
        app's own store would (``sqlite3.ProgrammingError``: "Cannot operate on
        a closed database."), so a closed store still reads as closed.
        """

        def __init__(self, conn: sqlite3.Connection, app: sqlite3.Connection, **options: Any):
            super().__init__(conn, **options)
            self._app = app

        def batch(self, ops: Any) -> Any:
            self._app.total_changes  # noqa: B018 - raises once the app closed its store
            return super().batch(ops)

    return MemorySqliteStore
