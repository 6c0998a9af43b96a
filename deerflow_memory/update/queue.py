"""``MemoryUpdateQueue``: debounced, per-key scheduling of memory updates onto worker threads.

The capture node calls :meth:`MemoryUpdateQueue.add` on the agent's hot path;
it only records the conversation under its key ``(thread_id, user_id,
agent_name)`` and returns. A newer conversation for the same key replaces the
queued one when it holds all of its messages (a checkpointed thread's growing
history); otherwise the two are merged, the queued one's missing messages
first (:func:`~deerflow_memory.update.union.merge_messages`: turns without a
checkpointer, stateless clients, ``Send`` branches sharing one config). The
correction/reinforcement flags are OR-merged, and each add
pushes that key's deadline to ``now + debounce_seconds`` — but never past
``first_enqueued + max_wait_seconds``, so steady traffic cannot starve an
update. Deadlines are per key: one busy user never delays another.
:meth:`~MemoryUpdateQueue.add_nowait` (the summarization hook) makes the
key due at once, and its messages — about to leave the graph's history — are
merged with, never replaced by, later adds for that key.

A daemon scheduler thread sleeps until the earliest deadline and hands due
jobs to ``max_workers`` daemon worker threads. Jobs of the same ``user_id``
never run concurrently: a due job whose user is busy waits and runs after.

Failure behaviour: a handler exception is logged with the job's key and the
workers carry on. After :meth:`~MemoryUpdateQueue.shutdown`, ``add`` drops the
conversation with a warning instead of raising, because it is called from the
agent's turn, which a memory problem must never break. Jobs still pending when
``flush``/``shutdown`` time out are reported (return value ``False``, a
warning) and lost with the process, unless ``on_enqueue`` records them in a
durable outbox (what ``MemoryService`` does): then the next process runs them. A handler may
:meth:`~MemoryUpdateQueue.requeue` a job that failed transiently: it comes back
after its backoff, merged with anything newer for the same key.

Why not ``concurrent.futures.ThreadPoolExecutor``: its workers are joined, and
new submissions refused, *before* ``atexit`` handlers run, so an atexit drain
could not schedule the pending jobs; and one hung model call would block
interpreter exit. The small pool here uses daemon threads instead.
"""

from __future__ import annotations

import atexit
import heapq
import itertools
import math
import threading
import time
import uuid
import weakref
from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from deerflow_memory.arguments import expect_number, wrong_type
from deerflow_memory.daemons import daemon_thread
from deerflow_memory.errors import ConfigError
from deerflow_memory.logs import package_logger
from deerflow_memory.update.clock import Clock, FakeClock, SystemClock
from deerflow_memory.update.timeouts import check_timeout
from deerflow_memory.update.union import merge_messages

if TYPE_CHECKING:
    from langchain_core.messages import BaseMessage

# The clocks live in deerflow_memory.update.clock; they are re-exported here for tests.
__all__ = [
    "Clock",
    "FakeClock",
    "MemoryUpdateQueue",
    "SystemClock",
    "UpdateJob",
]

logger = package_logger(__name__)

JobKey = tuple[str, str, str | None]


@dataclass(frozen=True, slots=True)
class UpdateJob:
    """One conversation waiting for (or undergoing) a memory update."""

    thread_id: str
    user_id: str
    agent_name: str | None
    messages: tuple[BaseMessage, ...]
    correction_detected: bool = False
    reinforcement_detected: bool = False
    record_id: str = ""  # this capture's id in the durable outbox ("" without one)
    attempts: int = 0
    """Attempts already made for this job (a requeued job carries them on)."""
    first_failed_at: float | None = None
    """Wall-clock time (``time.time()``) of the job's first failure, for the retry window."""

    @property
    def key(self) -> JobKey:
        """``(thread_id, user_id, agent_name)``: newer conversations replace older ones per key."""
        return (self.thread_id, self.user_id, self.agent_name)


def _joined(job: UpdateJob, other: UpdateJob, messages: tuple[BaseMessage, ...]) -> UpdateJob:
    """``job`` holding ``messages`` (its union with ``other``'s), flags OR-merged with it."""
    return replace(
        job,
        messages=messages,
        correction_detected=job.correction_detected or other.correction_detected,
        reinforcement_detected=job.reinforcement_detected or other.reinforcement_detected,
    )


@dataclass(slots=True)
class _Entry:
    job: UpdateJob
    first_enqueued: float
    deadline: float
    seq: int
    urgent: bool = False  # queued by add_nowait: merged with later adds, never replaced
    retry_at: float | None = None  # requeued after a failure: merged, and not due before this


class MemoryUpdateQueue:
    """Debounced queue of memory updates, processed by a small pool of daemon threads.

    Args:
        handler: called with each due :class:`UpdateJob` on a worker thread; its
            return value is ignored and its exceptions are logged.
        debounce_seconds: quiet time after the last ``add`` of a key before it runs.
        max_wait_seconds: longest a key's update may be postponed by new adds,
            counted from its first ``add`` since it last ran.
        max_workers: worker threads (handler calls running at once).
        clock: time source; :class:`FakeClock` in tests.
        on_enqueue: called with ``(job, delay_seconds, urgent)`` for every add,
            under the queue's lock, so records reach a durable outbox in the
            order the queue saw them; it must not block (the capture hot path).

    Example:
        >>> with MemoryUpdateQueue(print, debounce_seconds=0.1) as queue:
        ...     queue.add("thread-1", "alice", None, messages)
    """

    def __init__(
        self,
        handler: Callable[[UpdateJob], object],
        *,
        debounce_seconds: float = 30.0,
        max_wait_seconds: float = 120.0,
        max_workers: int = 2,
        clock: Clock | None = None,
        on_enqueue: Callable[[UpdateJob, float, bool], None] | None = None,
    ) -> None:
        if not callable(handler):
            wrong_type("handler", "a function of an UpdateJob", handler)
        expect_number(debounce_seconds, "debounce_seconds", ConfigError)
        expect_number(max_wait_seconds, "max_wait_seconds", ConfigError)
        expect_number(max_workers, "max_workers", ConfigError, integer=True)
        if debounce_seconds < 0 or max_wait_seconds < 0:
            raise ConfigError("debounce_seconds and max_wait_seconds must be >= 0")
        if max_workers < 1:
            raise ConfigError(f"max_workers must be >= 1, got {max_workers}")
        self._handler = handler
        self._debounce = float(debounce_seconds)
        self._max_wait = float(max_wait_seconds)
        self._max_workers = max_workers
        self._clock: Clock = clock if clock is not None else SystemClock()
        # One condition guards every field below and is the only lock taken on
        # the hot path (add). The scheduler, workers and waiters all sleep on it.
        self._cond = threading.Condition(threading.Lock())
        self._pending: dict[JobKey, _Entry] = {}
        self._heap: list[tuple[float, int, JobKey]] = []  # lazy deletion: stale items skipped
        self._ready: dict[JobKey, None] = {}  # due, waiting for a worker or for its user
        self._dispatch: deque[UpdateJob] = deque()  # handed to workers, not started yet
        self._busy_users: set[str] = set()
        self._in_flight = 0  # dispatched + running
        self._running = 0
        self._seq = itertools.count()
        self._wake_at = math.inf
        # flush() calls running, by the user they flush (None: every user); no zero counts.
        self._flushing: Counter[str | None] = Counter()
        self._closed = False
        self._stopping = False
        self._threads: list[threading.Thread] = []
        self._atexit_hook: Callable[[], None] | None = None
        self._on_enqueue = on_enqueue
        self._record_prefix = f"{uuid.uuid4().hex[:12]}-"
        self._active: dict[JobKey, UpdateJob] = {}  # dispatched or running, by key
        self._left: dict[JobKey, UpdateJob] = {}  # recorded in the outbox after shutdown

    # --- enqueue (agent hot path) -----------------------------------------------

    def add(
        self,
        thread_id: str,
        user_id: str,
        agent_name: str | None,
        messages: Sequence[BaseMessage],
        *,
        correction_detected: bool = False,
        reinforcement_detected: bool = False,
    ) -> None:
        """Queue a conversation for a debounced update and return at once.

        Replaces a conversation already queued for the same key (flags are
        OR-merged) and pushes the key's deadline to ``now + debounce_seconds``,
        capped at its first add + ``max_wait_seconds``. A conversation queued
        by :meth:`add_nowait` is not replaced but merged with this one, and
        stays due at once. After :meth:`shutdown` the conversation is dropped
        with a warning.
        """
        self._enqueue(
            thread_id,
            user_id,
            agent_name,
            messages,
            correction_detected,
            reinforcement_detected,
            False,
        )

    def add_nowait(
        self,
        thread_id: str,
        user_id: str,
        agent_name: str | None,
        messages: Sequence[BaseMessage],
        *,
        correction_detected: bool = False,
        reinforcement_detected: bool = False,
    ) -> None:
        """Like :meth:`add`, but due immediately (the summarization hook's path).

        The hook passes messages that are about to be removed from the graph's
        history, so they must not be lost: this conversation is *merged* with
        the one already queued for the key (and with any added before it runs,
        messages deduplicated by id) instead of replacing it or being replaced.
        """
        self._enqueue(
            thread_id,
            user_id,
            agent_name,
            messages,
            correction_detected,
            reinforcement_detected,
            True,
        )

    def _enqueue(
        self,
        thread_id: str,
        user_id: str,
        agent_name: str | None,
        messages: Sequence[BaseMessage],
        correction: bool,
        reinforcement: bool,
        due_now: bool,
    ) -> None:
        snapshot = tuple(messages)  # copied outside the lock: the caller may keep mutating its list
        key: JobKey = (thread_id, user_id, agent_name)
        with self._cond:
            if self._closed:
                if self._on_enqueue is not None:
                    # Durable outbox: kept for the next process instead of dropped. The
                    # key's record must keep what is still queued or left here before.
                    job = UpdateJob(
                        thread_id,
                        user_id,
                        agent_name,
                        snapshot,
                        correction,
                        reinforcement,
                        f"{self._record_prefix}{next(self._seq)}",
                    )
                    queued = self._pending.get(key)
                    earlier = self._left.get(key) or (queued.job if queued else None)
                    if earlier is not None:
                        job = _joined(job, earlier, merge_messages(earlier.messages, snapshot))
                    self._left[key] = job
                    self._record(job, 0.0, due_now)
                    logger.info("memory update queue is shut down; %s left in the outbox", key)
                    return
                logger.warning("memory update queue is shut down; dropped update for %s", key)
                return
            if not self._threads:
                self._start_threads()
            now = self._clock.monotonic()
            previous = self._pending.get(key)
            urgent = due_now
            retry_at: float | None = None
            attempts, first_failed_at = 0, None
            if previous is not None:
                first = previous.first_enqueued
                correction = correction or previous.job.correction_detected
                reinforcement = reinforcement or previous.job.reinforcement_detected
                attempts = previous.job.attempts
                first_failed_at = previous.job.first_failed_at
                retry_at = previous.retry_at
                # Replaced when this capture holds the queued one's messages (a growing
                # history), else merged: nothing queued is lost (add_nowait's messages
                # are leaving the graph's history, a requeued job's may have left it).
                snapshot = merge_messages(previous.job.messages, snapshot)
                urgent = urgent or previous.urgent
                self._ready.pop(key, None)
            else:
                first = now
            flushing = self._flushing_for(user_id)
            if urgent or flushing:
                deadline = now
            else:
                deadline = min(now + self._debounce, first + self._max_wait)
            if retry_at is not None and not flushing:
                deadline = max(deadline, retry_at)  # a failing model gets its backoff
            seq = next(self._seq)
            record_id = f"{self._record_prefix}{seq}"
            job = UpdateJob(
                thread_id,
                user_id,
                agent_name,
                snapshot,
                correction,
                reinforcement,
                record_id,
                attempts,
                first_failed_at,
            )
            self._record(job, deadline - now, urgent)
            self._pending[key] = _Entry(job, first, deadline, seq, urgent, retry_at)
            heapq.heappush(self._heap, (deadline, seq, key))
            # Only wake the scheduler when it would otherwise sleep past this deadline;
            # a plain debounce reset moves deadlines later and needs no wake-up.
            if deadline < self._wake_at:
                self._cond.notify_all()

    def _record(self, job: UpdateJob, delay: float, urgent: bool) -> None:
        """Hand ``job`` to ``on_enqueue`` (caller holds the lock).

        The outbox keeps one record per key, the last one handed over, and the
        record of a job still running is replaced too: when this job lacks the
        running one's messages, the record holds both (a crash during the run
        must not lose them); the job itself does not (they are being sent).
        """
        if self._on_enqueue is None:
            return
        running = self._active.get(job.key)
        if running is not None:
            messages = merge_messages(running.messages, job.messages)
            if len(messages) != len(job.messages):
                job = _joined(job, running, messages)
        self._on_enqueue(job, delay, urgent)

    def restore(self, job: UpdateJob, delay: float, *, urgent: bool = False) -> None:
        """Queue a job recovered from a durable outbox, due in ``delay`` seconds.

        Unlike :meth:`add` it is not recorded again (``on_enqueue`` is not
        called) and it keeps its ``record_id`` — unless a job of the same key
        is already queued or running here: then the two are merged like two
        adds (the recovered one counts as older), due no later than either,
        and the merged job is recorded under a new id (the outbox keeps one
        record per key, so the recovered record must not stand in for the
        queued one, nor the other way round).
        """
        key = job.key
        with self._cond:
            if self._closed:
                return
            if not self._threads:
                self._start_threads()
            now = self._clock.monotonic()
            deadline = now + _bounded(delay)
            if self._flushing_for(job.user_id):
                deadline = now
            previous = self._pending.get(key)
            first, retry_at = now, None
            if previous is not None and previous.job.record_id == job.record_id:
                if previous.deadline <= deadline:
                    return  # the same record, seen again (a shared outbox's poll)
                job, first = previous.job, previous.first_enqueued
                urgent, retry_at = urgent or previous.urgent, previous.retry_at
            elif previous is not None or key in self._active:
                if previous is not None:
                    queued = previous.job
                    job = _joined(queued, job, merge_messages(job.messages, queued.messages))
                    deadline = min(deadline, previous.deadline)
                    first, retry_at = previous.first_enqueued, previous.retry_at
                    urgent = urgent or previous.urgent
                job = replace(job, record_id=f"{self._record_prefix}{next(self._seq)}")
                self._record(job, deadline - now, urgent)
            self._ready.pop(key, None)
            seq = next(self._seq)
            self._pending[key] = _Entry(job, first, deadline, seq, urgent, retry_at)
            heapq.heappush(self._heap, (deadline, seq, key))
            if deadline < self._wake_at:
                self._cond.notify_all()

    def requeue(self, job: UpdateJob, delay: float) -> bool:
        """Put a failed job back on the queue, due in ``delay`` clock seconds.

        Called by a handler (on a worker thread) after a transient failure. A
        conversation queued meanwhile for the same key is merged into it
        (messages deduplicated by the updater's key, flags OR-merged), and later
        adds merge too, so nothing the failed job held is lost. The merged job
        is handed to ``on_enqueue`` (same ``record_id``), so a durable outbox's
        record of the key holds all of it.

        Returns:
            False, doing nothing, while the queue (or a flush of the job's user) is
            flushing or the queue is shut down (the caller then keeps the job
            elsewhere, e.g. as a dead letter).
        """
        key = job.key
        with self._cond:
            if self._closed or self._flushing_for(job.user_id):
                return False
            now = self._clock.monotonic()
            previous = self._pending.pop(key, None)
            first, urgent = now, False
            if previous is not None:
                first, urgent = previous.first_enqueued, previous.urgent
                job = _joined(
                    job, previous.job, merge_messages(job.messages, previous.job.messages)
                )
                self._ready.pop(key, None)
            retry_at = now + _bounded(delay)
            seq = next(self._seq)
            self._record(job, retry_at - now, urgent)
            self._pending[key] = _Entry(job, first, retry_at, seq, urgent, retry_at)
            heapq.heappush(self._heap, (retry_at, seq, key))
            if retry_at < self._wake_at:
                self._cond.notify_all()
            return True

    def discard(self, matches: Callable[[UpdateJob], bool]) -> list[UpdateJob]:
        """Remove the queued jobs ``matches`` accepts (not the ones running); return them.

        For a deleted memory: its pending conversations must not run afterwards.
        Jobs handed to a worker but not started yet are removed too.
        """
        with self._cond:
            for key in [k for k, job in self._left.items() if matches(job)]:
                del self._left[key]
            gone = [entry.job for entry in self._pending.values() if matches(entry.job)]
            for job in gone:
                del self._pending[job.key]
                self._ready.pop(job.key, None)
            waiting = [job for job in self._dispatch if matches(job)]
            if waiting:
                self._dispatch = deque(job for job in self._dispatch if not matches(job))
                for job in waiting:  # dispatched jobs count as in flight and busy
                    self._in_flight -= 1
                    self._busy_users.discard(job.user_id)
                    if self._active.get(job.key) is job:
                        del self._active[job.key]
                gone += waiting
            self._cond.notify_all()
            return gone

    def wait_user_idle(self, user_id: str, timeout: float | None = None) -> bool:
        """Wait until no job of ``user_id`` is running; True when none is.

        Raises:
            ConfigError: ``timeout`` is not seconds (>= 0) or None.
        """
        timeout = check_timeout(timeout)
        end = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            return self._wait_for(lambda: user_id not in self._busy_users, end)

    # --- observability ----------------------------------------------------------

    @property
    def pending_count(self) -> int:
        """Conversations queued and not yet handed to a worker."""
        with self._cond:
            return len(self._pending)

    @property
    def running_count(self) -> int:
        """Handler calls running right now."""
        with self._cond:
            return self._running

    @property
    def next_deadline(self) -> float | None:
        """Clock time at which the earliest queued update is due, or None when nothing is queued."""
        with self._cond:
            return min((e.deadline for e in self._pending.values()), default=None)

    # --- draining ---------------------------------------------------------------

    def flush(self, timeout: float | None = None, *, user_id: str | None = None) -> bool:
        """Make every queued update due now and wait until all queued and running ones finish.

        Conversations added while flushing are due immediately too.

        Args:
            timeout: real seconds to wait; None waits as long as it takes.
            user_id: only this user's updates (the others keep their deadlines and
                are not waited for); None: every user's.

        Returns:
            True when the queue (or the user's updates) drained in time.

        Raises:
            RuntimeError: called from a handler running on this queue's workers.
            ConfigError: ``timeout`` is not seconds (>= 0) or None.
        """
        return self._flush(check_timeout(timeout), user_id)

    def _flush(self, timeout: float | None, user_id: str | None = None) -> bool:
        """:meth:`flush` with ``timeout`` already checked (by :func:`check_timeout`)."""
        if threading.current_thread() in self._threads:
            # A handler waiting for the queue to drain would wait for itself.
            raise RuntimeError("flush()/shutdown() cannot be called from a memory update handler")
        end = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            self._flushing[user_id] += 1
            try:
                now = self._clock.monotonic()
                for key, entry in self._pending.items():
                    if entry.deadline > now and user_id in (None, key[1]):
                        entry.deadline = now
                        entry.seq = next(self._seq)
                        heapq.heappush(self._heap, (now, entry.seq, key))
                self._cond.notify_all()
                if user_id is None:
                    return self._wait_for(lambda: not self._pending and not self._in_flight, end)
                return self._wait_for(lambda: not self._user_backlog_held(user_id), end)
            finally:
                self._flushing[user_id] -= 1
                if not self._flushing[user_id]:
                    del self._flushing[user_id]

    def user_backlog(self, user_id: str) -> int:
        """``user_id``'s updates queued or running here (what a flush of theirs waits for)."""
        with self._cond:
            return self._user_backlog_held(user_id)

    def user_counts(self, user_id: str) -> tuple[int, int]:
        """``user_id``'s share of :attr:`pending_count` and :attr:`running_count`.

        Returns:
            ``(queued, handed_to_a_worker)``: their conversations queued here,
            and 1 when one of their jobs is dispatched or running (one user's
            jobs run one at a time), else 0. The sum is :meth:`user_backlog`.
        """
        with self._cond:
            return self._user_counts_held(user_id)

    def _user_counts_held(self, user_id: str) -> tuple[int, int]:
        # Caller holds the condition. A dispatched or running job marks its user busy.
        queued = sum(1 for key in self._pending if key[1] == user_id)
        return queued, int(user_id in self._busy_users)

    def _user_backlog_held(self, user_id: str) -> int:
        return sum(self._user_counts_held(user_id))

    def _flushing_for(self, user_id: str) -> bool:
        # Caller holds the condition: a flush of the whole queue or of this user runs.
        return None in self._flushing or user_id in self._flushing

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until no update is due or running (updates due later may stay queued).

        With a :class:`FakeClock`, call it after ``clock.advance(...)`` to let the
        scheduler run everything that became due.

        Returns:
            True when idle within ``timeout`` real seconds.

        Raises:
            ConfigError: ``timeout`` is not seconds (>= 0) or None.
        """
        timeout = check_timeout(timeout)
        end = None if timeout is None else time.monotonic() + timeout

        def idle() -> bool:
            now = self._clock.monotonic()
            return (
                not self._in_flight
                and not self._ready
                and all(e.deadline > now for e in self._pending.values())
            )

        with self._cond:
            return self._wait_for(idle, end)

    def _wait_for(self, predicate: Callable[[], bool], end: float | None) -> bool:
        # Caller holds the condition. Real time bounds the wait, whatever the clock.
        while not predicate():
            if end is None:
                self._cond.wait()
                continue
            remaining = end - time.monotonic()
            if remaining <= 0:
                return False
            self._cond.wait(remaining)
        return True

    def shutdown(self, timeout: float | None = None) -> bool:
        """Stop accepting updates, drain what is queued, and stop the threads.

        Args:
            timeout: real seconds to wait for the drain; None waits as long as it takes.

        Returns:
            True when every queued update finished; False when some were still
            pending or running at the timeout (a warning says how many).

        Raises:
            ConfigError: ``timeout`` is not seconds (>= 0) or None.
        """
        timeout = check_timeout(timeout)
        with self._cond:
            self._closed = True
            started = bool(self._threads)
        drained = self._flush(timeout) if started else True
        with self._cond:
            if not drained:
                logger.warning(
                    "memory update queue shut down with %d queued and %d running updates",
                    len(self._pending),
                    self._in_flight,
                )
            self._stopping = True
            self._cond.notify_all()
            threads = list(self._threads)
        current = threading.current_thread()
        for thread in threads:
            if thread is not current:
                thread.join(timeout=None if drained else 0.1)
        if self._atexit_hook is not None:
            atexit.unregister(self._atexit_hook)
            self._atexit_hook = None
        return drained

    def register_atexit(self, timeout: float | None = 10.0) -> None:
        """Drain this queue (``shutdown(timeout)``) when the interpreter exits cleanly.

        Only a weak reference is registered, so the queue can still be garbage collected.
        """
        if self._atexit_hook is not None:
            return
        ref = weakref.ref(self)

        def drain() -> None:
            queue = ref()
            if queue is not None:
                queue.shutdown(timeout)

        self._atexit_hook = drain
        atexit.register(drain)

    def __enter__(self) -> MemoryUpdateQueue:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.shutdown()

    # --- threads ----------------------------------------------------------------

    def _start_threads(self) -> None:
        # Caller holds the condition. Threads start lazily so an unused queue costs nothing.
        scheduler = daemon_thread(self._schedule_loop, "memory-queue-scheduler")
        self._threads.append(scheduler)
        for i in range(self._max_workers):
            worker = daemon_thread(self._worker_loop, f"memory-queue-worker-{i}")
            self._threads.append(worker)
        for thread in self._threads:
            thread.start()

    def _schedule_loop(self) -> None:
        # Scheduler thread: decides what is due; never runs a handler itself. It must
        # not die: with it gone no update of any user would run again in this process.
        with self._cond:
            while not self._stopping:
                try:
                    now = self._clock.monotonic()
                    self._promote_due(now)
                    self._dispatch_ready()
                    next_deadline = self._heap[0][0] if self._heap else None
                    self._wake_at = math.inf if next_deadline is None else next_deadline
                    self._clock.wait_until(self._cond, next_deadline)
                except Exception:
                    logger.exception("memory queue scheduler: a pass failed; trying again in 1 s")
                    self._wake_at = -math.inf  # every add wakes it meanwhile
                    self._cond.wait(1.0)

    def _promote_due(self, now: float) -> None:
        heap = self._heap
        while heap and heap[0][0] <= now:
            _, seq, key = heapq.heappop(heap)
            entry = self._pending.get(key)
            if entry is not None and entry.seq == seq:  # else superseded by a later add
                self._ready[key] = None

    def _dispatch_ready(self) -> None:
        if not self._ready or self._in_flight >= self._max_workers:
            return
        dispatched = False
        for key in list(self._ready):
            if self._in_flight >= self._max_workers:
                break
            user_id = key[1]
            if user_id in self._busy_users:
                continue  # one user's document is updated by one job at a time
            del self._ready[key]
            entry = self._pending.pop(key)
            self._busy_users.add(user_id)
            self._in_flight += 1
            self._active[key] = entry.job
            self._dispatch.append(entry.job)
            dispatched = True
        if dispatched:
            self._cond.notify_all()

    def _worker_loop(self) -> None:
        # Worker thread: runs handlers outside the lock, one job at a time.
        with self._cond:
            while True:
                while not self._dispatch and not self._stopping:
                    self._cond.wait()
                if not self._dispatch:
                    return
                job = self._dispatch.popleft()
                self._running += 1
                self._cond.release()
                try:
                    self._handler(job)
                except BaseException:  # SystemExit, CancelledError from app code too
                    # A worker that died here would leave its slot taken for good.
                    logger.exception("memory update failed for %s", job.key)
                finally:
                    self._cond.acquire()
                    self._running -= 1
                    self._in_flight -= 1
                    self._busy_users.discard(job.user_id)
                    if self._active.get(job.key) is job:
                        del self._active[job.key]
                    # Wake the scheduler (a worker and maybe a user are free) and any waiter.
                    self._cond.notify_all()


MAX_DELAY_SECONDS = 86_400.0
"""The longest a queued job waits for its deadline (a day), whatever delay it was given."""


def _bounded(delay: float) -> float:
    """``delay`` as seconds a job may wait: 0 when negative or not a number, at most a day."""
    return min(delay, MAX_DELAY_SECONDS) if delay > 0 else 0.0
