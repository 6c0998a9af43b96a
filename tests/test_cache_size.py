"""Storage caches of parsed documents are bounded by the facts they hold, not by count only."""

from __future__ import annotations

from pathlib import Path

import pytest
from langgraph.store.memory import InMemoryStore

from deerflow_memory.models import Fact, MemoryDocument
from deerflow_memory.storage.base import cached_size
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.storage.store import StoreMemoryStorage


def document(n: int, tag: str = "user") -> MemoryDocument:
    """``n`` preference facts with ids ``fact_<tag>_<i>`` (also used by test_cache_tenants)."""
    facts = tuple(
        Fact(
            id=f"fact_{tag}_{i:04x}",
            content=f"Fact {i} about a user of {tag}",
            category="preference",
            confidence=0.9,
            created_at="2026-01-01T00:00:00Z",
        )
        for i in range(n)
    )
    return MemoryDocument(facts=facts)


def fill(storage: FileMemoryStorage | StoreMemoryStorage, sizes: list[int]) -> None:
    for k, n in enumerate(sizes):
        storage.save(f"user{k}", None, document(n), expected_revision=0)
        assert len(storage.load(f"user{k}", None).facts) == n


def test_the_file_cache_keeps_the_newest_documents_within_its_fact_bound(tmp_path: Path) -> None:
    storage = FileMemoryStorage(tmp_path, max_cached_facts=100)
    fill(storage, [40, 40, 40, 40])
    held = [cached_size(entry.document) for entry in storage._cache.values()]
    assert held == [41, 41]  # the two newest: three would be 123 facts
    assert storage._cache.budget.weight == 82
    assert [key[0] for key, _ in storage._cache.items()] == ["user2", "user3"]


def test_the_file_cache_keeps_one_document_larger_than_its_bound(tmp_path: Path) -> None:
    storage = FileMemoryStorage(tmp_path, max_cached_facts=100)
    fill(storage, [40, 300])
    assert [key[0] for key, _ in storage._cache.items()] == ["user1"]  # its journal keeps working
    assert storage._cache.budget.weight == 301
    storage.delete("user1")
    (entry,) = storage._cache.values()  # the tombstone a delete leaves, weighing one
    assert entry.document.deleted_at is not None and storage._cache.budget.weight == 1


def test_the_store_caches_keep_the_newest_documents_within_their_fact_bound() -> None:
    # A loaded document of n facts weighs 1 + n parsed + n as stored (81), its base 1 + n
    # (41): the least recently used goes first, whichever cache holds it.
    storage = StoreMemoryStorage(InMemoryStore(), max_cached_facts=300)
    fill(storage, [40, 40, 40, 40])
    loaded = [(ns[-3], cached_size(e.document)) for ns, e in storage._loaded.items()]
    bases = [(ns[-3], 1 + len(base.facts)) for (ns, _), base in storage._bases.items()]
    assert loaded == [("user2", 41), ("user3", 41)]
    assert bases == [("user1", 41), ("user2", 41), ("user3", 41)]
    assert storage._bases.budget.weight == 2 * 81 + 3 * 41


BAD_BOUNDS = [
    {"max_cached_facts": -1},
    {"max_cached_facts": None},
    {"max_cached_facts": 1.5},
    {"max_cached_facts": True},
    {"max_cached_documents": -1},
]


@pytest.mark.parametrize("bounds", BAD_BOUNDS, ids=repr)
@pytest.mark.parametrize("backend", ["file", "store"])
def test_a_cache_bound_that_is_not_a_whole_number_is_refused(
    tmp_path: Path, backend: str, bounds: dict[str, object]
) -> None:
    (name,) = bounds
    with pytest.raises(ValueError, match=name):
        if backend == "file":
            FileMemoryStorage(tmp_path, **bounds)  # type: ignore[arg-type]
        else:
            StoreMemoryStorage(InMemoryStore(), **bounds)  # type: ignore[arg-type]
