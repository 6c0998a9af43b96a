"""``TenantPool``: the open tenant services of one root memory service.

A run whose identity has a ``tenant_id`` is served by a child service of the
root (``MemoryService.for_tenant``): the storage's tenant view, the tenant's
config, its own queue, outbox and dead letters. The root owns one
:class:`TenantPool`, which holds those children and bounds them:

- **Bound.** At most ``config.max_open_tenants`` are open. Opening one more
  first closes the least recently used *idle* one (nothing queued or running),
  or else *parks* one whose queued updates all wait in a durable outbox
  (none running): its queue is emptied (the records stay in the outbox), it
  is closed, and it is reopened when the first update is due or on its next
  use. A service in use by an enqueue (a lease, :meth:`TenantPool.hold`) is
  never chosen.
- **Transit.** A tenant being opened or closed has an event in the transit
  table; another thread wanting it waits for the event, then looks again.
- **Threads** (all made by :func:`~deerflow_memory.daemons.daemon_thread`):
  ``memory-tenant-waker`` reopens parked tenants when due (started with the
  first park); ``memory-tenants`` is a bound store's first scan for tenants
  with pending outbox work (:meth:`TenantPool.start_scanner`);
  ``memory-tenant-poller`` scans a shared outbox again each poll.
  :meth:`TenantPool.stop` ends and joins them.
- **Flushes and closes** pause parking (:meth:`TenantPool.paused`): nothing is
  parked and the waker reopens nothing meanwhile, and the parked tenants are
  reopened and flushed one at a time (:meth:`TenantPool.drain_parked`).

Locking: one lock (:attr:`TenantPool.lock`, the root's tenants lock, which
also guards the root's closed flag) guards the open table, the transit and
parked tables, the pause count and each open tenant's :class:`TenantSlot`.
It is held only for table reads and writes (and to start the waker): never
while a service is built, closed, flushed or waited for. The only locks taken
under it are the tenant queues' own (their counts and ``wait_idle(0)`` while
choosing victims); a tenant service's own lock is never held while taking it.
The open table is also read without the lock (one dict lookup) on the hot
path, as before the pool existed.

The pool makes tenant services through the factory the root passes in; it
never imports the service module (the service imports the pool).
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from deerflow_memory.config import MemoryConfig
from deerflow_memory.daemons import daemon_thread
from deerflow_memory.errors import ConfigError, UnknownTenantError
from deerflow_memory.logs import package_logger
from deerflow_memory.storage.names import validate_name
from deerflow_memory.update.timeouts import seconds_left

if TYPE_CHECKING:
    from langgraph.store.base import BaseStore

    from deerflow_memory.storage.base import MemoryStorage
    from deerflow_memory.update.durable import DurableUpdates
    from deerflow_memory.update.queue import MemoryUpdateQueue

__all__ = ["TenantPool", "TenantService", "TenantSlot"]

# The records keep the logger of the service they were moved from, so log
# configurations that name ``deerflow_memory.service`` still see them.
logger = package_logger("deerflow_memory.service")

_USES = itertools.count(1)  # recency of a tenant service's use, for least-recently-used closing
_WAKE_RETRY_SECONDS = 5.0  # a parked tenant that could not be reopened is tried again after this


class TenantService(Protocol):
    """What the pool uses of a tenant's service (``MemoryService`` is one)."""

    @property
    def queue(self) -> MemoryUpdateQueue:
        """Its update queue (counts, deadlines, discard, flush)."""
        ...

    @property
    def durable(self) -> DurableUpdates | None:
        """Its durable outbox connection; None without an outbox (it is never parked)."""
        ...

    def close(self, timeout: float | None = None) -> object:
        """Flush for up to ``timeout`` seconds and stop its workers."""
        ...


S = TypeVar("S", bound=TenantService)


@dataclass(slots=True)
class TenantSlot:
    """A tenant service's place in its root's pool; guarded by :attr:`TenantPool.lock`.

    Attributes:
        used: recency of its last use (higher: more recent), for least-recently-used
            closing (written without the lock by a lookup, as a plain int store).
        leases: enqueues running on it now: it is not closed meanwhile.
        evicted: closed by the pool to bound open tenants; its callers go to a new
            service (read without the lock on the hot path).
    """

    used: int = 0
    leases: int = 0
    evicted: bool = False


@dataclass(slots=True)
class _Open(Generic[S]):
    """An open tenant service and its slot."""

    service: S
    slot: TenantSlot


class TenantPool(Generic[S]):
    """The open tenant services of one root service, bounded by ``max_open_tenants``.

    See the module docstring for the bound, the threads and the locking rules.

    Args:
        config: the root's settings (``max_open_tenants``, ``tenants``,
            ``only_configured_tenants``, ``shutdown_flush_timeout_seconds``,
            ``outbox_poll_seconds``).
        make: ``make(tenant_id, config, storage, slot)``, a new open service of a
            tenant reading and writing ``storage`` (its tenant view) with ``config``,
            whose place in the pool is ``slot`` (it reads ``slot.evicted``, and
            passes ``slot`` to :meth:`hold`).
        storage_for: the root's storage for a run's store (binds it for
            ``storage="store"``); tenant views are ``.scoped(tenant_id)`` of it.
        durable: the root's outbox connection now (None before a store is bound
            or without an outbox).
        closed: whether the root is closed (read under :attr:`lock`).
        lock: the root's tenants lock (it guards the root's closed flag too).
    """

    def __init__(
        self,
        config: MemoryConfig,
        *,
        make: Callable[[str, MemoryConfig, MemoryStorage, TenantSlot], S],
        storage_for: Callable[[BaseStore | None], MemoryStorage],
        durable: Callable[[], DurableUpdates | None],
        closed: Callable[[], bool],
        lock: threading.Lock,
    ) -> None:
        self._config = config
        self._make = make
        self._storage_for = storage_for
        self._durable = durable
        self._closed = closed
        self.lock = lock
        """Guards every table of the pool and each open tenant's slot."""
        self._open: dict[str, _Open[S]] = {}
        # Tenants being opened or closed (others wait for the event), tenants closed
        # with updates still in their outbox (-> wall time the first is due), and
        # tenant configs with overrides (built once).
        self._transit: dict[str, threading.Event] = {}
        self._parked: dict[str, float] = {}
        self._parked_changed = threading.Event()
        self._waker: threading.Thread | None = None
        self._no_parking = 0  # > 0 while flushing: only idle tenants are closed
        self._tenant_configs: dict[str, MemoryConfig] = {}
        self._watch = threading.Event()  # set: stop looking for tenants' pending work
        self._watcher: threading.Thread | None = None
        self.scanner: threading.Thread | None = None
        """A bound store's first scan for tenants with pending work (None: not started)."""

    # --- lookups ------------------------------------------------------------

    def get(self, tenant_id: str) -> S | None:
        """The open service of ``tenant_id``, or None; opens nothing (no lock, no use)."""
        entry = self._open.get(tenant_id)
        return None if entry is None else entry.service

    def name(self, tenant_id: str) -> str:
        """``tenant_id`` validated, and refused when the allow-list does not name it.

        Raises:
            InvalidNameError: unsafe ``tenant_id``.
            UnknownTenantError: ``only_configured_tenants`` is on and ``tenants:``
                does not name it.
        """
        tenant_id = validate_name(tenant_id, "tenant_id")
        if self._config.only_configured_tenants and tenant_id not in self._config.tenants:
            raise UnknownTenantError(tenant_id)
        return tenant_id

    def config_of(self, tenant_id: str) -> MemoryConfig:
        """``config.for_tenant(tenant_id)``, built once for a tenant with overrides."""
        if tenant_id not in self._config.tenants:
            return self._config
        config = self._tenant_configs.get(tenant_id)
        if config is None:
            config = self._tenant_configs[tenant_id] = self._config.for_tenant(tenant_id)
        return config

    def tenants(self) -> tuple[str, ...]:
        """Tenant ids whose services are open (sorted)."""
        with self.lock:  # another thread may be opening one
            return tuple(sorted(self._open))

    def parked(self) -> tuple[str, ...]:
        """Tenant ids closed to bound open tenants whose updates wait in their outbox (sorted)."""
        with self.lock:
            return tuple(sorted(self._parked))

    def services(self) -> list[S]:
        """The open tenant services (a snapshot)."""
        with self.lock:
            return [entry.service for entry in self._open.values()]

    # --- opening and closing ------------------------------------------------

    def serve(self, tenant_id: str, store: BaseStore | None) -> S:
        """The service of ``tenant_id``: the open one (marked used), else opened.

        Raises:
            InvalidNameError, UnknownTenantError: as :meth:`name` (checked when opening).
            ConfigError: the backend cannot scope by tenant, or the root is closed.
        """
        entry = self._open.get(tenant_id)
        if entry is not None:
            entry.slot.used = next(_USES)
            return entry.service
        opened = self.open(self.name(tenant_id), store)
        assert opened is not None
        return opened

    def open(
        self, tenant_id: str, store: BaseStore | None, *, closing: bool = False, wake: bool = False
    ) -> S | None:
        """Open (or wait for) tenant ``tenant_id``'s service, closing others over the bound.

        ``closing``: the root's ``close()`` reopens parked tenants to run their updates.
        ``wake``: the waker reopens a parked tenant; None (nothing done) when it is
        not parked any more or a flush is draining the parked tenants itself.
        """
        storage = self._storage_for(store).scoped(tenant_id)
        while True:
            with self.lock:
                entry = self._open.get(tenant_id)
                if entry is not None:
                    entry.slot.used = next(_USES)
                    return entry.service
                if self._closed() and not closing:
                    raise ConfigError("this MemoryService is closed; it serves no more tenants")
                if wake and (self._no_parking or tenant_id not in self._parked):
                    return None
                busy = self._transit.get(tenant_id)
                if busy is None:
                    opening = self._transit[tenant_id] = threading.Event()
                    victims = self._choose_victims()
                    was_parked = self._parked.pop(tenant_id, None)
                    break
            busy.wait()  # it is being opened or closed by another thread: then look again
        child: S | None = None
        slot = TenantSlot()
        try:
            for victim, service, park in victims:
                self._retire(victim, service, park)
            # A parked tenant's records are in the journal its closed service left: recovered here.
            child = self._make(tenant_id, self.config_of(tenant_id), storage, slot)
        finally:
            with self.lock:
                if child is not None:
                    slot.used = next(_USES)
                    self._open[tenant_id] = _Open(child, slot)
                elif was_parked is not None:
                    self._parked[tenant_id] = was_parked
                del self._transit[tenant_id]
            opening.set()
        return child

    def _choose_victims(self) -> list[tuple[str, S, bool]]:
        """Under the lock: the services to close so that one more fits the bound.

        Least recently used first: idle ones (closed), then ones whose queued updates
        are all in a durable outbox and none running (parked). One in use is never chosen.
        Each is (tenant, service, park).
        """
        excess = len(self._open) + 1 - self._config.max_open_tenants
        if excess <= 0:
            return []
        by_age = sorted(self._open.items(), key=lambda item: item[1].slot.used)
        free = [(t, e) for t, e in by_age if not e.slot.leases]
        victims = [
            (t, e, False)
            for t, e in free
            if e.service.queue.pending_count == 0 and e.service.queue.wait_idle(0)
        ]
        victims = victims[:excess]
        if len(victims) < excess and not self._no_parking:
            chosen = {t for t, _, _ in victims}
            victims += [
                (t, e, True)
                for t, e in free
                if t not in chosen
                and e.service.durable is not None
                and e.service.queue.running_count == 0
            ][: excess - len(victims)]
        for tenant, entry, _ in victims:
            entry.slot.evicted = True
            del self._open[tenant]
            self._transit[tenant] = threading.Event()
        return [(tenant, entry.service, park) for tenant, entry, park in victims]

    def _retire(self, tenant: str, child: S, park: bool) -> None:
        """Close a tenant service chosen by :meth:`_choose_victims` (outside the lock)."""
        due: float | None = None
        try:
            if park:
                deadline = child.queue.next_deadline  # None when only dispatched jobs are left
                # Still recorded in the outbox: they run when the tenant is reopened.
                if child.queue.discard(lambda job: True):
                    due = time.time()
                    if deadline is not None:
                        due += max(0.0, deadline - time.monotonic())
            child.close(self._config.shutdown_flush_timeout_seconds)
        except Exception:
            logger.exception("closing the service of tenant %r failed", tenant)
            due = time.time() + _WAKE_RETRY_SECONDS if park else None
        finally:
            with self.lock:
                if due is not None:
                    self._park(tenant, due)
                self._transit.pop(tenant).set()

    def _park(self, tenant_id: str, due: float) -> None:
        """Under the lock: reopen ``tenant_id`` at wall time ``due`` (a waker thread)."""
        if self._closed():
            return
        earlier = self._parked.get(tenant_id)
        self._parked[tenant_id] = due if earlier is None else min(due, earlier)
        if self._waker is None:
            self._waker = daemon_thread(self._wake_parked, "memory-tenant-waker")
            self._waker.start()
        self._parked_changed.set()

    def _wake_parked(self) -> None:
        # The waker thread: reopens each parked tenant when its first update is due.
        while True:
            with self.lock:
                if self._closed():
                    return
                now = time.time()
                paused = self._no_parking > 0  # a flush drains them; woken when it ends
                due = [] if paused else [t for t, at in self._parked.items() if at <= now]
                nearest = None if paused else min(self._parked.values(), default=None)
            for tenant in due:
                try:
                    self.open(tenant, None, wake=True)
                except Exception:
                    logger.exception("could not reopen tenant %r for its due updates", tenant)
                    with self.lock:
                        self._park(tenant, time.time() + _WAKE_RETRY_SECONDS)
            if not due:
                wait = 60.0 if nearest is None else min(60.0, max(0.0, nearest - time.time()))
                self._parked_changed.wait(wait)
                self._parked_changed.clear()

    def forget(self, tenant_id: str, service: S) -> None:
        """A tenant service closed itself: drop it from the open table (if still there)."""
        with self.lock:
            entry = self._open.get(tenant_id)
            if entry is not None and entry.service is service:
                del self._open[tenant_id]

    # --- leases -------------------------------------------------------------

    def hold(self, slot: TenantSlot) -> bool:
        """Lease a tenant service for an enqueue; False once it was closed (use a new one)."""
        with self.lock:
            if slot.evicted:
                return False
            slot.leases += 1
            return True

    def let_go(self, slot: TenantSlot) -> None:
        """End a lease :meth:`hold` gave."""
        with self.lock:
            slot.leases -= 1

    # --- tenants with work left by a stopped process ------------------------

    def start_scanner(self) -> None:
        """Look for tenants with pending work on a ``memory-tenants`` thread (a bound store).

        :meth:`stop` joins it before the store may be closed: a thread still
        reading a closed SQLite connection can crash the process.
        """
        scanner = daemon_thread(self.open_pending, "memory-tenants")
        self.scanner = scanner
        scanner.start()

    def open_pending(self) -> None:
        """Open each tenant whose outbox holds updates a stopped process left.

        Opening one recovers and runs them; tenants with nothing pending stay
        closed. A shared outbox (store backends) is then scanned again each
        ``outbox_poll_seconds`` on a ``memory-tenant-poller`` thread.
        """
        if self._closed():
            return
        self._scan()
        durable = self._durable()
        if durable is None or not durable.outbox.shared:
            return
        # A shared outbox (store backends) is polled: a replica that dies later may
        # leave work in a tenant this process has not opened, so look again each poll.
        with self.lock:
            if self._watcher is not None or self._closed():
                return
            interval = self._config.outbox_poll_seconds
            stop = self._watch

            def watch() -> None:
                while not stop.wait(interval) and not self._store_is_closed():
                    self._scan()

            self._watcher = daemon_thread(watch, "memory-tenant-poller")
            self._watcher.start()

    def _scan(self) -> None:
        from deerflow_memory.storage.tenants import tenants_with_pending_updates

        try:
            pending = tenants_with_pending_updates(self._storage_for(None))
        except Exception as e:
            durable = self._durable()
            if durable is not None and durable.stopped_by_closed_store(e, "tenant scan"):
                return  # close() reports it
            logger.exception("could not look for tenants with pending memory updates")
            return
        for tenant_id in pending:
            with self.lock:
                if self._closed():
                    return
                # Open, being opened or closed, or parked here: this process runs them.
                if tenant_id in self._open or tenant_id in self._transit:
                    continue
                if tenant_id in self._parked:
                    continue
            try:
                self.serve(tenant_id, None)
            except Exception:
                logger.exception("could not recover the pending memory updates of %r", tenant_id)

    def _store_is_closed(self) -> bool:
        durable = self._durable()
        return durable is not None and durable.outbox.store_closed is not None

    def with_work(self, tenant_id: str, store: BaseStore | None) -> S | None:
        """Tenant ``tenant_id``'s service, or None when it is not open, parked or
        opening and its outbox holds nothing: a flush then opens nothing.

        Raises:
            InvalidNameError: unsafe ``tenant_id``; ``UnknownTenantError`` as :meth:`name`.
        """
        from deerflow_memory.storage.tenants import has_pending_updates

        tenant = self.name(tenant_id)
        with self.lock:
            known = tenant in self._open or tenant in self._parked or tenant in self._transit
        if not known and not has_pending_updates(self._storage_for(store), tenant):
            return None
        return self.serve(tenant, store)

    # --- flushing and closing -----------------------------------------------

    @contextmanager
    def paused(self, end: float | None) -> Iterator[None]:
        """While flushing or closing: nothing is parked and the waker reopens nothing.

        Tenants being opened or closed when it starts are waited for (until
        monotonic ``end``), so each is then open (flushed) or parked (drained).
        """
        with self.lock:
            self._no_parking += 1
            moving = list(self._transit.values())
        try:
            for event in moving:
                event.wait(seconds_left(end))
            yield
        finally:
            with self.lock:
                self._no_parking -= 1
            self._parked_changed.set()

    def drain_parked(self, timeout: float | None, *, closing: bool) -> tuple[bool, int]:
        """Reopen and flush each parked tenant in turn; (all drained, tenants left parked).

        Call it within :meth:`paused`: only idle tenants are closed meanwhile
        (none parked), so a flushed one makes room for the next.
        """
        end = None if timeout is None else time.monotonic() + timeout
        drained = True
        try:
            while True:
                with self.lock:
                    tenant = min(self._parked, key=self._parked.__getitem__, default=None)
                if tenant is None:
                    break
                wait = None if end is None else end - time.monotonic()
                if wait is not None and wait <= 0:
                    drained = False
                    break
                try:
                    child = self.open(tenant, None, closing=closing)
                    assert child is not None
                    if child.durable is not None:
                        child.durable.wait_recovered(wait)
                    drained = child.queue.flush(wait) and drained
                except Exception:
                    logger.exception("could not flush the parked tenant %r", tenant)
                    drained = False
                    break
        finally:
            with self.lock:
                left = len(self._parked)
        return drained, left

    def stop(self) -> None:
        """The root is closing: stop the poller and the waker, and join the pool's threads.

        Call it after marking the root closed (the waker sees that and ends).
        The first scan is joined first: it may start the poller (not once closed).
        """
        self._watch.set()
        self._parked_changed.set()  # the waker sees the root closed and stops
        scanner = self.scanner  # first: it may start the watcher (not once closed)
        if scanner is not None and scanner is not threading.current_thread():
            scanner.join(timeout=5)
        for helper in (self._watcher, self._waker):
            if helper is not None and helper is not threading.current_thread():
                helper.join(timeout=5)
