"""Re-running ``migrate`` after a clear that had no watermarks to keep, and after new facts.

A memory no conversation wrote (facts added by hand, an import, a copy) has no
watermarks: its clear left a bare tombstone, the same as a plain ``delete``, and a
re-run of ``migrate`` took it for "no document" and copied the cleared facts back
(0127a36 mended only the fenced case). A clear now marks its tombstone cleared
(``clearedAt``), which later saves keep, so a re-run also respects a clear the user
wrote new facts after, with ``overwrite`` too. Facts written on the target after a
migration are neither wiped nor doubled by a re-run. Every backend: file,
InMemoryStore, SqliteStore, PostgreSQL (a throwaway server, see tests/pg.py).
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory.models import MemoryDocument, iso_utc
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.storage.migrate import migrate
from deerflow_memory.update.forget import clear_memory
from deerflow_memory.update.manual import add_manual_fact, save_edit
from tests.test_storage_conformance import storage as storage_fixture

# The target: a clean storage of each backend (the conformance tests' fixture).
storage = storage_fixture


def add(storage: MemoryStorage, text: str, user: str = "ana") -> None:
    """A fact added by hand, as the CLI or a UI does: no watermark is written."""
    save_edit(storage, user, None, lambda d: add_manual_fact(d, text))


def facts(storage: MemoryStorage, user: str = "ana") -> list[str]:
    return sorted(f.content for f in storage.load(user).facts)


def a_source(tmp_path: Path) -> FileMemoryStorage:
    source = FileMemoryStorage(tmp_path / "source")
    add(source, "Prefers aisle seats")
    add(source, "Lives in Oslo")
    return source


@pytest.mark.parametrize("overwrite", [False, True])
def test_a_rerun_does_not_bring_back_a_memory_cleared_without_watermarks(
    storage: MemoryStorage, tmp_path: Path, overwrite: bool
) -> None:
    source = a_source(tmp_path)
    assert migrate(source, storage).copied == [("ana", None)]
    assert facts(storage) == ["Lives in Oslo", "Prefers aisle seats"]
    assert not storage.load("ana").extraction_watermarks  # nothing to fence: the bare case
    assert clear_memory(storage, "ana", None).existed
    assert not storage.load("ana").extraction_watermarks

    again = migrate(source, storage, overwrite=overwrite)
    assert again.ok, again.summary()
    assert again.copied == [] and again.cleared == [("ana", None)]
    assert "cleared on the target" in again.summary()
    assert storage.load("ana").is_empty()
    assert list(storage.list_documents()) == []


@pytest.mark.parametrize("overwrite", [False, True])
def test_a_rerun_after_a_clear_and_new_facts_keeps_only_the_new_facts(
    storage: MemoryStorage, tmp_path: Path, overwrite: bool
) -> None:
    source = a_source(tmp_path)
    assert migrate(source, storage).ok
    clear_memory(storage, "ana", None)
    add(storage, "Prefers window seats")  # said after the clear: the memory is no tombstone now

    again = migrate(source, storage, overwrite=overwrite)
    assert again.ok and again.copied == [], again.summary()
    assert facts(storage) == ["Prefers window seats"]  # nothing cleared is back, nothing new lost


@pytest.mark.parametrize("overwrite", [False, True])
def test_a_source_cleared_after_the_target_is_copied_as_any_newer_memory(
    storage: MemoryStorage, tmp_path: Path, overwrite: bool
) -> None:
    # The source's content all dates from after its own clear, which came after the
    # target's: nothing the target's clear removed is in it.
    source = FileMemoryStorage(tmp_path / "source")
    add(storage, "Old words")
    clear_memory(storage, "ana", None)
    cleared_there = storage.load("ana").cleared_at
    assert cleared_there is not None
    later = iso_utc(datetime.fromisoformat(cleared_there) + timedelta(minutes=1))
    source.save("ana", None, MemoryDocument(cleared_at=later))
    add(source, "Likes tea")

    report = migrate(source, storage, overwrite=overwrite)
    assert report.ok and report.copied == [("ana", None)] and not report.cleared
    assert facts(storage) == ["Likes tea"]


def test_a_plain_deletes_tombstone_is_still_no_document(
    storage: MemoryStorage, tmp_path: Path
) -> None:
    source = a_source(tmp_path)
    add(storage, "Old words")
    storage.delete("ana")  # not a user's clear: the copy goes onto it, as before
    report = migrate(source, storage)
    assert report.ok and report.copied == [("ana", None)] and not report.cleared
    assert facts(storage) == ["Lives in Oslo", "Prefers aisle seats"]


def test_a_clear_after_a_plain_delete_marks_the_tombstone_cleared(
    storage: MemoryStorage, tmp_path: Path
) -> None:
    source = a_source(tmp_path)
    assert migrate(source, storage).copied == [("ana", None)]
    storage.delete("ana")  # a plain delete first (an operator's script)...
    clear_memory(storage, "ana", None)  # ...then the user's clear: final all the same
    assert storage.load("ana").cleared_at is not None
    again = migrate(source, storage, overwrite=True)
    assert again.cleared == [("ana", None)] and again.copied == [], again.summary()
    assert storage.load("ana").is_empty()


def test_a_rerun_after_new_facts_on_the_target_neither_wipes_nor_doubles_them(
    storage: MemoryStorage, tmp_path: Path
) -> None:
    source = a_source(tmp_path)
    assert migrate(source, storage).ok
    add(storage, "Prefers window seats")
    again = migrate(source, storage)
    assert again.ok and again.copied == [] and again.skipped == [("ana", None)], again.summary()
    assert facts(storage) == ["Lives in Oslo", "Prefers aisle seats", "Prefers window seats"]


def test_a_fenced_tombstone_written_before_cleared_at_existed_still_counts_as_a_clear(
    tmp_path: Path,
) -> None:
    source, target = a_source(tmp_path), FileMemoryStorage(tmp_path / "target")
    assert migrate(source, target).ok
    pending = [("t1", [HumanMessage("I live in Oslo.", id="m1"), AIMessage("Noted.", id="m2")])]
    clear_memory(target, "ana", None, collect=lambda: pending)
    path = target.path_for("ana")
    data = json.loads(path.read_text())
    del data["clearedAt"]  # as the version before clearedAt wrote it
    assert data["deletedAt"] and data["extractionWatermarks"]
    path.write_text(json.dumps(data))

    again = migrate(source, FileMemoryStorage(tmp_path / "target"), overwrite=True)
    assert again.ok and again.copied == [] and again.cleared == [("ana", None)], again.summary()
    assert facts(FileMemoryStorage(tmp_path / "target")) == []


def test_a_clear_on_the_source_without_watermarks_reaches_the_target_with_overwrite(
    storage: MemoryStorage, tmp_path: Path
) -> None:
    # The other side: the user cleared on the old backend after a first copy. As a fenced
    # tombstone is, the clear is copied with --overwrite (the target's copy is already there).
    source = a_source(tmp_path)
    assert migrate(source, storage).ok
    clear_memory(source, "ana", None)
    assert not source.load("ana").extraction_watermarks

    kept = migrate(source, storage)
    assert kept.ok and kept.skipped == [("ana", None)], kept.summary()
    again = migrate(source, storage, overwrite=True)
    assert again.ok and again.copied == [("ana", None)], again.summary()
    assert storage.load("ana").is_empty() and list(storage.list_documents()) == []
    add(source, "Prefers window seats")  # said after the clear: copied like any newer memory
    after = migrate(source, storage, overwrite=True)
    assert after.ok and after.copied == [("ana", None)] and not after.cleared, after.summary()
    assert facts(storage) == ["Prefers window seats"]


def test_a_clear_copied_onto_an_empty_target_is_no_memory_there(
    storage: MemoryStorage, tmp_path: Path
) -> None:
    source = a_source(tmp_path)
    clear_memory(source, "ana", None)
    report = migrate(source, storage)
    assert report.ok and report.copied == [("ana", None)], report.summary()
    assert list(storage.list_documents()) == [] and storage.load("ana").is_empty()
    assert migrate(source, storage).skipped == [("ana", None)]  # a re-run: nothing to do
