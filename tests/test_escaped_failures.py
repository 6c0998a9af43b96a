"""An error that escapes the updater fails the update the normal way (SPEC §15).

It is counted in ``flush()`` and ``recent_failures``, retried (an ``OSError``)
or dead-lettered, never only logged while ``flush()`` reports success.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory import MemoryConfig, MemoryService
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.storage.file import UPDATE_LOCK_FOLDER

WHO = MemoryIdentity("alice", None, "t1")
TURN = [HumanMessage("I work as a welder."), AIMessage("Noted.")]


@pytest.mark.parametrize("outbox", [True, False], ids=["outbox", "no outbox"])
def test_an_update_that_cannot_take_its_lock_folder_is_counted_and_dead_lettered(
    tmp_path: Path, outbox: bool
) -> None:
    (tmp_path / UPDATE_LOCK_FOLDER).write_text("")  # a file where the lock folder goes
    config = MemoryConfig(storage_path=tmp_path, debounce_seconds=3600, outbox=outbox)
    with MemoryService(config, register_atexit=False) as memory:
        memory.enqueue(WHO, TURN)
        flushed = memory.flush(timeout=30)
        assert flushed.drained and not flushed  # drained, but an update failed
        (failure,) = flushed.failed
        assert failure.outcome == "dead_letter" and failure.error.startswith("FileExistsError")
        assert [f.update.error for f in memory.recent_failures] == [failure.error]
        assert [x.thread_id for x in memory.dead_letters()] == ["t1"]
        assert memory.load(WHO).facts == ()


@pytest.mark.parametrize("where", ["storage lock", "outbox claim"])
def test_an_unexpected_error_around_the_update_is_dead_lettered_not_only_logged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    config = MemoryConfig(storage_path=tmp_path, debounce_seconds=3600)  # runs only in the flush
    with MemoryService(config, register_atexit=False) as memory:

        def broken(*args: object) -> object:
            raise RuntimeError(f"{where} bug")

        assert memory.durable is not None
        target = memory.storage if where == "storage lock" else memory.durable.outbox
        monkeypatch.setattr(target, "update_lock" if where == "storage lock" else "claim", broken)
        memory.enqueue(WHO, TURN)
        flushed = memory.flush(timeout=30)
        error = f"RuntimeError: {where} bug"
        assert [(f.outcome, f.error) for f in flushed.failed] == [("dead_letter", error)]
        assert [x.error for x in memory.dead_letters()] == [error]
