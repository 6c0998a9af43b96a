"""A closed store is recognised once, where the store is called; above that, by its type.

The store backend turns the errors of a closed store into ``StoreClosedError``
(``storage/closed.py`` knows their words). Everything above it (the outbox, the
updater, the service) tests for that type, so an error that only *says* "Event
loop is closed" (a model client's, an embedder's) fails its update like any
other error: retried or dead-lettered, never dropped as "the store was closed".
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sqlite3
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.store.base import GetOp
from langgraph.store.memory import InMemoryStore

from deerflow_memory import MemoryConfig, MemoryIdentity, MemoryService, StoreClosedError
from deerflow_memory.errors import ModelCallError, StorageError
from deerflow_memory.storage.store import StoreMemoryStorage
from deerflow_memory.storage.tenants import has_pending_updates, tenants_with_pending_updates
from deerflow_memory.update.updater import UpdateStatus, failure_result

TURN = [HumanMessage("I'm allergic to peanuts."), AIMessage("Noted, no peanuts.")]
ALICE = MemoryIdentity("alice", None, "t1")


def loop_closed_error() -> RuntimeError:
    return RuntimeError("Event loop is closed")


def test_an_embedder_whose_event_loop_closed_fails_the_update_it_does_not_stop_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # The store indexes facts with an embedding client whose own loop ended: the
    # store is open, so the update is dead-lettered (kept), not counted as "did
    # not run because the store was closed" and lost.
    def embed(texts: list[str]) -> list[list[float]]:
        raise loop_closed_error()

    store = InMemoryStore(index={"dims": 4, "embed": embed, "fields": ["content"]})
    storage = StoreMemoryStorage(store)
    memory = MemoryService(
        MemoryConfig(debounce_seconds=3600), storage=storage, register_atexit=False
    )
    memory.enqueue(ALICE, TURN)
    flushed = memory.flush(timeout=30)
    with caplog.at_level(logging.WARNING, logger="deerflow_memory"):
        closed = memory.close()
    assert [f.outcome for f in flushed.failed] == ["dead_letter"]
    assert "Event loop is closed" in flushed.failed[0].error
    (letter,) = storage.list_dead_letters("alice")
    assert [m["data"]["content"] for m in letter.messages] == [m.content for m in TURN]
    assert closed  # nothing was lost to a closed store
    assert "closed after its store" not in caplog.text


def test_only_a_store_closed_error_marks_a_failed_update_store_closed() -> None:
    model_failure = ModelCallError("memory model call failed")
    model_failure.__cause__ = loop_closed_error()
    for error in (loop_closed_error(), model_failure):
        result = failure_result(error)
        assert not result.store_closed, error
        assert result.status is UpdateStatus.FAILED  # dead-lettered like any model failure
    closed = StoreClosedError("SqliteStore is closed")
    closed.__cause__ = sqlite3.ProgrammingError("Cannot operate on a closed database.")
    assert failure_result(closed).store_closed


class LoopStore(InMemoryStore):
    """An in-memory store that says what an async store's call says once its loop ended."""

    def __init__(self, loop: asyncio.AbstractEventLoop | None) -> None:
        super().__init__()
        self._loop = loop

    def batch(self, ops: object) -> list[object]:
        raise loop_closed_error()


def test_event_loop_is_closed_means_a_closed_store_only_when_it_is_the_stores_own_loop() -> None:
    ended = asyncio.new_event_loop()
    ended.close()
    running = asyncio.new_event_loop()
    try:
        cases = {None: StorageError, running: StorageError, ended: StoreClosedError}
        for loop, expected in cases.items():
            with pytest.raises(StorageError) as raised:
                StoreMemoryStorage(LoopStore(loop)).run_ops([GetOp(("ns",), "key")])
            assert type(raised.value) is expected, loop
    finally:
        running.close()


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # its abatch coroutine is never run
def test_an_async_sqlite_store_called_after_its_event_loop_ended_is_a_closed_store(
    tmp_path: Path,
) -> None:
    import aiosqlite
    from langgraph.store.sqlite.aio import AsyncSqliteStore

    async def open_store() -> tuple[AsyncSqliteStore, aiosqlite.Connection]:
        conn = await aiosqlite.connect(str(tmp_path / "m.sqlite"), isolation_level=None)
        store = AsyncSqliteStore(conn)
        await store.setup()
        return store, conn

    store, _ = asyncio.run(open_store())  # the loop ends; the store was never closed
    with pytest.raises(StoreClosedError) as raised:
        StoreMemoryStorage(store).run_ops([GetOp(("ns",), "key")])
    message = str(raised.value)
    del raised
    gc.collect()  # the coroutine that never ran warns here, not in a later test
    assert "Event loop is closed" in message


def test_the_tenant_scans_report_a_closed_store_as_store_closed_error(tmp_path: Path) -> None:
    from langgraph.store.sqlite import SqliteStore

    with SqliteStore.from_conn_string(str(tmp_path / "m.sqlite")) as store:
        store.setup()
        storage = StoreMemoryStorage(store)
        assert tenants_with_pending_updates(storage) == []
        assert has_pending_updates(storage, "acme") is False
    with pytest.raises(StoreClosedError):
        tenants_with_pending_updates(storage)
    with pytest.raises(StoreClosedError):
        has_pending_updates(storage, "acme")
