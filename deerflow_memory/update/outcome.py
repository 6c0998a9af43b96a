"""What a flush reports: which updates did not make it, and where they went.

:class:`FlushResult` is truthy only when the queue drained *and* nothing
failed, so ``assert service.flush()`` stays an honest check. Each
:class:`FailedUpdate` says what happened to the job: ``requeued`` (it will run
again after its backoff), ``dead_letter`` (kept in the storage backend; see
``deerflow-memory pending`` / ``retry``) or ``lost`` (the dead letter could not
be written either; the log has the error).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["FailedUpdate", "FlushResult"]

FailureOutcome = Literal["requeued", "dead_letter", "lost"]


@dataclass(frozen=True, slots=True)
class FailedUpdate:
    """One update that failed while a flush was running (``tenant_id``: None = no tenant)."""

    thread_id: str
    user_id: str
    agent_name: str | None
    error: str
    outcome: FailureOutcome
    attempts: int = 1
    tenant_id: str | None = None


@dataclass(frozen=True, slots=True)
class FlushResult:
    """Outcome of ``MemoryService.flush`` and ``MemoryService.close``.

    Attributes:
        drained: every queued and running update finished within the timeout.
        failed: updates that failed meanwhile, with what became of them.
        pending: updates still queued or running when the flush returned.
    """

    drained: bool
    failed: tuple[FailedUpdate, ...] = ()
    pending: int = 0

    @property
    def ok(self) -> bool:
        """True when the queue drained and no update failed."""
        return self.drained and not self.failed

    def __bool__(self) -> bool:
        return self.ok
