"""What a flush reports: which updates did not make it, and where they went; what the last save did.

:class:`FlushResult` is truthy only when the queue drained *and* nothing
failed, so ``assert service.flush()`` stays an honest check. Each
:class:`FailedUpdate` says what happened to the job: ``requeued`` (it will run
again after its backoff), ``dead_letter`` (kept in the storage backend; see
``deerflow-memory pending`` / ``retry``), ``lost`` (the dead letter could not
be written either; the log has the error) or ``store_closed`` (the app closed
the store before the service: the update did not run; a record the outbox
wrote before stays in the store for the next start).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["FailedUpdate", "FlushResult", "SavedUpdate"]

FailureOutcome = Literal["requeued", "dead_letter", "lost", "store_closed"]


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


@dataclass(frozen=True, slots=True)
class SavedUpdate:
    """The newest update that changed one user's memory (the ``memory saved`` log line).

    ``MemoryService.last_saved_update`` returns it and the inject node's
    ``memory_injection`` stream event lists it as ``last_update`` (a JSON
    object with these fields), so a client watching a run sees what the
    previous turns taught and what the memory model spent on it.

    Attributes:
        user_id, agent_name, thread_id: whose memory, and the thread it came from.
        revision: the document's revision after the save.
        facts_added, facts_removed: over every chunk of the update.
        model_input_tokens, model_output_tokens: what the memory model reported
            (LangChain ``usage_metadata``); 0 for the offline extractor.
        saved_at: when the update finished (seconds since the epoch).
        tenant_id: the tenant (None = no tenant).
    """

    user_id: str
    agent_name: str | None
    thread_id: str
    revision: int | None
    facts_added: int
    facts_removed: int
    model_input_tokens: int
    model_output_tokens: int
    saved_at: float
    tenant_id: str | None = None

    def as_event(self) -> dict[str, object]:
        """The JSON object the stream events carry."""
        return {
            "user_id": self.user_id,
            "agent_name": self.agent_name,
            "thread_id": self.thread_id,
            "revision": self.revision,
            "facts_added": self.facts_added,
            "facts_removed": self.facts_removed,
            "model_input_tokens": self.model_input_tokens,
            "model_output_tokens": self.model_output_tokens,
            "saved_at": self.saved_at,
            "tenant_id": self.tenant_id,
        }
