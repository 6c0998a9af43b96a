"""A SQLite memory database this process cannot write, opened to be read.

A database in a read-only folder or on a read-only mount, or one of another
user's files, cannot be set up as :func:`~deerflow_memory.storage.factory.open_storage`
does for a writer (its ``.locks`` folder, the WAL switch, the migrations are
writes). A caller that only reads gets it opened to be read instead
(:func:`open_read_only`): no lock file, no setup, no file made beside it (as
immutable, or read-only where its write-ahead log holds data); a write through
it fails with ``StorageError``. :func:`unwritable` says what keeps a
process from writing, for the error a writer gets.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path

from deerflow_memory.errors import StorageError
from deerflow_memory.storage.closed import damaged_file_said
from deerflow_memory.storage.store import StoreMemoryStorage

__all__ = [
    "check_special_files",
    "connect_read_only",
    "holds_data",
    "kind_of",
    "open_read_only",
    "unwritable",
    "unwritable_said",
]

# The files SQLite opens beside a database (its rollback journal, write-ahead log and
# shared-memory index), by suffix.
_BESIDE = ("-journal", "-wal", "-shm")


def kind_of(mode: int) -> str | None:
    """What a file of ``mode`` is, in words, when it is no regular file (else None)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def check_special_files(db: Path) -> None:
    """Refuse, before SQLite opens anything, a database path ``db`` or a file SQLite
    keeps beside it (``-journal``, ``-wal``, ``-shm``, beside the file a link points to)
    that is there but no regular file: a named pipe (opening or reading it waits
    forever for a writer), a folder, a socket, a device. Also a ``.locks`` beside it
    that is no folder. Nothing is made, opened or changed; a path not there, or one
    that cannot be looked at, is left to opening (which says what is wrong).

    Raises:
        StorageError: naming the path and what it is.
    """
    real = os.path.realpath(db)
    places = [(str(db), f"SQLite memory database {db}")]
    places += [
        (f"{real}{end}", f"{real}{end}, beside SQLite memory database {db},") for end in _BESIDE
    ]
    for path, said in places:
        try:
            mode = os.stat(path).st_mode
        except OSError:
            continue
        kind = kind_of(mode)
        if kind is not None:
            raise StorageError(f"{said} is {kind}, not a file; nothing was opened")
    locks = f"{db}.locks"
    try:
        mode = os.stat(locks).st_mode
    except OSError:
        return
    if not stat.S_ISDIR(mode):
        kind = kind_of(mode) or "a file"
        raise StorageError(
            f"{locks}, the lock folder of SQLite memory database {db}, is {kind}, not a "
            "folder; nothing was opened"
        )


def unwritable(db: Path) -> str | None:
    """What keeps this process from writing the SQLite database ``db`` (and the files
    SQLite and the locks make beside it), as words for an error, or None.

    Asked of the system (``os.access``): a read-only folder or mount, a file or
    lock folder without write permission. A path whose nearest existing parent is
    no folder is left to opening, which says that (None here).
    """
    folder = db.parent
    while not os.path.lexists(folder) and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        return None
    if os.path.isfile(db) and not os.access(db, os.W_OK):
        return f"the file {db} is not writable"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"its folder {folder} is not writable"
    locks = Path(f"{db}.locks")
    if locks.is_dir() and not os.access(locks, os.W_OK | os.X_OK):
        return f"its lock folder {locks} is not writable"
    return None


def unwritable_said(db: Path, why: str) -> str:
    """The error a writer gets for the database ``db`` it cannot write (``why``: see
    :func:`unwritable`)."""
    return f"cannot write SQLite memory database {db}: {why}; it can be read, not changed"


def open_read_only(db: Path, prefix: Sequence[str], why: str) -> StoreMemoryStorage:
    """The memory in ``db`` (an existing, set-up database this process cannot write,
    ``why``), to read: opened read-only, never set up, no lock taken or made.

    Raises:
        StorageError: it cannot be read, or is not set up as this version needs (a
            setup is a write): said with ``why``.
    """
    from langgraph.store.sqlite import SqliteStore

    resources = ExitStack()
    try:
        conn = connect_read_only(db)
        resources.callback(conn.close)
        store = SqliteStore(conn)
        _check_set_up(conn, len(store.MIGRATIONS))
    except sqlite3.Error as e:
        resources.close()
        if (damaged := damaged_file_said(db, e)) is not None:
            raise StorageError(damaged) from e
        raise StorageError(f"cannot read SQLite memory database {db} ({why}): {e}") from e
    except StorageError as e:
        resources.close()
        raise StorageError(f"cannot read SQLite memory database {db}: {e} ({why})") from e
    store.is_setup = True  # checked above; its setup() would write
    # No file lock: this process writes nothing here (a write fails in SQLite).
    return StoreMemoryStorage(store, prefix, resources=resources, document_lock=None)


def connect_read_only(db: Path) -> sqlite3.Connection:
    """A connection to ``db`` that reads it and makes nothing beside it.

    SQLite's read-only mode still makes the ``-wal`` and ``-shm`` files of a database in
    WAL mode where the folder lets it, owned by this process, and the owner's next write
    then fails (attacker 319). So the database is read as immutable (no files, no locks)
    unless its write-ahead log holds data, which only its ``-shm`` file lets be read: then
    read-only, with both files there already. The files are looked for beside the file a
    link points to (where SQLite keeps them); a rollback journal holding an unfinished
    write, or a log that cannot be read without making a file, is refused (reading past
    them would show what was never stored, or hide what was).
    """
    real = Path(os.path.realpath(db))
    if holds_data(f"{real}-journal"):
        raise StorageError("a rollback journal beside it holds a write not finished")
    if not holds_data(f"{real}-wal"):
        return _opened(f"{real.as_uri()}?immutable=1")
    if not os.path.exists(f"{real}-shm"):
        raise StorageError("its write-ahead log holds data that cannot be read without writing")
    return _opened(f"{real.as_uri()}?mode=ro")


def _opened(uri: str) -> sqlite3.Connection:
    # (autocommit, as the writer's: the store begins and commits its own transactions)
    conn = sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)
    try:
        conn.execute("PRAGMA busy_timeout=30000")
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.Error:
        conn.close()
        raise
    return conn


def holds_data(path: str) -> bool:
    """Whether the file ``path`` (a log or journal beside a database) may hold data: it is
    there and not empty, or it cannot be looked at."""
    try:
        return os.stat(path).st_size > 0
    except FileNotFoundError:
        return False
    except OSError:
        return True


def _check_set_up(conn: sqlite3.Connection, migrations: int) -> None:
    """Refuse a database the store has not set up as far as ``migrations`` go."""
    try:
        row = conn.execute("SELECT max(v) FROM store_migrations").fetchone()
    except sqlite3.OperationalError as e:
        if "no such table" not in str(e):
            raise
        row = None
    if row is None or row[0] is None or row[0] + 1 < migrations:
        raise StorageError("it is not set up for this version, and setting it up is a write")
