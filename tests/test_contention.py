"""Several processes updating one user: conflicts become waits, no fact is lost."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory import MemoryConfig, MemoryService
from deerflow_memory.errors import UpdateLockTimeoutError
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.storage.factory import build_storage
from deerflow_memory.storage.file import FileMemoryStorage
from tests.durable_child import tool_name
from tests.test_outbox import ROOT, _env

CHILD = (sys.executable, "-m", "tests.durable_child")


def hammer(config: dict[str, object], processes: int, threads: int, updates: int) -> None:
    """``processes`` × ``threads`` × ``updates`` updates on user ``shared``, all at once."""
    raw = json.dumps(config)
    children = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.durable_child",
                "hammer",
                raw,
                f"p{p}",
                str(threads),
                str(updates),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=_env(),
        )
        for p in range(processes)
    ]
    for child in children:
        out, err = child.communicate(timeout=300)
        assert child.returncode == 0 and out.strip() == "done", err[-3000:]


def stored_tools(config: dict[str, object]) -> set[str]:
    storage = build_storage(MemoryConfig.model_validate(config))
    try:
        facts = storage.load("shared").facts
    finally:
        close = getattr(storage, "close", None)
        if callable(close):
            close()
    return {word for f in facts for word in f.content.split() if word.startswith("zed")}


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["file", "sqlite", "postgres"])
def test_four_processes_updating_one_user_lose_no_fact(tmp_path: Path, backend: str) -> None:
    path = tmp_path if backend == "file" else tmp_path / "memory.sqlite"
    config: dict[str, object] = {"storage": backend, "storage_path": str(path), "max_facts": 5000}
    if backend == "postgres":
        from tests.pg import drop_prefix, postgres_dsn_or_skip, shared_postgres_store

        dsn = postgres_dsn_or_skip()
        shared_postgres_store(dsn)
        drop_prefix(dsn, ("deerflow_memory",))
        config = {"storage": "postgres", "storage_dsn": dsn, "max_facts": 5000}
    processes, threads, updates = 4, 5, 5
    hammer(config, processes, threads, updates)
    expected = {
        tool_name(f"p{p}-{t}-{k}")
        for p in range(processes)
        for t in range(threads)
        for k in range(updates)
    }
    assert stored_tools(config) == expected


def test_an_update_waits_for_the_user_lock_held_by_another_writer(tmp_path: Path) -> None:
    storage = FileMemoryStorage(tmp_path)
    other = FileMemoryStorage(tmp_path)  # like a second process: its own thread locks
    acquired = threading.Event()
    done: list[float] = []

    def hold_briefly() -> None:
        with other.update_lock("alice", None, timeout=5):
            acquired.set()
            time.sleep(0.3)

    holder = threading.Thread(target=hold_briefly)
    holder.start()
    acquired.wait(5)
    start = time.monotonic()
    with storage.update_lock("alice", None, timeout=5):
        done.append(time.monotonic() - start)
    holder.join()
    assert done[0] >= 0.2  # it waited for the holder instead of failing
    with storage.update_lock("bob", None, timeout=0.1):
        pass  # another user is not blocked


def test_an_update_that_cannot_get_the_lock_in_time_becomes_a_dead_letter(tmp_path: Path) -> None:
    config = MemoryConfig(
        storage_path=tmp_path, debounce_seconds=3600, update_lock_timeout_seconds=0.2
    )  # the update runs in the flush, so the flush sees its failure
    blocker = FileMemoryStorage(tmp_path)
    with (
        blocker.update_lock("alice", None, timeout=5),
        MemoryService(config, register_atexit=False) as memory,
    ):
        memory.enqueue(
            MemoryIdentity("alice", None, "t1"),
            [HumanMessage("I am a welder.", id="h"), AIMessage("Noted.", id="a")],
        )
        flushed = memory.flush(timeout=30)
        assert flushed.drained and not flushed  # honest: the update did not go through
        assert [f.outcome for f in flushed.failed] == ["dead_letter"]
        letters = memory.storage.list_dead_letters("alice")
    assert len(letters) == 1
    assert UpdateLockTimeoutError.__name__ in letters[0].error
    assert letters[0].messages[0]["data"]["content"] == "I am a welder."


@pytest.mark.slow
def test_four_processes_opening_a_new_sqlite_file_together_never_fail(tmp_path: Path) -> None:
    processes, trials = 4, 30
    children = [
        subprocess.Popen(
            [*CHILD, "open", str(tmp_path), str(me), str(processes), str(trials)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=_env(),
        )
        for me in range(processes)
    ]
    for child in children:
        out, err = child.communicate(timeout=300)
        assert child.returncode == 0, err[-3000:]
        assert out.strip() == "0", err[-3000:]
