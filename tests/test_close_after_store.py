"""Closing a memory service after the app closed its store: fast, one log line, nothing retried.

README "Close memory before its store" describes the misuse. Each test uses a
real store (SQLite, aiosqlite, PostgreSQL with one connection or a pool),
closes it first, then the service, and checks what the service did with the
closed store: how many store calls it made after the first failure (the drain
stops there), its log records (one ERROR with the counts, no traceback at the
default level) and its falsy result.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import subprocess
import sys
import textwrap
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.store.base import BaseStore

from deerflow_memory import MemoryConfig, MemoryService, StoreClosedError
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.storage.closed import is_store_closed
from deerflow_memory.storage.outbox import never_writable

TURN = [HumanMessage("I'm allergic to peanuts."), AIMessage("Noted, no peanuts.")]
ALICE = MemoryIdentity("alice", None, "t1")


class FailedCalls:
    """Wraps ``store.batch`` and counts the calls that raised."""

    def __init__(self, store: Any) -> None:
        self.count = 0
        inner: Callable[[Any], Any] = store.batch

        def batch(ops: Any) -> Any:
            try:
                return inner(ops)
            except Exception:
                self.count += 1
                raise

        store.batch = batch


@pytest.fixture
def logged(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """The package's records at the default level (WARNING and up)."""
    with caplog.at_level(logging.WARNING, logger="deerflow_memory"):
        yield caplog


def memory_service() -> MemoryService:
    config = MemoryConfig(storage="store", debounce_seconds=3600)  # runs in close()'s drain
    return MemoryService(config, register_atexit=False)


def settled(memory: MemoryService) -> None:
    """Wait for what binding a store starts (recovery, the scan for tenants) and for the
    outbox's writes: then the only store calls left are the ones closing makes."""
    assert memory.durable is not None and memory.durable.wait_recovered(10)
    scanner = memory._tenant_scanner
    if scanner is not None:
        scanner.join(10)
    assert memory.durable.outbox.sync(timeout=10)


def assert_one_quiet_error(
    caplog: pytest.LogCaptureFixture, *, unwritten: int, not_run: int
) -> None:
    records = [r for r in caplog.records if r.name.startswith("deerflow_memory")]
    assert [r.levelname for r in records] == ["ERROR"], [r.getMessage() for r in records]
    (record,) = records
    message = record.getMessage()
    assert f"{unwritten} outbox record(s) could not be written" in message
    assert f"{not_run} update(s) did not run" in message
    assert "Close memory before its store" in message
    assert record.exc_info is None and record.exc_text is None
    assert "Traceback" not in caplog.text


def assert_close_stops_at_the_first_error(
    memory: MemoryService, store: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Close ``memory`` (one turn pending, already in the outbox) after ``store`` closed: one
    store call fails and nothing is tried after it, the update is reported store_closed, and
    one quiet ERROR is logged."""
    failed = FailedCalls(store)
    result = memory.close()
    assert failed.count == 1
    assert not result and [f.outcome for f in result.failed] == ["store_closed"]
    assert_one_quiet_error(caplog, unwritten=0, not_run=1)


async def assert_closing_after_the_async_store_stops_at_the_first_error(
    opened: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Capture a turn through the async store that ``opened`` (its ``from_conn_string``
    context) yields, leave the context (the store closes), then check
    :func:`assert_close_stops_at_the_first_error`."""
    memory = memory_service()
    async with opened as store:
        await store.setup()
        await asyncio.to_thread(memory.enqueue, ALICE, TURN, store=store)
        await asyncio.to_thread(settled, memory)
    await asyncio.to_thread(assert_close_stops_at_the_first_error, memory, store, caplog)


def test_a_capture_after_the_sqlite_store_closed_is_tried_once_then_close_reports_it(
    tmp_path: Path, logged: pytest.LogCaptureFixture
) -> None:
    from langgraph.store.sqlite import SqliteStore

    memory = memory_service()
    with SqliteStore.from_conn_string(str(tmp_path / "m.sqlite")) as store:
        store.setup()
        memory.storage_for(store)
        settled(memory)
    failed = FailedCalls(store)
    memory.enqueue(ALICE, TURN, store=store)
    outbox = memory.durable.outbox
    assert outbox.sync(timeout=10) is False  # not written, and known at once
    assert isinstance(outbox.store_closed, StoreClosedError)
    result = memory.close()
    assert failed.count == 1  # the outbox's first write; the update never touched the store
    assert not result and result.pending == 0
    assert [f.outcome for f in result.failed] == ["store_closed"]
    assert_one_quiet_error(logged, unwritten=1, not_run=1)


def test_records_written_before_the_sqlite_store_closed_run_at_the_next_start(
    tmp_path: Path, logged: pytest.LogCaptureFixture
) -> None:
    from langgraph.store.sqlite import SqliteStore

    path = str(tmp_path / "m.sqlite")
    memory = memory_service()
    with SqliteStore.from_conn_string(path) as store:
        store.setup()
        memory.enqueue(ALICE, TURN, store=store)
        settled(memory)
    failed = FailedCalls(store)
    result = memory.close()
    assert failed.count == 1  # the claim's read; nothing retried, no dead letter tried
    assert not result
    assert_one_quiet_error(logged, unwritten=0, not_run=1)
    with (
        SqliteStore.from_conn_string(path) as store,
        MemoryService(MemoryConfig(storage="store"), register_atexit=False) as again,
    ):
        again.storage_for(store)
        assert again.durable is not None and again.durable.wait_recovered(10)
        assert again.flush(timeout=30)
        facts = again.load(ALICE, store).facts
    assert any("peanut" in f.content for f in facts), facts


async def test_an_async_sqlite_store_closed_first_stops_the_drain_at_its_first_error(
    tmp_path: Path, logged: pytest.LogCaptureFixture
) -> None:
    from langgraph.store.sqlite.aio import AsyncSqliteStore

    # aiosqlite says "no active connection" (a ValueError): not a corrupt document,
    # not data that "can never be written", but a closed store.
    opened = AsyncSqliteStore.from_conn_string(str(tmp_path / "m.sqlite"))
    await assert_closing_after_the_async_store_stops_at_the_first_error(opened, logged)


@pytest.fixture
def fresh_database() -> Iterator[str]:
    """DSN of a new, empty database on the shared test server (dropped afterwards)."""
    import psycopg

    from tests.pg import postgres_dsn_or_skip

    dsn = postgres_dsn_or_skip()
    name = f"closefix_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    yield dsn.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE {name} WITH (FORCE)")


@pytest.mark.postgres
@pytest.mark.parametrize("kind", ["connection", "pool"])
def test_a_postgres_store_closed_first_stops_the_drain_at_its_first_error(
    fresh_database: str, kind: str, logged: pytest.LogCaptureFixture
) -> None:
    from langgraph.store.postgres import PostgresStore
    from psycopg.rows import dict_row
    from psycopg_pool import ConnectionPool

    memory = memory_service()
    if kind == "pool":
        kwargs = {"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row}
        pool = ConnectionPool(fresh_database, min_size=1, max_size=2, kwargs=kwargs, open=True)
        store = PostgresStore(pool)
        close: Callable[[], None] = pool.close
    else:
        manager = PostgresStore.from_conn_string(fresh_database)
        store = manager.__enter__()
        close = lambda: manager.__exit__(None, None, None)  # noqa: E731
    store.setup()
    memory.enqueue(ALICE, TURN, store=store)
    settled(memory)
    close()
    assert_close_stops_at_the_first_error(memory, store, logged)


@pytest.mark.postgres
async def test_an_async_postgres_store_closed_first_stops_the_drain_at_its_first_error(
    fresh_database: str, logged: pytest.LogCaptureFixture
) -> None:
    from langgraph.store.postgres.aio import AsyncPostgresStore

    opened = AsyncPostgresStore.from_conn_string(fresh_database)
    await assert_closing_after_the_async_store_stops_at_the_first_error(opened, logged)


def test_a_service_without_an_outbox_reports_the_updates_the_closed_store_stopped(
    tmp_path: Path, logged: pytest.LogCaptureFixture
) -> None:
    from langgraph.store.sqlite import SqliteStore

    config = MemoryConfig(storage="store", debounce_seconds=3600, outbox=False)
    memory = MemoryService(config, register_atexit=False)
    with SqliteStore.from_conn_string(str(tmp_path / "m.sqlite")) as store:
        store.setup()
        memory.enqueue(ALICE, TURN, store=store)
    failed = FailedCalls(store)
    result = memory.close()
    assert failed.count == 1  # the update's load; no requeue, no dead letter tried
    assert not result and [f.outcome for f in result.failed] == ["store_closed"]
    records = [r for r in logged.records if r.name.startswith("deerflow_memory")]
    assert [r.levelname for r in records] == ["ERROR"]
    assert "1 update(s) did not run; their turns are lost" in records[0].getMessage()
    assert records[0].exc_info is None


# --- which errors mean "closed for good" -------------------------------------------------


def closed_sqlite_error() -> Exception:
    conn = sqlite3.connect(":memory:")
    conn.close()
    try:
        conn.execute("SELECT 1")
    except sqlite3.ProgrammingError as e:
        return e
    raise AssertionError("a closed connection executed")


def locked_sqlite_error(tmp_path: Path) -> Exception:
    path = tmp_path / "locked.sqlite"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN EXCLUSIVE")
    other = sqlite3.connect(path, timeout=0.01, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as e:
        return e
    finally:
        other.close()
        holder.close()
    raise AssertionError("the database was not locked")


class RateLimited(Exception):
    status_code = 429


def wrapped(error: Exception) -> Exception:
    """``error`` as the store backend raises it: the cause of a StorageError."""
    from deerflow_memory.errors import StorageError

    try:
        raise StorageError(f"store failed: {error}") from error
    except StorageError as outer:
        return outer


class RaisingStore(BaseStore):
    """A store whose every call raises ``error``; ``loop``: its own event loop (async stores)."""

    def __init__(self, error: Exception, loop: asyncio.AbstractEventLoop | None = None) -> None:
        self.error = error
        self._loop = loop

    def batch(self, ops: Any) -> Any:
        raise self.error

    async def abatch(self, ops: Any) -> Any:
        raise self.error


def through_the_store_backend(error: Exception, store: Any) -> Exception:
    """What the store backend raises when a call of ``store`` raised ``error``."""
    from langgraph.store.base import GetOp

    from deerflow_memory.storage.store import StoreMemoryStorage

    store.error = error
    try:
        StoreMemoryStorage(store).run_ops([GetOp(("ns",), "key")])
    except Exception as raised:
        return raised
    raise AssertionError("the store backend did not raise")


def test_closed_stores_are_told_from_errors_that_may_pass(tmp_path: Path) -> None:
    import psycopg
    from psycopg_pool import PoolClosed

    closed = [
        closed_sqlite_error(),
        ValueError("no active connection"),
        psycopg.OperationalError("the connection is closed"),
        PoolClosed("the pool 'pool-1' is already closed"),
        RuntimeError("Event loop is closed"),
    ]
    passing = [
        locked_sqlite_error(tmp_path),
        RateLimited("429 Too Many Requests"),
        psycopg.OperationalError("server closed the connection unexpectedly"),
        TimeoutError("timed out"),
        ValueError("bad JSON in a stored row"),
        sqlite3.ProgrammingError("Incorrect number of bindings supplied."),
    ]
    ended = asyncio.new_event_loop()
    ended.close()
    store = RaisingStore(ValueError(), loop=ended)  # an async store whose loop ended
    for error in closed:
        assert is_store_closed(error) and is_store_closed(wrapped(error)), error
        raised = through_the_store_backend(error, store)
        assert isinstance(raised, StoreClosedError), error
        assert not never_writable(raised), error  # not dropped as bad data either
    for error in passing:
        assert not is_store_closed(error) and not is_store_closed(wrapped(error)), error
        raised = through_the_store_backend(error, store)
        assert not isinstance(raised, StoreClosedError), error


def test_a_locked_sqlite_database_is_still_retried_until_it_frees(tmp_path: Path) -> None:
    from langgraph.store.sqlite import SqliteStore

    from deerflow_memory.storage.outbox import PendingUpdate
    from deerflow_memory.storage.outbox_store import StoreOutbox
    from deerflow_memory.storage.store import StoreMemoryStorage
    from deerflow_memory.update.durable import decode_messages, encode_messages
    from deerflow_memory.update.union import merge_messages

    path = tmp_path / "m.sqlite"
    with SqliteStore.from_conn_string(str(path)) as store:
        store.setup()
        failed = FailedCalls(store)
        outbox = StoreOutbox(
            StoreMemoryStorage(store), encode_messages, decode_messages, merge=merge_messages
        )
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")  # another process holds the database
        store.conn.execute("PRAGMA busy_timeout = 10")
        outbox.record(PendingUpdate("t1", "alice", None, tuple(TURN), record_id="1"))
        assert outbox.sync(timeout=0.5) is False  # still failing: retried, not given up
        holder.execute("COMMIT")
        holder.close()
        assert outbox.sync(timeout=10) is True
        assert failed.count >= 2 and outbox.store_closed is None
        outbox.close()


EXIT_AFTER_THE_STORE = textwrap.dedent(
    """
    import sys
    from langchain_core.messages import AIMessage, HumanMessage
    from langgraph.store.sqlite import SqliteStore
    from deerflow_memory import MemoryConfig, MemoryIdentity, MemoryService

    memory = MemoryService(MemoryConfig(storage="store", debounce_seconds=3600))
    with SqliteStore.from_conn_string(sys.argv[1]) as store:
        store.setup()
        memory.enqueue(
            MemoryIdentity("alice", None, "t1"),
            [HumanMessage("I'm allergic to peanuts."), AIMessage("Noted.")],
            store=store,
        )
        assert memory.durable.outbox.sync(timeout=10)
    # the store is closed, the service is not: the interpreter's exit drains it
    """
)


def test_an_interpreter_exit_after_the_store_closed_prints_one_line_and_no_traceback(
    tmp_path: Path,
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "DEERFLOW_"))}
    done = subprocess.run(
        [sys.executable, "-c", EXIT_AFTER_THE_STORE, str(tmp_path / "m.sqlite")],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "closed after its store" in lines[0] and "1 update(s) did not run" in lines[0]
    assert "Traceback" not in done.stderr


def test_a_model_whose_event_loop_closed_is_a_warned_model_failure_not_a_closed_store(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # An async chat-model client raises "Event loop is closed" once its own loop
    # ended: the same words as an async store's, but the store is fine and the
    # failure must be heard at the default level.
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel

    from deerflow_memory import FileMemoryStorage
    from deerflow_memory.update.queue import UpdateJob
    from deerflow_memory.update.updater import UpdateStatus

    class LoopClosedModel(GenericFakeChatModel):
        def _generate(self, *args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("Event loop is closed")

    caplog.set_level(logging.WARNING, logger="deerflow_memory")
    storage = FileMemoryStorage(tmp_path)
    model = LoopClosedModel(messages=iter([]))
    with MemoryService(MemoryConfig(), storage=storage, model=model, register_atexit=False) as svc:
        result = svc.updater.update(UpdateJob("t1", "alice", None, tuple(TURN)))
    # Not a transient model error (429, 5xx, timeout): a client whose loop ended fails the
    # same way on every try, so the update fails (a dead letter), it is not retried.
    error = "memory model call failed: RuntimeError: Event loop is closed"
    assert result.status is UpdateStatus.FAILED and not result.store_closed
    assert result.error == f"ModelCallError: {error}"
    records = [r for r in caplog.records if r.levelno >= logging.WARNING]
    label = "memory update for user=alice agent=- thread=t1"
    line = f"{label} failed while extracting the update: {error}"
    assert [(r.levelname, r.getMessage()) for r in records] == [("WARNING", line)]
    assert records[0].exc_info is None  # an expected failure: one line, no traceback
