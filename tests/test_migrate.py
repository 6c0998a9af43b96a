"""Migration between backends: every document copied losslessly and verified by reading back."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from langgraph.store.memory import InMemoryStore

from deerflow_memory.config import MemoryConfig
from deerflow_memory.errors import ConfigError
from deerflow_memory.models import Fact, FactCategory, MemoryDocument
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.storage.factory import open_storage
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.storage.migrate import migrate, parse_backend_spec
from deerflow_memory.storage.store import StoreMemoryStorage
from tests.pg import drop_prefix, postgres_dsn_or_skip


def document(tag: str, n_facts: int) -> MemoryDocument:
    return MemoryDocument.model_validate(
        {
            "lastUpdated": "2025-03-02T10:00:00Z",
            "user": {"workContext": {"summary": f"{tag} 在做数据平台", "updatedAt": "x"}},
            "unknownTopLevel": {"tag": tag},
            "facts": [
                {
                    "content": f"{tag} fact {i}",
                    "category": list(FactCategory)[i % len(FactCategory)].value,
                    "confidence": 0.8,
                    "extraKey": i,
                }
                for i in range(n_facts)
            ],
        }
    )


def populate(storage: MemoryStorage) -> dict[tuple[str, str | None], MemoryDocument]:
    docs = {
        ("alice@example.com", None): document("alice", 3),
        ("alice@example.com", "travel"): document("alice-travel", 120),
        ("bob", None): document("bob", 0),
        ("用户", "coach"): document("zh", 5),
    }
    for (user, agent), doc in docs.items():
        storage.save(user, agent, doc)
    return docs


def comparable(doc: MemoryDocument) -> dict[str, object]:
    data = doc.to_dict()
    data.pop("revision")
    return data


def test_file_to_sqlite_to_inmemory_copies_every_document_losslessly(tmp_path: Path) -> None:
    source = FileMemoryStorage(tmp_path / "files")
    docs = populate(source)
    sqlite_config = MemoryConfig(storage="sqlite", storage_path=tmp_path / "m.sqlite")
    with open_storage(sqlite_config) as sqlite_storage:
        report = migrate(source, sqlite_storage)
        assert report.ok and report.documents_copied == report.verified == 4
        assert report.facts_copied == 128
        memory = StoreMemoryStorage(InMemoryStore())
        assert migrate(sqlite_storage, memory).ok
    for (user, agent), doc in docs.items():
        assert comparable(memory.load(user, agent)) == comparable(doc)
    assert sorted(memory.list_documents(), key=str) == sorted(docs, key=str)


def test_documents_already_in_the_target_are_skipped_unless_overwrite(tmp_path: Path) -> None:
    source = FileMemoryStorage(tmp_path / "files")
    populate(source)
    target = StoreMemoryStorage(InMemoryStore())
    stale = document("stale", 4)
    target.save("bob", None, stale)
    report = migrate(source, target)
    assert report.skipped == [("bob", None)] and report.documents_copied == 3
    assert comparable(target.load("bob")) == comparable(stale)

    report = migrate(source, target, overwrite=True)
    assert report.ok and report.documents_copied == 4 and report.skipped == []
    assert target.load("bob").facts == ()  # no stale fact survives an overwrite
    assert "4 documents (128 facts) copied, 4 verified" in report.summary()


def test_a_corrupt_source_document_is_reported_and_the_rest_still_copied(tmp_path: Path) -> None:
    source = FileMemoryStorage(tmp_path / "files")
    populate(source)
    source.path_for("bob").write_text("{not json", encoding="utf-8")
    target = StoreMemoryStorage(InMemoryStore())
    report = migrate(source, target)
    assert not report.ok
    assert [name for name, _ in report.failed] == [("bob", None)]
    assert report.documents_copied == 3
    assert source.path_for("bob").read_text(encoding="utf-8") == "{not json"


def test_a_copy_that_reads_back_differently_is_reported_as_mismatched(tmp_path: Path) -> None:
    class Lossy(StoreMemoryStorage):
        def save(self, user_id, agent_name, document, expected_revision=None):  # type: ignore[no-untyped-def]
            return super().save(user_id, agent_name, document.model_copy(update={"facts": ()}))

    source = FileMemoryStorage(tmp_path / "files")
    populate(source)
    report = migrate(source, Lossy(InMemoryStore()))
    assert not report.ok
    assert sorted(report.mismatched, key=str) == sorted(
        [("alice@example.com", None), ("alice@example.com", "travel"), ("用户", "coach")], key=str
    )


@pytest.mark.postgres
def test_file_to_postgres_and_back_is_lossless(tmp_path: Path) -> None:
    dsn = postgres_dsn_or_skip()
    prefix = ("dfm_test", uuid.uuid4().hex)
    source = FileMemoryStorage(tmp_path / "files")
    docs = populate(source)
    try:
        config = parse_backend_spec(f"postgres:{dsn}")
        with open_storage(config, namespace_prefix=prefix) as pg_storage:
            assert migrate(source, pg_storage).ok
            back = FileMemoryStorage(tmp_path / "back")
            assert migrate(pg_storage, back).ok
        for (user, agent), doc in docs.items():
            assert comparable(back.load(user, agent)) == comparable(doc)
    finally:
        drop_prefix(dsn, prefix)


@pytest.mark.parametrize(
    ("spec", "storage", "path", "dsn"),
    [
        ("file:./mem", "file", Path("mem"), None),
        ("sqlite:/tmp/m.sqlite", "sqlite", Path("/tmp/m.sqlite"), None),
        ("postgres:postgresql://u@h:5/db", "postgres", None, "postgresql://u@h:5/db"),
        ("postgresql://u@h/db", "postgres", None, "postgresql://u@h/db"),
    ],
)
def test_backend_specs_select_the_backend_and_its_location(
    spec: str, storage: str, path: Path | None, dsn: str | None
) -> None:
    config = parse_backend_spec(spec, MemoryConfig(max_facts=7))
    assert config.storage == storage and config.max_facts == 7
    if path is not None:
        assert config.storage_path == path
    if dsn is not None:
        assert config.storage_dsn == dsn


@pytest.mark.parametrize("spec", ["mem", "redis:x", "file:", "sqlite:", ""])
def test_bad_backend_specs_are_config_errors(spec: str) -> None:
    with pytest.raises(ConfigError):
        parse_backend_spec(spec)


def test_a_migrated_fact_keeps_its_id_and_extra_keys(tmp_path: Path) -> None:
    source = FileMemoryStorage(tmp_path / "files")
    original = Fact.model_validate({"id": "fact_abcdef12", "content": "x", "custom": [1]})
    source.save("u", None, MemoryDocument(facts=(original,)))
    target = StoreMemoryStorage(InMemoryStore())
    migrate(source, target)
    (copied,) = target.load("u").facts
    assert copied.id == "fact_abcdef12" and copied.model_extra == {"custom": [1]}
