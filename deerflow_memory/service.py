"""``MemoryService``: the one object the memory nodes share.

It is built in one visible place from a :class:`MemoryConfig` (or from parts
you pass in) and holds the storage, the signal detector, the token counter,
the update queue and the updater the queue's worker threads call. Nodes get it
as an argument; there is no module-level singleton.

With ``storage="store"`` the storage is the graph's runtime store
(``runtime.store``, e.g. the one ``langgraph dev`` provides); it is bound the
first time a node runs, and a different store showing up later is an error.

Failure behaviour: a failing update never reaches the agent's turn; it is
logged and kept as a dead letter. With ``outbox`` on (default, file and
database backends) every captured turn is recorded durably within
``outbox_commit_interval_ms`` and a new service on the same storage runs what
a stopped process left pending. ``close()`` (or leaving the ``with`` block, or
interpreter exit) flushes pending updates for up to
``shutdown_flush_timeout_seconds``; the rest stays in the outbox.
"""

from __future__ import annotations

import atexit
import logging
import threading
import time
import weakref
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from langchain_core.messages import BaseMessage

from deerflow_memory.capture.signals import SignalDetector, Signals
from deerflow_memory.config import MemoryConfig, load_config
from deerflow_memory.embeddings.keeper import VectorKeeper, store_semantic_scores
from deerflow_memory.errors import ConfigError
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.inject.constraints import is_constraint
from deerflow_memory.inject.format import InjectionResult, build_memory_context, render_memory
from deerflow_memory.inject.live import live_document
from deerflow_memory.inject.retrieval import Embedder, filter_document, select_relevant_facts
from deerflow_memory.inject.tokens import TokenCounter, get_token_counter
from deerflow_memory.models import Fact, MemoryDocument
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.storage.dead_letters import DeadLetter, dead_letter_id
from deerflow_memory.storage.outbox import Outbox
from deerflow_memory.update.dead_letter import RetriedLetter, dead_letter_for, retry_dead_letters
from deerflow_memory.update.durable import DurableUpdates, decode_messages, encode_messages
from deerflow_memory.update.extraction import Extractor
from deerflow_memory.update.llm import retry_policy
from deerflow_memory.update.outcome import FailedUpdate, FailureOutcome, FlushResult
from deerflow_memory.update.queue import MemoryUpdateQueue, UpdateJob
from deerflow_memory.update.retry import RetryPolicy
from deerflow_memory.update.updater import MemoryUpdater, UpdateResult, UpdateStatus
from deerflow_memory.update.usage import AccessRecorder

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langgraph.store.base import BaseStore

__all__ = ["MemoryBlock", "MemoryService", "UpdateFailure", "close_open_services"]

logger = logging.getLogger(__name__)

RecalledFact = dict[str, Any]
"""One fact as the ``memory_recall_end`` event lists it (a JSON object)."""
_RECALL_CACHE_SIZE = 4096


@dataclass(frozen=True, slots=True)
class MemoryBlock:
    """One turn's memory context and the figures the inject node reports.

    Attributes:
        context: the ``<user_memory>`` block with its date reminder, ready for
            the system prompt; ``""`` when there is nothing to inject.
        revision: revision of the document it was rendered from.
        facts_injected: facts in the block.
        facts_total: facts in the stored document.
        tokens: tokens of the block (the configured counter).
        fact_ids: ids of the facts in the block, in the order of their lines.
        facts: the facts in the block, same order (for "I took into account
            that ..." in a UI).
        recalled: the same facts as the ``memory_recall_end`` event lists them
            (id, content, category, constraint); shared, do not mutate.
        guaranteed: facts in the block that are guaranteed (constraints and
            guaranteed categories), whatever the query.
        constraints: of those, the constraints (allergies, diet, medical and
            accessibility needs).
        candidates: facts ranked for relevance (relevant mode; 0 otherwise).
    """

    context: str
    revision: int
    facts_injected: int
    facts_total: int
    tokens: int
    fact_ids: tuple[str, ...] = ()
    facts: tuple[Fact, ...] = ()
    recalled: tuple[RecalledFact, ...] = ()
    guaranteed: int = 0
    constraints: int = 0
    candidates: int = 0


@dataclass(frozen=True, slots=True)
class UpdateFailure:
    """One memory update that failed, and when (``GET /memory/status`` lists the newest).

    Attributes:
        at: epoch seconds of the failure.
        update: the key, error, attempts and what became of the job.
    """

    at: float
    update: FailedUpdate


MAX_RECENT_FAILURES = 50


class MemoryService:
    """Storage, queue and updater of one memory configuration.

    Args:
        config: settings; default ``load_config()`` (YAML from
            ``$DEERFLOW_MEMORY_CONFIG`` and ``DEERFLOW_MEMORY_*`` variables).
        storage: where documents live; default built from ``config.storage``.
        model: chat model for memory updates; default from config, else the
            offline extractor.
        extractor: overrides ``model`` entirely (e.g. a custom extractor).
        embedder: embedding model (any LangChain ``Embeddings``) for
            ``injection_mode="relevant"``; default: lexical BM25 similarity.
        register_atexit: flush pending updates when the interpreter exits (or
            when :func:`close_open_services` runs).

    Example:
        >>> with MemoryService(load_config(storage_path="/tmp/mem")) as memory:
        ...     graph = create_memory_agent(service=memory)
    """

    def __init__(
        self,
        config: MemoryConfig | None = None,
        *,
        storage: MemoryStorage | None = None,
        model: BaseChatModel | None = None,
        extractor: Extractor | None = None,
        embedder: Embedder | None = None,
        register_atexit: bool = True,
    ) -> None:
        from deerflow_memory.update.llm import build_extractor

        self.config = config if config is not None else load_config()
        self._owns_storage = storage is None and self.config.storage != "store"
        self._storage: MemoryStorage | None = storage
        self._bound_store: BaseStore | None = None
        if self._owns_storage:
            from deerflow_memory.storage.factory import build_storage

            self._storage = build_storage(self.config)
        self.extractor: Extractor = extractor or build_extractor(self.config, model)
        self.embedder = embedder
        # Fact vectors are computed on the updater's threads when facts are written.
        self.vectors: VectorKeeper | None = VectorKeeper(embedder) if embedder is not None else None
        self.detector = SignalDetector.from_config(self.config)
        self.counter: TokenCounter = get_token_counter(
            self.config.token_counting, self.config.tiktoken_encoding
        )
        # The vocabulary loads on a background thread (~0.3-0.6 s); the first
        # turns meanwhile count with the estimate instead of waiting for it.
        warm = getattr(self.counter, "warm", None)
        if warm is not None:
            warm()
        self._updater: MemoryUpdater | None = None
        self._bind_lock = threading.Lock()
        self._retry_policy: RetryPolicy | None = None
        self._failures_lock = threading.Lock()
        self._failure_collectors: list[list[FailedUpdate]] = []
        self.durable: DurableUpdates | None = None
        outbox = self._build_outbox() if self.config.outbox else None
        if outbox is not None:
            self.durable = DurableUpdates(outbox, self._update, lambda: self.storage)
        self.queue = MemoryUpdateQueue(
            self._process,
            debounce_seconds=self.config.debounce_seconds,
            max_wait_seconds=self.config.max_wait_seconds,
            max_workers=self.config.max_workers,
            on_enqueue=self.durable.record if self.durable is not None else None,
        )
        # Use counts of injected facts, written in batches by a background thread.
        self.access = AccessRecorder(interval=self.config.access_flush_seconds)
        # (user, agent) -> the last render and what the recall event lists for it: while
        # memory is unchanged the render is the same object, so this is built once, not per turn.
        self._recalls: dict[
            tuple[str, str | None], tuple[object, tuple[Fact, ...], tuple[RecalledFact, ...]]
        ] = {}
        self._closed = False
        # The newest failed updates (bounded), for status pages; appended by worker threads.
        self.recent_failures: deque[UpdateFailure] = deque(maxlen=MAX_RECENT_FAILURES)
        if register_atexit:
            _OPEN_SERVICES.add(self)
        if self.durable is not None:
            # Whatever a stopped process left pending runs here, at its original due time.
            self.durable.restore(self.queue, self.durable.outbox.recover())
            self.durable.start_polling(self.queue, self.config.outbox_poll_seconds)

    # --- storage ------------------------------------------------------------

    def _build_outbox(self) -> Outbox | None:
        from deerflow_memory.storage.file import FileMemoryStorage

        interval = self.config.outbox_commit_interval_ms / 1000
        if isinstance(self._storage, FileMemoryStorage):
            from deerflow_memory.storage.outbox_file import FileOutbox

            return FileOutbox(
                self._storage.root, encode_messages, decode_messages, commit_interval=interval
            )
        from deerflow_memory.storage.store import StoreMemoryStorage

        if isinstance(self._storage, StoreMemoryStorage):
            from langgraph.store.memory import InMemoryStore

            if isinstance(self._storage.store, InMemoryStore):
                return None  # nothing durable to write to
            from deerflow_memory.storage.outbox_store import StoreOutbox

            return StoreOutbox(
                self._storage,
                encode_messages,
                decode_messages,
                lease_seconds=self.config.outbox_lease_seconds,
                commit_interval=interval,
            )
        return None

    @property
    def is_offline(self) -> bool:
        """True when updates come from the rule-based offline extractor, not a model."""
        from deerflow_memory.update.offline.extractor import OfflineExtractor

        return isinstance(self.extractor, OfflineExtractor)

    def storage_for(self, store: BaseStore | None = None) -> MemoryStorage:
        """The storage to use for a run whose runtime store is ``store``.

        Raises:
            ConfigError: ``storage="store"`` but the graph has no store, or a
                second, different store shows up.
        """
        if self._storage is not None and self._bound_store is None:
            return self._storage
        if store is None:
            if self._storage is not None:
                return self._storage
            raise ConfigError(
                "storage='store' needs the graph's store: compile the graph with store=... "
                "or run it under `langgraph dev`, or choose storage='file'"
            )
        with self._bind_lock:
            if self._bound_store is None:
                from deerflow_memory.storage.store import StoreMemoryStorage

                self._bound_store = store
                self._storage = StoreMemoryStorage(store)
            elif self._bound_store is not store:
                raise ConfigError(
                    "this MemoryService is bound to another store; use one MemoryService per store"
                )
        assert self._storage is not None
        return self._storage

    @property
    def storage(self) -> MemoryStorage:
        """The storage in use (bound on first use when ``storage="store"``)."""
        return self.storage_for(None)

    @property
    def updater(self) -> MemoryUpdater:
        """The updater the queue's workers call (created once the storage is known)."""
        if self._updater is None:
            self._updater = MemoryUpdater(
                self.storage,
                self.extractor,
                self.config,
                embedder=self.embedder,
                count_tokens=self.counter.count,
            )
        return self._updater

    # --- read path ----------------------------------------------------------

    def load(self, identity: MemoryIdentity, store: BaseStore | None = None) -> MemoryDocument:
        """Load the document of ``identity``."""
        _refuse_tenant(identity)
        return self.storage_for(store).load(identity.user_id, identity.agent_name)

    def memory_block(
        self,
        identity: MemoryIdentity,
        query: str = "",
        store: BaseStore | None = None,
        *,
        record_access: bool = True,
    ) -> MemoryBlock:
        """The memory context to put in front of the model for one turn of ``identity``.

        Loads the document, drops expired facts, keeps the guaranteed facts
        plus the facts relevant to ``query`` when ``injection_mode="relevant"``
        (every fact otherwise), and renders them within this configuration's
        token budgets. The ids injected are tallied for their use counts
        (written later by a background thread; nothing here waits on I/O).

        Args:
            identity: whose memory.
            query: the latest user message; used only in relevant mode.
            store: the graph's runtime store (for ``storage="store"``).
            record_access: count this as a use of the injected facts (False for previews).

        Raises:
            StorageError: the document cannot be read (corrupt, database down).
        """
        _refuse_tenant(identity)
        storage = self.storage_for(store)
        document = storage.load(identity.user_id, identity.agent_name)
        now = time.time()
        shown = live_document(document, now)
        candidates = 0
        if self.config.injection_mode == "relevant":
            semantic = None
            if self.vectors is not None:
                self.vectors.before_inject(storage, identity.user_id, identity.agent_name, shown)
            elif query.strip():
                semantic = store_semantic_scores(
                    storage,
                    identity.user_id,
                    identity.agent_name,
                    query,
                    self.config.retrieval.candidates,
                )
            selected = select_relevant_facts(
                shown,
                query,
                config=self.config.retrieval,
                guaranteed_categories=self.config.guaranteed_categories,
                embedder=self.embedder,
                semantic_scores=semantic,
            )
            shown = filter_document(shown, selected.facts)
            candidates = selected.candidates
        result = render_memory(
            shown,
            self.config.injected_memory_max_tokens,
            guaranteed_categories=self.config.guaranteed_categories,
            guaranteed_token_budget=self.config.guaranteed_token_budget,
            constraint_token_budget=self.config.constraint_token_budget,
            counter=self.counter,
        )
        if record_access and result.fact_ids:
            self.access.record(storage, identity.user_id, identity.agent_name, result.fact_ids, now)
        facts, recalled = self._recalled(identity, shown, result)
        return MemoryBlock(
            context=build_memory_context(result.text),
            revision=document.revision,
            facts_injected=result.facts_injected,
            facts_total=len(document.facts),
            tokens=result.tokens,
            fact_ids=result.fact_ids,
            facts=facts,
            recalled=recalled,
            guaranteed=result.guaranteed_injected,
            constraints=result.constraints_injected,
            candidates=candidates,
        )

    def _recalled(
        self, identity: MemoryIdentity, shown: MemoryDocument, result: InjectionResult
    ) -> tuple[tuple[Fact, ...], tuple[RecalledFact, ...]]:
        """Injected facts of ``result`` and their recall-event entries, built once per render."""
        key = (identity.user_id, identity.agent_name)
        cached = self._recalls.get(key)
        if cached is not None and cached[0] is result:
            return cached[1], cached[2]
        by_id = {f.id: f for f in shown.facts}
        facts = tuple(by_id[i] for i in result.fact_ids if i in by_id)
        recalled = tuple(
            {
                "id": f.id,
                "content": f.content,
                "category": f.category.value,
                "constraint": is_constraint(f),
            }
            for f in facts
        )
        if len(self._recalls) >= _RECALL_CACHE_SIZE:
            self._recalls.clear()  # crude bound; active users rebuild theirs on their next turn
        self._recalls[key] = (result, facts, recalled)
        return facts, recalled

    # --- write path ---------------------------------------------------------

    def enqueue(
        self,
        identity: MemoryIdentity,
        messages: Sequence[BaseMessage],
        *,
        recent: Sequence[BaseMessage] | None = None,
        now: bool = False,
    ) -> Signals:
        """Detect signals and queue a conversation for a debounced (or immediate) update.

        Args:
            identity: whose document, and the source thread.
            messages: the conversation; the updater filters it again on its
                worker thread, so raw state messages are fine.
            recent: the filtered latest messages to read signals from
                (default: ``messages``, which must then be filtered).
            now: run at once (the summarization hook) instead of debounced.

        Returns:
            The correction / reinforcement signals sent along.
        """
        _refuse_tenant(identity)
        signals = self.detector.detect(messages if recent is None else recent)
        add = self.queue.add_nowait if now else self.queue.add
        add(
            identity.thread_id,
            identity.user_id,
            identity.agent_name,
            tuple(messages),
            correction_detected=signals.correction,
            reinforcement_detected=signals.reinforcement,
        )
        return signals

    def _process(self, job: UpdateJob) -> UpdateResult:
        # Runs on a queue worker thread: only sync calls from here on.
        result = self.durable.run(job) if self.durable is not None else self._update(job)
        if result.status in (UpdateStatus.RETRY, UpdateStatus.FAILED):
            self._after_failure(job, result)
        return result

    def _update(self, job: UpdateJob) -> UpdateResult:
        result = self.updater.update(job)
        if self.vectors is not None and result.status is UpdateStatus.SAVED:
            # Still on the worker thread: new facts are embedded here, not on the next turn.
            self.vectors.after_update(self.storage, job.user_id, job.agent_name)
        return result

    def _after_failure(self, job: UpdateJob, result: UpdateResult) -> None:
        """Requeue a transient failure within its bounds, else write a dead letter."""
        policy = self.retry_policy
        attempts = job.attempts + 1
        error = result.error or "failed"
        now = time.time()
        first = job.first_failed_at if job.first_failed_at is not None else now
        if result.status is UpdateStatus.RETRY and not policy.gives_up(attempts, first, now):
            delay = policy.requeue_delay(attempts, result.retry_after)
            again = replace(job, attempts=attempts, first_failed_at=first)
            if self.queue.requeue(again, delay):
                if self.durable is not None:
                    self.durable.record(again, delay, False)
                logger.info(
                    "memory update for %s requeued (attempt %d) in %.0f s: %s",
                    job.key,
                    attempts,
                    delay,
                    error,
                )
                self._report(FailedUpdate(*job.key, error, "requeued", attempts))
                return
        outcome: FailureOutcome = "dead_letter"
        if result.status is UpdateStatus.FAILED and self.durable is not None:
            # The outbox already stored this failure as a dead letter (DurableUpdates.run).
            self._report(FailedUpdate(*job.key, error, outcome, attempts))
            return
        try:
            self.write_dead_letter(job, error, attempts=1)
            logger.warning(
                "memory update for %s failed for good after %d attempt(s); kept as a dead "
                "letter (deerflow-memory pending / retry): %s",
                job.key,
                attempts,
                error,
            )
        except Exception:
            outcome = "lost"
            logger.exception("memory update for %s lost: the dead letter failed too", job.key)
        self._report(FailedUpdate(*job.key, error, outcome, attempts))

    def write_dead_letter(self, job: UpdateJob, error: str, *, attempts: int = 1) -> DeadLetter:
        """Store ``job`` as a dead letter (merged with the key's existing one) and return it."""
        storage = self.storage
        letter_id = dead_letter_id(job.thread_id, job.user_id, job.agent_name)
        existing = next(
            (x for x in storage.list_dead_letters(job.user_id) if x.id == letter_id), None
        )
        try:
            document: MemoryDocument | None = storage.load(job.user_id, job.agent_name)
        except Exception:
            document = None  # keep every message: the watermark cannot be read
        letter = dead_letter_for(
            job, error, attempts=job.attempts + attempts, document=document, existing=existing
        )
        storage.put_dead_letter(letter)
        return letter

    def dead_letters(self, user_id: str | None = None) -> list[DeadLetter]:
        """Updates that failed for good, oldest first (``deerflow-memory pending``)."""
        return self.storage.list_dead_letters(user_id)

    def retry_dead_letters(
        self, letter_ids: Iterable[str] | None = None, *, user_id: str | None = None
    ) -> list[RetriedLetter]:
        """Run dead letters again now, on this thread (``deerflow-memory retry``).

        Each letter whose update is saved (or has nothing to learn) is removed;
        one that fails again stays, with its attempts and error updated.
        """
        return retry_dead_letters(self.storage, self.updater, letter_ids, user_id=user_id)

    def _report(self, failure: FailedUpdate) -> None:
        self.recent_failures.append(UpdateFailure(time.time(), failure))
        with self._failures_lock:
            for collector in self._failure_collectors:
                collector.append(failure)

    def flush(self, timeout: float | None = None) -> FlushResult:
        """Run every pending update now and wait; report what failed meanwhile.

        Includes the updates recovered from the outbox when this service started.
        A job that fails transiently during a flush is not requeued (that would
        keep the flush waiting for its backoff) but kept as a dead letter.

        Pending use counts of injected facts are written first.

        Returns:
            A :class:`FlushResult`: truthy only when the queue drained in time
            and no update failed; ``failed`` lists the others and where they went.
        """
        self.access.flush()
        collector: list[FailedUpdate] = []
        with self._failures_lock:
            self._failure_collectors.append(collector)
        try:
            drained = self.queue.flush(timeout)
        finally:
            with self._failures_lock:
                self._failure_collectors.remove(collector)
        pending = 0 if drained else self.queue.pending_count + self.queue.running_count
        return FlushResult(drained, tuple(collector), pending)

    @property
    def retry_policy(self) -> RetryPolicy:
        """Backoff and bounds for failing updates (from the config unless set)."""
        if self._retry_policy is None:
            self._retry_policy = retry_policy(self.config)
        return self._retry_policy

    @retry_policy.setter
    def retry_policy(self, policy: RetryPolicy) -> None:
        self._retry_policy = policy

    # --- lifetime -----------------------------------------------------------

    def close(self, timeout: float | None = None) -> bool:
        """Flush pending updates (up to ``shutdown_flush_timeout_seconds``) and stop the workers."""
        if self._closed:
            return True
        self._closed = True
        _OPEN_SERVICES.discard(self)
        wait = self.config.shutdown_flush_timeout_seconds if timeout is None else timeout
        self.access.close()
        drained = self.queue.shutdown(wait)
        if not drained:
            logger.warning(
                "memory updates still pending after %.1f s at shutdown%s",
                wait,
                "; they stay in the outbox for the next start" if self.durable else "",
            )
        if self.durable is not None:
            self.durable.stop_polling()
            self.durable.outbox.close()
        closer = getattr(self._storage, "close", None)
        if self._owns_storage and callable(closer):
            closer()
        return drained

    def __enter__(self) -> MemoryService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# Services not yet closed, so that a process can drain them all on a clean exit
# (interpreter exit, or a server's shutdown hook). Weak: tracking keeps nothing alive.
_OPEN_SERVICES: weakref.WeakSet[MemoryService] = weakref.WeakSet()


def close_open_services(timeout: float | None = None) -> bool:
    """Flush and close every open :class:`MemoryService` of this process.

    For server shutdown hooks: ``langgraph dev`` ends on SIGTERM without running
    ``atexit`` handlers, so ``graphs/http_app.py`` calls this from the server's
    lifespan. Returns True when every pending update finished in time.
    """
    return all([service.close(timeout) for service in list(_OPEN_SERVICES)])


def _close_at_exit() -> None:
    # Only services created with register_atexit=True are in the set.
    close_open_services()


atexit.register(_close_at_exit)


def _refuse_tenant(identity: MemoryIdentity) -> None:
    # Storage can scope by tenant (MemoryStorage.scoped) but queued updates, the
    # outbox and dead letters do not carry a tenant yet: a tenant's turn must not
    # read or write the untenanted memory of the same user id, so it is refused.
    if identity.tenant_id is not None:
        raise ConfigError(
            f"tenant_id={identity.tenant_id!r}: graph runs cannot be scoped by tenant yet "
            "(updates are not routed per tenant); leave tenant_id unset, or use "
            "storage.scoped(tenant_id) directly"
        )
