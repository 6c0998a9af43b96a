"""Listings and ``load`` agree on what only a delete left, whatever its size, on every backend.

``list_documents`` skips a document whose ``load`` holds only a fence (a
tombstone, or the sealed watermarks a cleared memory keeps), so callers need
not load each one again to tell; ``list_stored`` keeps them (``migrate``
copies fences). Run on file, InMemoryStore, SqliteStore and PostgreSQL.
"""

from __future__ import annotations

import json
from pathlib import Path

from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory.models import ExtractionWatermark, Fact, MemoryDocument
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.storage.stats import storage_stats
from deerflow_memory.update.forget import clear_memory
from tests.test_storage_conformance import storage as storage_fixture

storage = storage_fixture

THREADS = 60  # each sealed watermark is ~200 bytes: the fence is ~13 KB


def many_threads(user: str = "alice") -> MemoryDocument:
    marks = tuple(
        ExtractionWatermark(
            thread_id=f"thread-{i:04d}", message_keys=(f"m{i}",), updated_at="2026-12-01T00:00:00Z"
        )
        for i in range(THREADS)
    )
    return MemoryDocument(facts=(Fact(content=f"{user} likes tea"),), extraction_watermarks=marks)


def test_a_cleared_memory_of_many_threads_is_not_listed_though_its_fence_is_large(
    storage: MemoryStorage,
) -> None:
    storage.save("alice", None, many_threads())
    storage.save("bob", None, many_threads("bob"))
    pending = [("thread-new", [HumanMessage("I live in Oslo."), AIMessage("Noted.")])]
    assert clear_memory(storage, "alice", None, collect=lambda: pending).existed
    left = storage.load("alice")
    assert left.holds_only_fence() and len(left.extraction_watermarks) == THREADS + 1
    if isinstance(storage, FileMemoryStorage):
        assert storage.path_for("alice").stat().st_size > 4096  # past the old "not read" bound
    assert list(storage.list_documents()) == [("bob", None)]
    assert list(storage.list_memories()) == [("bob", None)]
    assert list(storage.list_stored()) == [("alice", None), ("bob", None)]  # the fence is kept
    assert [s.user_id for s in storage_stats(storage)] == ["bob"]


def test_a_memory_saved_over_a_fence_is_listed_again_and_a_fence_saved_over_one_is_not(
    storage: MemoryStorage,
) -> None:
    storage.save("alice", None, many_threads())
    clear_memory(storage, "alice", None)
    fenced = storage.load("alice")
    again = fenced.model_copy(update={"facts": (Fact(content="Works as a nurse"),)})
    storage.save("alice", None, again, expected_revision=fenced.revision)
    assert list(storage.list_documents()) == [("alice", None)]
    # Saved onto a memory (the file backend journals this save): only a fence again.
    stored = storage.load("alice")
    storage.save("alice", None, stored.model_copy(update={"facts": ()}), stored.revision)
    assert storage.load("alice").holds_only_fence()
    assert list(storage.list_documents()) == []
    assert list(storage.list_stored()) == [("alice", None)]


def test_an_empty_memory_marked_cleared_saved_over_a_memory_is_not_listed(
    storage: MemoryStorage,
) -> None:
    # Empty and marked clearedAt, no watermarks (as migrate copies a bare clear). Saved
    # onto a memory, the file backend journals it (memory.json does not spell clearedAt).
    storage.save("alice", None, MemoryDocument(facts=(Fact(content="Works as a nurse"),)))
    stored = storage.load("alice")
    cleared = stored.model_copy(update={"facts": (), "cleared_at": "2026-12-01T00:00:00Z"})
    storage.save("alice", None, cleared, expected_revision=stored.revision)
    assert storage.load("alice").holds_only_fence()
    assert list(storage.list_documents()) == []
    assert list(storage.list_stored()) == [("alice", None)]


def test_a_large_tombstone_written_by_another_program_is_not_listed(tmp_path: Path) -> None:
    files = FileMemoryStorage(tmp_path)
    files.save("alice", None, many_threads())
    files.save("bob", None, many_threads("bob"))
    files.delete("alice")
    path = files.path_for("alice")
    padded = {**json.loads(path.read_text()), "padding": "p" * 5000}  # e.g. an editor's extra key
    path.write_text(json.dumps(padded, indent=4))
    assert FileMemoryStorage(tmp_path).load("alice").holds_only_fence()
    assert list(FileMemoryStorage(tmp_path).list_documents()) == [("bob", None)]


def test_a_large_memory_that_mentions_no_fence_is_listed_without_being_loaded(
    tmp_path: Path,
) -> None:
    files = FileMemoryStorage(tmp_path)
    big = many_threads().model_copy(
        update={"facts": tuple(Fact(content=f"Fact {i} " + "x" * 200) for i in range(50))}
    )
    files.save("alice", None, big)
    fresh = FileMemoryStorage(tmp_path)
    loads: list[str] = []
    original = fresh.load
    fresh.load = lambda user, agent=None: loads.append(user) or original(user, agent)  # type: ignore[method-assign]
    assert list(fresh.list_documents()) == [("alice", None)]
    assert loads == []  # no "deletedAt", no sealed mark: never parsed
