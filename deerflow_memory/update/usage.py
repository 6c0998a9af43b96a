"""Use counts: which facts are actually injected, recorded off the hot path, and what they weigh.

:class:`AccessRecorder` is the batched background writer. The inject door
calls :meth:`AccessRecorder.record` with the ids it injected: that appends one
tuple to an in-memory queue (no lock, no I/O, no model call, ~0.1 µs) and
wakes nothing. One daemon thread wakes every ``interval`` seconds and, per
document, loads it, adds ``accessCount`` and raises ``lastAccessedAt`` on the
facts that are still there, and saves with ``expected_revision``; when another
writer saved in between it reloads and retries (up to ``retries`` times). The
save is marked as bookkeeping (:meth:`~deerflow_memory.models.MemoryDocument.bookkeeping_save`):
it moves ``revision``, but a user's edit sent with an earlier revision is not
refused for it.

Failure behaviour: a tally that cannot be written (storage down, document
kept changing) is logged and dropped — use counts are a hint for eviction and
ranking, never worth blocking a turn or losing memory for. Facts removed in
the meantime are skipped. :meth:`AccessRecorder.flush` writes everything now
(tests, shutdown); :meth:`AccessRecorder.close` flushes and stops the thread.

:func:`retention_score` is how eviction uses the counts: one bounded input
after confidence (see its docstring).
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from deerflow_memory.daemons import daemon_thread
from deerflow_memory.errors import RevisionConflictError
from deerflow_memory.logs import package_logger
from deerflow_memory.models import Fact, iso_from_timestamp, parse_timestamp
from deerflow_memory.storage.base import MemoryStorage

__all__ = ["AccessRecorder", "retention_score"]

logger = package_logger(__name__)

_DAY = 86_400.0
# Use saturates: 20 injections count as much as 2,000 (a bounded input).
_USE_SATURATION = math.log1p(20)


def retention_score(fact: Fact, now: float, *, freshness_days: float = 90.0) -> float:
    """How much keeping ``fact`` is worth beyond its confidence, in 0..1.

    ``0.7 · freshness + 0.3 · use`` where freshness is
    ``exp(-days since lastConfirmedAt or createdAt / freshness_days)`` and use is
    ``min(1, log(1 + accessCount) / log(21))`` times the same decay of ``lastAccessedAt``.
    Bounded in 0..1, so use can never outweigh a difference in confidence
    when eviction sorts by ``(confidence, retention_score)``.
    """
    scale = freshness_days * _DAY

    def decay(stamp: float | None) -> float:
        return 0.0 if stamp is None else math.exp(-max(0.0, now - stamp) / scale)

    confirmed = parse_timestamp(fact.last_confirmed_at) or parse_timestamp(fact.created_at)
    freshness = decay(confirmed)
    use = 0.0
    if fact.access_count:
        saturation = min(1.0, math.log1p(fact.access_count) / _USE_SATURATION)
        use = saturation * decay(parse_timestamp(fact.last_accessed_at))
    return 0.7 * freshness + 0.3 * use


# Injections waiting for the writer thread; beyond this the oldest are dropped
# (use counts are a hint, memory must stay bounded if writes stall).
_MAX_QUEUED = 100_000


@dataclass(slots=True)
class _Tally:
    storage: MemoryStorage
    counts: dict[str, int] = field(default_factory=dict)
    last: float = 0.0


class AccessRecorder:
    """Batches "these facts were injected" and writes the counts from a background thread.

    Args:
        interval: seconds between background writes (> 0).
        retries: saves tried per document when its revision moved.
        clock: epoch-seconds source (injectable for tests).

    Example:
        >>> recorder = AccessRecorder(interval=5.0)
        >>> recorder.record(storage, "alice", None, ("fact_1a2b3c4d",))  # doctest: +SKIP
        >>> recorder.flush()  # doctest: +SKIP
    """

    def __init__(
        self,
        *,
        interval: float = 5.0,
        retries: int = 3,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if interval <= 0:
            raise ValueError(f"interval must be > 0, got {interval}")
        self.interval = interval
        self.retries = retries
        self._clock = clock
        # deque.append is atomic in CPython: the inject path takes no lock.
        self._queue: deque[tuple[MemoryStorage, str, str | None, tuple[str, ...], float]] = deque(
            maxlen=_MAX_QUEUED
        )
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._closed = False
        self.writes = 0
        self.dropped = 0

    def record(
        self,
        storage: MemoryStorage,
        user_id: str,
        agent_name: str | None,
        fact_ids: tuple[str, ...],
        at: float | None = None,
    ) -> None:
        """Note one injection of ``fact_ids`` of ``(user_id, agent_name)``; no I/O, no lock."""
        if self._closed:
            return
        self._queue.append(
            (storage, user_id, agent_name, fact_ids, self._clock() if at is None else at)
        )
        if self._thread is None:
            self._start()

    def _start(self) -> None:
        with self._lock:
            if self._thread is not None or self._closed:
                return
            self._thread = daemon_thread(self._run, "deerflow-memory-access")
            self._thread.start()

    def _run(self) -> None:
        # Background thread: the only place counts are written, apart from flush().
        while not self._closed:
            self._wake.wait(self.interval)
            self._wake.clear()
            self.flush()

    def pending(self) -> int:
        """Injections noted but not yet written."""
        return len(self._queue)

    def flush(self) -> None:
        """Count every noted injection and write the counts now (on the calling thread)."""
        with self._write_lock:
            tallies: dict[tuple[int, str, str | None], _Tally] = {}
            queue = self._queue
            while queue:
                try:
                    storage, user_id, agent_name, ids, at = queue.popleft()
                except IndexError:  # emptied concurrently
                    break
                key = (id(storage), user_id, agent_name)
                tally = tallies.get(key)
                if tally is None:
                    tally = tallies[key] = _Tally(storage)
                counts = tally.counts
                for fact_id in ids:
                    counts[fact_id] = counts.get(fact_id, 0) + 1
                tally.last = max(tally.last, at)
            for (_, user_id, agent_name), tally in tallies.items():
                self._write(user_id, agent_name, tally)

    def _write(self, user_id: str, agent_name: str | None, tally: _Tally) -> None:
        storage = tally.storage
        counts = tally.counts
        stamp = iso_from_timestamp(tally.last)
        for _ in range(self.retries):
            try:
                document = storage.load(user_id, agent_name)
                facts = list(document.facts)
                touched = False
                for i, fact in enumerate(facts):
                    n = counts.get(fact.id)
                    if n:
                        last = fact.last_accessed_at
                        facts[i] = fact.model_copy(
                            update={
                                "access_count": fact.access_count + n,
                                "last_accessed_at": stamp if not last or last < stamp else last,
                            }
                        )
                        touched = True
                if not touched:
                    return
                # Marked as bookkeeping: a user's edit based on an earlier revision
                # still applies (MemoryDocument.same_content_since).
                counted = document.model_copy(update={"facts": tuple(facts)})
                counted = document.bookkeeping_save(counted)
                storage.save(user_id, agent_name, counted, expected_revision=document.revision)
                self.writes += 1
                return
            except RevisionConflictError:
                continue
            except Exception as e:
                logger.warning("use counts for %s/%s not written: %s", user_id, agent_name, e)
                self.dropped += 1
                return
        logger.warning("use counts for %s/%s dropped: document kept changing", user_id, agent_name)
        self.dropped += 1

    def close(self) -> None:
        """Write what is pending and stop the background thread."""
        if self._closed:
            return
        self._closed = True
        self._wake.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=max(1.0, self.interval))
        self.flush()
