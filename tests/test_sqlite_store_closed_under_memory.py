"""An app's SqliteStore closed while memory is inside a call: an error, never a crashed process.

``SqliteStore.from_conn_string`` closes its connection without the store's lock,
and CPython's ``sqlite3`` does not guard that close against another thread's
statement: memory calls the file on a connection of its own
(``storage.sqlite_connection``), which reports the app's close as a closed store.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.store.memory import InMemoryStore
from langgraph.store.sqlite import SqliteStore

from deerflow_memory import MemoryConfig, MemoryIdentity, MemoryService
from deerflow_memory.storage.sqlite_connection import memory_store_for
from deerflow_memory.storage.store import StoreMemoryStorage

CLOSE_UNDER_WRITES = textwrap.dedent(
    """
    import sys
    from langchain_core.messages import AIMessage, HumanMessage
    from langgraph.store.sqlite import SqliteStore
    from deerflow_memory import MemoryConfig, MemoryIdentity, MemoryService

    for run in range(int(sys.argv[2])):
        memory = MemoryService(
            MemoryConfig(storage="store", debounce_seconds=3600), register_atexit=False
        )
        with SqliteStore.from_conn_string(sys.argv[1]) as store:
            store.setup()
            for turn in range(8):  # the outbox writer is busy when the block ends
                memory.enqueue(
                    MemoryIdentity("alice", None, f"t{turn}"),
                    [HumanMessage(f"I am allergic to peanuts, note {turn}."), AIMessage("Noted.")],
                    store=store,
                )
        memory.close(timeout=10)  # after its store: reported, not a crash
    print("alive")
    """
)


def test_closing_the_app_store_under_memory_writes_never_crashes_the_process(
    tmp_path: Path,
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "DEERFLOW_"))}
    done = subprocess.run(
        [sys.executable, "-c", CLOSE_UNDER_WRITES, str(tmp_path / "m.sqlite"), "15"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    # On the app's connection, about one block in three ended in SIGSEGV (-11).
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert done.stdout.strip() == "alive"
    # Closing the store first still means what the README says.
    assert "closed after its store" in done.stderr


def test_memory_writes_on_its_own_connection_and_the_app_reads_them(tmp_path: Path) -> None:
    path = str(tmp_path / "m.sqlite")
    who = MemoryIdentity("alice", None, "t1")
    with SqliteStore.from_conn_string(path) as store:
        store.setup()
        own = memory_store_for(store)
        assert isinstance(own, SqliteStore) and own.conn is not store.conn
        assert memory_store_for(store) is own  # one per app store, shared by its storages
        memory = MemoryService(MemoryConfig(storage="store"), register_atexit=False)
        memory.enqueue(
            who, [HumanMessage("I am allergic to peanuts."), AIMessage("Ok.")], store=store
        )
        assert memory.close(timeout=30)
        # What memory wrote is in the file, read here through the app's own connection.
        namespace = StoreMemoryStorage(store).document_namespace("alice")
        items = store.search(namespace, limit=100)
        assert any("peanut" in json.dumps(item.value) for item in items)


def test_a_database_the_second_connection_cannot_use_is_called_as_it_is(tmp_path: Path) -> None:
    with SqliteStore.from_conn_string(":memory:") as store:  # its data lives in that connection
        store.setup()
        assert memory_store_for(store) is None
        storage = StoreMemoryStorage(store)
        assert storage._calls is store
    assert memory_store_for(InMemoryStore()) is None


def test_memory_store_reports_the_app_close_as_a_closed_store(tmp_path: Path) -> None:
    from deerflow_memory.errors import StoreClosedError

    path = str(tmp_path / "m.sqlite")
    conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    store = SqliteStore(conn)
    store.setup()
    storage = StoreMemoryStorage(store)
    assert storage.load("alice").is_empty()
    conn.close()
    with pytest.raises(StoreClosedError, match="closed"):
        storage.load("alice")
