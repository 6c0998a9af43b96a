"""A storage keeps tenants' views (and their cached documents) only while used or recent."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from langgraph.store.memory import InMemoryStore

from deerflow_memory.models import Fact, MemoryDocument
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.storage.store import StoreMemoryStorage
from deerflow_memory.storage.views import KEPT_TENANT_VIEWS, TenantViews


def _document(tenant: int) -> MemoryDocument:
    return MemoryDocument(facts=(Fact(content=f"Tenant {tenant} user likes green tea"),))


@pytest.fixture(params=["file", "store"])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> MemoryStorage:
    if request.param == "file":
        return FileMemoryStorage(tmp_path)
    return StoreMemoryStorage(InMemoryStore())


def test_writing_for_many_tenants_keeps_only_the_recent_views_alive(
    storage: MemoryStorage,
) -> None:
    held = storage.scoped("held")  # as a tenant's open service holds its view
    held.save("alice", None, _document(-1))
    for tenant in range(KEPT_TENANT_VIEWS * 3):
        storage.scoped(f"t{tenant}").save("alice", None, _document(tenant))
    gc.collect()
    # Before: one view per tenant ever written, each with its cached documents.
    assert len(storage._tenants) == KEPT_TENANT_VIEWS + 1  # type: ignore[attr-defined]
    assert storage.scoped("held") is held  # a view in use is the one handed out again
    newest = f"t{KEPT_TENANT_VIEWS * 3 - 1}"
    assert storage.scoped(newest) is storage.scoped(newest)
    # A dropped view's data is all on disk / in the store: a new view reads it back.
    assert storage.scoped("t0").load("alice").facts[0].content == "Tenant 0 user likes green tea"


def test_tenant_views_hold_the_recent_ones_and_any_other_only_while_it_is_in_use() -> None:
    class View:
        pass

    views: TenantViews[View] = TenantViews(keep=2)
    in_use = views.add("a", View())
    for name in "bcd":
        views.add(name, View())
    gc.collect()
    assert len(views) == 3  # a (held elsewhere), c and d (the recent two); b is gone
    assert views.get("a") is in_use and views.get("b") is None and views.get("d") is not None
