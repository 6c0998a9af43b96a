"""Which tenants a storage holds, and which of them have updates a stopped process left pending.

A tenant's data lives in :meth:`MemoryStorage.scoped` views: ``<root>/tenants/<t>/``
for the file backend, ``namespace_prefix + ("tenants", t)`` for store-based
backends. A service that starts must run every tenant's pending updates, but
opening a tenant (its outbox, its queue) for every tenant ever stored would be
wasteful, so :func:`tenants_with_pending_updates` only looks:

- file backend: a non-empty ``outbox/*.jsonl`` journal whose ``flock`` is free
  (its process stopped; a live process runs its own journal);
- store backends: an ``outbox`` namespace with items in it.

Both only read; nothing is created. Backends without tenants report none.
"""

from __future__ import annotations

import contextlib
import importlib
import os
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from deerflow_memory.storage.base import MemoryStorage, validate_name

if TYPE_CHECKING:
    from deerflow_memory.storage.store import StoreMemoryStorage

__all__ = ["has_pending_updates", "stored_tenants", "tenants_with_pending_updates"]

_fcntl: ModuleType | None
try:
    _fcntl = importlib.import_module("fcntl")
except ImportError:  # pragma: no cover - Windows
    _fcntl = None

_OUTBOX = "outbox"  # the outbox folder (file) and namespace label (store) of a storage


def stored_tenants(storage: MemoryStorage) -> list[str]:
    """Every tenant id with data in ``storage`` (documents, outbox or dead letters), sorted."""
    from deerflow_memory.storage.file import FileMemoryStorage
    from deerflow_memory.storage.store import StoreMemoryStorage

    if isinstance(storage, FileMemoryStorage):
        return sorted(tenant for tenant, _ in _file_tenants(storage))
    if isinstance(storage, StoreMemoryStorage):
        return sorted(_store_tenants(storage, pending_only=False))
    return []


def tenants_with_pending_updates(storage: MemoryStorage) -> list[str]:
    """Tenant ids whose outbox holds updates no live process is running, sorted."""
    from deerflow_memory.storage.file import FileMemoryStorage
    from deerflow_memory.storage.store import StoreMemoryStorage

    if isinstance(storage, FileMemoryStorage):
        return sorted(t for t, folder in _file_tenants(storage) if _orphaned_journal(folder))
    if isinstance(storage, StoreMemoryStorage):
        return sorted(_store_tenants(storage, pending_only=True))
    return []


def has_pending_updates(storage: MemoryStorage, tenant_id: str) -> bool:
    """True when tenant ``tenant_id``'s outbox holds updates no live process is running.

    Only reads, like :func:`tenants_with_pending_updates`: no folder, file,
    namespace or view is made for the tenant.

    Raises:
        InvalidNameError: unsafe ``tenant_id``.
    """
    from deerflow_memory.storage.file import FileMemoryStorage
    from deerflow_memory.storage.store import TENANT_LABEL, StoreMemoryStorage, encode_label

    tenant_id = validate_name(tenant_id, "tenant_id")
    if isinstance(storage, FileMemoryStorage):
        return _orphaned_journal(storage.tenant_folder(tenant_id))
    if isinstance(storage, StoreMemoryStorage):
        outbox = (*storage.namespace_prefix, TENANT_LABEL, encode_label(tenant_id), _OUTBOX)
        return bool(_namespaces(storage, outbox, limit=1))
    return False


def _file_tenants(storage: MemoryStorage) -> list[tuple[str, Path]]:
    from deerflow_memory.storage.file import TENANT_FOLDER, FileMemoryStorage, _valid_subfolders

    assert isinstance(storage, FileMemoryStorage)
    base = storage.root / TENANT_FOLDER
    return [(tenant, base / folder) for folder, tenant in _valid_subfolders(base)]


def _orphaned_journal(tenant_folder: Path) -> bool:
    """True when a journal with content has no live owner (its lock file is free).

    A linked tenant folder or ``outbox/`` (another tenant's journals) counts as
    none: the tenant's view refuses it (:meth:`FileMemoryStorage.inside`).
    """
    if os.path.islink(tenant_folder):
        return False
    outbox = Path(os.path.realpath(tenant_folder)) / _OUTBOX
    if os.path.realpath(outbox) != str(outbox):
        return False
    try:
        journals = [p for p in outbox.glob("*.jsonl") if p.stat().st_size > 0]
    except OSError:
        return False
    return any(_lock_is_free(j.with_suffix(".lock")) for j in journals)


def _lock_is_free(path: Path) -> bool:
    if _fcntl is None:  # pragma: no cover - Windows: cannot tell, so look at it
        return True
    try:
        flags = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)  # no link, no FIFO wait
        fd = os.open(path, os.O_RDONLY | flags)
    except FileNotFoundError:
        return True  # a journal without its lock file: nobody owns it
    except OSError:
        return False
    try:
        _fcntl.flock(fd, _fcntl.LOCK_EX | _fcntl.LOCK_NB)
    except OSError:
        return False  # held: a live process runs this journal
    else:
        with contextlib.suppress(OSError):
            _fcntl.flock(fd, _fcntl.LOCK_UN)
        return True
    finally:
        os.close(fd)


def _store_tenants(storage: MemoryStorage, *, pending_only: bool) -> set[str]:
    from deerflow_memory.storage.store import TENANT_LABEL, StoreMemoryStorage, decode_label

    assert isinstance(storage, StoreMemoryStorage)
    prefix = (*storage.namespace_prefix, TENANT_LABEL)
    depth = len(prefix) + 2  # (*prefix, "tenants", t, <section>)
    found: set[str] = set()
    offset, page = 0, 1000
    while True:
        namespaces = _namespaces(storage, prefix, max_depth=depth, limit=page, offset=offset)
        for ns in namespaces:
            if len(ns) < depth - 1:
                continue
            if pending_only and (len(ns) != depth or ns[-1] != _OUTBOX):
                continue
            found.add(decode_label(ns[len(prefix)]))
        if len(namespaces) < page:
            return found
        offset += page


def _namespaces(
    storage: StoreMemoryStorage,
    prefix: tuple[str, ...],
    *,
    max_depth: int | None = None,
    limit: int,
    offset: int = 0,
) -> list[tuple[str, ...]]:
    """``store.list_namespaces(prefix=...)`` through the storage, so that its errors are
    :class:`~deerflow_memory.errors.StorageError` (a closed store: ``StoreClosedError``)."""
    from langgraph.store.base import ListNamespacesOp, MatchCondition

    condition = MatchCondition(match_type="prefix", path=prefix)
    op = ListNamespacesOp(
        match_conditions=(condition,), max_depth=max_depth, limit=limit, offset=offset
    )
    (found,) = storage.run_ops([op])
    return list(found)
