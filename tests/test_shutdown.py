"""A clean exit loses nothing pending: queued updates are flushed at interpreter exit."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

SCRIPT = textwrap.dedent(
    """
    import sys
    from langgraph.checkpoint.memory import InMemorySaver
    from deerflow_memory import MemoryConfig, MemoryService, create_memory_agent

    config = MemoryConfig(storage_path=sys.argv[1], debounce_seconds=600, max_wait_seconds=600)
    memory = MemoryService(config)  # registers the exit-time flush
    graph = create_memory_agent(service=memory, checkpointer=InMemorySaver())
    graph.invoke(
        {"messages": [("user", "I'm allergic to shellfish.")]},
        {"configurable": {"user_id": "eve", "thread_id": "1"}},
    )
    assert memory.queue.pending_count == 1  # a 10-minute debounce: nothing ran yet
    # no flush(), no close(): the interpreter exits here
    """
)


def test_pending_updates_are_saved_when_the_process_exits_cleanly(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "DEERFLOW_"))}
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    stored = json.loads((tmp_path / "users/eve/memory.json").read_text("utf-8"))
    assert any("shellfish" in fact["content"] for fact in stored["facts"])


def test_a_store_closed_before_the_service_is_reported_not_raised(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from langchain_core.messages import HumanMessage
    from langgraph.store.sqlite import SqliteStore

    from deerflow_memory import MemoryConfig, MemoryIdentity, MemoryService

    # No poller wakes while the test closes the store under it (a thread inside a closed
    # SQLite connection can crash the process: the very misuse this test reports).
    config = MemoryConfig(
        storage="store",
        debounce_seconds=3600,
        outbox_commit_interval_ms=1000,
        outbox_poll_seconds=3600,
    )
    memory = MemoryService(config, register_atexit=False)
    with SqliteStore.from_conn_string(str(tmp_path / "m.sqlite")) as store:
        store.setup()
        memory.storage_for(store)
        memory.flush(timeout=30)  # the bind's background scans are done before the store closes
        memory.enqueue(MemoryIdentity("alice", None, "t1"), [HumanMessage("I'm a nurse.", id="h0")])
    # The app closed its store first: the capture's record can no longer be written.
    with caplog.at_level(logging.WARNING, logger="deerflow_memory"):
        result = memory.close(timeout=1)
    assert not result
    assert "1 outbox record(s) could not be written (the turns they hold are lost)" in caplog.text
    assert "stay in the outbox" not in caplog.text  # which would be false
    assert "Traceback" not in caplog.text


def test_close_waits_for_the_tenant_scan_a_store_bind_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading
    import time

    from langgraph.store.sqlite import SqliteStore

    import deerflow_memory.storage.tenants as tenants
    from deerflow_memory import MemoryConfig, MemoryService

    scanned = threading.Event()
    real = tenants.tenants_with_pending_updates

    def slow_scan(storage: object) -> list[str]:
        time.sleep(0.3)  # reading the store on the bind's background thread
        result = real(storage)  # type: ignore[arg-type]
        scanned.set()
        return result

    monkeypatch.setattr(tenants, "tenants_with_pending_updates", slow_scan)
    with SqliteStore.from_conn_string(str(tmp_path / "m.sqlite")) as store:
        store.setup()
        memory = MemoryService(MemoryConfig(storage="store"), register_atexit=False)
        memory.storage_for(store)
        memory.close(timeout=5)
        # Nothing of ours may still read the store once close() returned (the app closes it next).
        assert scanned.is_set()
