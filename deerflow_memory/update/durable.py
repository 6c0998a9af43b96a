"""Connects the update queue to a durable outbox: record at capture, claim/complete around updates.

- :func:`encode_messages` / :func:`decode_messages`: LangChain messages ⇄ JSON
  (content, ids, tool calls kept; anything else made JSON-safe, see
  :mod:`deerflow_memory.update.encoding`), done on the outbox's writer thread.
- :class:`DurableUpdates`: the queue's ``on_enqueue`` hook (records a
  :class:`PendingUpdate` due at the queue's deadline) and the handler wrapper
  (claim the record, run the updater, then complete it — or, when the update
  failed, store a :class:`DeadLetter` in the storage backend and complete it;
  a backend without dead letters keeps it dead in the outbox), plus
  :meth:`DurableUpdates.restore` which puts recovered records back into the
  queue at their original due time.
- :func:`build_outbox`: the outbox a storage backend gets (file journal, store
  items, or none for a store that dies with the process).

Thread boundaries: ``record`` runs on the agent's thread under the queue's
lock and only appends to the outbox's buffer; ``run`` runs on queue workers.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from deerflow_memory.config import MemoryConfig
from deerflow_memory.daemons import daemon_thread
from deerflow_memory.errors import StoreClosedError
from deerflow_memory.logs import package_logger
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.storage.dead_letters import DeadLetter
from deerflow_memory.storage.outbox import Outbox, PendingUpdate, is_volatile
from deerflow_memory.update.dead_letter import dead_letter_for
from deerflow_memory.update.encoding import MessageEncoder, decode_messages, encode_messages
from deerflow_memory.update.letter_writes import letter_slot, write_letter
from deerflow_memory.update.queue import MemoryUpdateQueue, UpdateJob
from deerflow_memory.update.union import merge_messages
from deerflow_memory.update.updater import UpdateResult, UpdateStatus, failure_result

__all__ = ["DurableUpdates", "build_outbox", "decode_messages", "encode_messages", "is_volatile"]

logger = package_logger(__name__)
_STOP_WAIT_SECONDS = 60.0  # how long a close waits for a recovery or poll in a store call


def build_outbox(storage: MemoryStorage, config: MemoryConfig) -> Outbox | None:
    """The outbox for ``storage`` (any scope of it), or None when there is nothing durable.

    File storage → a journal per process under its root; a store storage
    (SQLite, Postgres, ``langgraph dev``'s store, any ``BaseStore``) → one item
    per job under its namespace prefix; a plain ``InMemoryStore`` or another
    backend → None (what it holds is lost with the process anyway).
    """
    from deerflow_memory.storage.file import FileMemoryStorage
    from deerflow_memory.storage.store import StoreMemoryStorage

    interval = config.outbox_commit_interval_ms / 1000
    if isinstance(storage, FileMemoryStorage):
        from deerflow_memory.storage.outbox_file import FileOutbox

        encoder = MessageEncoder()
        return FileOutbox(
            storage.root,
            encoder,
            decode_messages,
            encode_json=encoder.json_texts,
            commit_interval=interval,
            check=storage.inside,  # a tenant's view refuses a linked outbox/
        )
    if isinstance(storage, StoreMemoryStorage) and not is_volatile(storage.store):
        from deerflow_memory.storage.outbox_store import StoreOutbox

        return StoreOutbox(
            storage,
            MessageEncoder(),
            decode_messages,
            lease_seconds=config.outbox_lease_seconds,
            commit_interval=interval,
            merge=merge_messages,  # the queue's rule: message identity as the updater keys it
        )
    return None


def to_pending(
    job: UpdateJob, due_at: float = 0.0, urgent: bool = False, captured_at: float = 0.0
) -> PendingUpdate:
    return PendingUpdate(
        thread_id=job.thread_id,
        user_id=job.user_id,
        agent_name=job.agent_name,
        messages=job.messages,
        correction=job.correction_detected,
        reinforcement=job.reinforcement_detected,
        due_at=due_at,
        urgent=urgent,
        record_id=job.record_id,
        captured_at=captured_at,
    )


def _letter_for(
    storage: MemoryStorage,
    update: PendingUpdate,
    error: str,
    attempts: int,
    letter_id: str | None = None,
) -> DeadLetter:
    """The dead letter of ``update``: its messages as sent, or merged into the key's older letter.

    A letter replaces the key's older one, so the older one's messages are
    merged in, never dropped: a thread whose captures hold only their own turn
    (no checkpointer, no thread id) would lose the turn that failed first. An
    older one that cannot be read is kept: the letter goes to the key's next id
    (see :func:`letter_slot`). ``letter_id``: that id, given, and nothing merged.
    """
    existing = None
    if letter_id is None:
        key = (update.thread_id, update.user_id, update.agent_name)
        letter_id, existing = letter_slot(storage, *key)
    if existing is not None:
        return dead_letter_for(
            to_job(update), error, attempts=attempts, existing=existing, letter_id=letter_id
        )
    encoded = encode_messages(update.messages)
    return DeadLetter(
        id=letter_id,
        thread_id=update.thread_id,
        user_id=update.user_id,
        agent_name=update.agent_name,
        error=error,
        attempts=attempts,
        message_ids=tuple(str(m.get("data", {}).get("id") or "") for m in encoded),
        message_ids_are="ids",  # as sent: an "h:…" id here is a client's, never a key
        messages=tuple(encoded),
        correction_detected=update.correction,
        reinforcement_detected=update.reinforcement,
    )


def to_job(update: PendingUpdate) -> UpdateJob:
    return UpdateJob(
        update.thread_id,
        update.user_id,
        update.agent_name,
        tuple(update.messages),
        update.correction,
        update.reinforcement,
        update.record_id,
    )


class DurableUpdates:
    """The outbox side of a :class:`MemoryUpdateQueue`.

    Args:
        outbox: where records live.
        update: runs one job (the updater); its result decides complete vs dead letter.
        storage: the backend dead letters go to (None: failures stay dead in the outbox).
        lock_timeout: seconds a dead letter's write waits for its user's update
            lock (``update_lock_timeout_seconds``; see :func:`write_letter`).
    """

    def __init__(
        self,
        outbox: Outbox,
        update: Callable[[UpdateJob], UpdateResult],
        storage: Callable[[], MemoryStorage] | None = None,
        *,
        lock_timeout: float = 120.0,
    ) -> None:
        self.outbox = outbox
        self._lock_timeout = lock_timeout
        self._update = update
        self._storage = storage
        self._poller: threading.Thread | None = None
        self._recoverer: threading.Thread | None = None  # start(background=True)'s thread
        self._poll_lock = threading.Lock()
        self._stop_polling = threading.Event()
        self._recovered = threading.Event()

    def record(self, job: UpdateJob, delay: float, urgent: bool) -> None:
        """The queue's ``on_enqueue`` hook: buffer the record for the next group commit."""
        now = time.time()
        self.outbox.record(to_pending(job, now + delay, urgent, now))

    def run(self, job: UpdateJob) -> UpdateResult:
        """Claim, update, then complete or dead-letter (queue worker thread).

        Once the store is known closed (:attr:`Outbox.store_closed`) nothing is
        tried: the result is a failure with ``store_closed`` set, and the record,
        if it was written, stays in the store for the next start.
        """
        pending = to_pending(job)
        closed = self.outbox.store_closed
        if closed is not None:
            return failure_result(StoreClosedError(f"the store is closed: {closed}"))
        try:
            claimed = self.outbox.claim(pending)
        except Exception as e:
            if not self.stopped_by_closed_store(e, f"claim of {job.key}"):
                raise
            return failure_result(e)
        if claimed is None:
            return UpdateResult(UpdateStatus.SKIPPED, reason="claimed by another process or done")
        with self._renewing(claimed):
            result = self._update(to_job(claimed))
        if result.store_closed:  # nothing more can be written; the lease runs out by itself
            self.outbox.note_store_closed(StoreClosedError(result.error or "the store is closed"))
            return result
        if result.status is UpdateStatus.FAILED:
            error = result.error or "failed"
            if self._put_dead_letter(claimed, error, result.attempts):
                self.outbox.complete(claimed)
            else:  # no dead letters in this backend (or it failed): keep it dead in the outbox
                self.outbox.dead_letter(claimed, error)
        elif result.deferred or result.status is UpdateStatus.RETRY:
            # Chunks over the call cap left, or a transient failure: the record stays until
            # the service requeues it (same record id) or stores its dead letter.
            self.outbox.release(claimed)
        else:
            self.outbox.complete(claimed)
        return result

    def stopped_by_closed_store(self, error: BaseException, doing: str) -> bool:
        """True when ``error`` is a :class:`StoreClosedError`: the outbox stops writing.

        The store backend raises that type for a store the app closed; it is
        noted on the outbox (its writer stops, nothing is retried) and logged
        at DEBUG only: the service's ``close()`` reports it in one line.
        ``doing`` names the step in that debug line.
        """
        if not isinstance(error, StoreClosedError):
            return False
        self.outbox.note_store_closed(error)
        logger.debug("memory outbox %s: the store is closed", doing, exc_info=error)
        return True

    @contextmanager
    def _renewing(self, claimed: PendingUpdate) -> Iterator[None]:
        """Renew a shared outbox's lease every third of it while the update runs."""
        lease = self.outbox.lease_seconds
        if lease is None:
            yield
            return
        done = threading.Event()

        def renew() -> None:
            while not done.wait(lease / 3):
                try:
                    if not self.outbox.renew(claimed):
                        return
                except Exception as e:
                    if isinstance(e, StoreClosedError):
                        return
                    logger.warning("could not renew the outbox lease of %s", claimed.key)

        renewer = daemon_thread(renew, "memory-outbox-lease")
        renewer.start()
        try:
            yield
        finally:
            done.set()

    def _put_dead_letter(self, update: PendingUpdate, error: str, attempts: int) -> bool:
        if self._storage is None:
            return False
        try:
            storage = self._storage()
            write_letter(
                storage,
                (update.thread_id, update.user_id, update.agent_name),
                lambda letter_id: _letter_for(storage, update, error, max(1, attempts), letter_id),
                self._lock_timeout,
            )
        except NotImplementedError:
            return False
        except Exception:
            logger.exception(
                "could not store the dead letter of %s; kept in the outbox", update.key
            )
            return False
        return True

    def restore(self, queue: MemoryUpdateQueue, updates: Sequence[PendingUpdate]) -> None:
        """Queue recovered records at their original due time (or now if past)."""
        now = time.time()
        for update in updates:
            queue.restore(to_job(update), update.due_at - now, urgent=update.urgent)

    def start(self, queue: MemoryUpdateQueue, poll_interval: float, *, background: bool) -> None:
        """Queue what the outbox holds from stopped processes, then start polling.

        ``background=False`` recovers on this thread (a service starting);
        ``True`` on a daemon thread (a store bound on a graph's first run must
        not make that turn wait for a scan). :meth:`wait_recovered` waits for it.
        """
        if not background:
            try:
                self._recover_all(queue)
            finally:
                self._recovered.set()
            self.start_polling(queue, poll_interval)
            return

        def run() -> None:
            self._recover(queue)
            self.start_polling(queue, poll_interval)

        recoverer = daemon_thread(run, "memory-outbox-recover")
        with self._poll_lock:
            self._recoverer = recoverer
        recoverer.start()

    def _recover(self, queue: MemoryUpdateQueue) -> None:
        try:
            self._recover_all(queue)
        except Exception as e:
            if self.stopped_by_closed_store(e, "recovery"):
                return
            # The poller (shared outboxes) tries again; the records stay where they are.
            logger.exception("memory outbox recovery failed")
        finally:
            self._recovered.set()

    def _recover_all(self, queue: MemoryUpdateQueue) -> None:
        pending, dead = self.outbox.recover_all()
        self.restore(queue, pending)
        self._hand_over_dead_letters(dead)

    def _hand_over_dead_letters(self, dead: Sequence[PendingUpdate]) -> None:
        """Dead letters kept in the outbox when the backend could not take them: stored now.

        Only the backend's dead letters are listed, retried and reported
        (``dead_letters()``, ``deerflow-memory pending``/``retry``): one left
        in the outbox would be out of reach for good. One the backend still
        refuses stays in the outbox (logged) for the next start.
        """
        if self._storage is None:
            return
        for update in dead:
            if self._stop_polling.is_set():
                return  # closing: the rest stay in the outbox for the next start
            if self._put_dead_letter(update, update.error or "failed", update.attempts):
                self.outbox.complete(update)

    def wait_recovered(self, timeout: float | None = None) -> bool:
        """Wait until what stopped processes left pending is queued; True when it is."""
        return self._recovered.wait(timeout)

    def start_polling(self, queue: MemoryUpdateQueue, interval: float) -> None:
        """For a shared outbox: every ``interval`` s, queue what other processes left due.

        Runs on a daemon thread until :meth:`stop_polling`; a failing poll is
        logged and retried at the next interval.
        """
        stop = self._stop_polling

        def loop() -> None:
            while not stop.wait(interval):
                if self.outbox.store_closed is not None:
                    return
                try:
                    self.restore(queue, self.outbox.poll())
                except Exception as e:
                    if self.stopped_by_closed_store(e, "poll"):
                        return
                    logger.exception("memory outbox poll failed; retrying in %.1f s", interval)

        with self._poll_lock:  # stop_polling never sees a thread that is not started
            if not self.outbox.shared or self._poller is not None or stop.is_set():
                return
            poller = daemon_thread(loop, "memory-outbox-poller")
            poller.start()
            self._poller = poller

    def stop_polling(self) -> None:
        """Stop the poller, and wait for a background recovery still running (before a close)."""
        with self._poll_lock:
            self._stop_polling.set()
            threads = [t for t in (self._recoverer, self._poller) if t is not None]
        for thread in threads:
            if thread is threading.current_thread():
                continue
            # They stop between store calls; a store call that does not return in time is
            # a hung store. Returning earlier would let the app close the store under it,
            # which a SqliteStore answers with a crash of the process.
            thread.join(timeout=_STOP_WAIT_SECONDS)
            if thread.is_alive():
                logger.warning(
                    "memory %s still waits on a store call after %.0f s; closing the store "
                    "before it returns can crash the process",
                    thread.name,
                    _STOP_WAIT_SECONDS,
                )
