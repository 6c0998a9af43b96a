"""Revisions never repeat across a delete: an edit read before it cannot hit the next memory.

A UI tab (or an HTTP caller) that read revision N of a memory, then sends an
edit with N after the memory was deleted, must get a conflict even once the
new memory has reached revision N (or a bookkeeping mark covers N): its edit
was made against a memory that no longer exists. Run on every backend: file,
InMemoryStore, SqliteStore, PostgreSQL (a throwaway server, see tests/pg.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.store.memory import InMemoryStore
from starlette.testclient import TestClient

from deerflow_memory.cli import main
from deerflow_memory.errors import RevisionConflictError
from deerflow_memory.models import MemoryDocument
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.storage.migrate import migrate
from deerflow_memory.storage.store import StoreMemoryStorage
from deerflow_memory.update.forget import clear_memory
from deerflow_memory.update.import_check import import_onto, read_import
from deerflow_memory.update.manual import add_manual_fact, save_edit
from deerflow_memory.update.sealing import fenced_keys
from deerflow_memory.update.usage import AccessRecorder
from tests.test_storage_conformance import storage as storage_fixture

# Every backend, with the conformance tests' fixture: a clean storage of each kind.
storage = storage_fixture


def add(storage: MemoryStorage, text: str, user: str = "ana") -> int:
    """A manual fact added as a user would; the revision it was saved at."""
    saved, _ = save_edit(storage, user, None, lambda d: add_manual_fact(d, text))
    return saved.revision


def count_uses(storage: MemoryStorage, user: str = "ana") -> None:
    """A bookkeeping-only save (use counts), as the agent's injections cause."""
    recorder = AccessRecorder(interval=600)
    recorder.record(storage, user, None, [f.id for f in storage.load(user).facts])
    recorder.close()


def plain_delete(storage: MemoryStorage) -> None:
    storage.delete("ana")


def delete_with_fence(storage: MemoryStorage) -> None:
    """The service's delete: a conversation still pending is dropped and fenced."""
    pending = [("thread-1", [HumanMessage("I live in Lisbon."), AIMessage("Noted.")])]
    cleared = clear_memory(storage, "ana", None, collect=lambda: pending)
    assert cleared.existed


def edit_at(storage: MemoryStorage, revision: int) -> None:
    """A user's edit of ana's memory made at ``revision`` (a page or tab read then)."""
    save_edit(
        storage,
        "ana",
        None,
        lambda d: add_manual_fact(d, "Prefers window seats"),
        expected_revision=revision,
    )


DELETES = [pytest.param(plain_delete, id="delete"), pytest.param(delete_with_fence, id="clear")]


@pytest.mark.parametrize("deleting", DELETES)
def test_an_edit_with_a_revision_read_before_a_delete_is_refused_after_the_new_memory_reaches_it(
    storage: MemoryStorage, deleting: Callable[[MemoryStorage], None]
) -> None:
    add(storage, "Prefers aisle seats")
    stale = add(storage, "Works at Acme")  # what the old tab read
    deleting(storage)
    while (revision := add(storage, "Has a cat named Miso")) < stale:
        pass
    assert storage.load("ana").revision == revision >= stale
    with pytest.raises(RevisionConflictError):
        edit_at(storage, stale)
    assert {f.content for f in storage.load("ana").facts} == {"Has a cat named Miso"}


def test_a_bookkeeping_mark_of_the_new_memory_never_covers_a_revision_of_the_deleted_one(
    storage: MemoryStorage,
) -> None:
    add(storage, "Prefers aisle seats")
    stale = add(storage, "Works at Acme")
    storage.delete("ana")
    add(storage, "Has a cat named Miso")
    for _ in range(3):  # use counts only: the new memory's mark spans these saves
        count_uses(storage)
    document = storage.load("ana")
    assert document.bookkeeping is not None and document.revision > stale
    assert not document.same_content_since(stale)
    with pytest.raises(RevisionConflictError):
        edit_at(storage, stale)


def test_a_writer_holding_the_deleted_document_gets_a_conflict_not_a_match(
    storage: MemoryStorage,
) -> None:
    add(storage, "Prefers aisle seats")
    add(storage, "Works at Acme")
    held = storage.load("ana")  # an updater's load before the delete
    storage.delete("ana")
    add(storage, "Has a cat named Miso")
    while storage.load("ana").revision < held.revision:
        count_uses(storage)
    with pytest.raises(RevisionConflictError):
        storage.save("ana", None, held, expected_revision=held.revision)
    assert [f.content for f in storage.load("ana").facts] == ["Has a cat named Miso"]


def test_after_a_delete_there_is_no_memory_and_a_new_one_works_normally(
    storage: MemoryStorage,
) -> None:
    add(storage, "Prefers aisle seats")
    add(storage, "Prefers aisle seats", user="bob")
    before = storage.load("ana").revision
    assert storage.delete("ana") is True
    left = storage.load("ana")
    assert left.revision == before + 1 and left.is_empty() and left.holds_only_fence()
    assert "deletedAt" not in read_import(left.to_json()).to_dict()  # an import is a memory
    assert list(storage.list_documents()) == [("bob", None)]
    assert list(storage.list_memories()) == [("bob", None)]
    assert storage.delete("ana") is False  # the tombstone is no document
    assert storage.load("ana").revision == before + 1

    first = add(storage, "Has a cat named Miso")
    assert first == before + 2
    document = storage.load("ana")
    assert document.deleted_at is None and not document.holds_only_fence()
    assert [f.content for f in document.facts] == ["Has a cat named Miso"]
    assert sorted(storage.list_memories()) == [("ana", None), ("bob", None)]
    assert add(storage, "Likes tea") == first + 1
    assert storage.load("bob").revision == 1  # other memories keep their own count


def test_importing_onto_a_deleted_memory_continues_its_revisions_and_keeps_its_fence(
    storage: MemoryStorage,
) -> None:
    stale = add(storage, "Prefers aisle seats")
    delete_with_fence(storage)
    current = storage.load("ana")
    fence = fenced_keys(storage, current, "thread-1")
    assert fence is not None and len(fence.sealed) == 2  # the thread's two messages
    incoming = read_import(json.dumps({"facts": [{"content": "Likes tea", "confidence": 0.9}]}))
    saved = storage.save("ana", None, import_onto(current, incoming), current.revision)
    assert saved.revision == current.revision + 1 > stale + 1
    stored = storage.load("ana")
    assert [f.content for f in stored.facts] == ["Likes tea"]
    assert fenced_keys(storage, stored, "thread-1") == fence  # old thread not re-learned


# --- data written before this change ----------------------------------------------------


def test_a_deerflow_memory_json_without_a_revision_loads_and_its_delete_leaves_a_tombstone(
    tmp_path: Path,
) -> None:
    storage = FileMemoryStorage(tmp_path)
    path = storage.path_for("ana")
    path.parent.mkdir(parents=True)
    path.write_text(
        json.dumps(
            {
                "version": "1.0",
                "lastUpdated": "2025-01-01T00:00:00Z",
                "user": {"workContext": {"summary": "Backend engineer", "updatedAt": ""}},
                "facts": [{"id": "fact_1", "content": "Prefers tea", "confidence": 0.9}],
            }
        )
    )
    loaded = storage.load("ana")
    assert loaded.revision == 0 and [f.content for f in loaded.facts] == ["Prefers tea"]
    assert add(storage, "Works at Acme") == 1
    assert storage.delete("ana") is True
    assert json.loads(path.read_text())["revision"] == 2  # DeerFlow reads an empty memory
    assert add(storage, "Has a cat") == 3


def test_a_document_saved_by_an_earlier_version_keeps_its_revision_across_a_delete(
    tmp_path: Path,
) -> None:
    # The store item as earlier versions wrote it (no deletedAt anywhere), and a fence
    # an earlier delete left at revision 1.
    store = InMemoryStore()
    old = StoreMemoryStorage(store)
    ns = old.document_namespace("ana")
    meta = MemoryDocument().to_dict()
    for key in ("facts", "revision"):
        meta.pop(key)
    store.put(
        ns, "_document", {"document": meta, "revision": 41, "factKeys": [], "generation": "g"}
    )
    store.put((*ns, "facts"), "fact_1", {"id": "fact_1", "content": "Prefers tea"})
    storage = StoreMemoryStorage(store)
    assert storage.load("ana").revision == 41
    assert [f.content for f in storage.load("ana").facts] == ["Prefers tea"]
    assert storage.delete("ana") is True
    assert storage.load("ana").revision == 42
    assert list(storage.list_documents()) == []
    with pytest.raises(RevisionConflictError):
        storage.save("ana", None, MemoryDocument(), expected_revision=41)


# --- over HTTP and the command line ------------------------------------------------------


def test_a_stale_page_adding_a_fact_after_the_memory_was_deleted_gets_409(
    client: TestClient,
) -> None:
    client.post("/memory/users/ana/facts", json={"content": "Prefers aisle seats"})
    page = client.post("/memory/users/ana/facts", json={"content": "Works at Acme"}).json()
    stale = page["revision"]
    assert client.delete("/memory/users/ana", params={"confirm": "ana"}).status_code == 200
    after = client.get("/memory/users/ana").json()
    assert after["facts"] == [] and after["revision"] > stale
    revision = 0
    while revision < stale:  # another tab builds the new memory
        new = client.post("/memory/users/ana/facts", json={"content": f"Has {revision + 1} cats"})
        assert new.status_code == 201, new.text
        revision = new.json()["revision"]
    response = client.post(
        "/memory/users/ana/facts", json={"content": "Prefers window seats", "revision": stale}
    )
    assert response.status_code == 409, response.text
    facts = [f["content"] for f in client.get("/memory/users/ana").json()["facts"]]
    assert "Prefers window seats" not in facts


def test_the_command_line_shows_no_memory_after_clear_and_counts_on_after_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = ["--root", str(tmp_path)]
    storage = FileMemoryStorage(tmp_path)
    add(storage, "Prefers aisle seats")
    stale = add(storage, "Works at Acme")
    add(storage, "Likes tea", user="bob")
    assert main([*root, "clear", "--user", "ana", "--yes"]) == 0
    assert main([*root, "show", "--user", "ana"]) == 1
    assert "no memory for user 'ana'" in capsys.readouterr().err
    assert main([*root, "list"]) == 0
    assert capsys.readouterr().out.split() == ["bob", "(default", "agent)"]
    dump = tmp_path / "in.json"
    dump.write_text(json.dumps({"facts": [{"content": "Has a cat", "confidence": 0.9}]}))
    assert main([*root, "import", "--user", "ana", str(dump)]) == 0
    assert f"(revision {stale + 2})" in capsys.readouterr().out  # tombstone, then the import
    with pytest.raises(RevisionConflictError):
        save_edit(
            storage, "ana", None, lambda d: add_manual_fact(d, "x y"), expected_revision=stale
        )


def test_migrate_skips_tombstones_and_copies_onto_the_targets_tombstone(tmp_path: Path) -> None:
    source, target = FileMemoryStorage(tmp_path / "a"), StoreMemoryStorage(InMemoryStore())
    add(source, "Prefers aisle seats")
    source.delete("ana")
    add(source, "Likes tea", user="bob")
    add(target, "Old words", user="bob")
    target.delete("bob")
    report = migrate(source, target)
    assert report.ok and report.copied == [("bob", None)] and not report.skipped
    assert target.load("bob").revision == 3  # after the target's tombstone, not 1
    assert [f.content for f in target.load("bob").facts] == ["Likes tea"]
    assert list(target.list_memories()) == [("bob", None)]


def test_a_tombstone_deerflow_fills_with_summaries_is_listed_and_migrated(tmp_path: Path) -> None:
    # DeerFlow shares memory.json and writes back the whole JSON it loaded,
    # deletedAt included: its first update after our delete may hold summaries only.
    source = FileMemoryStorage(tmp_path / "a")
    add(source, "Works at Acme")
    source.delete("ana")
    path = source.path_for("ana")
    data = json.loads(path.read_text())
    assert data["deletedAt"]
    data["user"]["workContext"]["summary"] = "Now leads the payments team."
    path.write_text(json.dumps(data))
    reopened = FileMemoryStorage(tmp_path / "a")
    assert reopened.load("ana").user.work_context.summary == "Now leads the payments team."
    assert list(reopened.list_documents()) == [("ana", None)]
    target = FileMemoryStorage(tmp_path / "b")
    report = migrate(reopened, target)
    assert report.ok and report.copied == [("ana", None)]
    assert target.load("ana").user.work_context.summary == "Now leads the payments team."
