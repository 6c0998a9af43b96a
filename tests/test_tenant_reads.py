"""Reading a tenant that has nothing stored builds, keeps and creates nothing.

The inject path reads a tenant whose service is not open through
``storage.reader(t)``: for a tenant without a folder that is the storage's one
:class:`EmptyView` (empty documents, no writes), not a new storage per turn.
``has_pending_updates`` (``flush_tenant`` of a tenant that is not open) only
looks: no folder or ``.id`` file is made, also for a tenant whose folder name
is mapped (a Windows device name, a trailing dot, an id over 200 UTF-8 bytes).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from langgraph.store.memory import InMemoryStore

from deerflow_memory import MemoryConfig, MemoryService
from deerflow_memory.errors import InvalidNameError, StorageError
from deerflow_memory.models import Fact, MemoryDocument
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.storage.store import StoreMemoryStorage
from deerflow_memory.storage.tenants import has_pending_updates
from deerflow_memory.storage.views import EmptyView

MAPPED = ["con", "trailing.", "店" * 100]  # the last: 300 UTF-8 bytes


def test_a_tenant_without_a_folder_is_read_through_one_empty_view_that_writes_nothing(
    tmp_path: Path,
) -> None:
    storage = FileMemoryStorage(tmp_path)
    view = storage.reader("shop")
    assert isinstance(view, EmptyView) and storage.reader("travel") is view
    assert view.load("ann") == MemoryDocument() and view.load("ann", "coach").revision == 0
    with pytest.raises(InvalidNameError):
        view.load("../ann")
    with pytest.raises(InvalidNameError):
        view.load("ann", "a/b")
    with pytest.raises(StorageError):
        view.save("ann", None, MemoryDocument())
    with pytest.raises(StorageError):
        view.delete("ann")
    assert list(view.list_documents()) == [] and view.list_dead_letters() == []
    assert not (tmp_path / "tenants").exists()


def test_once_a_tenant_has_data_its_reader_is_its_real_view(tmp_path: Path) -> None:
    storage = FileMemoryStorage(tmp_path)
    assert isinstance(storage.reader("shop"), EmptyView)
    FileMemoryStorage(tmp_path).scoped("shop").save(
        "ann", None, MemoryDocument(facts=(Fact(content="Likes tea"),))
    )
    view = storage.reader("shop")
    assert isinstance(view, FileMemoryStorage)
    assert [f.content for f in view.load("ann").facts] == ["Likes tea"]


@pytest.mark.parametrize("tenant", MAPPED, ids=["device-name", "trailing-dot", "long"])
def test_asking_for_pending_updates_creates_no_tenant_folder(tmp_path: Path, tenant: str) -> None:
    storage = FileMemoryStorage(tmp_path)
    assert has_pending_updates(storage, tenant) is False
    assert not (tmp_path / "tenants").exists()
    assert isinstance(storage.reader(tenant), EmptyView)
    with MemoryService(MemoryConfig(storage_path=tmp_path), register_atexit=False) as memory:
        assert memory.flush_tenant(tenant, timeout=1)
        assert memory.tenants == ()
    assert not (tmp_path / "tenants").exists()


def test_asking_a_store_for_pending_updates_builds_no_tenant_view() -> None:
    storage = StoreMemoryStorage(InMemoryStore())
    assert has_pending_updates(storage, "shop") is False
    assert len(storage._tenants) == 0
    with pytest.raises(InvalidNameError):
        has_pending_updates(storage, "../shop")
