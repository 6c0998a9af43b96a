"""Build the storage backend a :class:`MemoryConfig` selects, in one visible place.

``storage``:

- ``file``: :class:`FileMemoryStorage` rooted at ``storage_path``;
- ``store``: :class:`StoreMemoryStorage` over the store you pass — under
  ``langgraph dev`` that is the server's ``runtime.store``;
- ``sqlite``: a ``SqliteStore`` on the database file ``storage_path`` (a
  directory gets ``memory.sqlite`` inside it), WAL mode and a busy timeout so
  several processes can share it;
- ``postgres``: a ``PostgresStore`` on ``storage_dsn``, writers serialized by a
  PostgreSQL advisory lock.

The sqlite and postgres backends own a connection: close the storage
(:func:`open_storage` does it for you). Missing settings raise
:class:`ConfigError`; a missing ``postgres`` extra raises
:class:`MissingDependencyError` with the install command.
"""

from __future__ import annotations

import os
import re
import sqlite3
import stat
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path

from langgraph.store.base import BaseStore

from deerflow_memory.arguments import expect
from deerflow_memory.config import SQLITE_FILE_NAME, MemoryConfig, redact_secrets
from deerflow_memory.config.secrets import dsn_secret_words, redact_path
from deerflow_memory.errors import ConfigError, MissingDependencyError, StorageError, install_hint
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.storage.closed import damaged_file_said
from deerflow_memory.storage.sqlite_read_only import (
    check_special_files,
    connect_read_only,
    holds_data,
    open_read_only,
    unwritable,
    unwritable_said,
)
from deerflow_memory.storage.store import DEFAULT_NAMESPACE_PREFIX, StoreMemoryStorage
from deerflow_memory.storage.store_locks import FlockDocumentLock
from deerflow_memory.storage.update_locks import HAS_FLOCK, FlockUpdateLocks, poll_flock

__all__ = [
    "POSTGRES_INSTALL_HINT",
    "build_storage",
    "open_storage",
    "sqlite_path",
    "tables_of_another_program",
]

POSTGRES_INSTALL_HINT = install_hint("postgres")


def sqlite_path(path: Path) -> Path:
    """The database file for ``storage_path``: itself, or ``memory.sqlite`` inside a directory."""
    return path / SQLITE_FILE_NAME if path.is_dir() or not path.suffix else path


def _could_be_made(path: Path) -> bool:
    """Whether nothing is at the SQLite database path of ``storage_path`` (not even a broken
    link) and the nearest thing above it that exists is a folder: a database that is not
    there yet. A path under a file, a dangling link or a loop is no such path (opening it
    says what is wrong)."""
    db = sqlite_path(path)
    if os.path.lexists(db):
        return False
    above = db.parent
    while not os.path.lexists(above) and above != above.parent:
        above = above.parent
    return above.is_dir()


def _empty_database_file(path: Path) -> bool:
    """Whether the SQLite database path of ``storage_path`` is a file of 0 bytes whose
    write-ahead log (if any) is empty too: a database nothing was ever written to (``touch
    memory.sqlite``). Opening it as usual would write the schema into it."""
    db = sqlite_path(path)
    try:
        found = os.stat(db)
    except OSError:  # not there, or not to be looked at: opening it says which
        return False
    # (a log's frames would be the database then; it sits beside the file a link points to)
    return (
        stat.S_ISREG(found.st_mode)
        and not found.st_size
        and not holds_data(f"{os.path.realpath(db)}-wal")
    )


def _holds_nothing_yet(path: Path) -> bool:
    """Whether the SQLite database of ``storage_path`` holds nothing and may be stood in for
    by an empty store when only looked at: not there yet, an empty file, or a database
    without the store's table (another program's, or one with no table at all)."""
    return (
        _could_be_made(path)
        or _empty_database_file(path)
        or _tables_without_store(path) is not None
    )


def _table_names(path: Path) -> list[str] | None:
    """The tables of the SQLite database of ``storage_path``, sorted (SQLite's own left
    out), with a ``store`` table of another program's (one without LangGraph's
    ``prefix`` column: attacker 334) named ``store (not LangGraph's)``; None when it is no
    regular file or cannot be read (a file that is no database: opening it as usual says
    what is wrong).

    Read as :func:`~deerflow_memory.storage.sqlite_read_only.open_read_only` reads:
    nothing is written into the file or made beside it. A database left mid-write (a hot
    rollback journal, a write-ahead log without its index) cannot be read so: it is read
    through an ordinary connection, whose first read finishes what SQLite must (rolling the
    unfinished write back, making the index), as any reader of it would, and no more
    (attacker 334: it was set up as ours instead, tables, WAL mode and lock folder).
    """
    db = sqlite_path(path)
    try:
        if not stat.S_ISREG(os.stat(db).st_mode):
            return None
        conn = connect_read_only(db)
    except (OSError, sqlite3.Error, StorageError):
        try:
            conn = sqlite3.connect(f"{Path(db).resolve().as_uri()}?mode=rw", uri=True, timeout=5)
        except (OSError, sqlite3.Error, ValueError, RuntimeError):  # (a link loop: RuntimeError)
            return None
    try:
        rows = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'").fetchall()
    except sqlite3.Error:
        return None
    finally:
        conn.close()
    names = []
    for name, sql in rows:
        if str(name).startswith("sqlite_"):
            continue
        ours = name != "store" or "prefix" in str(sql or "").casefold()
        names.append(str(name) if ours else "store (not LangGraph's)")
    return sorted(names)


def _tables_without_store(path: Path) -> list[str] | None:
    """The tables of the SQLite database of ``storage_path`` when none of them is the
    store's (``store``), so it holds no memory: another program's database (a LangGraph
    checkpointer's, an app's) or one without tables. None when it has the store's table
    or cannot be read (see :func:`_table_names`)."""
    names = _table_names(path)
    return None if names is None or "store" in names else names


# The tables LangGraph's SqliteStore makes (its migrations, its vector index).
_STORE_TABLES = frozenset({"store", "store_migrations", "store_vectors", "vector_migrations"})


def tables_of_another_program(path: Path, *, beside_the_store: bool = False) -> list[str]:
    """The tables of the SQLite database of ``storage_path`` when it holds tables but no
    memory (none is the store's): a database of another program, looked at by mistake or
    shared with one (LangGraph's checkpointer). Empty otherwise. With
    ``beside_the_store``, the tables other than the store's in any database (what the
    store was set up beside). Reads only."""
    if not beside_the_store:
        return _tables_without_store(path) or []
    return [n for n in _table_names(path) or [] if n not in _STORE_TABLES]


def _open_sqlite(path: Path, prefix: Sequence[str], *, write: bool = True) -> StoreMemoryStorage:
    """The SQLite backend on the database of ``path``, made and set up when it needs to be.
    Without ``write`` (the caller only reads), a database this process cannot write is
    opened read-only instead (its setup, lock folder and WAL switch are writes)."""
    from langgraph.store.sqlite import SqliteStore

    db = sqlite_path(path)
    check_special_files(db)  # (a named pipe would be waited on forever)
    if os.path.isfile(db) and (why := unwritable(db)) is not None:
        if not write:
            return open_read_only(db, prefix, why)
        # (said before SQLite fails on the first save, or an outbox loses its records)
        raise StorageError(unwritable_said(db, why))
    try:
        db.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(str(db), check_same_thread=False, isolation_level=None)
    except (FileExistsError, NotADirectoryError) as e:  # a file where a folder should be
        above = next((p for p in db.parents if os.path.lexists(p)), db.parent)
        said = f"cannot open SQLite memory database {db}: {above} is not a folder"
        raise StorageError(said) from e
    except (OSError, sqlite3.Error) as e:
        raise StorageError(_cannot(db, "open", e)) from e
    resources = ExitStack()
    resources.callback(conn.close)
    locks = f"{db}.locks"
    try:
        conn.execute("PRAGMA busy_timeout=30000")
        _check_is_database(conn)  # before anything is made beside it
        # Processes opening a new file together would race on the migrations
        # (duplicate rows, duplicate columns): one sets it up at a time.
        with _setup_lock(locks):
            # WAL lets readers run beside a writer; the timeout makes writers in other
            # processes wait instead of failing with "database is locked".
            conn.execute("PRAGMA journal_mode=WAL")
            store = SqliteStore(conn)
            store.setup()
    except (sqlite3.Error, OSError) as e:
        resources.close()
        raise StorageError(_cannot(db, "set up", e)) from e
    # Saves check and write under a file lock shared by every process on this file.
    return StoreMemoryStorage(
        store,
        prefix,
        resources=resources,
        document_lock=FlockDocumentLock(locks),
        update_locks=FlockUpdateLocks(locks),
    )


def _cannot(db: Path, what: str, error: BaseException) -> str:
    """Why the database ``db`` could not be opened or set up: that it cannot be written
    here, when so (then reading it works, changing it does not), else the error."""
    if (damaged := damaged_file_said(db, error)) is not None:
        return damaged
    why = unwritable(db)
    not_a_database = isinstance(error, sqlite3.DatabaseError) and not isinstance(
        error, sqlite3.OperationalError
    )
    if why is None or not_a_database:  # ("file is not a database" is so wherever it is)
        return f"cannot {what} SQLite memory database {db}: {error}"
    if not os.path.isfile(db):  # (nothing there to read)
        return f"cannot make SQLite memory database {db}: {why}"
    return unwritable_said(db, why)


def _check_is_database(conn: sqlite3.Connection) -> None:
    """Read the file's header (a read, nothing written): a file that is not a SQLite
    database raises ``sqlite3.DatabaseError`` here, before its ``.locks`` folder is made."""
    conn.execute("SELECT count(*) FROM sqlite_master").fetchone()


@contextmanager
def _setup_lock(folder: str) -> Iterator[None]:
    import os
    import time

    if not HAS_FLOCK:  # pragma: no cover - Windows: no cross-process setup lock
        yield
        return
    os.makedirs(folder, mode=0o700, exist_ok=True)
    fd = poll_flock(os.path.join(folder, "setup.lock"), time.monotonic() + 120)
    if fd is None:
        raise StorageError(f"timed out waiting for another process to set up {folder}")
    try:
        yield
    finally:
        os.close(fd)


def _open_postgres(dsn: str | None, prefix: Sequence[str]) -> StoreMemoryStorage:
    if not dsn:
        raise ConfigError("storage=postgres needs storage_dsn (e.g. postgresql://user@host/db)")
    try:
        from langgraph.store.postgres import PostgresStore
    except ImportError as e:
        raise MissingDependencyError(
            f"storage=postgres needs the postgres extra: {POSTGRES_INSTALL_HINT}"
        ) from e
    resources = ExitStack()
    try:
        store = resources.enter_context(PostgresStore.from_conn_string(dsn))
        store.setup()
    except Exception as e:
        resources.close()
        # psycopg quotes the DSN it could not parse ('missing "=" after "bob:pw@db"'): masked,
        # and then not chained (its traceback, shown by --debug, would say it as given)
        said = _masked_dsn_error(str(e), dsn)
        masked = StorageError(f"cannot open PostgreSQL memory store: {said}")
        if said == str(e):
            raise masked from e
    else:
        return StoreMemoryStorage(store, prefix, resources=resources)
    raise masked  # outside the handler: it holds none of psycopg's text


# A token libpq quotes back in its error: 'missing "=" after "beta"', "failed to resolve host
# 'ss@db'" (of "bob:p@ss@db").
_QUOTED = re.compile(r'"([^"\n]{0,1000})"|\'([^\'\n]{0,1000})\'')


def _masked_dsn_error(text: str, dsn: str) -> str:
    """libpq's ``text`` about ``dsn`` with its credentials masked: as every message is, and
    each quoted token that holds, or is held by, a word of the password or userinfo."""
    words = dsn_secret_words(dsn)
    # (and each part of a word between "@"s: "p@ss" of "bob:p@ss@db" is quoted as "ss@db")
    pieces = [*words, *(p for w in words if "@" in w for p in w.split("@") if len(p) >= 2)]

    def masked(m: re.Match[str]) -> str:
        token, quote = (m[1], '"') if m[1] is not None else (m[2], "'")
        if not any(c.isalnum() for c in token):
            return m[0]  # a mark of the syntax: 'missing "=" after …'
        if any(w in token or token in w for w in pieces) or _off_the_host(token, dsn):
            return f"{quote}***{quote}"
        return m[0]

    # the words first: a quote in the password splits the tokens libpq quotes back
    return redact_path(_QUOTED.sub(masked, redact_secrets(text, (dsn, *words))))


def _off_the_host(token: str, dsn: str) -> bool:
    """Whether a token libpq quotes back is a piece of ``dsn`` other than its host (a
    password the DSN's shape hid from :func:`dsn_secret_words`: "postgresql://bob:pw x/m")."""
    if "***" in token or token not in dsn:
        return False
    host = re.escape(token)
    return re.search(rf"(?:@|host\s*=\s*'?|//){host}(?![^\s/:@?,'])", dsn) is None


def build_storage(
    config: MemoryConfig,
    *,
    store: BaseStore | None = None,
    namespace_prefix: Sequence[str] = DEFAULT_NAMESPACE_PREFIX,
    write: bool = True,
) -> MemoryStorage:
    """Return the backend ``config.storage`` selects; close it when done (see :func:`open_storage`).

    Args:
        config: settings; reads ``storage``, ``storage_path`` and ``storage_dsn``.
        store: the graph's store, required for ``storage=store``.
        namespace_prefix: first namespace labels for the store-backed backends.
        write: False when the caller only reads: a SQLite database this process
            cannot write (a read-only folder) is then opened read-only.

    Raises:
        ConfigError: ``config`` is not a :class:`MemoryConfig`, ``storage=store``
            without a store, ``postgres`` without a DSN.
        MissingDependencyError: ``postgres`` without the ``postgres`` extra.
        StorageError: the database cannot be opened.

    Example:
        >>> storage = build_storage(MemoryConfig(storage="file", storage_path="/tmp/mem"))
    """
    expect(config, MemoryConfig, "config", "a MemoryConfig (load_config builds one)", ConfigError)
    kind = config.storage
    if kind == "file":
        from deerflow_memory.storage.file import FileMemoryStorage

        return FileMemoryStorage(config.storage_path, journal=config.file_journal)
    if kind == "store":
        if store is None:
            raise ConfigError(
                "storage=store needs the graph's runtime store: pass store=runtime.store "
                "(run under `langgraph dev` or compile the graph with a store)"
            )
        return StoreMemoryStorage(store, namespace_prefix)
    if kind == "sqlite":
        return _open_sqlite(config.storage_path, namespace_prefix, write=write)
    if kind == "postgres":
        return _open_postgres(config.storage_dsn, namespace_prefix)
    raise ConfigError(f"unknown storage {kind!r}: use file, store, sqlite or postgres")


@contextmanager
def open_storage(
    config: MemoryConfig,
    *,
    store: BaseStore | None = None,
    namespace_prefix: Sequence[str] = DEFAULT_NAMESPACE_PREFIX,
    create: bool = True,
    write: bool = True,
) -> Iterator[MemoryStorage]:
    """:func:`build_storage` as a context manager that closes what it opened.

    A store passed in is not closed: its owner (e.g. the LangGraph server) keeps it.
    With ``create=False``, a SQLite database file that is not there yet (nothing at
    its path, a folder above it) is not made, nor its folder or ``.locks`` folder,
    and an empty file (0 bytes, no write-ahead log) or a database without the store's
    table (another program's, e.g. LangGraph's checkpointer's alone) is not set up: an
    empty in-memory store stands in for it, so a look at a mistyped path, an empty
    file or another program's database writes nothing (what is written to that stand-in
    is lost). A path that cannot be a database (under a file, a dangling link) is
    opened as usual, which raises ``StorageError``. Other backends are opened as usual
    (the file backend makes no folder until it saves). With ``write=False`` (the
    caller only reads), a SQLite database this process cannot write (a read-only
    folder or mount) is opened read-only, without its setup lock; a writer there gets
    ``StorageError`` saying so.
    """
    if config.storage == "sqlite":  # (before anything is looked at: a pipe is waited on)
        check_special_files(sqlite_path(config.storage_path))
    if create or config.storage != "sqlite" or not _holds_nothing_yet(config.storage_path):
        storage = build_storage(config, store=store, namespace_prefix=namespace_prefix, write=write)
    else:
        from langgraph.store.memory import InMemoryStore

        storage = StoreMemoryStorage(InMemoryStore(), namespace_prefix)
    try:
        yield storage
    finally:
        close = getattr(storage, "close", None)
        if callable(close):
            close()
