"""``MemoryService``: the one object the memory nodes share.

It is built in one visible place from a :class:`MemoryConfig` (or from parts
you pass in) and holds the storage, the signal detector, the token counter,
the update queue and the updater the queue's worker threads call. Nodes get it
as an argument; there is no module-level singleton.

With ``storage="store"`` the storage is the graph's runtime store
(``runtime.store``, e.g. the one ``langgraph dev`` provides); it is bound the
first time a node runs (its outbox with it), and a different store showing up
later is an error.

Failure behaviour: a failing update never reaches the agent's turn; it is
logged and kept as a dead letter. With ``outbox`` on (default, file and
database backends) every captured turn is recorded durably within
``outbox_commit_interval_ms`` and a new service on the same storage runs what
a stopped process left pending. ``close()`` (or leaving the ``with`` block, or
interpreter exit) flushes pending updates for up to
``shutdown_flush_timeout_seconds``; the rest stays in the outbox.

Tenants: a run whose identity has a ``tenant_id`` is served by a child service,
:meth:`MemoryService.for_tenant`, made once per tenant: the storage's tenant view
(``storage.scoped(t)``), the config with ``tenants[t]``'s overrides, and its own
queue, outbox and dead letters. ``flush()`` and ``close()`` cover the children;
at start, tenants with updates a stopped process left pending are opened and run.
"""

from __future__ import annotations

import atexit
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, Any

from langchain_core.messages import BaseMessage

from deerflow_memory.capture.messages import check_messages
from deerflow_memory.capture.signals import SignalDetector, Signals
from deerflow_memory.config import MemoryConfig, load_config
from deerflow_memory.embeddings.keeper import VectorKeeper, store_semantic_scores
from deerflow_memory.errors import ConfigError, MemoryBusyError
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.inject.constraints import is_constraint
from deerflow_memory.inject.fallback import FailureBurst, rank_facts
from deerflow_memory.inject.format import InjectionResult, build_memory_context, render_memory
from deerflow_memory.inject.live import live_document
from deerflow_memory.inject.retrieval import Embedder, filter_document
from deerflow_memory.inject.tokens import TokenCounter, get_token_counter
from deerflow_memory.logs import package_logger
from deerflow_memory.models import Fact, MemoryDocument
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.storage.dead_letters import DeadLetter, dead_letter_id
from deerflow_memory.storage.names import validate_name
from deerflow_memory.update.dead_letter import RetriedLetter, dead_letter_for, retry_dead_letters
from deerflow_memory.update.durable import DurableUpdates, build_outbox, to_pending
from deerflow_memory.update.extraction import Extractor
from deerflow_memory.update.forget import clear_memory
from deerflow_memory.update.llm import retry_policy
from deerflow_memory.update.outcome import FailedUpdate, FailureOutcome, FlushResult, SavedUpdate
from deerflow_memory.update.queue import MemoryUpdateQueue, UpdateJob
from deerflow_memory.update.retry import RetryPolicy
from deerflow_memory.update.sealing import fenced_keys
from deerflow_memory.update.updater import (
    MemoryUpdater,
    UpdateResult,
    UpdateStatus,
    failure_result,
)
from deerflow_memory.update.usage import AccessRecorder
from deerflow_memory.update.validate import clean_text

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langgraph.store.base import BaseStore

__all__ = ["MemoryBlock", "MemoryService", "UpdateFailure", "close_open_services"]

logger = package_logger(__name__)

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
        error: ``None``, or why relevant mode ranked lexically this turn (the
            embedder or the store's vector search failed: ``"embedding failed,
            ranked lexically: ..."``); the block is still complete.
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
    error: str | None = None


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
        _tenant_of: tuple[MemoryService, str] | None = None,
    ) -> None:
        from deerflow_memory.update.llm import build_extractor

        self.config = config if config is not None else load_config()
        # A tenant's child (see for_tenant) shares its parent's recorders and failure log.
        parent: MemoryService | None = _tenant_of[0] if _tenant_of is not None else None
        self.tenant_id: str | None = _tenant_of[1] if _tenant_of is not None else None
        """The tenant this service serves (None: no tenant; see :meth:`for_tenant`)."""
        self._parent = parent
        self._tenants: dict[str, MemoryService] = {}
        self._tenants_lock = threading.Lock()
        self._owns_storage = storage is None and self.config.storage != "store"
        self._storage: MemoryStorage | None = storage
        self._bound_store: BaseStore | None = None
        if self._owns_storage:
            from deerflow_memory.storage.factory import build_storage

            self._storage = build_storage(self.config)
        self.extractor: Extractor = extractor or build_extractor(self.config, model)
        self.embedder = embedder
        # Fact vectors are computed on the updater's threads when facts are written.
        self.vectors: VectorKeeper | None = (
            VectorKeeper(embedder, max_facts=self.config.max_facts)
            if embedder is not None
            else None
        )
        # An embedder (or a store's vector index) that fails is logged once per burst.
        self.embedding_failures = FailureBurst("memory embedder")
        if parent is not None:
            self.vectors = parent.vectors  # keyed by storage: one cache serves every tenant
            self.embedding_failures = parent.embedding_failures
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
        self._failures_lock: threading.Lock = parent._failures_lock if parent else threading.Lock()
        self._failure_collectors: list[list[FailedUpdate]] = (
            parent._failure_collectors if parent else []
        )
        self.durable: DurableUpdates | None = None
        if self.config.outbox and self._storage is not None:
            outbox = build_outbox(self._storage, self.config)
            if outbox is not None:
                self.durable = DurableUpdates(outbox, self._update, lambda: self.storage)
        lazy = self.config.outbox and self._storage is None  # bound with the store
        self.queue = MemoryUpdateQueue(
            self._process,
            debounce_seconds=self.config.debounce_seconds,
            max_wait_seconds=self.config.max_wait_seconds,
            max_workers=self.config.max_workers,
            on_enqueue=self._record if lazy else self.durable.record if self.durable else None,
        )
        # Use counts of injected facts, written in batches by a background thread
        # (keyed by storage, so one recorder serves every tenant).
        self.access: AccessRecorder = (
            parent.access if parent else AccessRecorder(interval=self.config.access_flush_seconds)
        )
        # (user, agent) -> the last render and what the recall event lists for it: while
        # memory is unchanged the render is the same object, so this is built once, not per turn.
        self._recalls: dict[
            tuple[str, str | None], tuple[object, tuple[Fact, ...], tuple[RecalledFact, ...]]
        ] = {}
        # (user, agent) -> the newest update that changed their memory, for the
        # inject node's event (written by worker threads; a dict store is atomic).
        self._last_saved: dict[tuple[str, str | None], SavedUpdate] = {}
        self._closed = False
        self._tenant_watch = threading.Event()  # set: stop looking for tenants' pending work
        self._tenant_watcher: threading.Thread | None = None
        # The newest failed updates (bounded), for status pages; appended by worker threads.
        self.recent_failures: deque[UpdateFailure] = (
            parent.recent_failures if parent else deque(maxlen=MAX_RECENT_FAILURES)
        )
        if register_atexit and parent is None:
            _OPEN_SERVICES.add(self)
        if self.durable is not None:
            # Whatever a stopped process left pending runs here, at its original due time.
            self.durable.start(self.queue, self.config.outbox_poll_seconds, background=False)
            if parent is None and self._storage is not None:
                self._open_pending_tenants()

    # --- storage ------------------------------------------------------------

    def _record(self, job: UpdateJob, delay: float, urgent: bool) -> None:
        # on_enqueue of a service whose store is bound later: records once the outbox exists.
        durable = self.durable
        if durable is not None:
            durable.record(job, delay, urgent)

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
        storage, bound = self._storage, self._bound_store
        if storage is not None and (bound is None or store is None or store is bound):
            return storage
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

                storage = StoreMemoryStorage(store)
                outbox = build_outbox(storage, self.config) if self.config.outbox else None
                if outbox is not None:
                    # Before any capture can see the store, so every record reaches it.
                    self.durable = DurableUpdates(outbox, self._update, lambda: self.storage)
                self._storage, self._bound_store = storage, store
                if self.durable is not None:
                    # What a stopped process left in this store is queued on a thread,
                    # the tenants' too (each tenant's service recovers its own).
                    self.durable.start(self.queue, self.config.outbox_poll_seconds, background=True)
                    if self._parent is None:
                        threading.Thread(
                            target=self._open_pending_tenants, name="memory-tenants", daemon=True
                        ).start()
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

    # --- tenants ------------------------------------------------------------

    def for_tenant(self, tenant_id: str | None, store: BaseStore | None = None) -> MemoryService:
        """The service of tenant ``tenant_id``: made once, then the same object (thread-safe).

        It reads and writes ``storage.scoped(tenant_id)`` with
        ``config.for_tenant(tenant_id)`` (the tenant's thresholds, budgets and
        debounce), and has its own queue, outbox and dead letters; the model,
        token counter, use-count recorder and failure log are shared. This
        service's ``flush()`` and ``close()`` cover it. Graph runs, tools and
        routes reach it through the identity's ``tenant_id``; call it directly
        for tenant-wide work (``dead_letters``, ``retry_dead_letters``).

        Args:
            tenant_id: the tenant; ``None`` is this service (no tenant).
            store: the graph's runtime store, for ``storage="store"``.

        Raises:
            InvalidNameError: unsafe ``tenant_id`` (the user id rules).
            ConfigError: the backend cannot scope by tenant, or this service is closed.
        """
        root = self._parent or self
        if tenant_id is None:
            return root
        tenant_id = validate_name(tenant_id, "tenant_id")
        if tenant_id == self.tenant_id:
            return self
        if root is not self:
            return root.for_tenant(tenant_id, store)
        child = self._tenants.get(tenant_id)
        if child is not None:
            return child
        storage = self.storage_for(store).scoped(tenant_id)
        with self._tenants_lock:
            child = self._tenants.get(tenant_id)
            if child is None:
                if self._closed:
                    raise ConfigError("this MemoryService is closed; it serves no more tenants")
                child = MemoryService(
                    self.config.for_tenant(tenant_id),
                    storage=storage,
                    extractor=self.extractor,
                    embedder=self.embedder,
                    register_atexit=False,
                    _tenant_of=(self, tenant_id),
                )
                self._tenants[tenant_id] = child
        return child

    @property
    def tenants(self) -> tuple[str, ...]:
        """Tenant ids whose services are open in this process (sorted)."""
        with self._tenants_lock:  # another thread may be opening one
            return tuple(sorted(self._tenants))

    def _open_pending_tenants(self) -> None:
        # At start: each tenant whose outbox holds updates a stopped process left is
        # opened, which recovers and runs them; tenants with nothing pending stay closed.
        self._scan_tenants()
        durable = self.durable
        if durable is None or not durable.outbox.shared or self._parent is not None:
            return
        # A shared outbox (store backends) is polled: a replica that dies later may
        # leave work in a tenant this process has not opened, so look again each poll.
        with self._tenants_lock:
            if self._tenant_watcher is not None or self._closed:
                return
            interval = self.config.outbox_poll_seconds
            stop = self._tenant_watch

            def watch() -> None:
                while not stop.wait(interval):
                    self._scan_tenants()

            self._tenant_watcher = threading.Thread(
                target=watch, name="memory-tenant-poller", daemon=True
            )
            self._tenant_watcher.start()

    def _scan_tenants(self) -> None:
        from deerflow_memory.storage.tenants import tenants_with_pending_updates

        try:
            pending = tenants_with_pending_updates(self.storage)
        except Exception:
            logger.exception("could not look for tenants with pending memory updates")
            return
        opened = self._tenants
        for tenant_id in pending:
            if tenant_id in opened or self._closed:
                continue
            try:
                self.for_tenant(tenant_id)
            except Exception:
                logger.exception("could not recover the pending memory updates of %r", tenant_id)

    def _serving(self, identity: MemoryIdentity, store: BaseStore | None) -> MemoryService:
        """The service of ``identity``'s tenant (this one when it is the same)."""
        if identity.tenant_id == self.tenant_id:
            return self
        return self.for_tenant(identity.tenant_id, store)

    # --- read path ----------------------------------------------------------

    def load(self, identity: MemoryIdentity, store: BaseStore | None = None) -> MemoryDocument:
        """Load the document of ``identity`` (in its tenant's storage when it has a tenant)."""
        serving = self._serving(identity, store)
        return serving.storage_for(store).load(identity.user_id, identity.agent_name)

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

        With a ``tenant_id`` the tenant's storage and budgets are used.

        Raises:
            StorageError: the document cannot be read (corrupt, database down).
        """
        if identity.tenant_id != self.tenant_id:
            return self._serving(identity, store).memory_block(
                identity, query, store, record_access=record_access
            )
        storage = self.storage_for(store)
        document = storage.load(identity.user_id, identity.agent_name)
        now = time.time()
        shown = live_document(document, now)
        candidates = 0
        error: str | None = None
        if self.config.injection_mode == "relevant":
            semantic: Callable[[], dict[str, float] | None] | None = None
            if self.vectors is not None:
                self.vectors.before_inject(storage, identity.user_id, identity.agent_name, shown)
            else:  # a store with a vector index ranks by meaning without an embedder here
                semantic = partial(
                    store_semantic_scores,
                    storage,
                    identity.user_id,
                    identity.agent_name,
                    query,
                    self.config.retrieval.candidates,
                )

            selected, error = rank_facts(
                shown,
                query,
                burst=self.embedding_failures,
                embedder=self.embedder,
                semantic=semantic,
                config=self.config.retrieval,
                guaranteed_categories=self.config.guaranteed_categories,
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
            error=error,
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
        store: BaseStore | None = None,
    ) -> Signals:
        """Detect signals and queue a conversation for a debounced (or immediate) update.

        Args:
            identity: whose document, and the source thread.
            messages: the conversation; the updater filters it again on its
                worker thread, so raw state messages are fine.
            recent: the filtered latest messages to read signals from
                (default: ``messages``, which must then be filtered).
            now: run at once (the summarization hook) instead of debounced.
            store: the graph's runtime store; binds it (and its outbox) when
                ``storage="store"`` and no node bound it yet.

        Returns:
            The correction / reinforcement signals sent along.

        Raises:
            InvalidMessagesError: ``messages`` (or ``recent``) is not a sequence
                of LangChain messages (e.g. a string, dicts or tuples); nothing is queued.
        """
        messages = check_messages(messages)
        if recent is not None:
            recent = check_messages(recent)
        return self._enqueue_checked(identity, messages, recent, now, store)

    def _enqueue_checked(
        self,
        identity: MemoryIdentity,
        messages: Sequence[BaseMessage],
        recent: Sequence[BaseMessage] | None,
        now: bool,
        store: BaseStore | None,
    ) -> Signals:
        """:meth:`enqueue` for messages known to be LangChain messages (not checked again).

        The capture node calls it with what ``coerce_messages`` returned, and a
        tenant's turn is routed here, so each turn's messages are walked once.
        """
        if store is not None and self._storage is None:
            self.storage_for(store)  # record this capture in the store's outbox
        if identity.tenant_id != self.tenant_id:
            serving = self._serving(identity, store)
            return serving._enqueue_checked(identity, messages, recent, now, store)
        signals = self.detector.detect(messages if recent is None else recent)
        add = self.queue.add_nowait if now else self.queue.add
        add(
            identity.thread_id,
            identity.user_id,
            identity.agent_name,
            messages,
            correction_detected=signals.correction,
            reinforcement_detected=signals.reinforcement,
        )
        return signals

    def _process(self, job: UpdateJob) -> UpdateResult:
        # Runs on a queue worker thread: only sync calls from here on.
        try:
            result = self.durable.run(job) if self.durable is not None else self._update(job)
        except Exception as e:  # the outbox failed around the update (e.g. a claim)
            logger.exception("memory update for %s failed in the outbox", job.key)
            result = failure_result(e)
            self._after_failure(job, result, letter_stored=False)
            return result
        if result.status in (UpdateStatus.RETRY, UpdateStatus.FAILED):
            self._after_failure(job, result)
        else:
            if result.status is UpdateStatus.SAVED:
                self._remember_saved(job, result)
            if result.deferred:
                self._continue_later(job, result.deferred)
        return result

    def _continue_later(self, job: UpdateJob, deferred: int) -> None:
        """Queue the rest of a burst the call cap left, one debounce window from now.

        The extracted part is in the watermark, so the next run sends only the
        rest (at most the cap again). While the queue is flushing the rest is
        due at once (a flush drains it); once it is closed the outbox keeps it
        for the next start (:meth:`DurableUpdates.run` released the record
        instead of completing it).
        """
        delay = self.config.debounce_seconds
        logger.info(
            "memory update for %s: %d chunk(s) over the call cap are queued again",
            job.key,
            deferred,
        )
        if not self.queue.requeue(job, delay):
            self.queue.add_nowait(
                *job.key,
                job.messages,
                correction_detected=job.correction_detected,
                reinforcement_detected=job.reinforcement_detected,
            )

    def _remember_saved(self, job: UpdateJob, result: UpdateResult) -> None:
        saved = self._last_saved
        if len(saved) >= _RECALL_CACHE_SIZE:
            saved.clear()  # crude bound, like the recall cache
        saved[(job.user_id, job.agent_name)] = SavedUpdate(
            user_id=job.user_id,
            agent_name=job.agent_name,
            thread_id=job.thread_id,
            revision=result.revision,
            facts_added=result.facts_added,
            facts_removed=result.facts_removed,
            model_input_tokens=result.model_input_tokens,
            model_output_tokens=result.model_output_tokens,
            saved_at=time.time(),
            tenant_id=self.tenant_id,
        )

    def last_saved_update(self, identity: MemoryIdentity) -> SavedUpdate | None:
        """The newest update this process saved for ``identity``'s memory, or None.

        Kept in memory only (a bounded table); the inject node lists it in its
        ``memory_injection`` event as ``last_update``. A tenant not opened yet
        in this process has none (nothing is opened to answer).
        """
        root = self._parent or self
        serving: MemoryService | None = self
        if identity.tenant_id != self.tenant_id:
            tenant = identity.tenant_id
            serving = root if tenant is None else root._tenants.get(tenant)  # no opening
        if serving is None:
            return None
        return serving._last_saved.get((identity.user_id, identity.agent_name))

    def _update(self, job: UpdateJob) -> UpdateResult:
        try:
            result = self.updater.update(job)
            if self.vectors is not None and result.status is UpdateStatus.SAVED:
                # Still on the worker thread: new facts are embedded here, not on the next turn.
                self.vectors.after_update(self.storage, job.user_id, job.agent_name)
        except Exception as e:
            # An error the updater did not turn into a result (e.g. a file where the
            # lock folder should be) fails the update like any other: counted, retried
            # or dead-lettered, never only logged.
            logger.exception("memory update for %s failed", job.key)
            return failure_result(e)
        return result

    def _after_failure(
        self, job: UpdateJob, result: UpdateResult, *, letter_stored: bool = True
    ) -> None:
        """Requeue a transient failure within its bounds, else write a dead letter.

        ``letter_stored=False``: the outbox did not store a failed update's dead
        letter (it raised), so it is written here.
        """
        policy = self.retry_policy
        attempts = job.attempts + 1
        error = result.error or "failed"
        now = time.time()
        first = job.first_failed_at if job.first_failed_at is not None else now
        if result.status is UpdateStatus.RETRY and not policy.gives_up(attempts, first, now):
            delay = policy.requeue_delay(attempts, result.retry_after)
            again = replace(job, attempts=attempts, first_failed_at=first)
            if self.queue.requeue(again, delay):  # recorded in the outbox by the queue
                logger.info(
                    "memory update for %s requeued (attempt %d) in %.0f s: %s",
                    job.key,
                    attempts,
                    delay,
                    error,
                )
                self._report(FailedUpdate(*job.key, error, "requeued", attempts, self.tenant_id))
                return
        outcome: FailureOutcome = "dead_letter"
        if result.status is UpdateStatus.FAILED and self.durable is not None and letter_stored:
            # The outbox already stored this failure as a dead letter (DurableUpdates.run).
            self._report(FailedUpdate(*job.key, error, outcome, attempts, self.tenant_id))
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
        self._report(FailedUpdate(*job.key, error, outcome, attempts, self.tenant_id))

    def write_dead_letter(self, job: UpdateJob, error: str, *, attempts: int = 1) -> DeadLetter:
        """Store ``job`` as a dead letter (merged with the key's existing one) and return it."""
        storage = self.storage
        letter_id = dead_letter_id(job.thread_id, job.user_id, job.agent_name)
        existing = next(
            (x for x in storage.list_dead_letters(job.user_id) if x.id == letter_id), None
        )
        fenced = None
        try:
            document: MemoryDocument | None = storage.load(job.user_id, job.agent_name)
            if document is not None:  # what a delete fenced is not kept in a letter either
                fenced = fenced_keys(storage, document, clean_text(job.thread_id) or "unknown")
        except Exception:
            document = None  # keep every message: the watermark cannot be read
        letter = dead_letter_for(
            job,
            error,
            attempts=job.attempts + attempts,
            document=document,
            existing=existing,
            fenced=fenced,
        )
        storage.put_dead_letter(letter)
        return letter

    def dead_letters(self, user_id: str | None = None) -> list[DeadLetter]:
        """Updates that failed for good, oldest first (``deerflow-memory pending``).

        This service's scope only: a tenant's are ``for_tenant(t).dead_letters()``.
        """
        return self.storage.list_dead_letters(user_id)

    def retry_dead_letters(
        self, letter_ids: Iterable[str] | None = None, *, user_id: str | None = None
    ) -> list[RetriedLetter]:
        """Run dead letters again now, on this thread (``deerflow-memory retry``).

        Each letter whose update is saved (or has nothing to learn) is removed;
        one that fails again stays, with its attempts and error updated. This
        service's scope only: a tenant's are ``for_tenant(t).retry_dead_letters()``.
        """
        return retry_dead_letters(self.storage, self.updater, letter_ids, user_id=user_id)

    def clear_memory(
        self,
        user_id: str,
        agent_name: str | None = None,
        *,
        tenant_id: str | None = None,
        store: BaseStore | None = None,
        timeout: float | None = None,
    ) -> bool:
        """Delete a whole memory so that nothing said before comes back; True if it existed.

        The user's conversations still waiting for an update (in this process's
        queue and outbox, and every process's records in a shared outbox) are
        dropped with its dead letters (what another live process holds in its
        file-backend journal is fenced instead, so running it learns nothing),
        an update running now finishes first and is deleted with the rest
        (what it requeues or dead-letters too), and
        the document is replaced by an empty one that only records which
        messages were already read (see :mod:`deerflow_memory.update.forget`),
        so old threads are not extracted again. Used by the HTTP ``DELETE`` route
        and ``deerflow-memory clear``.

        Args:
            user_id, agent_name: whose memory (validated like every id).
            tenant_id: the tenant (None: no tenant).
            store: the graph's runtime store, for ``storage="store"``.
            timeout: seconds to wait for a running update (default
                ``update_lock_timeout_seconds``).

        Raises:
            InvalidNameError: an unsafe id.
            MemoryBusyError: an update of the memory did not finish within
                ``timeout``; nothing was deleted or dropped.
            StorageError: the backend failed.
        """
        user_id = validate_name(user_id, "user_id")
        agent_name = None if agent_name is None else validate_name(agent_name, "agent_name")
        service = self.for_tenant(tenant_id, store)
        storage = service.storage_for(store)
        wait = service.config.update_lock_timeout_seconds if timeout is None else timeout
        end = time.monotonic() + wait
        # Read (or made: a write and fsyncs) now, not between the running update's
        # end and the lock, where a requeued update could slip past the collect below.
        storage.fence_key()
        # A running update of the user finishes first: what it saves, requeues or
        # dead-letters is then dropped with the rest below.
        if not service.queue.wait_user_idle(user_id, wait):
            raise MemoryBusyError(user_id, agent_name, wait)

        def mine(job: UpdateJob) -> bool:
            return job.user_id == user_id and job.agent_name == agent_name

        def collect() -> list[tuple[str, Sequence[BaseMessage]]]:
            # Under the update lock: no update of this memory runs in any process.
            durable = service.durable
            if durable is not None:  # records other processes left: queue them, to drop them
                durable.restore(service.queue, durable.outbox.poll())
            dropped = service.queue.discard(mine)
            pending: list[tuple[str, Sequence[BaseMessage]]] = [
                (job.thread_id, job.messages) for job in dropped
            ]
            if durable is not None:
                for job in dropped:
                    durable.outbox.complete(to_pending(job))
                gone = durable.outbox.discard(user_id, agent_name)
                # Records a live process holds run there later: fenced, they learn nothing.
                gone += durable.outbox.held_elsewhere(user_id, agent_name)
                pending += [(u.thread_id, u.messages) for u in gone]
            return pending

        existed = clear_memory(
            storage,
            user_id,
            agent_name,
            collect=collect,
            lock_timeout=max(0.0, end - time.monotonic()),
        )
        logger.info("memory of user=%s agent=%s deleted", user_id, agent_name)
        return existed

    def _report(self, failure: FailedUpdate) -> None:
        # The deque and collectors are the root service's, shared by its tenants.
        self.recent_failures.append(UpdateFailure(time.time(), failure))
        with self._failures_lock:
            for collector in self._failure_collectors:
                collector.append(failure)

    def _family(self) -> list[MemoryService]:
        """This service and, for the root, every open tenant service."""
        with self._tenants_lock:
            return [self, *self._tenants.values()]

    def _collected(self, run: Callable[[list[FailedUpdate]], FlushResult]) -> FlushResult:
        """``run(collector)`` while failures reported by any tenant land in ``collector``."""
        collector: list[FailedUpdate] = []
        with self._failures_lock:
            self._failure_collectors.append(collector)
        try:
            return run(collector)
        finally:
            with self._failures_lock:
                self._failure_collectors.remove(collector)

    def _mine(self, failures: list[FailedUpdate]) -> tuple[FailedUpdate, ...]:
        # The root reports every tenant's failures; a tenant's service only its own.
        if self._parent is None:
            return tuple(failures)
        return tuple(f for f in failures if f.tenant_id == self.tenant_id)

    def flush(self, timeout: float | None = None) -> FlushResult:
        """Run every pending update now and wait; report what failed meanwhile.

        Includes the updates recovered from the outbox when this service started
        (with ``storage="store"``: when the graph's store was bound), and every
        open tenant's (see :meth:`for_tenant`), flushed side by side.
        A job that fails transiently during a flush is not requeued (that would
        keep the flush waiting for its backoff) but kept as a dead letter.

        Pending use counts of injected facts are written first.

        Returns:
            A :class:`FlushResult`: truthy only when every queue drained in time
            and no update failed; ``failed`` lists the others and where they
            went (``tenant_id`` says whose); ``pending`` what is still queued.
        """
        self.access.flush()
        services = self._family()

        def run(collector: list[FailedUpdate]) -> FlushResult:
            for service in services:
                if service.durable is not None:
                    service.durable.wait_recovered(timeout)
            drained = _in_parallel([s.queue.flush for s in services], timeout)
            pending = sum(
                s.queue.pending_count + s.queue.running_count
                for s, ok in zip(services, drained, strict=True)
                if not ok
            )
            return FlushResult(all(drained), self._mine(collector), pending)

        return self._collected(run)

    @property
    def retry_policy(self) -> RetryPolicy:
        """Backoff and bounds for failing updates (config unless set; a tenant uses the root's)."""
        if self._retry_policy is None:
            if self._parent is not None:
                return self._parent.retry_policy
            self._retry_policy = retry_policy(self.config)
        return self._retry_policy

    @retry_policy.setter
    def retry_policy(self, policy: RetryPolicy) -> None:
        self._retry_policy = policy

    # --- lifetime -----------------------------------------------------------

    def close(self, timeout: float | None = None) -> FlushResult:
        """Flush pending updates and stop the workers, of this service and its tenants.

        Waits up to ``timeout`` seconds (default ``shutdown_flush_timeout_seconds``);
        what is still pending then stays in the outbox for the next start (it is
        lost without one, or when the outbox can no longer write: a store the
        app closed first, logged as an error). Closing twice does nothing.

        Returns:
            A :class:`FlushResult`: truthy only when every queue drained in time,
            the outbox wrote its last records, and no update failed meanwhile;
            ``failed`` and ``pending`` say what did not.
        """
        with self._tenants_lock:
            if self._closed:
                return FlushResult(True)
            self._closed = True
        _OPEN_SERVICES.discard(self)
        wait = self.config.shutdown_flush_timeout_seconds if timeout is None else timeout
        if self._parent is None:
            self.access.close()  # shared with the tenants: only the root closes it
        self._tenant_watch.set()
        watcher = self._tenant_watcher
        if watcher is not None and watcher is not threading.current_thread():
            watcher.join(timeout=5)
        services = self._family()

        def run(collector: list[FailedUpdate]) -> FlushResult:
            drained = _in_parallel([s.queue.shutdown for s in services], wait)
            pending = 0
            written = True
            for service, ok in zip(services, drained, strict=True):
                service._closed = True
                left = 0 if ok else service.queue.pending_count + service.queue.running_count
                pending += left
                kept = service._close_outbox()
                written = written and kept
                if left:
                    logger.warning(
                        "memory updates%s still pending after %.1f s at shutdown%s",
                        f" of tenant {service.tenant_id!r}" if service.tenant_id else "",
                        wait,
                        "; they stay in the outbox for the next start"
                        if service.durable is not None and kept
                        else "; they are lost",
                    )
            return FlushResult(all(drained) and written, self._mine(collector), pending)

        result = self._collected(run)
        if self._parent is not None:
            with self._parent._tenants_lock:
                if self._parent._tenants.get(self.tenant_id or "") is self:
                    del self._parent._tenants[self.tenant_id or ""]
        closer = getattr(self._storage, "close", None)
        if self._owns_storage and callable(closer):
            closer()
        return result

    def _close_outbox(self) -> bool:
        """Stop this service's outbox; False when its last records could not be written."""
        durable = self.durable
        if durable is None:
            return True
        durable.stop_polling()
        try:
            durable.outbox.close()
        except Exception as e:
            # Typically the app closed the store first (`with SqliteStore…`, `async with
            # AsyncPostgresStore…` ending before this close): those captures are gone.
            logger.error(
                "memory outbox%s could not write its last %d records at shutdown (%s: %s); "
                "the turns they hold are lost. Close the MemoryService before the store "
                "it writes to (README: 'Close memory before its store')",
                f" of tenant {self.tenant_id!r}" if self.tenant_id else "",
                durable.outbox.unwritten,
                type(e).__name__,
                e,
            )
            return False
        return True

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
    lifespan. Returns True when every pending update finished in time and none failed.
    """
    return all([bool(service.close(timeout)) for service in list(_OPEN_SERVICES)])


def _close_at_exit() -> None:
    # Only services created with register_atexit=True are in the set.
    close_open_services()


atexit.register(_close_at_exit)


def _in_parallel(
    calls: Sequence[Callable[[float | None], bool]], timeout: float | None
) -> list[bool]:
    """``call(timeout)`` for each, side by side; the first runs on this thread.

    A call that raises counts as False (logged); the first call's error is raised,
    so a flush from inside an update handler still fails loudly.
    """
    results = [False] * len(calls)

    def run(index: int) -> None:
        try:
            results[index] = calls[index](timeout)
        except Exception:
            logger.exception("memory flush of a tenant's queue failed")

    threads = [
        threading.Thread(target=run, args=(i,), name="memory-tenant-flush", daemon=True)
        for i in range(1, len(calls))
    ]
    for thread in threads:
        thread.start()
    try:
        results[0] = calls[0](timeout)
    finally:
        for thread in threads:
            thread.join()
    return results
