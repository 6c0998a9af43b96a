"""The shutdown report of a memory service whose store the app closed first.

When the store is closed, each update that reaches it stops at once (the
store backend raises :class:`~deerflow_memory.errors.StoreClosedError`) and is
reported as a ``store_closed`` failure instead of being retried, dead-lettered
or logged with a traceback; the service counts those, and its ``close()`` then
logs one error line with the counts (:func:`log_closed_store`), the fix, and
returns a falsy result.
"""

from __future__ import annotations

import logging

__all__ = ["log_closed_store"]


def log_closed_store(
    logger: logging.Logger,
    *,
    unwritten: int,
    not_run: int,
    durable: bool,
    tenant_id: str | None = None,
) -> None:
    """One ERROR line: what the closed store cost, and how to avoid it.

    Args:
        unwritten: outbox operations never written (their captured turns are lost).
        not_run: updates that stopped because the store was closed.
        durable: the service has an outbox (records written before the store
            closed stay in it for the next start).
        tenant_id: the tenant whose service this is (None = no tenant).
    """
    where = f" of tenant {tenant_id!r}" if tenant_id else ""
    kept = (
        "; records written before the store closed stay in it for the next start"
        if durable
        else "; their turns are lost"
    )
    logger.error(
        "memory service%s closed after its store: %d outbox record(s) could not be written "
        "(the turns they hold are lost) and %d update(s) did not run%s. Close the "
        "MemoryService before the store it writes to (README: 'Close memory before its store')",
        where,
        unwritten,
        not_run,
        kept,
    )
