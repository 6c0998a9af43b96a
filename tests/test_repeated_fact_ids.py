"""A fact id listed twice in a stored document is resolved on load, never kept.

Documents we did not write in this process (a ``memory.json`` from DeerFlow or
an editor, a journal, store rows written by another process or version) may
list one fact id twice. Left alone, ``forget <id>`` removed one copy and the
other stayed and kept being injected, and an export of it could not be
imported. The rule (``unique_fact_ids``): an exact copy is dropped, a copy
with other text is kept under a fresh id, one WARNING names where; a journal
record keeping one item twice is corrupt.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from langgraph.store.memory import InMemoryStore

from deerflow_memory.config import MemoryConfig
from deerflow_memory.errors import CorruptMemoryError
from deerflow_memory.inject.format import format_memory_for_injection
from deerflow_memory.models import Fact, MemoryDocument, unique_fact_ids
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.storage.factory import open_storage
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.storage.journal import JOURNAL_FILE
from deerflow_memory.storage.store import StoreMemoryStorage
from deerflow_memory.update.import_check import read_import
from deerflow_memory.update.manual import delete_fact, edit_fact, save_edit
from tests.pg import drop_prefix, postgres_dsn_or_skip, shared_postgres_store
from tests.test_cli import cli

TEA = Fact(id="fact_0000a001", content="Drinks green tea every morning", source="t1")
RUST = Fact(id="fact_0000a002", content="Writes Rust at work", source="t1")
PIANO = Fact(id="fact_0000a003", content="Plays the piano on weekends", source="t2")
# Same id as TEA, other text: a different fact that must not be lost.
TEA_OTHER = TEA.model_copy(update={"content": "Moved to Lisbon in May"})


def doubled() -> MemoryDocument:
    """TEA twice (exact copy), RUST twice (exact copy), TEA's id once more with other text."""
    return MemoryDocument(facts=(TEA, RUST, PIANO, TEA, RUST, TEA_OTHER))


def warnings_about_repeats(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if "more than once" in r.getMessage()]


def assert_resolved(document: MemoryDocument) -> str:
    """Each id once, TEA/RUST/PIANO kept as they were, TEA_OTHER's text kept: its new id."""
    ids = [f.id for f in document.facts]
    assert len(ids) == len(set(ids)) == 4
    assert document.facts[:3] == (TEA, RUST, PIANO)
    other = document.facts[3]
    assert other.content == TEA_OTHER.content and other.id not in {TEA.id, RUST.id, PIANO.id}
    assert other.model_copy(update={"id": TEA.id}) == TEA_OTHER  # nothing else changed
    return other.id


# --- the rule ---------------------------------------------------------------------------


def test_exact_copies_collapse_and_a_copy_with_other_text_gets_a_fresh_stable_id(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING):
        first, changed = unique_fact_ids(doubled(), "somewhere/memory.json")
    assert changed
    new_id = assert_resolved(first)
    (message,) = warnings_about_repeats(caplog)
    assert "somewhere/memory.json" in message and "2 exact copies dropped" in message
    assert f"{TEA.id} -> {new_id}" in message
    # Every process reading the same bytes picks the same id.
    assert unique_fact_ids(doubled(), None)[0] == first


def test_a_document_without_repeats_is_returned_as_is() -> None:
    document = MemoryDocument(facts=(TEA, RUST))
    assert unique_fact_ids(document, "x") == (document, False)


def test_a_constraint_mark_on_a_dropped_copy_is_kept() -> None:
    marked = TEA.model_copy(update={"constraint": True})
    resolved, _ = unique_fact_ids(MemoryDocument(facts=(TEA, marked)), None)
    assert resolved.facts == (marked,)


def test_delete_fact_removes_every_copy_and_keeps_other_text_as_history() -> None:
    document = doubled()
    updated, gone = delete_fact(document, TEA.id, now="2026-12-01T00:00:00Z")
    assert gone.content == TEA.content
    assert TEA.id not in {f.id for f in updated.facts}
    assert [f.id for f in updated.facts] == [RUST.id, PIANO.id, RUST.id]
    assert {f.content for f in updated.superseded_facts} == {TEA.content, TEA_OTHER.content}


def test_a_rendered_mapping_shows_a_repeated_fact_once() -> None:
    block = format_memory_for_injection(doubled().to_dict(), 2000)
    assert block.count(TEA.content) == 1 and block.count(RUST.content) == 1
    assert TEA_OTHER.content in block


def test_an_export_whose_history_repeats_an_edited_facts_id_imports() -> None:
    document = MemoryDocument(facts=(TEA,))
    document, _ = edit_fact(document, TEA.id, content="Drinks black tea")
    document, _ = edit_fact(document, TEA.id, content="Drinks oolong tea")
    assert [f.id for f in document.superseded_facts] == [TEA.id, TEA.id]
    assert read_import(document.to_json()).to_dict() == document.to_dict()


# --- file backend: memory.json and the journal ---------------------------------------------


def file_storage_with(tmp_path: Path, document: MemoryDocument) -> tuple[Path, Path]:
    """A root whose user ``u`` has ``document`` as its memory.json (no journal)."""
    root = tmp_path / "mem"
    storage = FileMemoryStorage(root)
    storage.save("u", None, MemoryDocument(facts=(PIANO,)))
    path = storage.path_for("u")
    path.write_text(document.to_json(), encoding="utf-8")  # as DeerFlow or an editor writes it
    return root, path


def test_a_memory_json_listing_a_fact_twice_loads_resolved_with_one_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root, path = file_storage_with(tmp_path, doubled())
    storage = FileMemoryStorage(root)
    with caplog.at_level(logging.WARNING):
        loaded = storage.load("u")
        assert storage.load("u") is loaded  # warm loads: no second warning
    new_id = assert_resolved(loaded)
    (message,) = warnings_about_repeats(caplog)
    assert str(path) in message

    # The next save writes the resolved document whole: the repeat is gone from disk.
    storage.save("u", None, loaded)
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        again = FileMemoryStorage(root).load("u")
    assert not warnings_about_repeats(caplog)
    assert [f.id for f in again.facts] == [TEA.id, RUST.id, PIANO.id, new_id]
    assert not path.with_name(JOURNAL_FILE).exists()


def test_a_journal_record_keeping_an_item_twice_is_a_corrupt_record_left_untouched(
    tmp_path: Path,
) -> None:
    root = tmp_path / "mem"
    storage = FileMemoryStorage(root)
    storage.save("u", None, MemoryDocument(facts=(TEA, RUST, PIANO)))
    document = storage.load("u")
    saved = storage.save("u", None, document.model_copy(update={"facts": document.facts[:2]}))
    journal = storage.path_for("u").with_name(JOURNAL_FILE)
    for ranges in ([[0, 2], [0, 2]], [[0, 2], [1, 2]], [[1, 2], [0, 2]]):
        bad = {"revision": saved.revision + 1, "facts": ranges}
        with journal.open("ab") as f:
            f.write((json.dumps(bad) + "\n").encode())
        before = journal.read_bytes(), storage.path_for("u").read_bytes()
        with pytest.raises(CorruptMemoryError, match="keeps an item twice"):
            FileMemoryStorage(root).load("u")
        assert (journal.read_bytes(), storage.path_for("u").read_bytes()) == before
        journal.write_bytes(before[0][: -len(json.dumps(bad)) - 1])


def test_a_journal_record_adding_a_kept_facts_id_again_is_resolved_then_compacted(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = tmp_path / "mem"
    storage = FileMemoryStorage(root)
    storage.save("u", None, MemoryDocument(facts=(TEA, RUST)))
    saved = storage.save("u", None, storage.load("u"))  # writes the journal's header
    journal = storage.path_for("u").with_name(JOURNAL_FILE)
    added = TEA_OTHER.model_dump(mode="json", by_alias=True, exclude_none=True)
    record = {"revision": saved.revision + 1, "facts": [[0, 2], added]}
    with journal.open("ab") as f:
        f.write((json.dumps(record) + "\n").encode())
    fresh = FileMemoryStorage(root)
    with caplog.at_level(logging.WARNING):
        loaded = fresh.load("u")
    assert [f.content for f in loaded.facts] == [TEA.content, RUST.content, TEA_OTHER.content]
    assert len({f.id for f in loaded.facts}) == 3
    assert "with memory.journal.jsonl" in warnings_about_repeats(caplog)[0]
    fresh.save("u", None, loaded)  # compacts: records would not apply to the files
    assert not journal.exists()
    assert FileMemoryStorage(root).load("u").facts == loaded.facts


def test_saving_one_fact_object_twice_never_writes_a_record_the_reader_calls_corrupt(
    tmp_path: Path,
) -> None:
    root = tmp_path / "mem"
    storage = FileMemoryStorage(root)
    storage.save("u", None, MemoryDocument(facts=(TEA, RUST, PIANO)))
    document = storage.load("u")
    storage.save("u", None, document)  # start a journal
    current = storage.load("u")
    storage.save("u", None, current.model_copy(update={"facts": (*current.facts, TEA)}))
    loaded = FileMemoryStorage(root).load("u")  # not CorruptMemoryError
    assert loaded.facts == (TEA, RUST, PIANO)


# --- store backends: rows written by another process or version -------------------------


@pytest.fixture(params=["inmemory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def two_store_storages(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[tuple[MemoryStorage, MemoryStorage, str]]:
    """Two storages on one store, as two processes see it (no shared cache), and its kind."""
    kind = request.param
    if kind == "inmemory":
        store = InMemoryStore()
        yield StoreMemoryStorage(store), StoreMemoryStorage(store), kind
    elif kind == "sqlite":
        config = MemoryConfig(storage="sqlite", storage_path=tmp_path / "db")
        with open_storage(config) as writer, open_storage(config) as reader:
            yield writer, reader, kind
    else:
        dsn = postgres_dsn_or_skip()
        prefix = ("dfm_test", uuid.uuid4().hex)
        shared = shared_postgres_store(dsn)
        a = StoreMemoryStorage(shared, prefix)  # type: ignore[arg-type]
        b = StoreMemoryStorage(shared, prefix)  # type: ignore[arg-type]
        try:
            yield a, b, kind
        finally:
            drop_prefix(dsn, prefix)


def test_store_rows_repeating_a_fact_id_load_resolved_and_forget_removes_the_fact(
    two_store_storages: tuple[MemoryStorage, MemoryStorage, str],
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    other_process, storage, kind = two_store_storages
    other_process.save("u", None, doubled())  # an older version stored the repeats as rows
    with caplog.at_level(logging.WARNING):
        loaded = storage.load("u")
        assert storage.load("u") is loaded  # unchanged rows: no second warning
    new_id = assert_resolved(loaded)
    (message,) = warnings_about_repeats(caplog)
    assert "users/u/agents" in message

    save_edit(storage, "u", None, lambda d: delete_fact(d, TEA.id))
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        after = other_process.load("u")
    assert not warnings_about_repeats(caplog)
    assert [f.id for f in after.facts] == [RUST.id, PIANO.id, new_id]
    assert TEA.content not in {f.content for f in after.facts}
    if kind == "sqlite":  # no stray row of a dropped copy is left in the database
        with sqlite3.connect(tmp_path / "db" / "memory.sqlite") as db:
            rows = db.execute(
                "select key from store where prefix = ?",
                ("deerflow_memory.users.u.agents.%_default.facts",),
            ).fetchall()
        assert sorted(k for (k,) in rows) == sorted([RUST.id, PIANO.id, new_id])


# --- the command line, as a user runs it -------------------------------------------------


@pytest.mark.slow
def test_cli_forget_removes_every_copy_and_export_then_import_round_trips(
    tmp_path: Path,
) -> None:
    root, _ = file_storage_with(tmp_path, doubled())
    forgot = cli("--root", str(root), "forget", "--user", "u", TEA.id, cwd=tmp_path)
    assert forgot.returncode == 0, forgot.stderr
    shown = cli("--root", str(root), "show", "--user", "u", "--json", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    facts = json.loads(shown.stdout)["facts"]
    assert TEA.id not in {f["id"] for f in facts}
    assert TEA.content not in shown.stdout.split('"supersededFacts"')[0]
    assert [f["content"] for f in facts] == [RUST.content, PIANO.content, TEA_OTHER.content]
    assert "more than once" in forgot.stderr  # the one warning of the load

    exported_file = tmp_path / "export.json"
    exported = cli(
        "--root", str(root), "export", "--user", "u", "-o", str(exported_file), cwd=tmp_path
    )
    assert exported.returncode == 0, exported.stderr
    imported = cli(
        "--root", str(root), "import", "--user", "v", "--yes", str(exported_file), cwd=tmp_path
    )
    assert imported.returncode == 0, imported.stderr
    copy = FileMemoryStorage(root).load("v")
    assert [f.model_dump() for f in copy.facts] == [
        Fact.model_validate(f).model_dump() for f in facts
    ]
