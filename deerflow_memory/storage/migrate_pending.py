"""What ``migrate`` carries besides documents: dead letters and the outbox's pending updates.

Both hold the user's words that are not learned yet; a migration that left
them behind would lose them once the config points at the new backend.

- **Dead letters** (updates that failed for good) are copied whole, ids
  kept, and read back. A letter the target already holds as it is counts as
  skipped (a re-run copies nothing twice); one holding something else is
  skipped too unless ``overwrite``, like a document. A letter the source
  cannot read is reported (it cannot be copied).
- **Pending updates** (captured turns whose update has not run yet: the
  durable outbox) are read from the source without changing it and written
  to the target's outbox, where the next process on the target adopts them
  as it adopts a stopped process's (file backend: one journal of a stopped
  process; store backends: items nobody leases). Messages are copied as
  stored (JSON), never decoded. Records of one key found twice in the source
  (two stopped processes' journals) become one holding both's messages
  (:func:`~deerflow_memory.storage.outbox.merge_captures`). A record whose
  key the target already holds with all its messages is skipped. Each copy
  is checked by reading the target's outbox again.

How it fails (each in the report, so :attr:`MigrationReport.ok` is False):
a record a live process holds in the source (a running service: stop it and
migrate again) is not copied; a target with no durable outbox (a plain
``InMemoryStore``) cannot keep records; a source journal or letter that
cannot be read is named. Storage errors propagate, as for documents.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from deerflow_memory.errors import CorruptMemoryError
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.storage.dead_letters import DeadLetter
from deerflow_memory.storage.names import of_memory
from deerflow_memory.storage.outbox import Outbox, PendingUpdate, is_volatile, merge_captures

if TYPE_CHECKING:
    from deerflow_memory.storage.file import FileMemoryStorage
    from deerflow_memory.storage.migrate import MigrationReport
    from deerflow_memory.storage.outbox_store import StoreOutbox

__all__ = ["copy_dead_letters", "copy_pending_updates"]

_SYNC_SECONDS = 60.0

OutboxKey = tuple[str, str, str | None]


def copy_dead_letters(
    source: MemoryStorage,
    target: MemoryStorage,
    overwrite: bool,
    report: MigrationReport,
    label: str,
    *,
    cleared: frozenset[tuple[str, str | None]] = frozenset(),
) -> None:
    """Copy every dead letter of ``source`` into ``target``; the outcome goes to ``report``.

    ``label``: the tenant prefix of the names reported (``"<tenant>/"`` or ``""``).
    ``cleared``: ``(user_id, agent_name)`` of memories the target's user
    cleared; their letters are skipped (their words must not be learned back).
    """
    try:
        found = source.all_dead_letters()
    except NotImplementedError:
        return  # a backend that keeps no letters has none to copy
    for letter in found:
        if not isinstance(letter, DeadLetter):
            report.letters_failed.append((letter.location, letter.reason))
            continue
        name = label + letter.id
        if (letter.user_id, letter.agent_name) in cleared:
            report.letters_skipped.append(name)
            continue
        try:
            existing = target.read_dead_letter(letter.id)
        except NotImplementedError:
            report.letters_failed.append((name, "the target keeps no dead letters"))
            continue
        if existing == letter or (existing is not None and not overwrite):
            report.letters_skipped.append(name)
            continue
        target.put_dead_letter(letter)
        report.letters_copied.append(name)
        if target.read_dead_letter(letter.id) != letter:
            report.letters_mismatched.append(name)


def copy_pending_updates(
    source: MemoryStorage,
    target: MemoryStorage,
    report: MigrationReport,
    label: str,
    *,
    cleared: frozenset[tuple[str, str | None]] = frozenset(),
) -> None:
    """Copy the pending records of ``source``'s outbox into ``target``'s; outcome in ``report``.

    ``cleared``: as :func:`copy_dead_letters`; those memories' records are skipped.
    """
    read = _pending(source, report.pending_failed)
    if read is None:
        return  # no durable outbox: nothing was ever kept there
    free, held = read
    gone = [u for u in free if (u.user_id, u.agent_name) in cleared]
    report.pending_skipped += [_name(label, u) for u in _merged(gone)]
    free = [u for u in free if (u.user_id, u.agent_name) not in cleared]
    report.pending_held += [_name(label, u) for u in held]
    if not free:
        return
    wanted = _merged(free)
    there = _pending(target, report.pending_failed)
    if there is None:
        report.pending_not_carried += [_name(label, u) for u in wanted]
        return
    present = _by_key([*there[0], *there[1]])
    new = [u for u in wanted if not _holds(present.get(u.key, ()), u)]
    report.pending_skipped += [_name(label, u) for u in wanted if u not in new]
    if not new:
        return
    outbox = _writer(target)
    assert outbox is not None  # _pending found a durable outbox
    try:
        for update in new:
            outbox.record(update)
        outbox.sync(timeout=_SYNC_SECONDS)
    finally:
        outbox.close()  # the records stay for the next process (file: lock let go)
    report.pending_copied += [_name(label, u) for u in new]
    after = _pending(target, report.pending_failed)
    stored = _by_key([*after[0], *after[1]]) if after is not None else {}
    report.pending_mismatched += [
        _name(label, u) for u in new if not _holds(stored.get(u.key, ()), u)
    ]


def _name(label: str, update: PendingUpdate) -> tuple[str, str | None, str]:
    return (label + update.user_id, update.agent_name, update.thread_id)


def _union(earlier: Sequence[Any], later: Sequence[Any]) -> list[Any]:
    """Stored messages (JSON) of both captures, each distinct one once, earlier first."""
    merged = list(earlier)
    merged += [m for m in later if m not in merged]
    return merged


def _merged(records: list[PendingUpdate]) -> list[PendingUpdate]:
    """One record per key, holding the messages of every record of it."""
    out: dict[OutboxKey, PendingUpdate] = {}
    for update in records:
        held = out.get(update.key)
        out[update.key] = update if held is None else merge_captures(held, update, _union) or held
    return list(out.values())


def _by_key(records: list[PendingUpdate]) -> dict[OutboxKey, list[PendingUpdate]]:
    found: dict[OutboxKey, list[PendingUpdate]] = {}
    for update in records:
        found.setdefault(update.key, []).append(update)
    return found


def _holds(records: Sequence[PendingUpdate], update: PendingUpdate) -> bool:
    """True when ``records`` (one key's) hold every message of ``update``."""
    stored = [m for record in records for m in record.messages]
    return bool(records) and all(m in stored for m in update.messages)


def waiting_updates(storage: MemoryStorage) -> tuple[int, int, int] | None:
    """How many updates wait in ``storage``'s durable outbox: ``(free, held, unreadable)``.

    Free ones were left by stopped processes (the next memory service on the
    storage runs them: ``deerflow-memory retry`` starts one); held ones a live
    process is running; unreadable: journals or lines that cannot be read. Only
    reads. None when the storage has no durable outbox (an ``InMemoryStore``).
    """
    failed: list[tuple[str, str]] = []
    found = _pending(storage, failed)
    if found is None:
        return None
    free, held = found
    return len(free), len(held), len(failed)


def waits_for(storage: MemoryStorage, user_id: str, agent_name: str | None) -> bool:
    """Whether an update of ``user_id`` and ``agent_name`` waits in ``storage``'s durable
    outbox, or a record there cannot be read (it may be theirs). Only reads; False when
    the storage has no durable outbox. Ids are compared NFC-normalised, as stored."""
    failed: list[tuple[str, str]] = []
    found = _pending(storage, failed)
    if found is None:
        return False
    mine = (of_memory(p.user_id, p.agent_name, user_id, agent_name) for p in (*found[0], *found[1]))
    return bool(failed) or any(mine)


def _pending(
    storage: MemoryStorage, failed: list[tuple[str, str]]
) -> tuple[list[PendingUpdate], list[PendingUpdate]] | None:
    """``(free, held)`` pending records of ``storage``'s outbox; None when it has no durable one.

    Only reads. Held: a live process runs them (its journal's lock is held, or
    its lease on the item has not ended). ``(location, reason)`` of what
    cannot be read is added to ``failed``.
    """
    from deerflow_memory.storage.file import FileMemoryStorage

    if isinstance(storage, FileMemoryStorage):
        return _journal_records(storage, failed)
    outbox = _store_outbox(storage)
    return None if outbox is None else (outbox.recover(), outbox.leased())


def _writer(storage: MemoryStorage) -> Outbox | None:
    """An outbox writing raw records (messages as stored) into ``storage``'s."""
    from deerflow_memory.storage.file import FileMemoryStorage

    if isinstance(storage, FileMemoryStorage):
        from deerflow_memory.storage.outbox_file import FileOutbox

        return FileOutbox(storage.root, list, tuple, check=storage.inside)
    outbox = _store_outbox(storage)
    if outbox is not None:
        outbox.sync_clock()
    return outbox


def _store_outbox(storage: MemoryStorage) -> StoreOutbox | None:
    """The outbox of a store ``storage`` keeping records as stored; None: not a durable store."""
    from deerflow_memory.storage.store import StoreMemoryStorage

    if not isinstance(storage, StoreMemoryStorage) or is_volatile(storage.store):
        return None
    from deerflow_memory.storage.outbox_store import StoreOutbox

    return StoreOutbox(storage, list, tuple, merge=_union)


def _journal_records(
    storage: FileMemoryStorage, failed: list[tuple[str, str]]
) -> tuple[list[PendingUpdate], list[PendingUpdate]]:
    """The pending records of every journal under the file storage's ``outbox/``."""
    from deerflow_memory.storage.file import _read_regular
    from deerflow_memory.storage.outbox_file import OUTBOX_DIR, _try_lock, replay

    folder = storage.inside(storage.root / OUTBOX_DIR)
    free: list[PendingUpdate] = []
    held: list[PendingUpdate] = []
    if not folder.is_dir():
        return free, held
    for journal in sorted(folder.glob("*.jsonl")):
        try:
            lines = _read_regular(journal).splitlines()
        except FileNotFoundError:
            continue  # adopted meanwhile
        except OSError as e:  # CorruptMemoryError (a special file) included
            failed.append((str(journal), str(e)))
            continue
        unreadable: list[bytes] = []
        pending, _ = replay(lines, tuple, unreadable)
        if unreadable:
            failed.append((str(journal), f"{len(unreadable)} unreadable lines"))
        lock = journal.with_suffix(".lock")
        live = False
        if os.path.lexists(lock):
            try:
                fd = _try_lock(lock)
            except CorruptMemoryError as e:
                failed.append((str(lock), str(e)))
                continue
            live = fd is None
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        (held if live else free).extend(pending.values())
    return free, held
