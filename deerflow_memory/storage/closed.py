"""Telling a store that was closed for good from one that failed for a moment.

An app may close its LangGraph store before the memory service that writes to
it (a ``with SqliteStore…`` block ending first). Every later read or write
then fails the same way, so retrying only delays shutdown and repeats
tracebacks. :func:`is_store_closed` recognises those errors, by type name and
message so that no database driver is imported:

- ``SqliteStore``: ``sqlite3.ProgrammingError: Cannot operate on a closed database.``
- ``AsyncSqliteStore``: ``ValueError: no active connection`` (aiosqlite).
- ``PostgresStore`` / ``AsyncPostgresStore``: ``psycopg.OperationalError: the
  connection is closed``, or ``psycopg_pool.PoolClosed`` (its pool was closed).
- an async store called from a worker thread after its event loop ended:
  ``RuntimeError: Event loop is closed`` (counted only when that store's own
  loop is closed: a sync store's embedder, or a model client, says the same).

Only the storage backend that calls the store asks :func:`is_store_closed`;
it raises :class:`~deerflow_memory.errors.StoreClosedError` for such an error,
and everything above it (the outbox, the updater, the service) tests for that
type, never for the words, so a model's error is never taken for a closed store.

Errors that may pass are *not* closed stores: a locked SQLite database
(``OperationalError: database is locked``), a lost server connection that a
pool replaces, a timeout, a model's 429. :func:`is_operational` finds such a
database error behind the ``ValueError`` that ``SqliteStore`` wraps every
failed query in, so that it is retried, not taken for bad data.
"""

from __future__ import annotations

import asyncio

from deerflow_memory.errors import StoreClosedError, error_chain

__all__ = ["is_operational", "is_store_closed"]


def _closed_here(error: BaseException, loop_closed: bool) -> bool:
    names = {cls.__name__ for cls in type(error).__mro__}
    text = str(error).lower()
    if isinstance(error, StoreClosedError) or "PoolClosed" in names:
        return True
    if "ProgrammingError" in names and "closed database" in text:
        return True  # sqlite3
    if "OperationalError" in names and text.startswith("the connection is closed"):
        return True  # psycopg: this connection object cannot be used again
    if isinstance(error, ValueError) and text == "no active connection":
        return True  # aiosqlite
    return loop_closed and isinstance(error, RuntimeError) and text == "event loop is closed"


def is_store_closed(error: BaseException, store: object | None = None) -> bool:
    """True when ``error`` (or an error in its ``__cause__``/``__context__`` chain) says the
    store, its connection or its pool was closed: no retry can succeed.

    Args:
        error: what a call of ``store`` raised.
        store: the store called. Given, "Event loop is closed" counts only when
            it is the store's own event loop (an async store's ``_loop``) that
            is closed; None takes those words as they are.
    """
    loop_closed = store is None or _own_loop_closed(store)
    return any(_closed_here(seen, loop_closed) for seen in error_chain(error))


def _own_loop_closed(store: object) -> bool:
    loop = getattr(store, "_loop", None)  # langgraph's async stores (AsyncBatchedBaseStore too)
    return isinstance(loop, asyncio.AbstractEventLoop) and loop.is_closed()


def is_operational(error: BaseException) -> bool:
    """True when a DB-API ``OperationalError`` (a locked or busy database, a lost
    connection: the database's state, not the data) is in ``error``'s chain."""
    return any(_named(seen, "OperationalError") for seen in error_chain(error))


def _named(error: BaseException, name: str) -> bool:
    """True when ``error``'s class or a base class is called ``name`` (no driver imported)."""
    return any(cls.__name__ == name for cls in type(error).__mro__)


# SQLite's result codes for a file whose pages do not make a database (a page torn or
# overwritten, a header that is not SQLite's): no retry or other query can read past it.
_DAMAGED_CODES = frozenset({"SQLITE_CORRUPT", "SQLITE_NOTADB"})
_DAMAGED_WORDS = ("database disk image is malformed", "file is not a database")


def damaged_database_error(error: BaseException) -> BaseException | None:
    """The SQLite error in ``error``'s chain saying the database file is damaged
    ("database disk image is malformed"), else None (no driver imported)."""
    for seen in error_chain(error):
        if not _named(seen, "DatabaseError"):
            continue
        code = getattr(seen, "sqlite_errorname", None)
        if code in _DAMAGED_CODES or (code is None and any(w in str(seen) for w in _DAMAGED_WORDS)):
            return seen
    return None


def damaged_said(database: str, error: BaseException) -> str:
    """The error line for a damaged SQLite ``database`` (its file, as said: "SQLite memory
    database /x/memory.sqlite"), ``error`` being SQLite's."""
    return (
        f"{database} is damaged ({error}): restore it from a backup, or recover what it "
        "holds with the sqlite3 shell (.recover)"
    )


def damaged_file_said(db: object, error: BaseException) -> str | None:
    """The error line for opening the SQLite memory database file ``db`` when ``error``
    says its pages are damaged ("database disk image is malformed"), else None (a file
    that is no database at all is said where it is opened)."""
    damaged = damaged_database_error(error)
    if damaged is None or "malformed" not in str(damaged):
        return None
    return damaged_said(f"SQLite memory database {db}", damaged)
