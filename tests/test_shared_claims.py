"""Storages over one store object share update locks and dead-letter claims.

Two ``StoreMemoryStorage`` objects over one store (two services with
``storage="store"`` on the graph's store) wait on each other's update locks,
and a retry's claim taken through one is seen by the other. An app's own
``SqliteStore`` on a file shares them with ``storage: sqlite`` on that file,
across processes (``flock`` in ``<file>.locks/``).
"""

from __future__ import annotations

import gc
import sqlite3
import subprocess
import sys
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest
from langgraph.store.memory import InMemoryStore
from langgraph.store.sqlite import SqliteStore

from deerflow_memory import MemoryConfig
from deerflow_memory.caching.identity import PerObject
from deerflow_memory.errors import UpdateLockTimeoutError
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.storage.factory import build_storage
from deerflow_memory.storage.store import StoreMemoryStorage
from deerflow_memory.storage.store_locks import FlockDocumentLock
from deerflow_memory.update.dead_letter import RetriedLetter
from deerflow_memory.update.updater import UpdateStatus
from tests.test_dead_letter_claims import KEY_ID, Model, outbox_fails, retry, said, turns


def app_sqlite_store(db: Path) -> Iterator[SqliteStore]:
    conn = sqlite3.connect(str(db), check_same_thread=False, isolation_level=None)
    store = SqliteStore(conn)
    store.setup()
    try:
        yield store
    finally:
        conn.close()


@pytest.fixture
def sqlite_backend(tmp_path: Path) -> Iterator[MemoryStorage]:
    """What ``deerflow-memory`` opens with ``storage: sqlite`` on the same file."""
    (tmp_path / "m").mkdir(exist_ok=True)
    storage = build_storage(MemoryConfig(storage="sqlite", storage_path=tmp_path / "m"))
    yield storage
    storage.close()


@pytest.fixture
def app_store(tmp_path: Path, sqlite_backend: MemoryStorage) -> Iterator[SqliteStore]:
    """A ``SqliteStore`` the app built on the file ``sqlite_backend`` made."""
    yield from app_sqlite_store(tmp_path / "m" / "memory.sqlite")


def second_retry_meanwhile(
    first: MemoryStorage, second: MemoryStorage
) -> tuple[Model, Model, list[RetriedLetter], list[RetriedLetter]]:
    """A retry through ``second`` starts while one through ``first`` calls the model."""
    outbox_fails(first, turns(0))
    inner: list[RetriedLetter] = []
    other = Model()
    one = Model(meanwhile=lambda: inner.extend(retry(second, other)))
    outer = retry(first, one)
    return one, other, outer, inner


def assert_sent_once_and_busy(
    one: Model, other: Model, outer: list[RetriedLetter], inner: list[RetriedLetter]
) -> None:
    assert one.sent == [said(turns(0))] and other.sent == []
    [busy] = inner
    assert busy.busy and busy.letter.id == KEY_ID
    assert busy.result.status is UpdateStatus.RETRY
    [done] = outer
    assert done.removed


def test_two_storages_over_one_in_memory_store_send_a_letter_once_and_the_second_is_busy() -> None:
    store = InMemoryStore()
    first, second = StoreMemoryStorage(store), StoreMemoryStorage(store)
    assert_sent_once_and_busy(*second_retry_meanwhile(first, second))
    assert second.list_dead_letters() == []


def assert_waits(holder: MemoryStorage, waiter: MemoryStorage) -> None:
    """While ``holder`` holds ana's update lock, ``waiter`` cannot take it."""
    held = holder.update_lock("ana", None, 1)
    with held, pytest.raises(UpdateLockTimeoutError), waiter.update_lock("ana", None, 0.05):
        pass
    with waiter.update_lock("ana", None, 1):  # free again once let go
        pass


def test_two_storages_over_one_in_memory_store_wait_on_each_others_update_locks() -> None:
    store = InMemoryStore()
    first, second = StoreMemoryStorage(store), StoreMemoryStorage(store)
    assert_waits(first, second)
    assert_waits(first.scoped("acme"), second.scoped("acme"))
    with first.update_lock("ana", None, 1):  # other documents are not held
        for other in (second.scoped("acme"), StoreMemoryStorage(store, ("other_app",))):
            with other.update_lock("ana", None, 0.05):
                pass
        with second.update_lock("bob", None, 0.05):
            pass


def test_the_shared_locks_do_not_keep_a_dropped_store_alive() -> None:
    store = InMemoryStore()
    gone = weakref.ref(store)
    storage = StoreMemoryStorage(store)
    with storage.update_lock("ana", None, 1):
        pass
    del storage, store
    gc.collect()
    assert gone() is None


def test_an_apps_sqlite_store_and_the_sqlite_backend_on_its_file_send_a_letter_once(
    app_store: SqliteStore, sqlite_backend: MemoryStorage
) -> None:
    app = StoreMemoryStorage(app_store)
    assert_sent_once_and_busy(*second_retry_meanwhile(app, sqlite_backend))
    assert_sent_once_and_busy(*second_retry_meanwhile(sqlite_backend, app))


def test_an_apps_sqlite_store_and_the_sqlite_backend_wait_on_each_others_update_locks(
    app_store: SqliteStore, sqlite_backend: MemoryStorage
) -> None:
    app = StoreMemoryStorage(app_store)
    assert_waits(app, sqlite_backend)
    assert_waits(sqlite_backend.scoped("acme"), app.scoped("acme"))


def test_an_in_memory_sqlite_store_shares_its_locks_within_the_process() -> None:
    [store] = app_sqlite_store_of(":memory:")
    assert_waits(StoreMemoryStorage(store), StoreMemoryStorage(store))


def app_sqlite_store_of(name: str) -> list[SqliteStore]:
    conn = sqlite3.connect(name, check_same_thread=False, isolation_level=None)
    store = SqliteStore(conn)
    store.setup()
    return [store]


APP_CLAIM_HOLDER = """
import sqlite3, sys, time
from langgraph.store.sqlite import SqliteStore
from deerflow_memory.storage.store import StoreMemoryStorage
from deerflow_memory.storage.store_locks import FlockDocumentLock
from deerflow_memory.update.letter_claims import claim_letters
store = SqliteStore(sqlite3.connect(sys.argv[1], check_same_thread=False, isolation_level=None))
store.setup()
with claim_letters(StoreMemoryStorage(store), "ana", None) as (state, _):
    print(state, flush=True)
    time.sleep(120)
"""


def test_a_claim_held_by_an_app_process_on_its_sqlite_store_keeps_the_sqlite_backend_off(
    tmp_path: Path, sqlite_backend: MemoryStorage
) -> None:
    outbox_fails(sqlite_backend, turns(0))
    db = tmp_path / "m" / "memory.sqlite"
    holder = subprocess.Popen(
        [sys.executable, "-c", APP_CLAIM_HOLDER, str(db)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "claimed"
        blocked = Model()
        [busy] = retry(sqlite_backend, blocked)
        assert busy.busy and blocked.sent == []
    finally:
        holder.kill()
        holder.wait(30)


def test_an_apps_sqlite_store_takes_its_save_locks_where_the_sqlite_backend_does(
    tmp_path: Path, app_store: SqliteStore, sqlite_backend: MemoryStorage
) -> None:
    app_lock = StoreMemoryStorage(app_store)._document_lock
    backend_lock = sqlite_backend._document_lock  # type: ignore[attr-defined]
    assert isinstance(app_lock, FlockDocumentLock) and isinstance(backend_lock, FlockDocumentLock)
    assert Path(app_lock.folder).resolve() == Path(backend_lock.folder).resolve()
    assert Path(app_lock.folder) == (tmp_path / "m" / "memory.sqlite.locks").resolve()


class EqualStore(InMemoryStore):
    """A store that defines equality but no hash, like a dataclass: every one equals every other."""

    __hash__ = None  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, EqualStore)


def test_a_store_without_a_hash_gets_its_own_locks_and_two_equal_stores_do_not_share_them() -> None:
    # Attack 19: the per-store lock registries were keyed by equality (TypeError: unhashable).
    first, second = StoreMemoryStorage(EqualStore()), StoreMemoryStorage(EqualStore())
    with first.update_lock("ana", None, 1):
        with second.update_lock("ana", None, 0.05):  # another store: not the same lock
            pass
        same_store = StoreMemoryStorage(first.store)
        with pytest.raises(UpdateLockTimeoutError), same_store.update_lock("ana", None, 0.05):
            pass


def test_per_object_values_go_with_their_object() -> None:
    values: PerObject[list[int]] = PerObject(list)
    kept, dropped = EqualStore(), EqualStore()
    values.get(kept).append(1)
    values.get(dropped).append(2)
    assert values.get(kept) == [1] and len(values) == 2
    del dropped
    gc.collect()
    assert len(values) == 1 and values.get(kept) == [1]
