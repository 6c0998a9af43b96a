"""The order of a memory delete's steps: fence key, then the running update's end, then the lock.

The fence key is read (made the first time: a write and fsyncs) once, before
waiting for the user's running update: between that update's end and the
lock a requeued update may be taken by a worker instead of being collected,
so nothing slow may sit there. The service and the CLI delete through the
same ``clear_memory``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from deerflow_memory import MemoryConfig, MemoryService
from deerflow_memory.errors import MemoryBusyError
from deerflow_memory.models import Fact, MemoryDocument
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.update.forget import clear_memory


def a_memory(storage: FileMemoryStorage) -> None:
    storage.save("alice", None, MemoryDocument(facts=(Fact(content="Likes tea"),)))


def test_the_fence_key_is_read_once_before_the_wait_and_the_collect(tmp_path: Path) -> None:
    storage = FileMemoryStorage(tmp_path)
    a_memory(storage)
    steps: list[str] = []
    real = storage.fence_key
    storage.fence_key = lambda: steps.append("key") or real()  # type: ignore[method-assign]

    def wait_idle(seconds: float) -> bool:
        steps.append("wait")
        return True

    def collect() -> tuple[()]:
        steps.append("collect")
        return ()

    cleared = clear_memory(storage, "alice", None, collect=collect, wait_idle=wait_idle)
    assert cleared.existed and steps == ["key", "wait", "collect"]


def test_a_user_still_busy_is_refused_and_nothing_is_deleted(tmp_path: Path) -> None:
    storage = FileMemoryStorage(tmp_path)
    a_memory(storage)
    with pytest.raises(MemoryBusyError):
        clear_memory(storage, "alice", None, lock_timeout=0.5, wait_idle=lambda seconds: False)
    assert [f.content for f in storage.load("alice").facts] == ["Likes tea"]


def test_the_service_delete_reads_the_fence_key_once(tmp_path: Path) -> None:
    config = MemoryConfig(storage="file", storage_path=tmp_path, debounce_seconds=3600)
    with MemoryService(config, register_atexit=False) as memory:
        storage = memory.storage_for(None)
        assert isinstance(storage, FileMemoryStorage)
        a_memory(storage)
        reads: list[str] = []
        real = storage.fence_key
        storage.fence_key = lambda: reads.append("key") or real()  # type: ignore[method-assign]
        assert memory.clear_memory("alice")
        assert reads == ["key"]
        assert storage.load("alice").holds_only_fence()
