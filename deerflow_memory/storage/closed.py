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
  ``RuntimeError: Event loop is closed``.

Errors that may pass are *not* closed stores: a locked SQLite database
(``OperationalError: database is locked``), a lost server connection that a
pool replaces, a timeout, a model's 429. :func:`is_operational` finds such a
database error behind the ``ValueError`` that ``SqliteStore`` wraps every
failed query in, so that it is retried, not taken for bad data.
"""

from __future__ import annotations

from deerflow_memory.errors import StoreClosedError

__all__ = ["is_operational", "is_store_closed"]

_MAX_CHAIN = 10


def _closed_here(error: BaseException) -> bool:
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
    return isinstance(error, RuntimeError) and text == "event loop is closed"


def is_store_closed(error: BaseException) -> bool:
    """True when ``error`` (or an error in its ``__cause__``/``__context__`` chain) says the
    store, its connection or its pool was closed: no retry can succeed."""
    seen: BaseException | None = error
    for _ in range(_MAX_CHAIN):
        if seen is None:
            return False
        if _closed_here(seen):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def is_operational(error: BaseException) -> bool:
    """True when a DB-API ``OperationalError`` (a locked or busy database, a lost
    connection: the database's state, not the data) is in ``error``'s chain."""
    seen: BaseException | None = error
    for _ in range(_MAX_CHAIN):
        if seen is None:
            return False
        if any(cls.__name__ == "OperationalError" for cls in type(seen).__mro__):
            return True
        seen = seen.__cause__ or seen.__context__
    return False
