"""Deleting a whole memory so that nothing said before the delete comes back.

A memory document also records which messages of each thread were already
extracted (its watermarks). Deleting the document alone would forget that
too: the next turn of an old thread would send its whole history to the
model again, and updates still pending would rebuild what was deleted.

So a delete keeps a *fence*: the document is replaced, in one write, by
its tombstone holding only the watermarks, advanced over the conversations
still pending for that memory, which the caller drops
(:meth:`~deerflow_memory.storage.base.MemoryStorage.delete_fenced`: its
content is gone from disk, journal included; the tombstone is one revision
past it, so revisions never restart and an edit read before the delete is
refused; a crash leaves the memory or its fence, never an empty document
that would let old threads be learned again); the memory's dead letters go
too, including the damaged ones (a copy kept under another name, a letter
that no longer parses) whose owner can still be read from them. A damaged letter whose
owner cannot be read is left and named in the answer, so a delete never
reports success while it may have left the user's words on disk. What the
user says after the delete is extracted as usual.

The fence's thread ids and message keys are sealed (HMAC-SHA256 under the
storage's fence key, see :mod:`~deerflow_memory.update.sealing`): an update
of an old thread still matches them, but they cannot be read back from the
stored fence, nor a deleted sentence confirmed by hashing guesses. A
document holding only a fence is not listed as a memory
(:meth:`MemoryDocument.holds_only_fence`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from langchain_core.messages import BaseMessage

from deerflow_memory.arguments import expect, expect_number
from deerflow_memory.capture.messages import filter_checked_messages
from deerflow_memory.errors import (
    ConfigError,
    CorruptMemoryError,
    MemoryBusyError,
    UpdateLockTimeoutError,
)
from deerflow_memory.models import Fact, MemoryDocument, utc_now_iso
from deerflow_memory.storage.base import MemoryStorage, validate_name
from deerflow_memory.storage.dead_letters import DeadLetter, UnreadableDeadLetter
from deerflow_memory.storage.names import of_memory
from deerflow_memory.storage.outbox import Outbox, PendingUpdate
from deerflow_memory.update.incremental import advance_watermark, with_keys
from deerflow_memory.update.letter_keys import letter_keys
from deerflow_memory.update.sealing import seal_watermarks
from deerflow_memory.update.timeouts import check_timeout
from deerflow_memory.update.validate import clean_text

__all__ = ["Cleared", "clear_memory", "fence", "outbox_leftovers"]

Pending = tuple[str, Sequence[BaseMessage]]
"""A dropped conversation: its thread id and its messages."""


@dataclass(frozen=True, slots=True)
class Cleared:
    """What a memory delete did.

    Attributes:
        existed: there was something to delete (facts, summaries or history
            of superseded facts, a pending conversation or a dead letter,
            damaged ones included).
        unattributed: damaged dead letters whose owner cannot be read, left
            as they are: they may hold this user's words (say so to whoever
            asked for the delete).
    """

    existed: bool
    unattributed: tuple[UnreadableDeadLetter, ...] = ()


def fence(
    document: MemoryDocument,
    pending: Sequence[Pending],
    fence_key: bytes,
    now: str | None = None,
    letters: Sequence[tuple[str, Sequence[str]]] = (),
) -> MemoryDocument:
    """An empty document: ``document``'s watermarks, advanced over ``letters``, ``pending``, sealed.

    Messages are keyed as the updater keys them (filtered, id-less ones hashed),
    so an update of the same thread later finds each of them said before the
    delete; every thread id and key is then sealed under ``fence_key``.

    ``letters``: the deleted dead letters' ``(thread_id, message keys)``, every
    key fenced (a letter's messages were never extracted: the thread's next
    turn, its history re-sent, would learn them). They go before ``pending``'s
    (newer, usually the thread's whole history): a thread keeps its newest
    :data:`~deerflow_memory.update.incremental.MAX_KEYS_PER_THREAD` keys, and a
    run of them stands for the older ones before it (see
    :func:`~deerflow_memory.update.incremental.select_new_messages`).

    Every thread found keeps its mark, however many (no bound on threads
    here, nor on the sealed marks after: see
    :func:`~deerflow_memory.update.incremental.advance_watermark`). A thread
    known only by a compact mark (pushed out of the whole watermarks by many
    newer threads) is fenced by its newest keys, which stand for its older
    messages too (``truncated``, see :mod:`~deerflow_memory.update.sealing`).
    """
    now = now or utc_now_iso()
    fenced = MemoryDocument(extraction_watermarks=document.extraction_watermarks)
    for thread_id, keys in [
        *letters,
        *((t, with_keys(filter_checked_messages(m))[1]) for t, m in pending),
    ]:
        fenced = advance_watermark(
            fenced, clean_text(thread_id) or "unknown", list(keys), now, max_threads=None
        )
    return seal_watermarks(fenced, fence_key)


def outbox_leftovers(
    outbox: Outbox,
    user_id: str,
    agent_name: str | None,
    taken: Sequence[PendingUpdate] = (),
) -> list[Pending]:
    """What ``outbox`` still holds for ``(user_id, agent_name)``, removed: a ``collect`` for it.

    ``taken`` (records of this memory already out of the outbox: jobs dropped
    from a queue, records adopted from a dead process) are completed; this
    memory's records are then discarded, and those a live process holds are
    added (they run there later: fenced, they learn nothing).

    Returns:
        Each conversation as ``(thread_id, messages)``, ``taken`` first.
    """
    for update in taken:
        outbox.complete(update)
    gone = [
        *taken,
        *outbox.discard(user_id, agent_name),
        *outbox.held_elsewhere(user_id, agent_name),
    ]
    return [(update.thread_id, update.messages) for update in gone]


def clear_memory(
    storage: MemoryStorage,
    user_id: str,
    agent_name: str | None,
    *,
    collect: Callable[[], Sequence[Pending]] = tuple,
    lock_timeout: float = 120.0,
    wait_idle: Callable[[float], bool] | None = None,
) -> Cleared:
    """Delete the memory of ``(user_id, agent_name)`` and leave its fence.

    ``wait_idle(seconds)`` (a service: the user's running update finishes,
    so what it saves, requeues or dead-letters is dropped below) runs first;
    False is "still busy". Then, under the document's update lock (no update
    of it runs in any process): ``collect()`` drops the conversations still
    pending for it and returns them, its dead letters are deleted (damaged
    ones too when their owner can be read from them), the document is
    replaced by its tombstone holding the fence, in one write (journal
    included: see ``MemoryStorage.delete_fenced``). A document that cannot be read is deleted too
    (its watermarks are lost with it).

    Returns:
        :class:`Cleared`: whether there was something to delete, and the
        damaged letters of unknown owner that were left.

    Raises:
        MemoryBusyError: ``wait_idle`` and the lock together took more than
            ``lock_timeout`` seconds (nothing was changed).
        StorageError: the backend failed.
        InvalidNameError: an unsafe ``user_id`` or ``agent_name``; nothing was changed.
        InvalidArgumentError: ``storage`` is not a :class:`MemoryStorage`.
        ConfigError: ``lock_timeout`` is not a number, or is NaN or negative
            (infinity waits as long as it takes).
    """
    expect(storage, MemoryStorage, "storage", "a MemoryStorage")
    user_id = validate_name(user_id, "user_id")
    agent_name = None if agent_name is None else validate_name(agent_name, "agent_name")
    expect_number(lock_timeout, "lock_timeout", ConfigError)  # None refused: a bounded wait
    seconds = check_timeout(lock_timeout, "lock_timeout")
    assert seconds is not None
    end = time.monotonic() + seconds
    # Read (made the first time: a write and fsyncs) before the wait: between the end
    # of a running update and the lock, a requeued update may be taken by a worker
    # instead of being collected, and that window must stay as short as it can be.
    fence_key = storage.fence_key()
    if wait_idle is not None and not wait_idle(lock_timeout):
        raise MemoryBusyError(user_id, agent_name, lock_timeout)
    try:
        with storage.update_lock(user_id, agent_name, max(0.0, end - time.monotonic())):
            return _clear_locked(storage, user_id, agent_name, collect, fence_key)
    except UpdateLockTimeoutError as e:
        raise MemoryBusyError(user_id, agent_name, lock_timeout) from e


def _clear_locked(
    storage: MemoryStorage,
    user_id: str,
    agent_name: str | None,
    collect: Callable[[], Sequence[Pending]],
    fence_key: bytes,
) -> Cleared:
    try:
        document = storage.load(user_id, agent_name)
    except CorruptMemoryError:
        document = MemoryDocument(facts=(Fact(content="unreadable"),))  # counts as existing
    pending = collect()
    stored = storage.all_dead_letters()  # read once: the readable and the damaged ones
    letters = [
        letter
        for letter in stored
        if isinstance(letter, DeadLetter)
        and of_memory(letter.user_id, letter.agent_name, user_id, agent_name)
    ]
    for letter in letters:
        storage.delete_dead_letter(letter.id)
    damaged = [bad for bad in stored if isinstance(bad, UnreadableDeadLetter)]
    removed = [
        bad
        for bad in damaged
        if bad.owner is not None
        and of_memory(*bad.owner, user_id, agent_name)
        and storage.delete_unreadable_dead_letter(bad)
    ]
    # The thread's next turn re-sends a letter's messages (a retry may hold a copy): fenced.
    written = [(letter.thread_id, letter_keys(letter)) for letter in letters]
    fenced = fence(document, pending, fence_key, letters=written)
    # One write: a crash leaves the memory or its fenced tombstone, never an empty
    # document without watermarks (old threads would then be learned again).
    storage.delete_fenced(user_id, agent_name, fenced)
    held = not document.is_empty() or bool(document.superseded_facts)  # history is memory too
    existed = held or bool(pending) or bool(letters) or bool(removed)
    return Cleared(existed, tuple(bad for bad in damaged if bad.owner is None))
