"""``MemoryUpdater``: one queued conversation in, saved memory documents out.

Steps: filter the job's messages (cheap and idempotent) and skip turns without
a user and an assistant message; load the document; keep only the messages
after the thread's extraction watermark (stored in the document); skip the
model when the gate finds nothing about the user in them; pack the rest into
chunks within ``update_conversation_max_tokens`` (oldest first); per chunk,
extract (one model call), validate (:func:`~deerflow_memory.update.validate.validate_update`:
the same rules for every extractor; rejected parts are logged and listed in
:attr:`UpdateResult.rejected`), apply, advance the watermark and save with
``expected_revision`` — so the watermark moves only together with the memory
it produced. When another writer saved in between
(:class:`RevisionConflictError`), the document is reloaded and the *already
parsed* update is applied again — no second model call — up to
``config.max_update_retries`` saves.

Failure behaviour: a transient model failure that outlasted its retries
returns ``status=retry`` (with ``retry_after``) so the caller can requeue the
job; any other model error, an unparsable answer (after one retry) or a
storage error returns ``failed``. Chunks saved before the failure stay saved
(their watermark too), so a retry resends only what is left. Nothing is
raised into the queue. An update that changes no memory still saves the
watermark, so the same messages are never sent again.

Runs on the queue's worker threads: everything here is synchronous.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage

from deerflow_memory.arguments import expect, expect_extractor, wrong_type
from deerflow_memory.capture.gate import burst_needs_model
from deerflow_memory.capture.messages import filter_checked_messages, has_dialogue
from deerflow_memory.config import MemoryConfig
from deerflow_memory.daemons import signals_unheld
from deerflow_memory.errors import (
    ConfigError,
    CorruptMemoryError,
    ModelCallError,
    RevisionConflictError,
    StorageError,
    StoreClosedError,
    UpdateLockTimeoutError,
    UpdateParseError,
)
from deerflow_memory.logs import package_logger
from deerflow_memory.models import (
    MemoryDocument,
    MemoryUpdate,
    Rejection,
    parse_timestamp,
    utc_now_iso,
)
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.update.apply import apply_update_detailed
from deerflow_memory.update.extraction import (
    CountingExtractor,
    ExtractionRequest,
    Extractor,
    ModelUsage,
)
from deerflow_memory.update.hygiene import TidyResult, due_for_review, review_ids, tidy
from deerflow_memory.update.incremental import (
    Chunk,
    CountTokens,
    ExtractedKeys,
    Render,
    advance_watermark,
    cap_chunks,
    estimate_tokens,
    key_id,
    plan_chunks,
    render_message,
    select_new_indices,
    watermark_for,
    with_keys,
)
from deerflow_memory.update.llm import ModelExtractor, retry_policy
from deerflow_memory.update.merges import (
    MODEL_MERGE_FLOOR,
    IsConstraint,
    flagged_constraint,
    screen_merges,
)
from deerflow_memory.update.prompt import format_conversation_for_update
from deerflow_memory.update.queue import UpdateJob
from deerflow_memory.update.retry import TransientModelError
from deerflow_memory.update.sealing import fenced_keys
from deerflow_memory.update.similarity import DocumentEmbedder, SimilarityFactory
from deerflow_memory.update.validate import UpdateLimits, clean_text, validate_update

__all__ = [
    "WITHDRAWN",
    "MemoryUpdater",
    "UpdateResult",
    "UpdateStatus",
    "failure_result",
    "job_label",
]

logger = package_logger(__name__)

_NO_USAGE = ModelUsage()

WITHDRAWN = "withdrawn"
"""``UpdateResult.reason`` of an update whose job was withdrawn (see ``MemoryUpdater.update``)."""


class UpdateStatus(StrEnum):
    """How one update ended."""

    SAVED = "saved"
    SKIPPED = "skipped"
    RETRY = "retry"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class UpdateResult:
    """Outcome of :meth:`MemoryUpdater.update`.

    Attributes:
        status: saved (memory changed), skipped (nothing to learn; the watermark
            may still have been saved), retry (transient model failure: requeue
            the job), failed (give up: dead-letter the job).
        revision: revision of the document after the update.
        facts_added, facts_removed: over every chunk.
        error: ``"<ErrorType>: message"`` when retry or failed.
        reason: why it was skipped (``gate``, ``already extracted``, ``noop``, ...).
        attempts: saves tried for the last chunk.
        calls: model calls made (chunks sent).
        retry_after: seconds the server asked to wait (retry only).
        model_input_tokens, model_output_tokens: what the memory model reported
            for the calls of this update (``usage_metadata``; 0 offline).
        deferred: chunks over ``max_model_calls_per_update`` left for a later
            update (not in the watermark; the service queues that update itself).
        store_closed: failed because the store was closed (retry or dead letter
            cannot work: the service counts it for its shutdown report).
        completed: keys (``message_key``) of the messages whose extraction this
            update saved in the watermark, in order: every chunk's that was
            saved, also when a later chunk failed or was deferred (a dead
            letter's retry keeps only the others).
    """

    status: UpdateStatus
    revision: int | None = None
    facts_added: int = 0
    facts_removed: int = 0
    error: str | None = None
    reason: str = ""
    attempts: int = 0
    calls: int = 0
    retry_after: float | None = None
    rejected: tuple[Rejection, ...] = ()
    """Parts of the proposed update that were not applied, each with its reason."""
    model_input_tokens: int = 0
    model_output_tokens: int = 0
    deferred: int = 0
    store_closed: bool = False
    completed: tuple[str, ...] = ()


def job_label(job: UpdateJob) -> str:
    """``user=alice agent=- thread=t1``: a job in a log line, as "memory saved" names it."""
    return f"user={job.user_id} agent={job.agent_name or '-'} thread={job.thread_id}"


def _cut_message(job: UpdateJob, chunk: Chunk, max_calls: int) -> Rejection:
    """Say (log and ``UpdateResult.rejected``) that a huge message was cut, never silently."""
    key = key_id(chunk.completes[-1]) if chunk.completes else "?"
    reason = (
        f"{chunk.cut_chars} characters at its end were not sent: the message needs more "
        f"than max_model_calls_per_update={max_calls} calls"
    )
    logger.warning("memory update for %s: message %s cut, %s", job_label(job), key, reason)
    return Rejection(item=f"message {key}", reason=reason)


_FUNCTION_ARGUMENTS = ("now", "count_tokens", "render", "is_constraint")


class MemoryUpdater:
    """Turns queued conversations into saved memory; the queue's handler.

    Args:
        storage: where documents are loaded from and saved to.
        extractor: an :class:`Extractor`, or a chat model (wrapped in :class:`ModelExtractor`).
        config: limits (``max_facts``, ``fact_confidence_threshold``,
            ``guaranteed_categories``, ``max_update_retries``, the update
            budgets, ``update_gate``); defaults otherwise.
        now: timestamp source for ``createdAt``/``updatedAt`` (injectable for tests).
        count_tokens: token counter for the conversation budget (default: a
            cautious estimate; the service passes its configured counter).
        render: how one message is shown in the prompt; budgets count this text.
        embedder: vectors for consolidating near-duplicate facts (else lexical similarity).
        is_constraint: whether a stored fact is a constraint, so that the model's merges
            never fold one into a fact that is not (default: the fact's ``constraint``
            flag; the service passes :func:`~deerflow_memory.inject.constraints.is_constraint`,
            which reads the wording too).

    Raises:
        InvalidArgumentError: ``storage`` or ``extractor`` has the wrong type,
            ``embedder`` has no ``embed_documents``, or ``now``, ``count_tokens``,
            ``render`` or ``is_constraint`` is not callable.
        ConfigError: ``config`` is not a :class:`MemoryConfig` (or None).

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
        count_tokens: CountTokens = estimate_tokens,
        render: Render = render_message,
        is_constraint: IsConstraint = flagged_constraint,
    ) -> None:
        expect(storage, MemoryStorage, "storage", "a MemoryStorage")
        expect(config, MemoryConfig, "config", "a MemoryConfig", ConfigError, optional=True)
        expect_extractor(extractor)
        if embedder is not None and not callable(getattr(embedder, "embed_documents", None)):
            wrong_type("embedder", "an embedder (with embed_documents) or None", embedder)
        functions = (now, count_tokens, render, is_constraint)
        for name, function in zip(_FUNCTION_ARGUMENTS, functions, strict=True):
            if not callable(function):
                wrong_type(name, "a function", function)
        self.storage = storage
        self.config = config if config is not None else MemoryConfig()
        if isinstance(extractor, BaseChatModel):
            extractor = ModelExtractor(
                extractor,
                structured_output=self.config.structured_output,
                retry=retry_policy(self.config),
                memory_max_tokens=self.config.update_memory_max_tokens,
                count_tokens=count_tokens,
                call_timeout=self.config.model_timeout_seconds,
            )
        self.extractor: Extractor = extractor
        # Context an extractor asks for besides the configured (the offline one reads the
        # user's last message for what the next adds to: OfflineExtractor.context_wanted)
        wanted = getattr(extractor, "context_wanted", 0)
        self._context_wanted = wanted if type(wanted) is int and 0 <= wanted <= 10 else 0
        self._now = now
        self._count = count_tokens
        self._render = render
        # Consolidation similarity: cosine of the embedder's vectors when given, else lexical.
        self._similarity = SimilarityFactory(embedder)
        self._is_constraint = is_constraint

    def __call__(self, job: UpdateJob) -> UpdateResult:
        """Same as :meth:`update`, so the updater can be the queue's handler."""
        return self.update(job)

    def update(
        self,
        job: UpdateJob,
        *,
        incremental: bool = True,
        withdrawn: Callable[[], bool] | None = None,
    ) -> UpdateResult:
        """Extract, apply and save the memory update of one queued conversation.

        Args:
            job: the conversation and its key.
            incremental: send only messages after the thread's watermark; False
                sends all of ``job.messages`` (a dead letter's, known missing).
            withdrawn: asked under the update lock, before the document is
                loaded; True: the job is no longer wanted (a dead letter's,
                removed meanwhile: its memory was cleared), so nothing is sent
                or saved (``skipped``, reason ``withdrawn``).

        Holds the storage's update lock of ``(user_id, agent_name)`` from load
        to save, so updates of one user in several processes wait for each
        other; a lock not had within ``update_lock_timeout_seconds`` fails the
        update (the service requeues or dead-letters it).

        Never raises: failures are logged and returned as ``retry`` or ``failed``.
        """
        messages, keys = with_keys(filter_checked_messages(job.messages))
        if not has_dialogue(messages):
            return UpdateResult(UpdateStatus.SKIPPED, reason="no user and assistant message")
        timeout = self.config.update_lock_timeout_seconds
        try:
            with self.storage.update_lock(job.user_id, job.agent_name, timeout):
                # Under the lock a delete takes too: one that ran before is seen here.
                if withdrawn is not None and withdrawn():
                    return UpdateResult(UpdateStatus.SKIPPED, reason=WITHDRAWN)
                return self._update_locked(job, messages, keys, incremental)
        except UpdateLockTimeoutError as e:
            return self._failed(job, "waiting for the update lock", e, traceback=False)
        except StorageError as e:
            return self._failed(job, "taking the update lock", e)
        except BaseException as e:  # app code's SystemExit, CancelledError (see _fails_update)
            if not _fails_update(e):
                raise
            return self._failed(job, "running the update", e)

    def _update_locked(
        self, job: UpdateJob, messages: list[BaseMessage], keys: list[str], incremental: bool
    ) -> UpdateResult:
        user_id, agent_name = job.user_id, job.agent_name
        try:
            document = self.storage.load(user_id, agent_name)
        except Exception as e:
            return self._failed(job, "loading memory", e)
        config = self.config
        thread_id = clean_text(job.thread_id) or "unknown"
        mark = watermark_for(document, thread_id)
        try:  # what a delete fenced of this thread (sealed): never learned again
            fenced = fenced_keys(self.storage, document, thread_id)
        except Exception as e:
            return self._failed(job, "reading the fence key", e)
        if incremental:
            before, after = select_new_indices(
                messages,
                mark,
                context_messages=max(config.update_context_messages, self._context_wanted),
                fenced=fenced,
                keys=keys,
            )
        else:  # a dead letter's messages: all missing, except those known extracted since
            extracted = ExtractedKeys(mark.message_keys if mark else (), fenced)
            # ...and those a delete fenced (one by one; a whole run of a full fence stands
            # for the older messages before it: a fence keeps a thread's newest keys only).
            _, unfenced = select_new_indices(messages, None, fenced=fenced, keys=keys)
            before = []
            after = [i for i in unfenced if not extracted.has(messages[i], keys[i])]
        context = [messages[i] for i in before]
        new = [messages[i] for i in after]
        new_keys = [keys[i] for i in after]
        if not new:
            return UpdateResult(
                UpdateStatus.SKIPPED, revision=document.revision, reason="already extracted"
            )
        now = self._now()
        review = due_for_review(
            document,
            parse_timestamp(now) or 0.0,
            age_days=config.staleness_age_days,
            min_due=config.staleness_min_due,
            protected_categories=config.guaranteed_categories,
        )
        # Facts due for review make a call worth it even when the burst teaches nothing.
        if (
            config.update_gate
            and not review
            and not burst_needs_model(
                new,
                context=context,
                correction=job.correction_detected,
                reinforcement=job.reinforcement_detected,
            )
        ):
            done = tuple(new_keys)
            # The empty update still runs the tidy step (expiry) and saves the watermark.
            outcome = self._save(job, document, MemoryUpdate(), done)
            if outcome.status in (UpdateStatus.FAILED, UpdateStatus.RETRY):
                return outcome
            return replace(outcome, reason="gate", calls=0, completed=done)
        budget = config.update_conversation_max_tokens
        shown_context = self._fit_context(context, budget)
        chunk_budget = budget - self._context_tokens(shown_context)
        max_calls = config.max_model_calls_per_update
        chunks, deferred = cap_chunks(
            plan_chunks(
                new,
                chunk_budget,
                render=self._render,
                count_tokens=self._count,
                max_parts=max_calls,
                keys=new_keys,
            ),
            max_calls,
        )
        if deferred:
            logger.info(
                "memory update for %s: %d chunk(s) over max_model_calls_per_update=%d go "
                "with a later update",
                job_label(job),
                deferred,
                max_calls,
            )
        added = removed = calls = 0
        spent = ModelUsage()  # over every call of this update
        changed = False
        rejected: list[Rejection] = []
        completed: list[str] = []  # keys of the chunks saved so far
        outcome = UpdateResult(UpdateStatus.SKIPPED, revision=document.revision)
        for chunk in chunks:
            update: MemoryUpdate | None = None
            if chunk.cut_chars:
                rejected.append(_cut_message(job, chunk, max_calls))
            used = ModelUsage()
            if chunk.messages:
                request = ExtractionRequest(
                    document=document,
                    messages=chunk.messages,
                    thread_id=job.thread_id,
                    correction_detected=job.correction_detected,
                    reinforcement_detected=job.reinforcement_detected,
                    context_messages=shown_context,
                    review=review,
                    today=now[:10],
                    is_constraint=self._is_constraint,
                )
                calls += 1
                try:
                    update, used = self._extract(request)
                except TransientModelError as e:
                    self._log(job, "calling the model", e, traceback=False)
                    return self._partial(
                        outcome, added, removed, calls, e, UpdateStatus.RETRY, spent, completed
                    )
                except (ModelCallError, UpdateParseError) as e:
                    self._log(job, "extracting the update", e, traceback=False)
                    return self._partial(
                        outcome, added, removed, calls, e, UpdateStatus.FAILED, spent, completed
                    )
                except BaseException as e:  # any error of the model's own types
                    if not _fails_update(e):
                        raise
                    self._log(job, "extracting the update", e)
                    return self._partial(
                        outcome, added, removed, calls, e, UpdateStatus.FAILED, spent, completed
                    )
                spent = spent + used
                update = validate_update(update, UpdateLimits.from_config(config))
                update = self._screen_merges(document, update)
                rejected.extend(update.rejected)
                # Candidates the judge dropped are routine (counted in hygiene), not warnings.
                invalid = [r for r in update.rejected if not r.reason.startswith("judge:")]
                if invalid:
                    logger.warning(
                        "memory update for %s: %d proposed part(s) rejected: %s",
                        job_label(job),
                        len(invalid),
                        "; ".join(f"{r.item}: {r.reason}" for r in invalid[:5]),
                    )
            outcome = self._save(job, document, update, chunk.completes, review_ids(review), used)
            review = ()  # reviewed facts are offered to the first call only
            if outcome.status in (UpdateStatus.FAILED, UpdateStatus.RETRY):
                return replace(
                    outcome,
                    facts_added=added,
                    facts_removed=removed,
                    calls=calls,
                    model_input_tokens=spent.input_tokens,
                    model_output_tokens=spent.output_tokens,
                    completed=tuple(completed),
                )
            completed += chunk.completes
            added += outcome.facts_added
            removed += outcome.facts_removed
            changed = changed or outcome.status is UpdateStatus.SAVED
            try:
                document = self.storage.load(user_id, agent_name)
            except Exception as e:
                return self._failed(job, "reloading memory", e)
            shown_context = ()  # the next chunk follows this one directly
        return replace(
            outcome,
            status=UpdateStatus.SAVED if changed else UpdateStatus.SKIPPED,
            facts_added=added,
            facts_removed=removed,
            calls=calls,
            reason="" if changed else "noop",
            rejected=tuple(rejected),
            model_input_tokens=spent.input_tokens,
            model_output_tokens=spent.output_tokens,
            deferred=deferred,
            completed=tuple(completed),
        )

    def _extract(self, request: ExtractionRequest) -> tuple[MemoryUpdate, ModelUsage]:
        """The extractor's update and what its model calls cost (0 when it does not say)."""
        with signals_unheld():  # app code: a process it starts must not inherit held signals
            if isinstance(self.extractor, CountingExtractor):
                return self.extractor.extract_counted(request)
            return self.extractor.extract(request), ModelUsage()

    def _fit_context(self, context: Sequence[BaseMessage], budget: int) -> tuple[BaseMessage, ...]:
        # Context helps the model only while it is cheap: at most a quarter of the budget.
        if context and self._context_tokens(context) > budget // 4:
            return ()
        return tuple(context)

    def _context_tokens(self, context: Sequence[BaseMessage]) -> int:
        if not context:
            return 0
        return self._count(format_conversation_for_update(context, max_chars=500)) + 40

    def _partial(
        self,
        outcome: UpdateResult,
        added: int,
        removed: int,
        calls: int,
        error: BaseException,
        status: UpdateStatus,
        spent: ModelUsage,
        completed: list[str],
    ) -> UpdateResult:
        retry_after = error.retry_after if isinstance(error, TransientModelError) else None
        return UpdateResult(
            status,
            revision=outcome.revision,
            facts_added=added,
            facts_removed=removed,
            error=f"{type(error).__name__}: {error}",
            calls=calls,
            retry_after=retry_after,
            model_input_tokens=spent.input_tokens,
            model_output_tokens=spent.output_tokens,
            completed=tuple(completed),
        )

    def _screen_merges(self, document: MemoryDocument, update: MemoryUpdate) -> MemoryUpdate:
        """``update`` without the model's merges of facts that are not one (see :mod:`.merges`)."""
        if not update.facts_to_merge:
            return update
        return screen_merges(
            update,
            document.facts,
            similarity=self._similarity.for_facts(
                document.facts, self.config.consolidation_embedding_threshold
            ),
            floor=min(self.config.consolidation_threshold, MODEL_MERGE_FLOOR),
            is_constraint=self._is_constraint,
            constraint_floor=self.config.consolidation_threshold,
        )

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
            is_constraint=self._is_constraint,
            constraint_floor=self.config.consolidation_threshold,
        )

    def _save(
        self,
        job: UpdateJob,
        document: MemoryDocument,
        update: MemoryUpdate | None,
        done_keys: Sequence[str],
        reviewed: frozenset[str] = frozenset(),
        usage: ModelUsage = _NO_USAGE,
    ) -> UpdateResult:
        """Apply ``update`` (None: only the watermark), tidy, advance the watermark, save.

        ``usage`` is what the model call behind ``update`` cost (for the log line).
        """
        config = self.config
        tries = config.max_update_retries
        for attempt in range(1, tries + 1):
            now = self._now()
            changed, facts_added, facts_removed = False, 0, 0
            new_document = document
            if update is not None:
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
                if result.skipped_deleted:  # said again, but the user deleted it: say so
                    logger.info(
                        "memory: user=%s agent=%s thread=%s: %d fact(s) not learned again, the "
                        "user deleted them (add one back by hand if it is true again)",
                        job.user_id,
                        job.agent_name or "-",
                        job.thread_id,
                        result.skipped_deleted,
                    )
                tidied = self._tidy(result.document, update, now, reviewed, result.added_ids)
                changed = result.changed or tidied.changed
                facts_added, facts_removed = result.facts_added, result.facts_removed
                if changed:
                    new_document = tidied.document
            new_document = advance_watermark(
                new_document, clean_text(job.thread_id) or "unknown", done_keys, now
            )
            if new_document is document:
                return UpdateResult(UpdateStatus.SKIPPED, revision=document.revision)
            if not changed:  # only the watermark moved: a user's edit need not reload
                new_document = document.bookkeeping_save(new_document)
            try:
                saved = self.storage.save(
                    job.user_id,
                    job.agent_name,
                    new_document,
                    expected_revision=document.revision,
                )
            except RevisionConflictError:
                logger.debug("revision moved for %s; re-applying (try %d)", job_label(job), attempt)
                try:
                    document = self.storage.load(job.user_id, job.agent_name)
                except Exception as e:
                    return self._failed(job, "reloading memory", e)
                continue
            except Exception as e:
                return self._failed(job, "saving memory", e)
            if changed:  # one INFO line per saved update: memory visibly working in a server log
                logger.info(
                    "memory saved: user=%s agent=%s thread=%s facts_added=%d facts_removed=%d "
                    "revision=%d model_input_tokens=%d model_output_tokens=%d",
                    job.user_id,
                    job.agent_name or "-",
                    job.thread_id,
                    facts_added,
                    facts_removed,
                    saved.revision,
                    usage.input_tokens,
                    usage.output_tokens,
                )
            return UpdateResult(
                UpdateStatus.SAVED if changed else UpdateStatus.SKIPPED,
                revision=saved.revision,
                facts_added=facts_added,
                facts_removed=facts_removed,
                attempts=attempt,
                reason="" if changed else "nothing new",
            )
        logger.warning(
            "memory update for %s failed: the document kept changing (%d tries)",
            job_label(job),
            tries,
        )
        return UpdateResult(
            UpdateStatus.FAILED,
            error=f"RevisionConflictError: document kept changing ({tries} tries)",
            attempts=tries,
        )

    def _log(
        self,
        job: UpdateJob,
        step: str,
        error: BaseException,
        *,
        traceback: bool = True,
    ) -> None:
        # Expected failures (model down, bad answer) get one line; surprises get a traceback.
        # Only the store backend raises StoreClosedError (a model client whose event loop
        # ended says "Event loop is closed" too, and must be heard).
        if isinstance(error, StoreClosedError):  # the service's close reports it
            logger.debug(
                "memory update for %s stopped while %s: the store is closed",
                job_label(job),
                step,
                exc_info=error,
            )
            return
        logger.warning(
            "memory update for %s failed while %s: %s",
            job_label(job),
            step,
            error,
            exc_info=error if traceback else None,
        )

    def _failed(
        self, job: UpdateJob, step: str, error: BaseException, *, traceback: bool = True
    ) -> UpdateResult:
        self._log(job, step, error, traceback=traceback)
        return failure_result(error)


def failure_result(error: BaseException) -> UpdateResult:
    """The result of an update that ``error`` ended: retry for an ``OSError``, else failed.

    An ``OSError`` (storage down or full, a lock folder that cannot be made)
    is worth another try later; a corrupt document or any other error is not.
    A :class:`StoreClosedError` (only the store backend raises it) sets
    ``store_closed``: neither a retry nor a dead letter can be written.
    """
    status = UpdateStatus.FAILED
    if isinstance(error, OSError) and not isinstance(error, CorruptMemoryError):
        status = UpdateStatus.RETRY
    closed = isinstance(error, StoreClosedError)
    return UpdateResult(status, error=f"{type(error).__name__}: {error}", store_closed=closed)


def _fails_update(error: BaseException) -> bool:
    """Whether ``error`` makes the update fail (kept as a dead letter) rather than propagate.

    Every ``Exception`` does, and so do the other ``BaseException`` kinds app code
    raises from a model or an embedder (``SystemExit``, ``asyncio.CancelledError``,
    ``GeneratorExit``): on the queue's worker threads nothing else would catch them,
    and the job's words would be gone with the thread. A ``KeyboardInterrupt`` or
    ``SystemExit`` on the main thread (Ctrl-C during ``deerflow-memory retry``) is
    the person stopping the program, and propagates.
    """
    if isinstance(error, Exception):
        return True
    stopping = isinstance(error, KeyboardInterrupt | SystemExit)
    return not (stopping and threading.current_thread() is threading.main_thread())
