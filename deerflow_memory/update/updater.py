"""``MemoryUpdater``: one queued conversation in, one saved memory document out.

Steps: filter the job's messages (cheap and idempotent) and skip turns without
a user and an assistant message; load the document; extract the update (one
model call); validate it (:func:`~deerflow_memory.update.validate.validate_update`:
the same rules for every extractor; rejected parts are logged and listed in
:attr:`UpdateResult.rejected`); apply it; save with ``expected_revision``. When another writer
saved in between (:class:`RevisionConflictError`), the document is reloaded and
the *already parsed* update is applied again — no second model call — up to
``config.max_update_retries`` saves.

Failure behaviour: a model error, an unparsable answer or a storage error is
logged and returned as a ``failed`` :class:`UpdateResult`; the stored memory
is left exactly as it was and nothing is raised into the queue. An update
that changes nothing is not saved.

Runs on the queue's worker threads: everything here is synchronous.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage

from deerflow_memory.capture.messages import filter_messages_for_memory, has_minimum_dialogue
from deerflow_memory.config import MemoryConfig
from deerflow_memory.errors import (
    ModelCallError,
    RevisionConflictError,
    StorageError,
    UpdateLockTimeoutError,
    UpdateParseError,
)
from deerflow_memory.models import (
    MemoryDocument,
    MemoryUpdate,
    Rejection,
    parse_timestamp,
    utc_now_iso,
)
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.update.apply import apply_update_detailed
from deerflow_memory.update.extraction import ExtractionRequest, Extractor
from deerflow_memory.update.hygiene import TidyResult, due_for_review, review_ids, tidy
from deerflow_memory.update.llm import ModelExtractor
from deerflow_memory.update.queue import UpdateJob
from deerflow_memory.update.similarity import DocumentEmbedder, SimilarityFactory
from deerflow_memory.update.validate import UpdateLimits, clean_text, validate_update

__all__ = ["MemoryUpdater", "UpdateResult", "UpdateStatus"]

logger = logging.getLogger(__name__)


class UpdateStatus(StrEnum):
    """How one update ended."""

    SAVED = "saved"
    SKIPPED = "skipped"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class UpdateResult:
    """Outcome of :meth:`MemoryUpdater.update`."""

    status: UpdateStatus
    revision: int | None = None
    facts_added: int = 0
    facts_removed: int = 0
    error: str | None = None
    reason: str = ""
    attempts: int = 0
    rejected: tuple[Rejection, ...] = ()
    """Parts of the proposed update that were not applied, each with its reason."""


class MemoryUpdater:
    """Turns queued conversations into saved memory; the queue's handler.

    Args:
        storage: where documents are loaded from and saved to.
        extractor: an :class:`Extractor`, or a chat model (wrapped in :class:`ModelExtractor`).
        config: limits (``max_facts``, ``fact_confidence_threshold``,
            ``guaranteed_categories``, ``max_update_retries``); defaults otherwise.
        now: timestamp source for ``createdAt``/``updatedAt`` (injectable for tests).

    Example:
        >>> updater = MemoryUpdater(FileMemoryStorage(root), OfflineExtractor())
        >>> queue = MemoryUpdateQueue(updater)
    """

    def __init__(
        self,
        storage: MemoryStorage,
        extractor: Extractor | BaseChatModel,
        config: MemoryConfig | None = None,
        *,
        now: Callable[[], str] = utc_now_iso,
        embedder: DocumentEmbedder | None = None,
    ) -> None:
        self.storage = storage
        self.extractor: Extractor = (
            ModelExtractor(extractor) if isinstance(extractor, BaseChatModel) else extractor
        )
        self.config = config if config is not None else MemoryConfig()
        self._now = now
        # Consolidation similarity: cosine of the embedder's vectors when given, else lexical.
        self._similarity = SimilarityFactory(embedder)

    def __call__(self, job: UpdateJob) -> UpdateResult:
        """Same as :meth:`update`, so the updater can be the queue's handler."""
        return self.update(job)

    def update(self, job: UpdateJob) -> UpdateResult:
        """Extract, apply and save the memory update of one queued conversation.

        Holds the storage's update lock of ``(user_id, agent_name)`` from load
        to save, so updates of one user in several processes wait for each
        other; a lock not had within ``update_lock_timeout_seconds`` fails the
        update (the service dead-letters it).

        Never raises: failures are logged and returned as ``status=failed``.
        """
        messages = filter_messages_for_memory(job.messages)
        if not has_minimum_dialogue(messages):
            return UpdateResult(UpdateStatus.SKIPPED, reason="no user and assistant message")
        timeout = self.config.update_lock_timeout_seconds
        try:
            with self.storage.update_lock(job.user_id, job.agent_name, timeout):
                return self._update_locked(job, messages)
        except UpdateLockTimeoutError as e:
            return self._failed(job, "waiting for the update lock", e, traceback=False)
        except StorageError as e:
            return self._failed(job, "taking the update lock", e)

    def _update_locked(self, job: UpdateJob, messages: list[BaseMessage]) -> UpdateResult:
        user_id, agent_name = job.user_id, job.agent_name
        try:
            document = self.storage.load(user_id, agent_name)
        except Exception as e:
            return self._failed(job, "loading memory", e)
        now = self._now()
        review = due_for_review(
            document,
            parse_timestamp(now) or 0.0,
            age_days=self.config.staleness_age_days,
            min_due=self.config.staleness_min_due,
            protected_categories=self.config.guaranteed_categories,
        )
        request = ExtractionRequest(
            document=document,
            messages=messages,
            thread_id=job.thread_id,
            correction_detected=job.correction_detected,
            reinforcement_detected=job.reinforcement_detected,
            review=review,
            today=now[:10],
        )
        try:
            update = self.extractor.extract(request)
        except (ModelCallError, UpdateParseError) as e:
            return self._failed(job, "extracting the update", e, traceback=False)
        except Exception as e:
            return self._failed(job, "extracting the update", e)
        update = validate_update(update, UpdateLimits.from_config(self.config))
        # Candidates the judge dropped are routine (counted in hygiene), not warnings.
        invalid = [r for r in update.rejected if not r.reason.startswith("judge:")]
        if invalid:
            logger.warning(
                "memory update for %s: %d proposed part(s) rejected: %s",
                job.key,
                len(invalid),
                "; ".join(f"{r.item}: {r.reason}" for r in invalid[:5]),
            )
        reviewed = review_ids(review)
        if update.is_noop() and not self._tidy(document, update, now, reviewed).changed:
            return UpdateResult(
                UpdateStatus.SKIPPED,
                revision=document.revision,
                reason="noop",
                rejected=update.rejected,
            )
        return self._save(job, document, update, reviewed)

    def _tidy(
        self,
        document: MemoryDocument,
        update: MemoryUpdate,
        now: str,
        reviewed: frozenset[str],
        touched: tuple[str, ...] = (),
    ) -> TidyResult:
        """Confirmations, expiry and merges after the update (see :mod:`.hygiene`)."""
        embedding = self._similarity.for_facts(
            document.facts, self.config.consolidation_embedding_threshold
        )
        return tidy(
            document,
            now=now,
            update=update,
            reviewed=reviewed,
            threshold=self.config.consolidation_threshold,
            similarity=embedding,
            touched=touched,
            max_superseded_facts=self.config.max_superseded_facts,
        )

    def _save(
        self,
        job: UpdateJob,
        document: MemoryDocument,
        update: MemoryUpdate,
        reviewed: frozenset[str] = frozenset(),
    ) -> UpdateResult:
        config = self.config
        tries = config.max_update_retries
        for attempt in range(1, tries + 1):
            now = self._now()
            result = apply_update_detailed(
                document,
                update,
                # Stored as each new fact's source: no NUL or control character
                # (PostgreSQL refuses NUL in text and would fail the whole save).
                thread_id=clean_text(job.thread_id) or "unknown",
                now=now,
                max_facts=config.max_facts,
                fact_confidence_threshold=config.fact_confidence_threshold,
                guaranteed_categories=config.guaranteed_categories,
                max_superseded_facts=config.max_superseded_facts,
                max_evictions=config.max_new_facts_per_update,
            )
            tidied = self._tidy(result.document, update, now, reviewed, result.added_ids)
            if not result.changed and not tidied.changed:
                return UpdateResult(
                    UpdateStatus.SKIPPED,
                    revision=document.revision,
                    reason="nothing new",
                    attempts=attempt,
                    rejected=update.rejected,
                )
            try:
                saved = self.storage.save(
                    job.user_id,
                    job.agent_name,
                    tidied.document,
                    expected_revision=document.revision,
                )
            except RevisionConflictError:
                logger.debug("revision moved for %s; re-applying (try %d)", job.key, attempt)
                try:
                    document = self.storage.load(job.user_id, job.agent_name)
                except Exception as e:
                    return self._failed(job, "reloading memory", e)
                continue
            except Exception as e:
                return self._failed(job, "saving memory", e)
            return UpdateResult(
                UpdateStatus.SAVED,
                revision=saved.revision,
                facts_added=result.facts_added,
                facts_removed=result.facts_removed,
                attempts=attempt,
                rejected=update.rejected,
            )
        logger.warning(
            "memory update for %s dropped: the document kept changing (%d tries)", job.key, tries
        )
        return UpdateResult(
            UpdateStatus.FAILED,
            error=f"RevisionConflictError: document kept changing ({tries} tries)",
            attempts=tries,
        )

    def _failed(
        self, job: UpdateJob, step: str, error: Exception, *, traceback: bool = True
    ) -> UpdateResult:
        # Expected failures (model down, bad answer) get one line; surprises get a traceback.
        logger.warning(
            "memory update for %s failed while %s: %s",
            job.key,
            step,
            error,
            exc_info=error if traceback else None,
        )
        return UpdateResult(UpdateStatus.FAILED, error=f"{type(error).__name__}: {error}")
