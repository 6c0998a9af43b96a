"""Update locks (and dead-letter claims) shared by every storage over one store object.

Two :class:`~deerflow_memory.storage.store.StoreMemoryStorage` objects over the
same store (the graph's service and the ``/memory`` routes' service, both with
``storage="store"``) must wait on each other's update locks, and a retry's
claim on a memory's dead letters (an update lock under a reserved name) must
be seen by both: otherwise two updates of one user run at once, and two
retries both send the same letter.

- :func:`shared_update_locks` keeps one lock set per (store object, namespace
  prefix) in this process, in a registry that holds the store weakly (a store
  the app drops is not kept alive by it).
- A LangGraph ``SqliteStore`` on a database file gets ``flock`` locks in
  ``<file>.locks/``, the folder ``storage: sqlite`` uses
  (:func:`sqlite_lock_folder`): an app on a ``SqliteStore`` it built and
  ``deerflow-memory retry`` on ``storage: sqlite`` over the same file share
  claims and update locks across processes.
- Other stores (``InMemoryStore``, custom ones) share them within this process
  only; Postgres stores use advisory locks (``store_locks``), not this module.

How it fails: a ``SqliteStore`` whose file cannot be asked for (closed, or its
connection is bound to another thread) falls back to process-local locks, with
a warning.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from contextlib import AbstractContextManager
from typing import Any

from langgraph.store.base import BaseStore

from deerflow_memory.caching.identity import PerObject
from deerflow_memory.logs import package_logger
from deerflow_memory.storage.update_locks import FlockUpdateLocks, LocalUpdateLocks

__all__ = ["shared_update_locks", "sqlite_lock_folder"]

logger = package_logger(__name__)

# Per store object (by identity: a store may define __eq__ without __hash__), per scope.
_REGISTRY: PerObject[dict[tuple[str, ...], LocalUpdateLocks]] = PerObject(dict)
_GUARD = threading.Lock()


def shared_update_locks(store: BaseStore, scope: tuple[str, ...]) -> LocalUpdateLocks:
    """The update locks of every storage over ``store`` with namespace prefix ``scope``.

    Args:
        store: the store object; storages over the same object get the same locks.
        scope: the namespace prefix (storages with other prefixes hold other
            documents and get other locks).

    Returns:
        :class:`FlockUpdateLocks` in ``<file>.locks/`` for a ``SqliteStore`` on a
        database file, else :class:`LocalUpdateLocks` (this process only).
    """
    with _GUARD:
        known = _REGISTRY.get(store).get(scope)
    if known is not None:
        return known
    folder = sqlite_lock_folder(store)  # asked outside the guard: it waits on the store's lock
    made = FlockUpdateLocks(folder) if folder is not None else LocalUpdateLocks()
    with _GUARD:  # the first one made wins; a racing second one is dropped unused
        return _REGISTRY.get(store).setdefault(scope, made)


def sqlite_lock_folder(store: BaseStore) -> str | None:
    """``<database file>.locks`` for a LangGraph ``SqliteStore`` on a file, else None.

    The folder ``storage: sqlite`` takes its ``flock`` locks in (see
    ``storage.factory``). None for other stores, an in-memory or temporary
    database, or a connection that cannot be asked (a warning then).
    """
    try:
        database = sqlite_database_file(store)
    except (sqlite3.Error, ValueError) as e:  # closed, or bound to another thread
        logger.warning(
            "cannot find the database file of %s (%s): its update locks and dead-letter "
            "claims are shared within this process only",
            type(store).__name__,
            e,
        )
        return None
    return f"{database}.locks" if database else None


def sqlite_database_file(store: object) -> str | None:
    """The file of a LangGraph ``SqliteStore``'s database, else None (other stores, an
    in-memory or temporary database).

    Raises:
        sqlite3.Error, ValueError: its connection cannot be asked (closed, or bound to
            another thread).
    """
    names = {klass.__name__ for klass in type(store).__mro__}
    conn: Any = getattr(store, "conn", None)
    if "SqliteStore" not in names or not isinstance(conn, sqlite3.Connection):
        return None
    lock = getattr(store, "lock", None)  # SqliteStore's guard of its connection
    guard = lock if isinstance(lock, AbstractContextManager) else contextlib.nullcontext()
    with guard:
        rows = conn.execute("PRAGMA database_list").fetchall()
    files = [row[2] for row in rows if row[1] == "main"]
    return str(files[0]) if files and files[0] else None
