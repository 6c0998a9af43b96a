"""Tenant id → storage view, kept while in use or recently used, never for the life of the process.

``storage.scoped(t)`` hands out one view per tenant, with its own locks; its
cached documents count against the storage's one cache bound (``max_cached_documents``,
``max_cached_facts``, shared by every view). Kept in a plain dict, a long-running
server kept the view of every tenant it ever wrote
for: memory grew with the number of tenants seen, although the service closes
idle tenants' services (``max_open_tenants``). :class:`TenantViews` holds the
most recently used views, and any other only while something (a tenant's
service, a running update) still holds it: the same view comes back while it is
in use, so its caches and locks stay one per tenant, and an idle tenant beyond
the recent ones costs nothing until it is used again.

:class:`EmptyView` answers reads of a tenant that has nothing stored (the
per-turn inject path of a made-up or new tenant id) without building a view.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from collections.abc import Iterator
from typing import Generic, TypeVar

from deerflow_memory.errors import StorageError
from deerflow_memory.models import MemoryDocument
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.storage.dead_letters import DeadLetter
from deerflow_memory.storage.names import validate_name

__all__ = ["KEPT_TENANT_VIEWS", "EmptyView", "TenantViews"]

KEPT_TENANT_VIEWS = 64
"""Views kept although nothing else holds them (the most recently used)."""

V = TypeVar("V")


class TenantViews(Generic[V]):
    """The views of one storage's tenants; the caller serialises calls (its own lock).

    Args:
        keep: most recently used views held even when nothing else holds them.
    """

    def __init__(self, keep: int = KEPT_TENANT_VIEWS) -> None:
        self._keep = keep
        self._recent: OrderedDict[str, V] = OrderedDict()
        self._alive: weakref.WeakValueDictionary[str, V] = weakref.WeakValueDictionary()

    def get(self, tenant_id: str) -> V | None:
        """The tenant's view if one is alive (and now the most recently used), else None."""
        view = self._alive.get(tenant_id)
        if view is not None:
            self._use(tenant_id, view)
        return view

    def add(self, tenant_id: str, view: V) -> V:
        """Record ``view`` as the tenant's view and return it."""
        self._alive[tenant_id] = view
        self._use(tenant_id, view)
        return view

    def __len__(self) -> int:
        """Views alive now (held here or elsewhere)."""
        return len(self._alive)

    def _use(self, tenant_id: str, view: V) -> None:
        recent = self._recent
        recent[tenant_id] = view
        recent.move_to_end(tenant_id)
        while len(recent) > self._keep:
            recent.popitem(last=False)


class EmptyView(MemoryStorage):
    """A tenant with nothing stored, for reading only: every ``load`` is an empty document.

    What :meth:`MemoryStorage.reader` may return for such a tenant: it holds
    nothing, so one instance serves every such tenant of a storage, and reads
    create nothing. Names are checked as a backend checks them.

    Raises:
        InvalidNameError: ``load`` of an unsafe ``user_id`` or ``agent_name``.
        StorageError: any write (``save``, ``delete``, dead letters, the fence key).
    """

    def load(self, user_id: str, agent_name: str | None = None) -> MemoryDocument:
        validate_name(user_id, "user_id")
        if agent_name is not None:
            validate_name(agent_name, "agent_name")
        return MemoryDocument()

    def save(
        self,
        user_id: str,
        agent_name: str | None,
        document: MemoryDocument,
        expected_revision: int | None = None,
    ) -> MemoryDocument:
        raise self._read_only()

    def delete(self, user_id: str, agent_name: str | None = None) -> bool:
        raise self._read_only()

    def list_documents(self) -> Iterator[tuple[str, str | None]]:
        yield from ()

    def list_dead_letters(self, user_id: str | None = None) -> list[DeadLetter]:
        return []

    def fence_key(self) -> bytes:
        raise self._read_only()

    @staticmethod
    def _read_only() -> StorageError:
        return StorageError("a tenant with nothing stored, seen for reading: nothing is written")
