"""The one place that maps errors to HTTP answers: ``{"error": message}`` with a status.

=============================  ======  =========================================
error                          status  why
=============================  ======  =========================================
:class:`ApiError`              own     a request the routes refuse (400/401/403/409/413/415)
InvalidNameError               400     unsafe user id or agent name
IdentityMismatchError          403     another user or tenant than the caller's
InvalidFactError               422     fact text, category or confidence rejected
InvalidDocumentError           422     a document to import is not valid (CLI's check)
FactNotFoundError              404     no current fact with that id
RevisionConflictError          409     the document moved since the caller read it
MemoryBusyError                409     a delete waited too long for a running update
CorruptMemoryError             500     stable message; the document is left untouched
ConfigError                    500     the server's memory configuration is wrong
other DeerflowMemoryError      500/503 storage down (503) or another package error
=============================  ======  =========================================

Messages are one line. A corrupt document answers the same text every time
(``memory document is corrupt``, with the location in the server log only), so
clients can match it and nothing about the server's files leaks.
"""

from __future__ import annotations

from deerflow_memory.errors import (
    ConfigError,
    CorruptMemoryError,
    DeerflowMemoryError,
    FactNotFoundError,
    IdentityMismatchError,
    InvalidDocumentError,
    InvalidFactError,
    InvalidNameError,
    MemoryBusyError,
    RevisionConflictError,
    StorageError,
)
from deerflow_memory.logs import package_logger

__all__ = ["CORRUPT_MESSAGE", "ApiError", "status_and_message"]

logger = package_logger(__name__)

CORRUPT_MESSAGE = (
    "memory document is corrupt; it was left untouched (an operator must repair or move it)"
)


class ApiError(DeerflowMemoryError):
    """A request the memory routes refuse, with its HTTP status."""

    def __init__(self, status: int, message: str) -> None:
        self.status = status
        super().__init__(message)


def status_and_message(error: Exception) -> tuple[int, str]:
    """The HTTP status and one-line message for ``error`` (see the module table)."""
    if isinstance(error, ApiError):
        return error.status, str(error)
    if isinstance(error, IdentityMismatchError):
        return 403, str(error)
    if isinstance(error, InvalidNameError):
        return 400, str(error)
    if isinstance(error, InvalidFactError | InvalidDocumentError):
        return 422, str(error)
    if isinstance(error, FactNotFoundError):
        return 404, str(error)
    if isinstance(error, MemoryBusyError):
        return 409, str(error)
    if isinstance(error, RevisionConflictError):
        return 409, (
            f"memory changed since you read it (now at revision {error.actual}, "
            f"you sent {error.expected}): reload and try again"
        )
    if isinstance(error, CorruptMemoryError):
        logger.error("memory route: %s", error)
        return 500, CORRUPT_MESSAGE
    if isinstance(error, ConfigError):
        logger.error("memory route: configuration error: %s", error)
        return 500, f"memory is misconfigured on the server: {error}"
    if isinstance(error, StorageError):
        logger.error("memory route: storage error: %s", error)
        return 503, "memory storage is unavailable right now; try again later"
    logger.exception("memory route: unexpected error", exc_info=error)
    return 500, "internal error in the memory routes (see the server log)"
