"""SQLite backend: one damaged row is that document's CorruptMemoryError, never everyone's failure.

As on the file backend: ``list`` still lists every document, ``stats`` reports
the damaged one with its namespace and reason, ``migrate`` copies the others.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from deerflow_memory.config import MemoryConfig
from deerflow_memory.errors import CorruptMemoryError
from deerflow_memory.models import MemoryDocument
from deerflow_memory.storage.factory import open_storage
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.storage.migrate import migrate
from deerflow_memory.storage.stats import storage_stats


def document(*facts: str) -> MemoryDocument:
    return MemoryDocument.model_validate({"facts": [{"content": f} for f in facts]})


def damaged(tmp_path: Path, where: str) -> MemoryConfig:
    """Users a, b, c in SQLite; a's document row (or fact row) holds ``{garbage``."""
    config = MemoryConfig(storage="sqlite", storage_path=tmp_path / "db")
    with open_storage(config) as storage:
        for user in "abc":
            storage.save(user, None, document(f"Likes tea {user}"))
    with sqlite3.connect(tmp_path / "db" / "memory.sqlite") as db:
        prefix = "deerflow_memory.users.a.agents.%_default" + (".facts" if where == "fact" else "")
        changed = db.execute(
            "update store set value='{garbage' where prefix = ?", (prefix,)
        ).rowcount
    assert changed == 1
    return config


@pytest.mark.parametrize("where", ["document", "fact"])
def test_a_damaged_row_is_that_documents_corrupt_memory_error_naming_it(
    tmp_path: Path, where: str
) -> None:
    with open_storage(damaged(tmp_path, where)) as storage:
        assert list(storage.list_documents()) == [("a", None), ("b", None), ("c", None)]
        with pytest.raises(CorruptMemoryError) as caught:
            storage.load("a")
        assert "users/a/" in caught.value.location and "decoded" in caught.value.reason
        with pytest.raises(CorruptMemoryError):
            asyncio.run(storage.aload("a"))
        assert [f.content for f in storage.load("b").facts] == ["Likes tea b"]


def test_stats_report_the_damaged_document_and_count_the_others(tmp_path: Path) -> None:
    with open_storage(damaged(tmp_path, "document")) as storage:
        stats = storage_stats(storage)
    assert [(s.user_id, s.error is not None) for s in stats] == [
        ("a", True),
        ("b", False),
        ("c", False),
    ]
    assert "CorruptMemoryError" in (stats[0].error or "") and "users/a/" in (stats[0].error or "")


def test_migrate_copies_every_healthy_document_and_names_the_damaged_one(tmp_path: Path) -> None:
    target = FileMemoryStorage(tmp_path / "out")
    with open_storage(damaged(tmp_path, "document")) as storage:
        report = migrate(storage, target)
    assert sorted(report.copied) == [("b", None), ("c", None)]
    [(name, reason)] = report.failed
    assert name == ("a", None) and "users/a/" in reason and "decoded" in reason
    assert [f.content for f in target.load("c").facts] == ["Likes tea c"]


def test_a_damaged_document_can_still_be_deleted_to_start_fresh(tmp_path: Path) -> None:
    with open_storage(damaged(tmp_path, "document")) as storage:
        assert storage.delete("a") is True
        assert storage.load("a").is_empty()
        assert list(storage.list_documents()) == [("b", None), ("c", None)]
