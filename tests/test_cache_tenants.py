"""A storage's cache bound holds for the whole process: all its tenants' views and caches together.

What is held is counted from outside the storage: the parsed facts (``Fact`` objects)
and the stored fact JSON (dicts with ``createdAt``) still alive after a collection,
less those alive before the storage was made. The SQLite store keeps its rows on
disk, so every fact object alive is one a cache holds.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from langgraph.store.memory import InMemoryStore
from langgraph.store.sqlite import SqliteStore

from deerflow_memory.caching import CacheBudget
from deerflow_memory.errors import CorruptMemoryError, InvalidNameError
from deerflow_memory.models import Fact
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.storage.store import StoreMemoryStorage
from tests.test_cache_size import document

FACTS = 40  # per document
TENANTS = 20


def facts_alive() -> int:
    """Parsed facts plus stored fact JSON objects alive in the process."""
    gc.collect()
    objects = gc.get_objects()
    parsed = sum(1 for o in objects if type(o) is Fact)
    raw: set[int] = set()
    for o in objects:
        if type(o) is dict:
            for v in o.values():
                if type(v) is dict and "createdAt" in v and "content" in v:
                    raw.add(id(v))
    return parsed + len(raw)


@contextmanager
def made(backend: str, tmp_path: Path, bound: int) -> Iterator[MemoryStorage]:
    if backend == "file":
        yield FileMemoryStorage(tmp_path / "files", max_cached_facts=bound)
        return
    with SqliteStore.from_conn_string(str(tmp_path / "m.sqlite")) as store:
        store.setup()
        yield StoreMemoryStorage(store, max_cached_facts=bound)


def save_and_load(storage: MemoryStorage, user: str, tag: str) -> None:
    """Replace the user's facts by a new document of ``FACTS`` facts, then read it back."""
    revision = storage.load(user).revision
    new = document(FACTS, tag).model_copy(update={"revision": revision})
    stored = storage.save(user, None, new, expected_revision=revision)
    loaded = storage.load(user, None)
    assert loaded.revision == stored.revision
    assert [f.content for f in loaded.facts] == [f.content for f in stored.facts]


BOUND = 500  # ~12 documents of 40 facts on file storage, ~4 on the store (3 forms each)


@pytest.mark.parametrize("backend", ["file", "store"])
def test_many_tenants_on_one_storage_hold_the_fact_bound_in_total(
    backend: str, tmp_path: Path
) -> None:
    before = facts_alive()
    with made(backend, tmp_path, BOUND) as storage:
        views = [storage.scoped(f"tenant{t}") for t in range(TENANTS)]  # as open services hold
        for t, view in enumerate(views):
            save_and_load(view, "alice", f"tenant{t}")
        held = facts_alive() - before
        # Each view with its own bound would hold all 20 tenants' 40 facts (and more forms).
        assert FACTS <= held <= BOUND
        for t, view in enumerate(views):  # every tenant still reads its own memory
            assert view.load("alice").facts[0].content == f"Fact 0 about a user of tenant{t}"
        assert facts_alive() - before <= BOUND


def test_the_store_holds_the_fact_bound_over_both_caches_and_the_stored_json(
    tmp_path: Path,
) -> None:
    before = facts_alive()
    with made("store", tmp_path, BOUND) as storage:
        for u in range(TENANTS):
            save_and_load(storage, f"user{u}", f"user{u}")
            storage.load(f"user{u}")  # a second, unchanged load keeps no second copy
        assert FACTS <= facts_alive() - before <= BOUND


@pytest.mark.parametrize("backend", ["file", "store"])
def test_tenants_on_many_threads_share_one_bound(backend: str, tmp_path: Path) -> None:
    before = facts_alive()
    failures: list[BaseException] = []
    with made(backend, tmp_path, BOUND) as storage:
        start = threading.Barrier(6)

        def work(t: int) -> Callable[[], None]:
            def run() -> None:
                try:
                    view = storage.scoped(f"tenant{t}")
                    start.wait()
                    for k in range(8):
                        save_and_load(view, f"user{k % 3}", f"tenant{t}-{k}")
                        storage.scoped(f"tenant{(t + 1) % 6}").load(f"user{k % 3}")
                except BaseException as e:  # reported below
                    failures.append(e)

            return run

        threads = [threading.Thread(target=work(t)) for t in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert not any(thread.is_alive() for thread in threads), "a thread is stuck"
        assert failures == []
        assert FACTS <= facts_alive() - before <= BOUND


def _pair(backend: str, tmp_path: Path, budget: CacheBudget) -> list[MemoryStorage]:
    if backend == "file":
        return [FileMemoryStorage(tmp_path / name, cache_budget=budget) for name in ("a", "b")]
    return [StoreMemoryStorage(InMemoryStore(), cache_budget=budget) for _ in range(2)]


@pytest.mark.parametrize("backend", ["file", "store"])
def test_storages_sharing_a_budget_never_see_each_others_documents(
    backend: str, tmp_path: Path
) -> None:
    budget = CacheBudget(1024, 100_000)
    first, second = _pair(backend, tmp_path, budget)
    first.save("ana", None, document(3, "first"))
    first.load("ana")  # cached on the shared budget
    assert second.load("ana").facts == ()
    first.scoped("acme").save("bob", None, document(2, "acme"))
    first.scoped("acme").load("bob")
    assert second.scoped("acme").load("bob").facts == ()
    saved = second.save("ana", None, document(1, "second"), expected_revision=0)
    assert [f.id for f in first.load("ana").facts] == [f"fact_first_{i:04x}" for i in range(3)]
    assert [f.id for f in second.load("ana").facts] == [f.id for f in saved.facts]
    assert len(budget) > 0  # both drew on the one budget


def test_a_tenant_view_never_reads_a_linked_folder_through_a_plain_storage_on_a_shared_budget(
    tmp_path: Path,
) -> None:
    # A storage made on a tenant's own folder may follow a users/ link; that tenant's
    # view may not (it would read another tenant). Sharing one budget, the view
    # must not be served the plain storage's cache entry for the linked folder.
    budget = CacheBudget(1024, 100_000)
    root = FileMemoryStorage(tmp_path / "files", cache_budget=budget)
    root.scoped("victim").save("ana", None, document(2, "victim"))
    acme = root.tenant_folder("acme")
    acme.mkdir(parents=True)
    (acme / "users").symlink_to(root.tenant_folder("victim") / "users")
    plain = FileMemoryStorage(acme, cache_budget=budget)
    assert len(plain.load("ana").facts) == 2  # allowed here, and now cached
    with pytest.raises((InvalidNameError, CorruptMemoryError)):
        root.scoped("acme").load("ana")
