"""The durable outbox: captured turns waiting for their memory update, kept in the storage backend.

The capture path records a :class:`PendingUpdate` (its key, the conversation,
the signals, when it is due) and returns; the record is written by a
background *group commit* (every ``commit_interval`` seconds, default 5 ms,
one fsync/transaction per batch), so a crash loses at most the captures of
that last interval. A record is removed only after its update was saved (or
skipped) or dead-lettered; a newer capture of the same key replaces it
(in a shared outbox the two are merged message by message: :func:`merge_captures`).

Two implementations:

- :class:`~deerflow_memory.storage.outbox_file.FileOutbox` — one append-only
  journal per process under ``{root}/outbox/``; a journal whose process died
  (its ``flock`` is free) is adopted by a process that starts, or by a running
  one's poller.
- :class:`~deerflow_memory.storage.outbox_store.StoreOutbox` — one store item
  per key (SQLite, Postgres, any LangGraph store); any process may claim a due
  item under a lease, so replicas share the work and a crashed worker's items
  are retaken when its lease ends.

Messages are opaque here: the outbox is given ``encode``/``decode`` functions
(the update stage turns LangChain messages into JSON and back).
"""

from __future__ import annotations

import math
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from deerflow_memory.daemons import daemon_thread
from deerflow_memory.errors import StorageError, StoreClosedError, error_chain
from deerflow_memory.logs import package_logger
from deerflow_memory.storage.closed import is_operational

__all__ = [
    "DEFAULT_COMMIT_INTERVAL",
    "Decode",
    "Encode",
    "GroupCommitOutbox",
    "Merge",
    "Outbox",
    "PendingUpdate",
    "finite_time",
    "is_volatile",
    "merge_captures",
    "never_writable",
]

logger = package_logger(__name__)

DEFAULT_COMMIT_INTERVAL = 0.005

Encode = Callable[[Sequence[Any]], list[Any]]
Decode = Callable[[list[Any]], tuple[Any, ...]]

OutboxKey = tuple[str, str, str | None]

_MAX_BACKOFF = 2.0  # seconds between tries of a write that keeps failing


def never_writable(error: BaseException) -> bool:
    """True when retrying cannot store the data: it cannot be encoded, or the database refuses it.

    That is a ``TypeError``/``ValueError`` (``UnicodeError`` included) or a
    DB-API ``DataError``, raised directly or as the cause of a
    :class:`StorageError`. Any other error (``OSError``, a lost connection, a
    locked database) may pass: the write is tried again. A closed store
    (:class:`StoreClosedError`, as the store backend raises it) is neither: its
    ``ValueError`` says nothing of the data.
    """
    if isinstance(error, StoreClosedError) or is_operational(error):  # SqliteStore's lock
        return False
    for seen in error_chain(error, context=False):
        if isinstance(seen, (TypeError, ValueError, RecursionError)):
            return True
        if any(cls.__name__ == "DataError" for cls in type(seen).__mro__):
            return True
        if not isinstance(seen, StorageError):
            return False  # only a StorageError's cause says more; this error is the reason
    return False


def is_volatile(store: object) -> bool:
    """True for a store whose items die with the process: a plain ``InMemoryStore``.

    ``langgraph dev``'s store is an ``InMemoryStore`` whose items are written to
    ``.langgraph_api/store.pckl`` every 10 s and at shutdown (a ``PersistentDict``),
    so it is not volatile; nor is it with the server's batching wrapper around it.
    """
    from langgraph.store.memory import InMemoryStore

    inner = getattr(store, "_store", None)  # the dev server's BatchedStore wrapper
    if inner is not None and not isinstance(store, InMemoryStore):
        store = inner
    if not isinstance(store, InMemoryStore):
        return False
    try:
        from langgraph.checkpoint.memory import PersistentDict
    except ImportError:  # pragma: no cover - older langgraph
        return True
    return not isinstance(getattr(store, "_data", None), PersistentDict)


@dataclass(frozen=True, slots=True)
class PendingUpdate:
    """One captured conversation waiting for its update.

    Attributes:
        thread_id, user_id, agent_name: the job key.
        messages: the conversation (message objects; encoded only when written).
        correction, reinforcement: signals detected at capture.
        due_at: wall-clock time (epoch seconds) at which the update is due.
        urgent: queued by the summarization hook (merged, never replaced).
        record_id: identifies this capture; completing an older id leaves a newer record.
        error: why it was dead-lettered (``None`` while pending).
        attempts: update runs that ended without saving.
        captured_at: wall-clock time of the capture; a shared outbox merges
            two captures of a key (:func:`merge_captures`) and keeps the later
            one's due time.
    """

    thread_id: str
    user_id: str
    agent_name: str | None
    messages: tuple[Any, ...]
    correction: bool = False
    reinforcement: bool = False
    due_at: float = 0.0
    urgent: bool = False
    record_id: str = ""
    error: str | None = None
    attempts: int = 0
    captured_at: float = 0.0

    @property
    def key(self) -> OutboxKey:
        return (self.thread_id, self.user_id, self.agent_name)

    def to_json(self, encode: Encode) -> dict[str, Any]:
        """JSON-ready dict (messages encoded with ``encode``)."""
        return {
            "thread": self.thread_id,
            "user": self.user_id,
            "agent": self.agent_name,
            "messages": encode(self.messages),
            "correction": self.correction,
            "reinforcement": self.reinforcement,
            "due": self.due_at,
            "urgent": self.urgent,
            "id": self.record_id,
            "error": self.error,
            "attempts": self.attempts,
            "captured": self.captured_at,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], decode: Decode) -> PendingUpdate:
        """Inverse of :meth:`to_json`; ``KeyError``/``TypeError``/``ValueError`` on bad data.

        Times must be finite numbers, ``attempts`` a count and ``error`` text or
        null: a record holding anything else (``10**400``, ``Infinity``, a
        string) is unreadable like one with a missing field, so the readers
        skip it instead of failing on the records beside it.
        """
        agent, error = data["agent"], data.get("error")
        if error is not None and not isinstance(error, str):
            raise TypeError(f"error is {type(error).__name__}, not text")
        attempts = data.get("attempts", 0)
        if isinstance(attempts, bool) or not isinstance(attempts, int) or attempts < 0:
            raise ValueError(f"attempts is not a count: {type(attempts).__name__}")
        return cls(
            thread_id=str(data["thread"]),
            user_id=str(data["user"]),
            agent_name=None if agent is None else str(agent),
            messages=decode(list(data["messages"])),
            correction=bool(data.get("correction", False)),
            reinforcement=bool(data.get("reinforcement", False)),
            due_at=finite_time(data.get("due", 0.0), "due"),
            urgent=bool(data.get("urgent", False)),
            record_id=str(data.get("id", "")),
            error=error,
            attempts=attempts,
            captured_at=finite_time(data.get("captured", 0.0), "captured"),
        )

    def dead(self, error: str) -> PendingUpdate:
        return replace(self, error=error)


def finite_time(value: object, name: str) -> float:
    """``value`` as seconds: a finite int or float (not a bool), else ``ValueError``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{name} is {type(value).__name__}, not a number")
    try:
        seconds = float(value)
    except OverflowError:
        raise ValueError(f"{name} is beyond a float's range") from None
    if not math.isfinite(seconds):
        raise ValueError(f"{name} is not finite")
    return seconds


Merge = Callable[[Sequence[Any], Sequence[Any]], Sequence[Any]]
"""``merge(earlier, later)``: one conversation holding both captures' messages, each once."""


def merge_captures(
    stored: PendingUpdate, incoming: PendingUpdate, merge: Merge
) -> PendingUpdate | None:
    """One record holding both captures of a key, or None when ``incoming`` adds nothing.

    Two replicas may capture one thread's turns a few milliseconds apart, and
    which capture is later is only known up to the error of their clocks. So a
    shared outbox never lets one capture replace another's messages: the result
    holds both captures' messages (``merge(earlier, later)``, e.g. the update
    queue's own merge rule); the flags are OR-merged and the later capture's
    due time, capture time and id are kept (the id changes whenever the
    content does, so a process still running the stored record cannot
    complete the merged one).
    """
    if incoming.captured_at >= stored.captured_at:
        earlier, later = stored, incoming
    else:
        earlier, later = incoming, stored
    messages = tuple(merge(earlier.messages, later.messages))
    if later is stored and len(messages) == len(stored.messages):
        return None  # an older capture whose messages are all stored already
    return replace(
        later,
        messages=messages,
        correction=earlier.correction or later.correction,
        reinforcement=earlier.reinforcement or later.reinforcement,
        urgent=earlier.urgent or later.urgent,
        record_id=incoming.record_id,
    )


class Outbox(ABC):
    """Where captured turns wait for their update, durably.

    ``record`` is on the agent's hot path and must not block on I/O; the
    others run on the updater's worker threads or at start/shutdown.
    """

    @abstractmethod
    def record(self, update: PendingUpdate) -> None:
        """Queue ``update`` for the next group commit (replaces the key's record)."""

    @abstractmethod
    def sync(self, timeout: float | None = None) -> bool:
        """Wait until everything recorded so far is durable; True when it is."""

    @abstractmethod
    def claim(self, update: PendingUpdate) -> PendingUpdate | None:
        """Take the key's record before running it; the record to run, or None to skip.

        Returns None when another process holds it (or a newer capture of
        another process is not due yet), or when it is gone (already done).
        """

    @abstractmethod
    def complete(self, update: PendingUpdate) -> None:
        """The update of ``update.record_id`` was saved or skipped: remove it, unless replaced."""

    @abstractmethod
    def release(self, update: PendingUpdate) -> None:
        """The update did not finish (e.g. shutdown): keep it pending for a later run."""

    @abstractmethod
    def dead_letter(self, update: PendingUpdate, error: str) -> None:
        """Keep ``update`` as dead (never run again by itself), with why."""

    @abstractmethod
    def recover(self) -> list[PendingUpdate]:
        """Pending records no live process is responsible for, now adopted by this one."""

    @abstractmethod
    def recover_all(self) -> tuple[list[PendingUpdate], list[PendingUpdate]]:
        """What a start recovers: :meth:`recover`'s records, and the dead letters to hand over.

        The dead letters are this process's own and those of what it adopted
        (never a live process's). A store outbox reads its items once for both:
        each read in flight is one a ``SqliteStore`` its app closes can crash on.
        """

    #: True when other processes can leave records here for this one (then :meth:`poll`
    #: is called every ``outbox_poll_seconds``): store items, a dead process's journal.
    shared = False

    def poll(self) -> list[PendingUpdate]:
        """Records no live process holds, now this process's to run (shared outboxes only)."""
        return []

    def discard(self, user_id: str, agent_name: str | None) -> list[PendingUpdate]:
        """Remove every pending record of the memory ``(user_id, agent_name)``; return them.

        Only records other processes left here (shared outboxes); this process's
        own are completed by its queue. The default has none to remove.
        """
        return []

    def held_elsewhere(self, user_id: str, agent_name: str | None) -> list[PendingUpdate]:
        """Pending records of ``(user_id, agent_name)`` that other *live* processes hold.

        They cannot be removed from here (their process runs them); a delete
        fences their messages instead, so that running them later learns
        nothing. The default (an outbox whose records any process can remove
        with :meth:`discard`) has none.
        """
        return []

    #: Operations :meth:`close` could not write (0 when it wrote everything).
    unwritten: int = 0

    _closed_store: BaseException | None = None

    @property
    def store_closed(self) -> BaseException | None:
        """The error that showed the store closed (nothing is written after it), or None."""
        return self._closed_store

    def note_store_closed(self, error: BaseException) -> None:
        """Another call (a claim, a poll) found the store closed: stop trying to write."""
        if self._closed_store is None:
            self._closed_store = error

    #: Seconds a claim lasts unless renewed (shared outboxes; None = forever).
    lease_seconds: float | None = None

    def renew(self, update: PendingUpdate) -> bool:
        """Extend this process's claim on ``update`` (shared outboxes); False once it is lost."""
        return True

    @abstractmethod
    def dead_letters(self) -> list[PendingUpdate]:
        """Every dead-lettered record."""

    @abstractmethod
    def close(self) -> None:
        """Commit what is buffered and stop the writer."""


@dataclass
class _Buffer:
    ops: list[tuple[str, PendingUpdate]] = field(default_factory=list)
    inflight: list[tuple[str, PendingUpdate]] = field(default_factory=list)  # being committed
    recorded: int = 0  # ops appended so far
    committed: int = 0  # ops durable so far


class GroupCommitOutbox(Outbox):
    """An outbox whose writes are batched by a background thread (group commit).

    Subclasses implement :meth:`_commit` (write a batch of ``("put" | "done" |
    "dead" | "release", update)`` operations durably, in order).

    Args:
        commit_interval: seconds a write may wait for others to join its batch.
    """

    def __init__(self, *, commit_interval: float = DEFAULT_COMMIT_INTERVAL) -> None:
        self._interval = commit_interval
        self._cond = threading.Condition(threading.Lock())
        self._buf = _Buffer()
        self._stopping = False
        self._writer: threading.Thread | None = None

    # --- hot path ---------------------------------------------------------------------

    def record(self, update: PendingUpdate) -> None:
        self._push("put", update)

    def _push(self, op: str, update: PendingUpdate) -> None:
        with self._cond:
            if self._stopping:
                # Closed: write through on the caller's thread rather than lose it.
                _, error = self._commit_each([(op, update)])
                if error is not None:
                    raise error
                return
            self._buf.ops.append((op, update))
            self._buf.recorded += 1
            if self._writer is None:
                self._writer = daemon_thread(self._write_loop, "memory-outbox-writer")
                self._writer.start()
            if len(self._buf.ops) == 1:
                self._cond.notify_all()

    # --- writer thread ----------------------------------------------------------------

    def _write_loop(self) -> None:
        failures = 0  # failed tries in a row: the first is logged, the pause grows
        while True:
            with self._cond:
                while not self._buf.ops and not self._stopping:
                    self._cond.wait()
                if not self._buf.ops and self._stopping:
                    return
            # Let the other captures of this interval join the batch.
            if self._interval > 0 and not self._stopping:
                time.sleep(self._interval)
            with self._cond:
                batch, self._buf.ops = self._buf.ops, []
                self._buf.inflight = batch
                target = self._buf.committed + len(batch)
            try:
                self._commit(batch)
            except Exception as e:
                if isinstance(e, StoreClosedError):  # for good: no retry, close() reports it
                    self._stop_writing(batch, e)
                    return
                # One op that can never be written must not hold back the others.
                rest, error = self._commit_each(batch)
                if rest and isinstance(error, StoreClosedError):
                    self._stop_writing(rest, error, committed=len(batch) - len(rest))
                    return
                if rest:  # an I/O or database error: retry the rest, in order, after a pause
                    failures += 1
                    if failures == 1:
                        logger.error("memory outbox write failed; retrying", exc_info=error)
                    with self._cond:
                        self._buf.ops[:0] = rest
                        self._buf.inflight = []
                        self._buf.committed += len(batch) - len(rest)
                        self._cond.notify_all()
                    if self._stopping:
                        return  # close() tries what is left once more, on its own thread
                    time.sleep(min(_MAX_BACKOFF, max(self._interval, 0.05) * 2 ** (failures - 1)))
                    continue
            if failures:
                logger.warning("memory outbox writes work again after %d failed tries", failures)
                failures = 0
            with self._cond:
                self._buf.committed = target
                self._buf.inflight = []
                self._cond.notify_all()

    def _stop_writing(
        self, rest: list[tuple[str, PendingUpdate]], error: BaseException, committed: int = 0
    ) -> None:
        """The store was closed under this outbox: keep ``rest`` unwritten, stop the writer."""
        logger.debug("memory outbox stops writing: its store is closed", exc_info=error)
        with self._cond:
            self._closed_store = error
            self._buf.ops[:0] = rest
            self._buf.inflight = []
            self._buf.committed += committed
            self._cond.notify_all()

    def note_store_closed(self, error: BaseException) -> None:
        """Another call (a claim, a poll) found the store closed: stop trying to write."""
        with self._cond:
            if self._closed_store is None:
                self._closed_store = error
            self._cond.notify_all()

    def _commit_each(
        self, batch: list[tuple[str, PendingUpdate]]
    ) -> tuple[list[tuple[str, PendingUpdate]], BaseException | None]:
        """Commit ``batch`` one op at a time, leaving out ops that can never be written.

        Such an op (its data cannot be encoded: see :func:`never_writable`) is
        logged once with its key and dropped from the outbox; its update stays
        in the process's queue and still runs, only a crash would lose it.
        Stops at the first other error (I/O, database): the ops from there on,
        and the error, are returned for a retry.
        """
        for index, (op, update) in enumerate(batch):
            try:
                self._commit([(op, update)])
            except Exception as e:
                if not never_writable(e):
                    return batch[index:], e
                logger.error(
                    "memory outbox cannot store the %s of %s (left out; the update still runs "
                    "in this process): %s: %s",
                    op,
                    update.key,
                    type(e).__name__,
                    e,
                )
        return [], None

    def sync(self, timeout: float | None = None) -> bool:
        end = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            target = self._buf.recorded
            while self._buf.committed < target:
                if self._writer is None:
                    return True
                if self._closed_store is not None:
                    return False  # never written: the store is closed
                remaining = None if end is None else end - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return False
                self._cond.wait(remaining)
            return True

    def sync_key(self, update: PendingUpdate, timeout: float | None = None) -> bool:
        """Like :meth:`sync`, but wait only when an operation on ``update``'s key is unwritten.

        A claim needs its own key's writes stored first, not every other key's
        (waiting for those cost a group-commit interval per claim).
        """
        key = update.key
        with self._cond:
            waiting = any(u.key == key for _, u in self._buf.ops) or any(
                u.key == key for _, u in self._buf.inflight
            )
        return self.sync(timeout) if waiting else True

    # --- worker-side operations go through the same ordered batches ------------------

    def complete(self, update: PendingUpdate) -> None:
        self._push("done", update)

    def release(self, update: PendingUpdate) -> None:
        self._push("release", update)

    def dead_letter(self, update: PendingUpdate, error: str) -> None:
        self._push("dead", update.dead(error))

    def close(self) -> None:
        """Commit what is buffered and stop the writer.

        Raises:
            Exception: the backend's error when the last records cannot be
                written (a store closed before this outbox, a full disk);
                :attr:`unwritten` then says how many operations were not.
        """
        with self._cond:
            self._stopping = True
            writer = self._writer
            self._cond.notify_all()
        if writer is not None:
            writer.join(timeout=30)
        with self._cond:
            leftover, self._buf.ops = self._buf.ops, []
        if leftover and self._closed_store is not None:
            self.unwritten = len(leftover)
            raise StoreClosedError(
                f"the store was closed before the outbox: {self._closed_store}"
            ) from self._closed_store
        if leftover:
            rest, error = self._commit_each(leftover)
            if error is not None:
                self.unwritten = len(rest)
                raise error

    @abstractmethod
    def _commit(self, batch: list[tuple[str, PendingUpdate]]) -> None:
        """Write ``batch`` durably, in order (runs on the writer thread)."""
