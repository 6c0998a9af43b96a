"""The file backend's delta journal: appends, replay, compaction, torn lines, other readers."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from deerflow_memory.errors import CorruptMemoryError
from deerflow_memory.models import Fact, MemoryDocument, Section, UserContext
from deerflow_memory.storage import file as file_backend
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.storage.journal import JOURNAL_FILE


def base_document(n: int = 40) -> MemoryDocument:
    return MemoryDocument(
        facts=tuple(Fact(id=f"fact_{i:04d}", content=f"Fact {i} about the user") for i in range(n))
    )


def changed(document: MemoryDocument, k: int) -> MemoryDocument:
    """What an update does: a summary rewrite, one fact replaced, one removed, two added."""
    facts = list(document.facts)
    facts[0] = facts[0].model_copy(update={"last_confirmed_at": f"2026-07-{k % 28 + 1:02d}"})
    del facts[len(facts) // 2]
    facts += [Fact(content=f"New fact {k}-{j} 用户喜欢茶") for j in range(2)]
    user = UserContext(top_of_mind=Section(summary=f"Step {k}", updated_at="2026-07-01"))
    return document.model_copy(
        update={"facts": tuple(facts), "user": user, "last_updated": f"2026-07-01T00:{k:02d}:00Z"}
    )


def content(document: MemoryDocument) -> str:
    return document.to_json()


def test_a_save_appends_one_line_and_a_fresh_reader_sees_the_whole_document(
    tmp_path: Path,
) -> None:
    storage = FileMemoryStorage(tmp_path)
    first = storage.save("alice", None, base_document())
    snapshot = storage.path_for("alice").read_bytes()
    journal = storage.path_for("alice").with_name(JOURNAL_FILE)
    assert not journal.exists()  # the first save writes memory.json whole

    saved = storage.save("alice", None, changed(first, 1), expected_revision=1)

    assert storage.path_for("alice").read_bytes() == snapshot  # untouched
    lines = journal.read_bytes().splitlines()
    assert len(lines) == 2  # header + one record
    record = json.loads(lines[1])
    assert record["revision"] == 2
    assert len(lines[1]) < len(snapshot) / 4  # the changes, not the document
    fresh = FileMemoryStorage(tmp_path).load("alice")
    assert fresh.revision == 2
    assert content(fresh) == content(saved)


def test_a_reader_with_a_cached_copy_catches_up_with_appends_and_compactions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(file_backend, "JOURNAL_MAX_RECORDS", 4)
    writer, reader = FileMemoryStorage(tmp_path), FileMemoryStorage(tmp_path)
    document = writer.save("alice", None, base_document())
    compactions = 0
    for k in range(1, 15):
        document = writer.save("alice", None, changed(document, k), expected_revision=k)
        journal = writer.path_for("alice").with_name(JOURNAL_FILE)
        compactions += not journal.exists()
        seen = reader.load("alice")
        assert seen.revision == k + 1
        assert content(seen) == content(document)
    assert compactions >= 2
    whole = MemoryDocument.from_json(writer.path_for("alice").read_bytes())
    assert whole.revision > 1  # memory.json was rewritten by a compaction


def test_compaction_folds_the_journal_into_memory_json(tmp_path: Path) -> None:
    storage = FileMemoryStorage(tmp_path)
    document = storage.save("alice", None, base_document())
    document = storage.save("alice", None, changed(document, 1))

    assert storage.compact("alice") is True
    assert not storage.path_for("alice").with_name(JOURNAL_FILE).exists()
    on_disk = MemoryDocument.from_json(storage.path_for("alice").read_bytes())
    assert content(on_disk) == content(document)
    assert storage.compact("alice") is False  # nothing left to fold


def test_a_journal_outgrowing_half_the_snapshot_is_compacted(tmp_path: Path) -> None:
    storage = FileMemoryStorage(tmp_path)
    document = storage.save("alice", None, base_document(200))
    size = storage.path_for("alice").stat().st_size
    journal = storage.path_for("alice").with_name(JOURNAL_FILE)
    largest = 0
    for k in range(1, 120):
        document = storage.save("alice", None, changed(document, k))
        largest = max(largest, journal.stat().st_size if journal.exists() else 0)
    assert 0 < largest <= max(file_backend.JOURNAL_MIN_BYTES, size // 2)
    assert content(FileMemoryStorage(tmp_path).load("alice")) == content(document)


def test_a_torn_last_line_is_ignored_and_cut_by_the_next_save(tmp_path: Path) -> None:
    storage = FileMemoryStorage(tmp_path)
    document = storage.save("alice", None, base_document())
    document = storage.save("alice", None, changed(document, 1))
    journal = storage.path_for("alice").with_name(JOURNAL_FILE)
    with open(journal, "ab") as f:
        f.write(b'{"revision": 3, "set": {"lastUpdated": "' + b"x" * 20_000)  # a crash mid-append

    reopened = FileMemoryStorage(tmp_path)
    assert content(reopened.load("alice")) == content(document)
    after = reopened.save("alice", None, changed(document, 2), expected_revision=2)

    lines = journal.read_bytes().split(b"\n")
    assert lines[-1] == b""  # ends with a complete line
    assert [json.loads(line).get("revision") for line in lines[1:-1]] == [2, 3]
    assert content(FileMemoryStorage(tmp_path).load("alice")) == content(after)


def test_a_damaged_line_before_the_last_is_corruption_and_nothing_is_overwritten(
    tmp_path: Path,
) -> None:
    storage = FileMemoryStorage(tmp_path)
    document = storage.save("alice", None, base_document())
    for k in (1, 2):
        document = storage.save("alice", None, changed(document, k))
    journal = storage.path_for("alice").with_name(JOURNAL_FILE)
    lines = journal.read_bytes().splitlines(keepends=True)
    lines[1] = b"{not json\n"
    journal.write_bytes(b"".join(lines))
    before = journal.read_bytes(), storage.path_for("alice").read_bytes()

    fresh = FileMemoryStorage(tmp_path)
    with pytest.raises(CorruptMemoryError, match="journal"):
        fresh.load("alice")
    with pytest.raises(CorruptMemoryError):
        fresh.save("alice", None, base_document())
    assert (journal.read_bytes(), storage.path_for("alice").read_bytes()) == before


def test_a_memory_json_rewritten_by_another_program_makes_the_journal_stale(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    storage = FileMemoryStorage(tmp_path)
    document = storage.save("alice", None, base_document())
    storage.save("alice", None, changed(document, 1))
    # DeerFlow (which knows nothing of the journal) writes its own memory.json.
    deerflow = {"version": "1.0", "facts": [{"id": "fact_df", "content": "From DeerFlow"}]}
    storage.path_for("alice").write_text(json.dumps(deerflow), encoding="utf-8")

    fresh = FileMemoryStorage(tmp_path)
    loaded = fresh.load("alice")
    assert [f.content for f in loaded.facts] == ["From DeerFlow"]
    with caplog.at_level(logging.WARNING, logger="deerflow_memory.storage.file"):
        saved = fresh.save("alice", None, changed(loaded, 2), expected_revision=0)
    assert content(FileMemoryStorage(tmp_path).load("alice")) == content(saved)
    # The saves that were only in the stale journal are kept aside, and a warning says where.
    (aside,) = storage.path_for("alice").parent.glob("memory.journal.stale-*.jsonl")
    assert "New fact 1-0" in aside.read_text(encoding="utf-8")
    assert aside.name in caplog.text and "1 saved change(s)" in caplog.text


def test_delete_removes_the_journal_too(tmp_path: Path) -> None:
    storage = FileMemoryStorage(tmp_path)
    document = storage.save("alice", None, base_document())
    storage.save("alice", None, changed(document, 1))
    assert storage.delete("alice")
    assert not storage.path_for("alice").with_name(JOURNAL_FILE).exists()
    left = FileMemoryStorage(tmp_path).load("alice")
    assert left.revision == 3 and not left.facts  # the tombstone, past the deleted revision


def test_readers_racing_a_writer_only_ever_see_saved_states(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(file_backend, "JOURNAL_MAX_RECORDS", 5)  # compactions during the race
    writer = FileMemoryStorage(tmp_path)
    document = writer.save("alice", None, base_document())
    saved = {document.revision: content(document)}
    # Distinct states only: the readers spin, and a list of every read grew by
    # hundreds of MB a second (GBs on a loaded machine, where the race lasts longer).
    seen: set[tuple[int, str]] = set()
    done = threading.Event()

    def read() -> None:
        reader = FileMemoryStorage(tmp_path)  # its own cache, as another process
        while not done.is_set():
            loaded = reader.load("alice")
            seen.add((loaded.revision, content(loaded)))

    threads = [threading.Thread(target=read) for _ in range(2)]
    for t in threads:
        t.start()
    try:
        for k in range(1, 40):
            document = writer.save("alice", None, changed(document, k), expected_revision=k)
            saved[document.revision] = content(document)
    finally:
        done.set()
        for t in threads:
            t.join()
    assert len({revision for revision, _ in seen}) > 3
    for revision, text in seen:
        assert text == saved[revision]


def test_without_the_journal_every_save_rewrites_memory_json(tmp_path: Path) -> None:
    storage = FileMemoryStorage(tmp_path, journal=False)
    document = storage.save("alice", None, base_document())
    document = storage.save("alice", None, changed(document, 1))
    assert not storage.path_for("alice").with_name(JOURNAL_FILE).exists()
    on_disk = MemoryDocument.from_json(storage.path_for("alice").read_bytes())
    assert content(on_disk) == content(document)


WRITER = """
import sys
from pathlib import Path
from deerflow_memory.storage import file as file_backend
from deerflow_memory.storage.file import FileMemoryStorage
from tests.test_storage_journal import base_document, changed

file_backend.JOURNAL_MAX_RECORDS = 5
root, out = sys.argv[1], Path(sys.argv[2])
storage = FileMemoryStorage(root)
document = storage.load("alice")
for k in range(1, 40):
    document = storage.save("alice", None, changed(document, k), expected_revision=k)
    (out / str(document.revision)).write_text(document.to_json(), encoding="utf-8")
"""


def test_a_reader_in_this_process_sees_only_states_another_process_saved(
    tmp_path: Path,
) -> None:
    root, out = tmp_path / "memory", tmp_path / "saved"
    out.mkdir()
    first = FileMemoryStorage(root).save("alice", None, base_document())
    (out / "1").write_text(content(first), encoding="utf-8")
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(root), str(out)],
        cwd=Path(__file__).resolve().parent.parent,
    )
    reader = FileMemoryStorage(root)
    # Distinct states only: this loop spins until the writer (a Python start-up
    # and 40 saves) ends, and a list of every read grew without bound.
    seen: set[tuple[int, str]] = set()
    try:
        while writer.poll() is None:
            loaded = reader.load("alice")
            seen.add((loaded.revision, content(loaded)))
    finally:
        assert writer.wait(timeout=60) == 0
    last = reader.load("alice")
    assert last.revision == 40
    seen.add((last.revision, content(last)))
    for revision, text in seen:
        assert text == (out / str(revision)).read_text(encoding="utf-8")


@pytest.mark.parametrize("journal", ["true", "false"])
def test_the_file_journal_setting_decides_whether_memory_json_is_rewritten_on_every_save(
    tmp_path: Path, journal: str
) -> None:
    from deerflow_memory.config import load_config
    from deerflow_memory.storage.factory import build_storage

    config = load_config(environ={"DEERFLOW_MEMORY_FILE_JOURNAL": journal}, storage_path=tmp_path)
    storage = build_storage(config)
    document = storage.save("u", None, base_document())
    for k in range(3):
        document = storage.save("u", None, changed(document, k), expected_revision=k + 1)
    latest = storage.load("u", None)
    raw = MemoryDocument.model_validate_json(
        (tmp_path / "users" / "u" / "memory.json").read_bytes()
    )
    journal_file = tmp_path / "users" / "u" / JOURNAL_FILE
    if journal == "false":  # a program reading memory.json itself (DeerFlow) sees every save
        assert not journal_file.exists() and content(raw) == content(latest)
    else:
        assert journal_file.exists() and content(raw) != content(latest)
