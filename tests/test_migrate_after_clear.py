"""Re-running ``migrate`` after the user cleared their memory on the target (attack 21 F4).

A clear leaves a fenced tombstone (``deletedAt`` set, watermarks kept); ``migrate`` took any
target tombstone for "no document" and copied the source's memory over the user's clear.
A clear is final: the memory is not copied back, with ``overwrite`` neither, and its dead
letters and pending updates stay out too. File and SQLite targets.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory import MemoryConfig, MemoryIdentity, MemoryService
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.storage.dead_letters import DeadLetter
from deerflow_memory.storage.factory import open_storage
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.storage.migrate import migrate
from deerflow_memory.storage.outbox import PendingUpdate
from deerflow_memory.storage.outbox_file import FileOutbox
from deerflow_memory.storage.outbox_store import StoreOutbox
from deerflow_memory.storage.store import StoreMemoryStorage
from deerflow_memory.update.durable import decode_messages, encode_messages
from deerflow_memory.update.forget import clear_memory
from deerflow_memory.update.union import merge_messages

DANA = MemoryIdentity("dana", None, "t1")
SAID = [HumanMessage("I'm vegan and I live in Oslo.", id="m1"), AIMessage("Noted.", id="m2")]


def a_source(path: Path) -> FileMemoryStorage:
    """A file memory that learned dana's words (offline), with one of her dead letters."""
    config = MemoryConfig(storage_path=path, debounce_seconds=0.0)
    with MemoryService(config, register_atexit=False) as memory:
        memory.enqueue(DANA, SAID, now=True)
        assert memory.flush(timeout=30)
        assert memory.load(DANA).facts
    storage = FileMemoryStorage(path)
    letter = DeadLetter.for_key(
        "t2",
        "dana",
        None,
        error="TransientModelError: scripted 500",
        attempts=3,
        first_failed_at="2026-11-30T10:00:00Z",
        last_attempt_at="2026-11-30T10:05:00Z",
        message_ids=("m9",),
        message_ids_are="ids",
        messages=tuple(encode_messages([HumanMessage("I have type 1 diabetes.", id="m9")])),
    )
    storage.put_dead_letter(letter)
    return storage


@contextmanager
def a_target(kind: str, tmp_path: Path) -> Iterator[MemoryStorage]:
    path = tmp_path / ("files_b" if kind == "file" else "b.sqlite")
    with open_storage(MemoryConfig(storage=kind, storage_path=path)) as storage:  # type: ignore[arg-type]
        yield storage


@pytest.mark.parametrize("kind", ["file", "sqlite"])
@pytest.mark.parametrize("overwrite", [False, True])
def test_a_rerun_after_a_clear_on_the_target_does_not_bring_the_memory_back(
    tmp_path: Path, kind: str, overwrite: bool
) -> None:
    source = a_source(tmp_path / "files_a")
    with a_target(kind, tmp_path) as target:
        first = migrate(source, target)
        assert first.ok and first.copied == [("dana", None)], first.summary()
        assert target.load("dana").facts and len(target.list_dead_letters()) == 1
        clear_memory(target, "dana", None)  # what the user's clear on the live backend does
        fence = target.load("dana")
        assert not fence.facts and fence.extraction_watermarks
        assert target.list_dead_letters() == []

        again = migrate(source, target, overwrite=overwrite)
        assert again.ok, again.summary()
        assert again.copied == [] and again.cleared == [("dana", None)]
        assert "cleared on the target" in again.summary()
        after = target.load("dana")
        assert after.facts == () and after.is_empty()
        assert after.extraction_watermarks == fence.extraction_watermarks  # the fence held
        assert target.list_dead_letters() == []  # her failed words stay out too
        assert list(target.list_documents()) == []


def test_the_cleared_memorys_pending_updates_are_not_copied_back(tmp_path: Path) -> None:
    source = a_source(tmp_path / "files_a")
    with a_target("sqlite", tmp_path) as target:
        assert migrate(source, target).ok
        clear_memory(target, "dana", None)
        now = time.time()
        waiting = PendingUpdate(
            "t3",
            "dana",
            None,
            (HumanMessage("I live in Bergen now.", id="m7"),),
            due_at=now,
            record_id="r-t3",
            captured_at=now,
        )
        outbox = FileOutbox(source.root, encode_messages, decode_messages)
        outbox.record(waiting)
        assert outbox.sync(timeout=30)
        outbox.close()
        report = migrate(source, target)
        assert report.ok and report.cleared == [("dana", None)], report.summary()
        assert report.pending_copied == [] and report.pending_skipped == [("dana", None, "t3")]
        assert isinstance(target, StoreMemoryStorage)
        assert (
            StoreOutbox(target, encode_messages, decode_messages, merge=merge_messages).recover()
            == []
        )
