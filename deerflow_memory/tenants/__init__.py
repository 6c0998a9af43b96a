"""The tenants of a root :class:`~deerflow_memory.MemoryService`.

- :mod:`~deerflow_memory.tenants.pool`: :class:`TenantPool`, the open tenant
  services bounded by ``max_open_tenants`` (idle ones closed, ones whose
  updates only wait in a durable outbox parked and reopened when due), the
  tenant config cache, and the scan for tenants with pending outbox work.

It sits beside the service, below it: it imports foundation, ``storage`` and
``update`` modules, never ``service`` (the service passes in a factory that
makes a tenant's service).
"""

from __future__ import annotations

from deerflow_memory.tenants.pool import TenantPool, TenantService, TenantSlot

__all__ = ["TenantPool", "TenantService", "TenantSlot"]
