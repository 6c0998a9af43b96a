"""What only the LangGraph-store backend promises: labels, items, index, async stores, processes."""

from __future__ import annotations

import asyncio
import hashlib
import math
import multiprocessing
import sys
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from langgraph.store.memory import InMemoryStore
from langgraph.store.sqlite.aio import AsyncSqliteStore

from deerflow_memory.config import MemoryConfig
from deerflow_memory.errors import (
    ConfigError,
    CorruptMemoryError,
    MissingDependencyError,
    RevisionConflictError,
    StorageError,
)
from deerflow_memory.models import Fact, MemoryDocument
from deerflow_memory.storage.factory import POSTGRES_INSTALL_HINT, build_storage, open_storage
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.storage.store import (
    DOCUMENT_KEY,
    PostgresAdvisoryLock,
    StoreMemoryStorage,
    decode_label,
    encode_label,
)
from tests.pg import drop_prefix, postgres_dsn_or_skip, shared_postgres_store


def fact(content: str) -> Fact:
    return Fact(content=content, confidence=0.9, source="t")


def with_facts(document: MemoryDocument, *facts: Fact) -> MemoryDocument:
    return document.model_copy(update={"facts": (*document.facts, *facts)})


def hashing_embed(texts: list[str], dims: int = 64) -> list[list[float]]:
    """Deterministic bag-of-words embedding: similar wording, similar vectors."""
    vectors = []
    for text in texts:
        vec = [0.0] * dims
        for word in text.lower().split():
            vec[int(hashlib.sha256(word.encode()).hexdigest(), 16) % dims] += 1.0
        norm = math.sqrt(sum(v * v for v in vec)) or 1.0
        vectors.append([v / norm for v in vec])
    return vectors


# --- labels ----------------------------------------------------------------------------


@given(st.text(min_size=1))
def test_label_encoding_is_reversible_and_never_contains_a_period(name: str) -> None:
    label = encode_label(name)
    assert "." not in label and "\x00" not in label
    assert decode_label(label) == name


@given(st.text(min_size=1), st.text(min_size=1))
def test_distinct_names_get_distinct_labels(a: str, b: str) -> None:
    assert (encode_label(a) == encode_label(b)) == (a == b)


def test_email_like_user_ids_are_distinct_documents() -> None:
    storage = StoreMemoryStorage(InMemoryStore())
    users = ["alice@example.com", "alice@example_com", "alice.example.com", "alice-example.com"]
    for user in users:
        storage.save(user, None, with_facts(MemoryDocument(), fact(f"I am {user}")))
    assert [storage.load(u).facts[0].content for u in users] == [f"I am {u}" for u in users]
    assert sorted(u for u, _ in storage.list_documents()) == sorted(users)


def test_a_namespace_prefix_separates_two_storages_on_one_store() -> None:
    store = InMemoryStore()
    first, second = StoreMemoryStorage(store, ("app_a",)), StoreMemoryStorage(store, ("app_b",))
    first.save("u", None, with_facts(MemoryDocument(), fact("from a")))
    assert second.load("u").facts == ()
    assert list(second.list_documents()) == []


def test_an_invalid_namespace_prefix_is_rejected() -> None:
    for prefix in [(), ("a.b",), ("langgraph",), ("",)]:
        with pytest.raises(ConfigError):
            StoreMemoryStorage(InMemoryStore(), prefix)


# --- items and concurrency semantics -------------------------------------------------------


def test_each_fact_is_its_own_item_keyed_by_fact_id() -> None:
    store = InMemoryStore()
    storage = StoreMemoryStorage(store)
    stored = storage.save("u", "a", with_facts(MemoryDocument(), fact("x"), fact("y")))
    ns = storage.facts_namespace("u", "a")
    for f in stored.facts:
        item = store.get(ns, f.id)
        assert item is not None and item.value["content"] == f.content
    document_item = store.get(storage.document_namespace("u", "a"), DOCUMENT_KEY)
    assert document_item is not None and "facts" not in document_item.value["document"]


def test_two_blind_writers_from_the_same_revision_keep_both_facts() -> None:
    storage = StoreMemoryStorage(InMemoryStore())
    base = storage.save("u", None, with_facts(MemoryDocument(), fact("shared")))
    storage.save("u", None, with_facts(base, fact("from writer one")))
    storage.save("u", None, with_facts(base, fact("from writer two")))
    contents = [f.content for f in storage.load("u").facts]
    assert sorted(contents) == ["from writer one", "from writer two", "shared"]


def test_a_removal_is_applied_while_a_concurrent_addition_survives() -> None:
    storage = StoreMemoryStorage(InMemoryStore())
    base = storage.save("u", None, with_facts(MemoryDocument(), fact("old"), fact("keep")))
    storage.save("u", None, with_facts(base, fact("added concurrently")))
    storage.save("u", None, base.model_copy(update={"facts": base.facts[1:]}))
    assert sorted(f.content for f in storage.load("u").facts) == ["added concurrently", "keep"]


def test_a_stale_document_from_before_a_delete_never_removes_facts_written_since() -> None:
    store = InMemoryStore()
    stale_writer, other = StoreMemoryStorage(store), StoreMemoryStorage(store)
    old = stale_writer.save("u", None, with_facts(MemoryDocument(), fact("same id, both lives")))
    other.delete("u")
    other.save("u", None, old.model_copy(update={"revision": 0}))  # re-imported: revision 1 again
    stale_writer.save("u", None, old.model_copy(update={"facts": ()}))
    assert [f.content for f in other.load("u").facts] == ["same id, both lives"]


def test_a_document_loaded_by_another_instance_can_remove_facts() -> None:
    store = InMemoryStore()
    writer, other = StoreMemoryStorage(store), StoreMemoryStorage(store)
    writer.save("u", None, with_facts(MemoryDocument(), fact("a"), fact("b")))
    loaded = other.load("u")
    writer.save("u", None, loaded.model_copy(update={"facts": loaded.facts[:1]}), 1)
    assert [f.content for f in other.load("u").facts] == ["a"]


def test_an_unchanged_document_loads_as_the_same_object_and_a_changed_one_does_not() -> None:
    store = InMemoryStore()
    storage = StoreMemoryStorage(store)
    storage.save("u", None, with_facts(MemoryDocument(), fact("a")))
    first = storage.load("u")
    assert storage.load("u") is first  # lets the injection cache hold between turns
    store.put(storage.facts_namespace("u"), first.facts[0].id, {"content": "edited elsewhere"})
    assert [f.content for f in storage.load("u").facts] == ["edited elsewhere"]


@pytest.mark.postgres
@pytest.mark.slow
def test_a_document_larger_than_one_statement_allows_is_saved_whole(
    pg_prefix: tuple[str, tuple[str, ...]],
) -> None:
    dsn, prefix = pg_prefix
    storage = StoreMemoryStorage(shared_postgres_store(dsn), prefix)  # type: ignore[arg-type]
    # > 65,535 / 4 rows; ids fixed, since 17,000 random 32-bit ids share one ~3 % of runs
    facts = tuple(Fact(id=f"fact_{i:08x}", content=f"fact {i}") for i in range(17_000))
    storage.save("big", None, MemoryDocument(facts=facts))
    loaded = storage.load("big")
    assert [f.id for f in loaded.facts] == [f.id for f in facts]
    storage.close()


def test_facts_with_a_repeated_id_are_all_kept() -> None:
    storage = StoreMemoryStorage(InMemoryStore())
    twins = (Fact(id="fact_dup", content="one"), Fact(id="fact_dup", content="two"))
    storage.save("u", None, MemoryDocument(facts=twins))
    loaded = storage.load("u").facts
    # Both texts stay; the second copy gets its own id on load (models.unique_fact_ids).
    assert [f.content for f in loaded] == ["one", "two"]
    assert loaded[0].id == "fact_dup" and loaded[1].id not in {"fact_dup", ""}


def test_storages_sharing_a_store_object_serialize_their_revision_checks() -> None:
    store = InMemoryStore()
    storages = [StoreMemoryStorage(store) for _ in range(3)]
    wins: list[int] = []
    barrier = threading.Barrier(3)

    def write(i: int) -> None:
        barrier.wait()
        try:
            storages[i].save("u", None, with_facts(MemoryDocument(), fact(str(i))), 0)
            wins.append(i)
        except RevisionConflictError:
            pass

    threads = [threading.Thread(target=write, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(wins) == 1
    assert storages[0].load("u").revision == 1


def test_a_corrupt_document_item_is_reported_and_left_untouched() -> None:
    store = InMemoryStore()
    storage = StoreMemoryStorage(store)
    ns = storage.document_namespace("u")
    store.put(ns, DOCUMENT_KEY, {"unexpected": True})
    with pytest.raises(CorruptMemoryError) as caught:
        storage.load("u")
    assert "deerflow_memory/users/u" in str(caught.value)
    item = store.get(ns, DOCUMENT_KEY)
    assert item is not None and item.value == {"unexpected": True}


def test_a_corrupt_fact_item_is_reported() -> None:
    store = InMemoryStore()
    storage = StoreMemoryStorage(store)
    storage.save("u", None, with_facts(MemoryDocument(), fact("fine")))
    store.put(storage.facts_namespace("u"), "fact_bad", {"confidence": "high"})
    with pytest.raises(CorruptMemoryError):
        storage.load("u")


# --- vector index -----------------------------------------------------------------------


def test_facts_are_indexed_on_content_when_the_store_has_an_index() -> None:
    store = InMemoryStore(
        index={"dims": 64, "embed": hashing_embed, "fields": ["content"]}  # type: ignore[typeddict-item]
    )
    storage = StoreMemoryStorage(store)
    facts = [fact("allergic to peanuts"), fact("works as a backend engineer"), fact("loves jazz")]
    storage.save("u", None, MemoryDocument(facts=tuple(facts)))
    hits = store.search(storage.facts_namespace("u"), query="peanuts allergic", limit=1)
    assert [h.value["content"] for h in hits] == ["allergic to peanuts"]
    assert hits[0].score is not None and hits[0].score > 0.5
    # The document item is not indexed: only facts come back from a vector search.
    everything = store.search(storage.document_namespace("u"), query="peanuts", limit=10)
    assert all(h.key != DOCUMENT_KEY or h.score is None for h in everything)


# --- async stores ------------------------------------------------------------------------


async def test_async_sqlite_store_works_from_async_code(tmp_path: Path) -> None:
    async with AsyncSqliteStore.from_conn_string(str(tmp_path / "a.sqlite")) as store:
        await store.setup()
        storage = StoreMemoryStorage(store)
        stored = await storage.asave("u", "a", with_facts(MemoryDocument(), fact("async")), 0)
        loaded = await storage.aload("u", "a")
        assert [f.content for f in loaded.facts] == ["async"]
        assert loaded.revision == stored.revision == 1
        # The updater's worker threads use the sync API: LangGraph bridges it to the loop.
        from_thread = await asyncio.to_thread(storage.load, "u", "a")
        assert from_thread.revision == 1


async def test_sync_calls_on_an_async_store_from_its_loop_raise_a_clear_error(
    tmp_path: Path,
) -> None:
    async with AsyncSqliteStore.from_conn_string(str(tmp_path / "a.sqlite")) as store:
        await store.setup()
        with pytest.raises(StorageError, match="aload"):
            StoreMemoryStorage(store).load("u")


async def test_a_sync_only_store_works_through_the_async_methods(tmp_path: Path) -> None:
    with open_storage(MemoryConfig(storage="sqlite", storage_path=tmp_path / "m.sqlite")) as s:
        await s.asave("u", None, with_facts(MemoryDocument(), fact("via thread")))
        assert [f.content for f in (await s.aload("u")).facts] == ["via thread"]


# --- factory --------------------------------------------------------------------------------


def test_the_factory_builds_each_configured_backend(tmp_path: Path) -> None:
    file_storage = build_storage(MemoryConfig(storage="file", storage_path=tmp_path / "f"))
    assert isinstance(file_storage, FileMemoryStorage)
    store = InMemoryStore()
    store_storage = build_storage(MemoryConfig(storage="store"), store=store)
    assert isinstance(store_storage, StoreMemoryStorage) and store_storage.store is store
    with open_storage(MemoryConfig(storage="sqlite", storage_path=tmp_path / "dir")) as sqlite:
        sqlite.save("u", None, with_facts(MemoryDocument(), fact("on disk")))
    assert (tmp_path / "dir" / "memory.sqlite").exists()
    with open_storage(MemoryConfig(storage="sqlite", storage_path=tmp_path / "dir")) as again:
        assert [f.content for f in again.load("u").facts] == ["on disk"]


def test_storage_store_without_a_store_says_it_needs_the_runtime_store() -> None:
    with pytest.raises(ConfigError, match="runtime store"):
        build_storage(MemoryConfig(storage="store"))


def test_storage_postgres_without_a_dsn_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="storage_dsn"):
        build_storage(MemoryConfig(storage="postgres"))


def test_storage_postgres_without_the_extra_names_the_install_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "langgraph.store.postgres", None)
    with pytest.raises(MissingDependencyError) as caught:
        build_storage(MemoryConfig(storage="postgres", storage_dsn="postgresql://x@127.0.0.1/db"))
    assert POSTGRES_INSTALL_HINT in str(caught.value)
    assert 'pip install "deerflow-memory[postgres]"' in POSTGRES_INSTALL_HINT
    assert 'pip install -e ".[postgres]"' in POSTGRES_INSTALL_HINT


def test_an_unreachable_postgres_is_a_storage_error() -> None:
    dsn = "postgresql://nobody@127.0.0.1:1/none?connect_timeout=2"
    with pytest.raises(StorageError):
        build_storage(MemoryConfig(storage="postgres", storage_dsn=dsn))


# --- PostgreSQL ---------------------------------------------------------------------------


@pytest.fixture
def pg_prefix() -> Iterator[tuple[str, tuple[str, ...]]]:
    dsn = postgres_dsn_or_skip()
    prefix = ("dfm_test", uuid.uuid4().hex)
    yield dsn, prefix
    drop_prefix(dsn, prefix)


@pytest.mark.postgres
async def test_async_postgres_store_works_from_async_code(
    pg_prefix: tuple[str, tuple[str, ...]],
) -> None:
    from langgraph.store.postgres.aio import AsyncPostgresStore

    dsn, prefix = pg_prefix
    shared_postgres_store(dsn)  # runs the store migrations once
    async with AsyncPostgresStore.from_conn_string(dsn) as store:
        with StoreMemoryStorage(store, prefix) as storage:
            first = await storage.asave("u", None, with_facts(MemoryDocument(), fact("a")), 0)
            with pytest.raises(RevisionConflictError):
                await storage.asave("u", None, with_facts(first, fact("b")), 0)
            await storage.asave("u", None, with_facts(first, fact("b")), 1)
            loaded = await storage.aload("u")
            assert [f.content for f in loaded.facts] == ["a", "b"] and loaded.revision == 2


@pytest.mark.postgres
def test_the_factory_opens_postgres_and_closes_its_connection(
    pg_prefix: tuple[str, tuple[str, ...]],
) -> None:
    dsn, prefix = pg_prefix
    config = MemoryConfig(storage="postgres", storage_dsn=dsn)
    with open_storage(config, namespace_prefix=prefix) as storage:
        storage.save("u", None, with_facts(MemoryDocument(), fact("persisted")))
        assert isinstance(storage, StoreMemoryStorage)
        conn = storage.store.conn  # type: ignore[attr-defined]
    assert conn.closed
    with open_storage(config, namespace_prefix=prefix) as storage:
        assert [f.content for f in storage.load("u").facts] == ["persisted"]


def _update_worker(
    dsn: str, prefix: tuple[str, ...], worker: int, updates: int, start: Any, out: Any
) -> None:
    """One writer process: load, add a unique fact, save with the revision check, retry."""
    conflicts = 0
    config = MemoryConfig(storage="postgres", storage_dsn=dsn)
    with open_storage(config, namespace_prefix=prefix) as storage:
        start.wait()
        for i in range(updates):
            while True:
                doc = storage.load("shared@example.com")
                new = with_facts(doc, fact(f"worker {worker} update {i}"))
                try:
                    storage.save("shared@example.com", None, new, expected_revision=doc.revision)
                    break
                except RevisionConflictError:
                    conflicts += 1
    out.put(conflicts)


@pytest.mark.postgres
@pytest.mark.slow
def test_two_processes_updating_one_user_lose_no_facts(
    pg_prefix: tuple[str, tuple[str, ...]],
) -> None:
    dsn, prefix = pg_prefix
    shared_postgres_store(dsn)
    updates = 30
    # fork: the children inherit the imported modules (a fresh interpreter needs
    # seconds to import langchain-core) and open their own connections.
    ctx = multiprocessing.get_context("fork")
    start, out = ctx.Barrier(2), ctx.Queue()
    procs = [
        ctx.Process(target=_update_worker, args=(dsn, prefix, w, updates, start, out))
        for w in range(2)
    ]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=120)
        assert p.exitcode == 0
    for _ in procs:
        out.get(timeout=5)  # each worker finished its loop and reported
    with open_storage(
        MemoryConfig(storage="postgres", storage_dsn=dsn), namespace_prefix=prefix
    ) as storage:
        final = storage.load("shared@example.com")
    expected = {f"worker {w} update {i}" for w in range(2) for i in range(updates)}
    assert sorted(f.content for f in final.facts) == sorted(expected)
    # Every successful save moved the revision by exactly one: no two writers
    # passed the same revision check, so no summary was silently overwritten.
    assert final.revision == 2 * updates


@pytest.mark.postgres
def test_the_advisory_lock_excludes_a_second_holder_until_released() -> None:
    dsn = postgres_dsn_or_skip()
    first, second = PostgresAdvisoryLock(dsn), PostgresAdvisoryLock(dsn)
    key = f"test:{uuid.uuid4().hex}"
    handle = first.acquire(key)
    got_it = threading.Event()

    def wait_for_lock() -> None:
        second.release(second.acquire(key))
        got_it.set()

    waiter = threading.Thread(target=wait_for_lock)
    waiter.start()
    try:
        assert not got_it.wait(0.2)  # blocked while the first holder has it
    finally:
        first.release(handle)
    waiter.join(timeout=10)
    assert got_it.is_set()
    first.close()
    second.close()


@pytest.mark.postgres
def test_the_advisory_lock_recovers_from_a_dead_idle_connection() -> None:
    import psycopg

    dsn = postgres_dsn_or_skip()
    lock = PostgresAdvisoryLock(dsn)
    handle = lock.acquire("k")
    lock.release(handle)  # its connection is now idle
    dead_pid = handle.conn.info.backend_pid  # type: ignore[attr-defined]
    with psycopg.connect(dsn, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (dead_pid,))
    fresh = lock.acquire("k")  # must not hand out the dead connection
    assert not fresh.conn.closed  # type: ignore[attr-defined]
    assert fresh.conn.info.backend_pid != dead_pid  # type: ignore[attr-defined]
    lock.release(fresh)
    lock.close()
