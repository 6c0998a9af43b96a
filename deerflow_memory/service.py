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
The root keeps them in a :class:`~deerflow_memory.tenants.pool.TenantPool`
(bounded by ``max_open_tenants``; parking, the waker, the scans).
"""

from __future__ import annotations

import atexit
import os
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from langchain_core.messages import BaseMessage

from deerflow_memory.arguments import (
    expect,
    expect_chat_model,
    expect_embedder,
    expect_extractor,
    expect_number,
    expect_store,
    expect_text,
)
from deerflow_memory.capture.messages import check_messages
from deerflow_memory.capture.signals import SignalDetector, Signals
from deerflow_memory.config import MemoryConfig, load_config
from deerflow_memory.daemons import daemon_thread
from deerflow_memory.daemons.forks import fork_count
from deerflow_memory.embeddings.keeper import VectorKeeper, store_semantic_scores
from deerflow_memory.errors import (
    ConfigError,
    DeerflowMemoryError,
    ForkedServiceError,
    InvalidMessagesError,
    InvalidNameError,
    StorageError,
    StoreClosedError,
)
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
from deerflow_memory.storage.dead_letters import DeadLetter
from deerflow_memory.storage.names import of_memory, validate_name
from deerflow_memory.storage.outbox import Outbox
from deerflow_memory.tenants.pool import TenantPool, TenantSlot
from deerflow_memory.update.closed_store import log_closed_store
from deerflow_memory.update.dead_letter import RetriedLetter, dead_letter_for, retry_dead_letters
from deerflow_memory.update.durable import DurableUpdates, build_outbox, to_pending
from deerflow_memory.update.extraction import Extractor
from deerflow_memory.update.forget import clear_memory, outbox_leftovers
from deerflow_memory.update.letter_writes import letter_slot, write_letter
from deerflow_memory.update.llm import retry_policy
from deerflow_memory.update.outcome import FailedUpdate, FailureOutcome, FlushResult, SavedUpdate
from deerflow_memory.update.queue import MemoryUpdateQueue, UpdateJob
from deerflow_memory.update.retry import RetryPolicy
from deerflow_memory.update.sealing import fenced_keys
from deerflow_memory.update.timeouts import check_timeout, seconds_left
from deerflow_memory.update.updater import (
    MemoryUpdater,
    UpdateResult,
    UpdateStatus,
    failure_result,
    job_label,
)
from deerflow_memory.update.usage import AccessRecorder
from deerflow_memory.update.validate import clean_text

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langgraph.store.base import BaseStore

__all__ = [
    "MemoryBlock",
    "MemoryService",
    "UpdateFailure",
    "check_service",
    "close_open_services",
]

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


def check_service(value: object, name: str = "service") -> None:
    """The check of the public factories taking a service (nodes, tools, routes, lifespans).

    Raises:
        InvalidArgumentError: ``value`` is not a :class:`MemoryService` (None, a config...).
    """
    expect(value, MemoryService, name, "a MemoryService")


def _check_identity_and_store(identity: object, store: object) -> None:
    """The checks of the methods taking an identity (and a store); not run per node turn.

    Raises:
        InvalidArgumentError: ``identity`` is not a :class:`MemoryIdentity`, or
            ``store`` is neither a LangGraph ``BaseStore`` nor None.
        InvalidNameError: its user id, agent name or tenant is unsafe as a storage
            key (a ``MemoryIdentity`` built by hand, not by ``resolve_identity``).
    """
    expect(identity, MemoryIdentity, "identity", "a MemoryIdentity (resolve_identity builds one)")
    expect_store(store, optional=True)
    assert isinstance(identity, MemoryIdentity)
    validate_name(identity.user_id, "user_id")
    if identity.agent_name is not None:
        validate_name(identity.agent_name, "agent_name")
    if identity.tenant_id is not None:
        validate_name(identity.tenant_id, "tenant_id")


def _check_tenant_and_store(tenant_id: object, store: object) -> None:
    """The checks of the methods taking a tenant id (validated later) and a store.

    Raises:
        InvalidNameError: ``tenant_id`` is not text or None (checked before the
            pool's table is looked up by it).
        InvalidArgumentError: ``store`` is neither a LangGraph ``BaseStore`` nor None.
    """
    expect_text(tenant_id, "tenant_id", InvalidNameError, optional=True)
    expect_store(store, optional=True)


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

    Raises:
        ConfigError: ``config`` is not a :class:`MemoryConfig` (or None).
        InvalidArgumentError: ``storage``, ``model``, ``extractor`` or
            ``embedder`` is not one (a model name where a model belongs, ...).

    Every public method checks the types of its arguments the same way
    (``identity`` a :class:`MemoryIdentity`, ``store`` a LangGraph ``BaseStore``
    or None, ids text) before anything is read, queued or written.

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

        expect(config, MemoryConfig, "config", "a MemoryConfig", ConfigError, optional=True)
        expect(storage, MemoryStorage, "storage", "a MemoryStorage", optional=True)
        expect_chat_model(model, optional=True)
        expect_extractor(extractor, optional=True)
        expect_embedder(embedder, optional=True)
        self.config = config if config is not None else load_config()
        # The process that made it, and its forks so far: a forked child may not use it
        # (its threads are gone and its outbox journal is the parent's; daemons.forks).
        self._made_in = (os.getpid(), fork_count())
        # A tenant's child (see for_tenant) shares its parent's recorders and failure log.
        parent: MemoryService | None = _tenant_of[0] if _tenant_of is not None else None
        self.tenant_id: str | None = _tenant_of[1] if _tenant_of is not None else None
        """The tenant this service serves (None: no tenant; see :meth:`for_tenant`)."""
        self._parent = parent
        self._tenants_lock = threading.Lock()  # guards _closed (and, in the root, the pool)
        self._closed = False
        # Root only: the open tenant services, bounded by max_open_tenants (parking, the
        # waker, the tenant config cache, the scan for tenants with pending work).
        self._pool: TenantPool[MemoryService] | None = (
            None
            if parent is not None
            else TenantPool(
                self.config,
                make=self._new_tenant,
                storage_for=self._storage_for,
                durable=lambda: self.durable,
                closed=lambda: self._closed,
                lock=self._tenants_lock,
            )
        )
        # A tenant's service: its leases, eviction and recency in the root's pool (the
        # pool hands the slot to the factory; guarded by the root's tenants lock).
        self._slot = TenantSlot()
        self._owns_storage = storage is None and self.config.storage != "store"
        self._storage: MemoryStorage | None = storage
        self._bound_store: BaseStore | None = None
        if self._owns_storage:
            from deerflow_memory.storage.factory import build_storage

            self._storage = _storage_opened(self.config, lambda: build_storage(self.config))
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
        # Tenant overrides change no signal pattern or token counting: a tenant's service
        # shares its parent's (building the detector's patterns takes ~40 ms).
        self.detector: SignalDetector = (
            parent.detector if parent else SignalDetector.from_config(self.config)
        )
        self.counter: TokenCounter = (
            parent.counter
            if parent
            else get_token_counter(self.config.token_counting, self.config.tiktoken_encoding)
        )
        # The vocabulary loads on a background thread (~0.3-0.6 s); the first
        # turns meanwhile count with the estimate instead of waiting for it.
        warm = getattr(self.counter, "warm", None)
        if warm is not None and parent is None:
            warm()
        self._updater: MemoryUpdater | None = None
        self._bind_lock = threading.Lock()
        self._retry_policy: RetryPolicy | None = None
        self._failures_lock: threading.Lock = parent._failures_lock if parent else threading.Lock()
        self._failure_collectors: list[list[FailedUpdate]] = (
            parent._failure_collectors if parent else []
        )
        self.durable: DurableUpdates | None = None
        # Updates a closed store stopped (counted by _report under _failures_lock; close() logs it).
        self._store_closed_count = 0
        if self.config.outbox and self._storage is not None:
            made = self._storage
            outbox = _storage_opened(self.config, lambda: build_outbox(made, self.config))
            if outbox is not None:
                self.durable = DurableUpdates(
                    outbox,
                    self._update,
                    lambda: self.storage,
                    lock_timeout=self.config.update_lock_timeout_seconds,
                )
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
            tuple[str | None, str, str | None],
            tuple[object, tuple[Fact, ...], tuple[RecalledFact, ...]],
        ] = {}
        # (user, agent) -> the newest update that changed their memory, for the
        # inject node's event (written by worker threads; a dict store is atomic).
        self._last_saved: dict[tuple[str, str | None], SavedUpdate] = {}
        # The newest failed updates (bounded), for status pages; appended by worker threads.
        self.recent_failures: deque[UpdateFailure] = (
            parent.recent_failures if parent else deque(maxlen=MAX_RECENT_FAILURES)
        )
        if register_atexit and parent is None:
            _OPEN_SERVICES.add(self)
        if self.durable is not None:
            # Whatever a stopped process left pending runs here, at its original due time.
            self.durable.start(self.queue, self.config.outbox_poll_seconds, background=False)
            if self._pool is not None and self._storage is not None:
                self._pool.open_pending()

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
            InvalidArgumentError: ``store`` is not a LangGraph ``BaseStore`` or None.
        """
        expect_store(store, optional=True)
        self._in_made_process()  # (a forked child's writes would go through the parent's)
        return self._storage_for(store)

    def _storage_for(self, store: BaseStore | None) -> MemoryStorage:
        """:meth:`storage_for` with ``store`` known to be a store or None (callers have
        checked the process: :meth:`_in_made_process`)."""
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
                    self.durable = DurableUpdates(
                        outbox,
                        self._update,
                        lambda: self.storage,
                        lock_timeout=self.config.update_lock_timeout_seconds,
                    )
                self._storage, self._bound_store = storage, store
                if self.durable is not None:
                    # What a stopped process left in this store is queued on a thread,
                    # the tenants' too (each tenant's service recovers its own).
                    self.durable.start(self.queue, self.config.outbox_poll_seconds, background=True)
                    if self._pool is not None:
                        # Joined by close() before the store may be closed: a thread still
                        # reading a closed SQLite connection can crash the process.
                        self._pool.start_scanner()
            elif self._bound_store is not store:
                raise ConfigError(
                    "this MemoryService is bound to another store; use one MemoryService per store"
                )
        assert self._storage is not None
        return self._storage

    @property
    def storage(self) -> MemoryStorage:
        """The storage in use (bound on first use when ``storage="store"``)."""
        self._in_made_process()
        return self._storage_for(None)

    @property
    def updater(self) -> MemoryUpdater:
        """The updater the queue's workers call (created once the storage is known)."""
        self._in_made_process()
        if self._updater is None:
            self._updater = MemoryUpdater(
                self.storage,
                self.extractor,
                self.config,
                embedder=self.embedder,
                count_tokens=self.counter.count,
                is_constraint=is_constraint,
            )
        return self._updater

    # --- tenants ------------------------------------------------------------

    def for_tenant(self, tenant_id: str | None, store: BaseStore | None = None) -> MemoryService:
        """The service of tenant ``tenant_id``: open once, then the same object (thread-safe).

        It reads and writes ``storage.scoped(tenant_id)`` with
        ``config.for_tenant(tenant_id)`` (the tenant's thresholds, budgets and
        debounce), and has its own queue, outbox and dead letters; the model,
        token counter, use-count recorder and failure log are shared. This
        service's ``flush()`` and ``close()`` cover it. Graph runs, tools and
        routes reach it through the identity's ``tenant_id``; call it directly
        for tenant-wide work (``dead_letters``, ``retry_dead_letters``).

        At most ``max_open_tenants`` tenant services are open: opening one more
        closes the least recently used idle one (nothing queued or running), or
        else parks one whose updates only wait for their due time (they stay in
        its outbox; it is reopened when the first is due, or on its next use).
        A tenant service that was closed this way hands its callers on to a
        new one, so keeping the object is safe.

        Args:
            tenant_id: the tenant; ``None`` is this service (no tenant).
            store: the graph's runtime store, for ``storage="store"``.

        Raises:
            InvalidNameError: unsafe ``tenant_id`` (the user id rules).
            UnknownTenantError: ``only_configured_tenants`` is on and ``tenants:``
                does not name it.
            ConfigError: the backend cannot scope by tenant, or this service is closed.
            InvalidArgumentError: ``store`` is not a LangGraph ``BaseStore`` or None.
        """
        _check_tenant_and_store(tenant_id, store)
        return self._for_tenant(tenant_id, store)

    def _for_tenant(self, tenant_id: str | None, store: BaseStore | None) -> MemoryService:
        """:meth:`for_tenant` with the argument types checked (a node's identity, ...)."""
        self._in_made_process()  # (before the pool's lock: one held at a fork stays held)
        root = self._parent or self
        if tenant_id is None:
            return root
        if tenant_id == self.tenant_id and not self._slot.evicted:
            return self
        return self._tenant_pool.serve(tenant_id, store)

    def tenant_storage(
        self, tenant_id: str | None, store: BaseStore | None = None
    ) -> MemoryStorage:
        """The storage view of tenant ``tenant_id`` (None: no tenant), opening no service.

        Raises:
            InvalidNameError: unsafe ``tenant_id``.
            UnknownTenantError: refused by ``only_configured_tenants``.
            InvalidArgumentError: ``store`` is not a LangGraph ``BaseStore`` or None.
        """
        _check_tenant_and_store(tenant_id, store)
        self._in_made_process()
        root = self._parent or self
        storage = root._storage_for(store)
        return storage if tenant_id is None else storage.scoped(root._tenant_name(tenant_id))

    def _tenant_name(self, tenant_id: str) -> str:
        """``tenant_id`` validated, and refused when the allow-list does not name it."""
        return self._tenant_pool.name(tenant_id)

    @property
    def _tenant_pool(self) -> TenantPool[MemoryService]:
        """The root's tenant pool (a tenant's service uses its root's)."""
        pool = (self._parent or self)._pool
        assert pool is not None  # every root service has one
        return pool

    def _new_tenant(
        self, tenant_id: str, config: MemoryConfig, storage: MemoryStorage, slot: TenantSlot
    ) -> MemoryService:
        """The pool's factory: a new service of tenant ``tenant_id`` sharing this root's parts."""
        child = MemoryService(
            config,
            storage=storage,
            extractor=self.extractor,
            embedder=self.embedder,
            register_atexit=False,
            _tenant_of=(self, tenant_id),
        )
        child._slot = slot  # before the pool lists it: nothing has used the child yet
        return child

    def _hold(self) -> bool:
        """Lease this tenant service for an enqueue; False once it was closed (use a new one)."""
        if self._parent is None:
            return True
        return self._tenant_pool.hold(self._slot)

    def _let_go(self) -> None:
        if self._parent is not None:
            self._tenant_pool.let_go(self._slot)

    @property
    def tenants(self) -> tuple[str, ...]:
        """Tenant ids whose services are open in this process (sorted)."""
        return () if self._pool is None else self._pool.tenants()

    @property
    def parked_tenants(self) -> tuple[str, ...]:
        """Tenant ids closed to bound open tenants whose updates wait in their outbox (sorted)."""
        return () if self._pool is None else self._pool.parked()

    @property
    def _tenant_scanner(self) -> threading.Thread | None:
        """A bound store's first scan for tenants with pending work (None: none started)."""
        return None if self._pool is None else self._pool.scanner

    def _serving(self, identity: MemoryIdentity, store: BaseStore | None) -> MemoryService:
        """The service of ``identity``'s tenant (this one when it is the same)."""
        if identity.tenant_id == self.tenant_id and not self._slot.evicted:
            return self
        return self._for_tenant(identity.tenant_id, store)

    def _open_or_none(self, tenant_id: str | None) -> MemoryService | None:
        """The open service of ``tenant_id`` (the root for None), or None: nothing is opened."""
        root = self._parent or self
        if tenant_id is None:
            return root
        return self._tenant_pool.get(tenant_id)

    # --- read path ----------------------------------------------------------

    def load(self, identity: MemoryIdentity, store: BaseStore | None = None) -> MemoryDocument:
        """Load the document of ``identity`` (in its tenant's storage when it has a tenant).

        A tenant's service is not opened to read (a tenant with no data gets no folder).

        Raises:
            InvalidArgumentError: ``identity`` is not a :class:`MemoryIdentity`, or
                ``store`` not a LangGraph ``BaseStore`` or None.
            StorageError: the document cannot be read (corrupt, database down).
        """
        _check_identity_and_store(identity, store)
        return self._reading(identity, store)[0].load(identity.user_id, identity.agent_name)

    def _forked(self) -> bool:
        """Whether this process was forked after the service was made (see daemons.forks)."""
        return fork_count() != self._made_in[1]

    def _in_made_process(self) -> None:
        """Raise :class:`ForkedServiceError` in a process forked after this service was made."""
        if self._forked():
            raise ForkedServiceError(self._made_in[0])

    def _reading(
        self, identity: MemoryIdentity, store: BaseStore | None
    ) -> tuple[MemoryStorage, MemoryService, MemoryConfig]:
        """Storage, service and config to read ``identity``'s memory with; opens no tenant.

        The service is the tenant's when it is open, else the root (whose recorders,
        counter and vectors a tenant's service shares anyway).
        """
        self._in_made_process()
        if identity.tenant_id == self.tenant_id:
            return self._storage_for(store), self, self.config
        root = self._parent or self
        serving = root._open_or_none(identity.tenant_id)
        if serving is not None:
            return serving._storage_for(store), serving, serving.config
        tenant = root._tenant_name(identity.tenant_id or "")
        return root._storage_for(store).reader(tenant), root, self._tenant_pool.config_of(tenant)

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
            InvalidMessagesError: ``query`` is not a string.
            InvalidArgumentError: ``identity`` is not a :class:`MemoryIdentity`, or
                ``store`` not a LangGraph ``BaseStore`` or None.
            StorageError: the document cannot be read (corrupt, database down).
        """
        _check_identity_and_store(identity, store)
        if not isinstance(query, str):
            raise InvalidMessagesError(f"query must be a str, got {type(query).__name__}")
        return self._memory_block(identity, query, store, record_access)

    def _memory_block(
        self, identity: MemoryIdentity, query: str, store: BaseStore | None, record_access: bool
    ) -> MemoryBlock:
        """:meth:`memory_block` with the argument types checked (the inject node's turn)."""
        storage, serving, config = self._reading(identity, store)
        return serving._block(identity, query, storage, config, record_access)

    def _block(
        self,
        identity: MemoryIdentity,
        query: str,
        storage: MemoryStorage,
        config: MemoryConfig,
        record_access: bool,
    ) -> MemoryBlock:
        """:meth:`memory_block` with the storage and config of ``identity``'s tenant."""
        document = storage.load(identity.user_id, identity.agent_name)
        now = time.time()
        shown = live_document(document, now)
        candidates = 0
        error: str | None = None
        if config.injection_mode == "relevant":
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
                    config.retrieval.candidates,
                )

            selected, error = rank_facts(
                shown,
                query,
                burst=self.embedding_failures,
                embedder=self.embedder,
                semantic=semantic,
                config=config.retrieval,
                guaranteed_categories=config.guaranteed_categories,
            )
            shown = filter_document(shown, selected.facts)
            candidates = selected.candidates
        result = render_memory(
            shown,
            config.injected_memory_max_tokens,
            guaranteed_categories=config.guaranteed_categories,
            guaranteed_token_budget=config.guaranteed_token_budget,
            constraint_token_budget=config.constraint_token_budget,
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
        key = (identity.tenant_id, identity.user_id, identity.agent_name)
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
                "constraint": f.id in result.constraint_ids,
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
            InvalidArgumentError: ``identity`` is not a :class:`MemoryIdentity`, or
                ``store`` not a LangGraph ``BaseStore`` or None; nothing is queued.
        """
        _check_identity_and_store(identity, store)
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
        self._in_made_process()
        if store is not None and self._storage is None:
            self._storage_for(store)  # record this capture in the store's outbox
        if identity.tenant_id != self.tenant_id or self._slot.evicted:
            serving = self._serving(identity, store)
            return serving._enqueue_checked(identity, messages, recent, now, store)
        if self._parent is None:
            return self._enqueue_here(identity, messages, recent, now)
        # A tenant's service: leased, so that it is not closed before the capture is queued.
        if not self._hold():
            return self._parent._enqueue_checked(identity, messages, recent, now, store)
        try:
            return self._enqueue_here(identity, messages, recent, now)
        finally:
            self._let_go()

    def _enqueue_here(
        self,
        identity: MemoryIdentity,
        messages: Sequence[BaseMessage],
        recent: Sequence[BaseMessage] | None,
        now: bool,
    ) -> Signals:
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
            result = failure_result(e)
            if not result.store_closed:
                logger.exception("memory update for %s failed in the outbox", job_label(job))
                self._after_failure(job, result, letter_stored=False)
                return result
        if result.store_closed:
            # The app closed the store: no retry or dead letter can be written; close()
            # reports the count in one line.
            error = result.error or "the store is closed"
            attempts = job.attempts + 1
            self._report(FailedUpdate(*job.key, error, "store_closed", attempts, self.tenant_id))
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
            job_label(job),
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

        Raises:
            InvalidArgumentError: ``identity`` is not a :class:`MemoryIdentity`.
        """
        _check_identity_and_store(identity, None)
        return self._last_saved_update(identity)

    def _last_saved_update(self, identity: MemoryIdentity) -> SavedUpdate | None:
        """:meth:`last_saved_update` with ``identity`` checked (the inject node's turn)."""
        root = self._parent or self
        serving: MemoryService | None = self
        if identity.tenant_id != self.tenant_id:
            tenant = identity.tenant_id
            serving = root if tenant is None else self._tenant_pool.get(tenant)  # no opening
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
            logger.exception("memory update for %s failed", job_label(job))
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
                    job_label(job),
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
        # A transient failure's record is still in the outbox (DurableUpdates.run left it):
        # it is done once the letter is stored, and kept there as dead when that fails.
        outbox = (
            self.durable.outbox
            if self.durable is not None and result.status is UpdateStatus.RETRY
            else None
        )
        try:
            self.write_dead_letter(job, error, attempts=1)
            logger.warning(
                "memory update for %s failed for good after %d attempt(s); kept as a dead "
                "letter (deerflow-memory pending / retry): %s",
                job_label(job),
                attempts,
                error,
            )
            if outbox is not None:
                outbox.complete(to_pending(job))
        except Exception:
            if outbox is not None and _kept_dead(outbox, job, error):
                logger.exception(
                    "memory update for %s failed for good and its dead letter could not be "
                    "stored; kept as a dead record in the outbox",
                    job_label(job),
                )
            else:
                outcome = "lost"
                logger.exception(
                    "memory update for %s lost: the dead letter failed too", job_label(job)
                )
        self._report(FailedUpdate(*job.key, error, outcome, attempts, self.tenant_id))

    def write_dead_letter(self, job: UpdateJob, error: str, *, attempts: int = 1) -> DeadLetter:
        """Store ``job`` as a dead letter (merged with the key's existing one) and return it.

        The key's letter is read, merged and written under the user's update
        lock, so a retry or another writer settling it meanwhile loses nothing;
        one that cannot be read is kept, and this one gets the key's next id.

        Raises:
            InvalidArgumentError: ``job`` is not an :class:`UpdateJob`, ``error``
                not text or ``attempts`` not an int; nothing is written.
        """
        expect(job, UpdateJob, "job", "an UpdateJob")
        expect_text(error, "error")
        expect_number(attempts, "attempts", integer=True)
        storage = self.storage

        def make(letter_id: str | None) -> DeadLetter:
            # Read under the lock: a delete of the memory that ran first has fenced its keys.
            fenced = None
            try:
                document: MemoryDocument | None = storage.load(job.user_id, job.agent_name)
                if document is not None:  # what a delete fenced is not kept in a letter either
                    fenced = fenced_keys(storage, document, clean_text(job.thread_id) or "unknown")
            except Exception:
                document = None  # keep every message: the watermark cannot be read
            existing = None
            if letter_id is None:
                letter_id, existing = letter_slot(storage, *job.key)
            return dead_letter_for(
                job,
                error,
                attempts=job.attempts + attempts,
                document=document,
                existing=existing,
                fenced=fenced,
                letter_id=letter_id,
            )

        timeout = self.config.update_lock_timeout_seconds
        return write_letter(storage, job.key, make, timeout)

    def dead_letters(self, user_id: str | None = None) -> list[DeadLetter]:
        """Updates that failed for good, oldest first (``deerflow-memory pending``).

        This service's scope only: a tenant's are ``for_tenant(t).dead_letters()``.

        Raises:
            InvalidNameError: ``user_id`` is not text (or None).
        """
        expect_text(user_id, "user_id", InvalidNameError, optional=True)
        return self.storage.list_dead_letters(user_id)

    def retry_dead_letters(
        self, letter_ids: Iterable[str] | None = None, *, user_id: str | None = None
    ) -> list[RetriedLetter]:
        """Run dead letters again now, on this thread (``deerflow-memory retry``).

        Each letter whose update is saved (or has nothing to learn) is removed;
        one that fails again stays, with its attempts and error updated. The
        letters of one thread run as one update (each message once); letters
        another retry is running at the same time are not run (``busy``). This
        service's scope only: a tenant's are ``for_tenant(t).retry_dead_letters()``.

        Raises:
            InvalidArgumentError: ``letter_ids`` is not a list of ids (a single id
                as a bare string, ...), or None.
            InvalidNameError: ``user_id`` is not text (or None).
        """
        self._in_made_process()
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
        (what it requeues or dead-letters too; damaged dead letters whose
        owner can be read are deleted, those whose owner cannot are left and
        named in a WARNING log), and
        the document is replaced by an empty one that only records which
        messages were already read (see :mod:`deerflow_memory.update.forget`),
        so old threads are not extracted again. Its revision continues after
        the deleted one (revisions never restart), so an edit sent with a
        revision read before the delete is refused, however far the next
        memory gets. Used by the HTTP ``DELETE`` route
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
            ConfigError: ``timeout`` is not seconds (>= 0) or None.
            InvalidArgumentError: ``store`` is not a LangGraph ``BaseStore`` or None.
        """
        user_id = validate_name(user_id, "user_id")
        agent_name = None if agent_name is None else validate_name(agent_name, "agent_name")
        timeout = check_timeout(timeout)
        _check_tenant_and_store(tenant_id, store)
        self._in_made_process()
        while True:  # leased: a tenant's service is not closed while it deletes
            service = self._for_tenant(tenant_id, store)
            if service._hold():
                break
        try:
            return self._clear_with(service, user_id, agent_name, store, timeout)
        finally:
            service._let_go()

    def _clear_with(
        self,
        service: MemoryService,
        user_id: str,
        agent_name: str | None,
        store: BaseStore | None,
        timeout: float | None,
    ) -> bool:
        storage = service._storage_for(store)
        wait = service.config.update_lock_timeout_seconds if timeout is None else timeout

        def mine(job: UpdateJob) -> bool:
            return of_memory(job.user_id, job.agent_name, user_id, agent_name)

        def collect() -> list[tuple[str, Sequence[BaseMessage]]]:
            # Under the update lock: no update of this memory runs in any process.
            durable = service.durable
            if durable is None:
                return [(job.thread_id, job.messages) for job in service.queue.discard(mine)]
            # Records other processes left: queued, to be dropped with the rest.
            durable.restore(service.queue, durable.outbox.poll())
            dropped = [to_pending(job) for job in service.queue.discard(mine)]
            return outbox_leftovers(durable.outbox, user_id, agent_name, dropped)

        cleared = clear_memory(
            storage,
            user_id,
            agent_name,
            collect=collect,
            lock_timeout=wait,
            wait_idle=lambda seconds: service.queue.wait_user_idle(user_id, seconds),
        )
        logger.info("memory of user=%s agent=%s deleted", user_id, agent_name)
        if cleared.unattributed:
            logger.warning(
                "memory of user=%s agent=%s deleted, but %d unreadable dead letter(s) whose "
                "owner cannot be read were left (they may hold this user's words): %s",
                user_id,
                agent_name,
                len(cleared.unattributed),
                ", ".join(bad.location for bad in cleared.unattributed),
            )
        return cleared.existed

    def _report(self, failure: FailedUpdate) -> None:
        # The deque and collectors are the root service's, shared by its tenants.
        self.recent_failures.append(UpdateFailure(time.time(), failure))
        with self._failures_lock:
            if failure.outcome == "store_closed":  # this service's close() reports how many
                self._store_closed_count += 1
            for collector in self._failure_collectors:
                collector.append(failure)

    def _family(self) -> list[MemoryService]:
        """This service and, for the root, every open tenant service."""
        return [self] if self._pool is None else [self, *self._pool.services()]

    def _collected(self, run: Callable[[list[FailedUpdate]], FlushResult]) -> FlushResult:
        """``run(collector)`` while failures reported by any tenant land in ``collector``."""
        self._in_made_process()
        collector: list[FailedUpdate] = []
        with self._failures_lock:
            self._failure_collectors.append(collector)
        try:
            return run(collector)
        finally:
            with self._failures_lock:
                # By identity: list.remove compares by value, and two flushes running at
                # once collect the same failures (equal lists): it took the wrong one out.
                self._failure_collectors[:] = [
                    c for c in self._failure_collectors if c is not collector
                ]

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

        Raises:
            ConfigError: ``timeout`` is not seconds (>= 0) or None.
        """
        return self._flush(check_timeout(timeout))

    def _flush(self, timeout: float | None) -> FlushResult:
        """:meth:`flush` with ``timeout`` already checked (by :func:`check_timeout`)."""
        self.access.flush()

        def run(collector: list[FailedUpdate]) -> FlushResult:
            end = None if timeout is None else time.monotonic() + timeout
            with self._parking_paused(end):
                return flush_all(collector, end)

        def flush_all(collector: list[FailedUpdate], end: float | None) -> FlushResult:
            scanner = self._tenant_scanner  # a bound store's tenants with work left
            if scanner is not None and scanner is not threading.current_thread():
                scanner.join(seconds_left(end))
            services = self._family()
            for service in services:  # each step waits only for what is left of the timeout
                if service.durable is not None:
                    service.durable.wait_recovered(seconds_left(end))
            drained = _in_parallel([s.queue.flush for s in services], seconds_left(end))
            pending = sum(
                s.queue.pending_count + s.queue.running_count
                for s, ok in zip(services, drained, strict=True)
                if not ok
            )
            # Then parked tenants, one at a time: each flushed one makes room for the next.
            parked_ok, left = self._drain_parked(seconds_left(end), closing=False)
            pending += left
            return FlushResult(parked_ok and all(drained), self._mine(collector), pending)

        return self._collected(run)

    def flush_tenant(
        self, tenant_id: str, timeout: float | None = None, store: BaseStore | None = None
    ) -> FlushResult:
        """:meth:`flush` of tenant ``tenant_id`` alone (the ``?tenant=`` flush route).

        The tenant's service is opened only when it is open or parked already, or
        its outbox holds updates a stopped process left; otherwise there is
        nothing to run and nothing is opened or created.

        Raises:
            InvalidNameError: unsafe ``tenant_id``.
            UnknownTenantError: refused by ``only_configured_tenants``.
            ConfigError: ``timeout`` is not seconds (>= 0) or None.
            InvalidArgumentError: ``store`` is not a LangGraph ``BaseStore`` or None.
        """
        timeout = check_timeout(timeout)
        expect_store(store, optional=True)
        service = self._tenant_pool.with_work(tenant_id, store)
        return FlushResult(True) if service is None else service._flush(timeout)

    def flush_user(
        self,
        user_id: str,
        timeout: float | None = None,
        *,
        tenant_id: str | None = None,
        store: BaseStore | None = None,
    ) -> FlushResult:
        """Run one user's pending updates now (in one tenant) and wait; the others keep waiting.

        The flush route's rule for an authenticated caller: they may hurry their
        own updates (model calls), not every user's. Other users' updates keep
        their deadlines and are not waited for.

        Args:
            user_id: the memory user id (validated; an auth identity mapped by
                :func:`~deerflow_memory.identity.user_id_for_identity`).
            timeout: seconds to wait; None waits as long as it takes.
            tenant_id: the tenant whose queue holds them (None: no tenant). Its
                service is opened only as :meth:`flush_tenant` would.
            store: the graph's store, for ``storage="store"``.

        Returns:
            A :class:`FlushResult` of this user's updates alone: ``failed`` holds
            only theirs (in that tenant), ``pending`` how many are still queued
            or running.

        Raises:
            InvalidNameError: unsafe ``user_id`` or ``tenant_id``.
            UnknownTenantError: refused by ``only_configured_tenants``.
            ConfigError: ``timeout`` is not seconds (>= 0) or None.
            InvalidArgumentError: ``store`` is not a LangGraph ``BaseStore`` or None.
        """
        timeout = check_timeout(timeout)
        user = validate_name(user_id, "user_id")
        _check_tenant_and_store(tenant_id, store)
        root = self._parent or self
        service = root if tenant_id is None else self._tenant_pool.with_work(tenant_id, store)
        if service is None:
            return FlushResult(True)
        root.access.flush()

        def run(collector: list[FailedUpdate]) -> FlushResult:
            end = None if timeout is None else time.monotonic() + timeout
            if service.durable is not None:
                service.durable.wait_recovered(seconds_left(end))
            drained = service.queue.flush(seconds_left(end), user_id=user)
            failed = tuple(
                f for f in collector if f.user_id == user and f.tenant_id == service.tenant_id
            )
            return FlushResult(drained, failed, 0 if drained else service.queue.user_backlog(user))

        return root._collected(run)

    def _parking_paused(self, end: float | None) -> AbstractContextManager[None]:
        """While flushing or closing: nothing is parked (root: :meth:`TenantPool.paused`)."""
        return nullcontext() if self._pool is None else self._pool.paused(end)

    def _drain_parked(self, timeout: float | None, *, closing: bool) -> tuple[bool, int]:
        """Reopen and flush the parked tenants (root: :meth:`TenantPool.drain_parked`)."""
        if self._pool is None:
            return True, 0
        return self._pool.drain_parked(timeout, closing=closing)

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
        # Checked here: the workers read it only when an update fails, on their threads.
        expect(policy, RetryPolicy, "retry_policy", "a RetryPolicy")
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

        Raises:
            ConfigError: ``timeout`` is not seconds (>= 0) or None.
        """
        return self._close(check_timeout(timeout))  # checked before anything is marked closed

    def _close(self, timeout: float | None) -> FlushResult:
        """:meth:`close` with ``timeout`` already checked (by :func:`check_timeout`)."""
        if self._forked():
            # A forked child's copy: its queue and outbox are the parent's to finish (no
            # lock is taken: one a parent's thread held at the fork stays held here).
            self._closed = True
            _OPEN_SERVICES.discard(self)
            return FlushResult(True)
        with self._tenants_lock:
            if self._closed:
                return FlushResult(True)
            self._closed = True
        _OPEN_SERVICES.discard(self)
        wait = self.config.shutdown_flush_timeout_seconds if timeout is None else timeout
        if self._parent is None:
            self.access.close()  # shared with the tenants: only the root closes it
        if self._pool is not None:
            self._pool.stop()  # the waker sees _closed and stops; the scans are joined

        def run(collector: list[FailedUpdate]) -> FlushResult:
            end = time.monotonic() + wait
            with self._parking_paused(end):
                return close_all(collector, end)

        def close_all(collector: list[FailedUpdate], end: float) -> FlushResult:
            parked_ok, parked = self._drain_parked(seconds_left(end), closing=True)
            if parked:
                logger.warning(
                    "memory updates of %d parked tenant(s) still pending at shutdown; they "
                    "stay in the outbox for the next start",
                    parked,
                )
            services = self._family()
            drained = _in_parallel(
                [s.queue.shutdown for s in services], max(0.0, end - time.monotonic())
            )
            pending = parked
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
            return FlushResult(
                parked_ok and all(drained) and written, self._mine(collector), pending
            )

        result = self._collected(run)
        if self._parent is not None:
            self._tenant_pool.forget(self.tenant_id or "", self)
        closer = getattr(self._storage, "close", None)
        if self._owns_storage and callable(closer):
            closer()
        return result

    def _close_outbox(self) -> bool:
        """Stop this service's outbox; False when its last records could not be written
        or updates stopped because the store was closed (then one error line says so)."""
        durable = self.durable
        with self._failures_lock:
            not_run = self._store_closed_count
        if durable is None:
            if not_run:
                log_closed_store(
                    logger, unwritten=0, not_run=not_run, durable=False, tenant_id=self.tenant_id
                )
            return not not_run
        durable.stop_polling()
        try:
            durable.outbox.close()
        except Exception as e:
            if isinstance(e, StoreClosedError):
                log_closed_store(
                    logger,
                    unwritten=durable.outbox.unwritten,
                    not_run=not_run,
                    durable=True,
                    tenant_id=self.tenant_id,
                )
                return False
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
        if not_run:
            log_closed_store(
                logger, unwritten=0, not_run=not_run, durable=True, tenant_id=self.tenant_id
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


T = TypeVar("T")


def _storage_opened(config: MemoryConfig, make: Callable[[], T]) -> T:
    """``make()``; an operating-system error (``storage_path`` a file, a name too long, a
    folder it may not write) is raised as a :class:`StorageError` naming the path."""
    try:
        return make()
    except DeerflowMemoryError:
        raise
    except OSError as e:
        reason = e.strerror or str(e) or type(e).__name__
        where = f": {e.filename}" if e.filename is not None else ""
        raise StorageError(
            f"cannot use the memory storage at {config.storage_path} ({reason}{where})"
        ) from e


def _kept_dead(outbox: Outbox, job: UpdateJob, error: str) -> bool:
    """Keep ``job``'s outbox record as dead (never run again by itself); False if it can't be."""
    try:
        outbox.dead_letter(to_pending(job), error)
    except Exception:
        return False
    return True


def close_open_services(timeout: float | None = None) -> bool:
    """Flush and close every open :class:`MemoryService` of this process.

    Runs at interpreter exit (``atexit``); server shutdown hooks use
    :func:`~deerflow_memory.lifecycle.shutdown.memory_lifespan` or
    :func:`~deerflow_memory.lifecycle.shutdown.install_shutdown_handler`
    (``langgraph dev`` ends on SIGTERM without running ``atexit`` handlers).
    ``timeout`` applies to each service (:func:`close_services`).

    Returns:
        True when every pending update finished in time and none failed.

    Raises:
        ConfigError: ``timeout`` is not seconds (>= 0) or None.
    """
    return close_services(open_services(), check_timeout(timeout), "exit")


def close_services(services: Iterable[MemoryService], timeout: float | None, reason: str) -> bool:
    """Flush and close each of ``services`` in turn, ``timeout`` each.

    One whose close raises is logged ("flushing memory on <reason> failed") and the
    next ones are still closed: what it left pending stays in the outbox for the
    next start. The one loop of process exit, the ASGI lifespans and the signal
    handler.

    Returns:
        True when every service drained in time and none raised.
    """
    drained = True
    for service in services:
        try:
            drained = bool(service.close(timeout)) and drained
        except Exception:
            logger.exception("flushing memory on %s failed", reason)
            drained = False
    return drained


def open_services() -> list[MemoryService]:
    """The services of this process that are open, registered for exit (``register_atexit``)."""
    return list(_OPEN_SERVICES)


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

    threads = [daemon_thread(run, "memory-tenant-flush", (i,)) for i in range(1, len(calls))]
    for thread in threads:
        thread.start()
    try:
        results[0] = calls[0](timeout)
    finally:
        for thread in threads:
            thread.join()
    return results
