"""The file backend's outbox: one append-only journal per process.

Layout under the storage root::

    outbox/{owner}.lock     # flocked by the owning process for its whole life
    outbox/{owner}.jsonl    # one JSON line per operation: put / done / dead / release

A batch of operations is appended with one ``write`` and one ``fsync``
(group commit). Replaying a journal keeps, per key, the last ``put`` unless a
later ``done`` names its id; ``dead`` lines are kept as dead letters. The
journal is truncated when nothing is pending and rewritten when it grows past
:data:`COMPACT_BYTES`.

A journal per *process* (not per user) keeps a capture at one append, with no
lock shared by processes on the hot path. When a process dies (SIGKILL, OOM,
power loss) the kernel frees its ``flock``; the next process on the same root
to start, or the poller of a running one (every ``outbox_poll_seconds``),
takes the lock, copies the pending records into its own journal (durably),
then deletes the dead one. Two processes cannot both adopt it: only one gets
the lock; a live process's journal is never taken (its lock is held). A lock
file is created under a temporary name, locked, then renamed into place, so no
poller can take the lock of a process that is still starting.

How it fails: a torn last line (crash mid-append) is skipped; an unreadable
journal is left in place with a warning, never deleted. Files here are opened
``O_NOFOLLOW | O_NONBLOCK`` and must be regular: a symlink, FIFO, device or
socket named like a journal or lock is skipped with one warning naming it (it
never blocks a start, and a link's target is never read or written). A line of an adopted
journal that cannot be decoded is kept, as is, in ``outbox/{owner}.jsonl.corrupt``
(one warning names it). A journal whose lock file is gone (a backup restored
without it) is adopted once no process has it open (a Linux write lease
proves that; elsewhere it must be untouched for :data:`ORPHAN_GRACE` seconds).
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import json
import os
import stat
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

from deerflow_memory.daemons.forks import after_fork_in_child
from deerflow_memory.errors import CorruptMemoryError, StorageError
from deerflow_memory.logs import package_logger
from deerflow_memory.storage.file import _fsync_folder, _open_regular, _read_regular
from deerflow_memory.storage.names import of_memory
from deerflow_memory.storage.outbox import (
    DEFAULT_COMMIT_INTERVAL,
    Decode,
    Encode,
    GroupCommitOutbox,
    OutboxKey,
    PendingUpdate,
)

__all__ = ["COMPACT_BYTES", "FileOutbox"]

logger = package_logger(__name__)

_fcntl: ModuleType | None
try:
    _fcntl = importlib.import_module("fcntl")
except ImportError:  # pragma: no cover - Windows
    _fcntl = None

COMPACT_BYTES = 8 * 1024 * 1024
OUTBOX_DIR = "outbox"
_STARTING = ".starting"  # a lock file's name until it is locked
_START_GRACE = 60.0  # seconds before a ".starting" file is taken for a dead start
ORPHAN_GRACE = 600.0  # without leases: seconds a journal with no lock file must sit untouched
CORRUPT_SUFFIX = ".corrupt"  # outbox/{owner}.jsonl.corrupt: adopted lines that could not be read
_OPS = frozenset({"put", "done", "dead", "release"})  # the journal's operations
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def replay(
    lines: list[bytes], decode: Decode, unreadable: list[bytes] | None = None
) -> tuple[dict[OutboxKey, PendingUpdate], list[PendingUpdate]]:
    """Pending records by key, and dead letters, from a journal's lines (pure).

    Lines that cannot be decoded are appended to ``unreadable`` when it is
    given, else logged (one warning each) and skipped.
    """
    pending: dict[OutboxKey, PendingUpdate] = {}
    dead: dict[str, PendingUpdate] = {}
    for raw in lines:
        if not raw.strip():
            continue
        try:
            entry = json.loads(raw)
            op = entry["op"]
            if op not in _OPS:  # a line no version of this outbox writes: kept, not dropped
                raise ValueError(f"unknown journal op {str(op)[:40]!r}")
            update = PendingUpdate.from_json(entry["update"], decode)
        except (ValueError, KeyError, TypeError, RecursionError, MemoryError) as e:
            if unreadable is not None:
                unreadable.append(raw)
            else:
                logger.warning("skipping an unreadable memory outbox line: %s", e)
            continue
        _apply(pending, dead, op, update)
    return pending, list(dead.values())


def _apply(
    pending: dict[OutboxKey, PendingUpdate],
    dead: dict[str, PendingUpdate],
    op: str,
    update: PendingUpdate,
) -> None:
    """One journal op on the live records (in place); other ops (``release``) change nothing.

    ``put`` makes ``update`` its key's pending record; ``done`` and ``dead`` end
    it when it is still that record, ``done`` also drops its dead letter and
    ``dead`` keeps it as one.
    """
    current = pending.get(update.key)
    same = current is not None and current.record_id == update.record_id
    if op == "put":
        pending[update.key] = update
    elif op == "done":
        if same:
            del pending[update.key]
        dead.pop(update.record_id, None)
    elif op == "dead":
        if same:
            del pending[update.key]
        dead[update.record_id] = update


def _no_messages(messages: Sequence[Any]) -> list[Any]:
    return []


class FileOutbox(GroupCommitOutbox):
    """Journal-per-process outbox under ``{root}/outbox``.

    Args:
        root: the file storage root.
        encode, decode: turn messages into JSON values and back.
        encode_json: the compact JSON text (``json.dumps(v, ensure_ascii=False,
            separators=(",", ":"))``) of each message's ``encode`` value, in
            order; given, a journal line joins those texts instead of dumping
            the messages again (the same line, read back; a turn of a long
            thread mostly repeats messages already written).
        commit_interval: group-commit window in seconds (the durability window).
        check: called with the outbox folder before it is made, read or scanned;
            raises to refuse it (a tenant's view: :meth:`FileMemoryStorage.inside`
            refuses a folder reached through a link, so another tenant's journals
            are never adopted).
    """

    shared = True  # a dead process's journal is adopted by a running one's poll()

    def __init__(
        self,
        root: str | os.PathLike[str],
        encode: Encode,
        decode: Decode,
        *,
        encode_json: Callable[[Sequence[Any]], list[str]] | None = None,
        commit_interval: float = DEFAULT_COMMIT_INTERVAL,
        check: Callable[[Path], object] | None = None,
    ) -> None:
        super().__init__(commit_interval=commit_interval)
        self._encode_json = encode_json
        self._dir = Path(os.fspath(root)) / OUTBOX_DIR
        self._check = check
        self._checked()  # before anything is made or read there
        self._encode, self._decode = encode, decode
        self._owner = uuid.uuid4().hex
        self._dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        # Locked before it gets the name pollers look for (else one could adopt us).
        starting = self._dir / f"{self._owner}{_STARTING}"
        self._lock_fd: int | None = os.open(starting, os.O_RDWR | os.O_CREAT | _NOFOLLOW, 0o600)
        if _fcntl is not None:
            _fcntl.flock(self._lock_fd, _fcntl.LOCK_EX)
        os.replace(starting, self._dir / f"{self._owner}.lock")
        self._path = self._dir / f"{self._owner}.jsonl"
        self._fd: int | None = None
        # Writer-thread state: what this journal holds, for truncation and compaction.
        self._pending: dict[OutboxKey, PendingUpdate] = {}
        self._dead: dict[str, PendingUpdate] = {}
        self._size = 0
        self._refused: set[str] = set()  # special files already warned about
        self._inherited = False  # True in a forked child: the journal is the parent's
        after_fork_in_child(self)

    def after_fork_in_child(self) -> None:
        """In a forked child: let go of the parent's journal and lock, never write them.

        Closing the copies of their descriptors leaves the parent's ``flock`` with
        the parent alone, so its journal is adopted if the parent dies first; the
        child's :meth:`close` deletes nothing.
        """
        self._inherited = True
        for fd in (self._fd, self._lock_fd):  # (None once closed: the number is reused)
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._fd = self._lock_fd = None

    def _checked(self) -> Path:
        """The outbox folder, after ``check`` (a tenant's view refuses one reached by a link)."""
        if self._check is not None:
            self._check(self._dir)
        return self._dir

    @property
    def journal(self) -> Path:
        """This process's journal file."""
        return self._path

    # --- writing ------------------------------------------------------------------------

    def _open(self) -> int:
        if self._inherited:
            raise StorageError(
                f"the memory outbox journal {self._path} belongs to the process that forked "
                "this one: make the memory service in this process"
            )
        if self._fd is None:
            self._checked()  # this process's words never go into a linked folder
            flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | _NOFOLLOW
            self._fd = os.open(self._path, flags, 0o600)
            _fsync_folder(self._dir)
        return self._fd

    def _line(self, op: str, update: PendingUpdate) -> bytes:
        if op != "put" and op != "dead":
            update = replace(update, messages=())  # done/release only need the id
        if self._encode_json is None or not update.messages:
            data: dict[str, Any] = {"op": op, "update": update.to_json(self._encode)}
            return (json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
        # The record without its messages, then the messages' own texts put in before
        # the two closing braces: a dict's JSON always ends with "}".
        record = update.to_json(_no_messages)
        del record["messages"]
        head = json.dumps({"op": op, "update": record}, ensure_ascii=False, separators=(",", ":"))
        texts = ",".join(self._encode_json(update.messages))
        return f'{head[:-2]},"messages":[{texts}]}}}}\n'.encode()

    def _commit(self, batch: list[tuple[str, PendingUpdate]]) -> None:
        # Every line is encoded before the journal's state changes: an op that
        # cannot be encoded raises here and leaves no trace (not even in a compaction).
        ops = [(op, update, self._line(op, update)) for op, update in batch if op != "release"]
        lines = []
        for op, update, line in ops:
            _apply(self._pending, self._dead, op, update)
            lines.append(line)
        if not lines:
            return
        fd = self._open()
        if not self._pending and not self._dead:
            # Nothing left pending: start the journal over instead of appending.
            os.ftruncate(fd, 0)
            os.fsync(fd)
            self._size = 0
            return
        data = b"".join(lines)
        if self._size + len(data) > COMPACT_BYTES:
            self._rewrite()
            return
        os.write(fd, data)
        os.fsync(fd)
        self._size += len(data)

    def _rewrite(self) -> None:
        """Replace the journal by one line per live record (temp file + rename)."""
        tmp = self._path.with_suffix(".tmp")
        body = b"".join(
            [self._line("put", u) for u in self._pending.values()]
            + [self._line("dead", u) for u in self._dead.values()]
        )
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _NOFOLLOW
        with os.fdopen(os.open(tmp, flags, 0o600), "wb") as f:
            f.write(body)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self._path)
        _fsync_folder(self._dir)
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        self._open()
        self._size = len(body)

    # --- claiming: the journal belongs to this process alone ---------------------------

    def claim(self, update: PendingUpdate) -> PendingUpdate | None:
        return update

    # --- recovery -----------------------------------------------------------------------

    def poll(self) -> list[PendingUpdate]:
        """Adopt journals whose process died since; their pending records (see :meth:`recover`)."""
        return self.recover()

    def recover(self) -> list[PendingUpdate]:
        """Adopt the journals of dead processes; return their pending records.

        The records are written to this process's journal (and synced) before
        the dead journal is deleted, so a crash during recovery loses nothing.
        Journals of live processes (their ``flock`` held) are left alone.
        """
        self._drop_dead_starts()
        adopted: list[PendingUpdate] = []
        for lock_path in sorted(self._checked().glob("*.lock")):
            owner = lock_path.stem
            if owner == self._owner:
                continue
            try:
                fd = _try_lock(lock_path)
            except CorruptMemoryError as e:
                self._refuse(e)
                continue
            if fd is None:
                continue  # its process is alive
            try:
                adopted.extend(self._adopt(owner, lock_path))
            finally:
                os.close(fd)
        for journal in sorted(self._dir.glob("*.jsonl")):
            owner = journal.stem
            lock_path = self._dir / f"{owner}.lock"
            if owner == self._owner or os.path.lexists(lock_path):
                continue
            try:
                if not _unopened(journal):
                    continue
            except CorruptMemoryError as e:
                self._refuse(e)
                continue
            fd = _create_lock(lock_path)
            if fd is None:
                continue  # another process is adopting it
            try:
                logger.warning(
                    "memory outbox journal %s has no lock file and no process has it open: "
                    "adopting it",
                    journal,
                )
                adopted.extend(self._adopt(owner, lock_path))
            finally:
                os.close(fd)
        if adopted:
            logger.info(
                "memory outbox: adopted %d pending updates from stopped processes", len(adopted)
            )
        return adopted

    def held_elsewhere(self, user_id: str, agent_name: str | None) -> list[PendingUpdate]:
        """Pending records of the memory in other processes' journals (read, never changed).

        Those processes are alive (a dead one's journal is adopted by
        :meth:`poll`); what their queues have not committed yet (at most the
        group-commit window) is not seen. A journal that cannot be read is
        skipped with a warning, like in :meth:`recover`.
        """
        held: list[PendingUpdate] = []
        for journal in sorted(self._checked().glob("*.jsonl")):
            if journal.stem == self._owner:
                continue
            try:
                lines = _read_regular(journal).splitlines()
            except FileNotFoundError:
                continue  # adopted or emptied meanwhile
            except CorruptMemoryError as e:
                self._refuse(e)
                continue
            except OSError as e:
                logger.warning("cannot read memory outbox journal %s: %s", journal, e)
                continue
            pending, _ = replay(lines, self._decode, unreadable=[])
            held += [
                u
                for u in pending.values()
                if of_memory(u.user_id, u.agent_name, user_id, agent_name)
            ]
        return held

    def _adopt(self, owner: str, lock_path: Path) -> list[PendingUpdate]:
        """Copy a dead process's pending records and dead letters, then delete its journal.

        Its lock is held by the caller. Lines that cannot be decoded are kept in
        ``{owner}.jsonl.corrupt`` first; when that fails the journal is left in place.
        """
        journal = self._dir / f"{owner}.jsonl"
        try:
            lines = _read_regular(journal).splitlines()
        except FileNotFoundError:
            lines = []
        except CorruptMemoryError as e:
            self._refuse(e)
            return []
        except OSError as e:
            logger.warning("cannot read memory outbox journal %s: %s", journal, e)
            return []
        unreadable: list[bytes] = []
        pending, dead = replay(lines, self._decode, unreadable)
        adopted: list[PendingUpdate] = []
        for update in pending.values():
            self.record(update)
            adopted.append(update)
        for update in dead:
            self._push("dead", update)
        if not self.sync(timeout=60):
            logger.warning("could not adopt memory outbox journal %s in time", journal)
            return adopted
        if unreadable:
            kept = journal.with_name(journal.name + CORRUPT_SUFFIX)
            try:
                _append_durably(kept, unreadable)
            except OSError as e:
                logger.warning(
                    "memory outbox journal %s has %d unreadable lines that cannot be kept in %s "
                    "(%s): the journal is left in place",
                    journal,
                    len(unreadable),
                    kept,
                    e,
                )
                return adopted
            logger.warning(
                "memory outbox journal %s: %d lines could not be read (not replayed); "
                "they are kept as they were in %s",
                journal,
                len(unreadable),
                kept,
            )
        with contextlib.suppress(FileNotFoundError):
            journal.unlink()
        with contextlib.suppress(FileNotFoundError):
            lock_path.unlink()
        _fsync_folder(self._dir)
        return adopted

    def _drop_dead_starts(self) -> None:
        """Remove lock files left by processes that died while starting (nothing else is theirs)."""
        for path in self._dir.glob(f"*{_STARTING}"):
            try:
                if time.time() - path.stat().st_mtime < _START_GRACE:
                    continue  # may be between its creation and its lock
            except FileNotFoundError:
                continue
            try:
                fd = _try_lock(path)
            except CorruptMemoryError as e:
                self._refuse(e)
                continue
            if fd is not None:
                with contextlib.suppress(FileNotFoundError):
                    path.unlink()
                os.close(fd)

    def _refuse(self, error: CorruptMemoryError) -> None:
        """Warn once per process about a special file in the outbox (it is left untouched)."""
        if error.location not in self._refused:
            self._refused.add(error.location)
            logger.warning(
                "memory outbox: %s %s: skipped and left untouched (move it away)",
                error.location,
                error.reason,
            )

    def recover_all(self) -> tuple[list[PendingUpdate], list[PendingUpdate]]:
        """Adopted pending records, and this process's dead letters (adopted ones included).

        A live process's dead letters stay its own: handing them over from here
        would bring them back after every start, even after its memory was cleared.
        """
        pending = self.recover()
        self.sync(timeout=10)
        return pending, self._dead_in(self._path)

    def dead_letters(self) -> list[PendingUpdate]:
        """Dead letters of this process and of every journal on this root."""
        self.sync(timeout=10)
        found: dict[str, PendingUpdate] = {}
        for journal in sorted(self._checked().glob("*.jsonl")):
            for update in self._dead_in(journal):
                found[update.record_id] = update
        return list(found.values())

    def _dead_in(self, journal: Path) -> list[PendingUpdate]:
        """The dead letters ``journal`` holds; none when it cannot be read (or is not there)."""
        try:
            lines = _read_regular(journal).splitlines()
        except OSError:  # incl. CorruptMemoryError: a special file, skipped
            return []
        return replay(lines, self._decode)[1]

    def close(self) -> None:
        if self._inherited:  # a forked child's copy: the parent's files stay as they are
            return
        super().close()
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        if not self._pending and not self._dead:
            # Clean exit with nothing pending: leave no files behind.
            with contextlib.suppress(FileNotFoundError):
                self._path.unlink()
            with contextlib.suppress(FileNotFoundError):
                (self._dir / f"{self._owner}.lock").unlink()
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None


def _append_durably(path: Path, lines: list[bytes]) -> None:
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | _NOFOLLOW
    fd = os.open(path, flags, 0o600)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        os.write(fd, b"".join(line.rstrip(b"\r\n") + b"\n" for line in lines))
        os.fsync(fd)
    finally:
        os.close(fd)
    _fsync_folder(path.parent)


def _unopened(path: Path) -> bool:
    """True when no process has ``path`` open, so no live process writes it.

    Raises:
        CorruptMemoryError: ``path`` is a symlink or not a regular file.

    Linux: a write lease is granted only on a file nobody else has open.
    Elsewhere (or when leases are off): the file is untouched for
    :data:`ORPHAN_GRACE` seconds.
    """
    try:
        fd = _open_regular(path)  # CorruptMemoryError: a symlink or special file
    except CorruptMemoryError:
        raise
    except OSError:
        return False
    try:
        setlease = getattr(_fcntl, "F_SETLEASE", None)
        if _fcntl is not None and setlease is not None:
            try:
                _fcntl.fcntl(fd, setlease, _fcntl.F_WRLCK)
            except OSError as e:
                if e.errno in (errno.EAGAIN, errno.EBUSY, errno.EWOULDBLOCK):
                    return False  # open elsewhere
            else:
                _fcntl.fcntl(fd, setlease, _fcntl.F_UNLCK)
                return True
        return time.time() - os.fstat(fd).st_mtime >= ORPHAN_GRACE
    finally:
        os.close(fd)


def _create_lock(path: Path) -> int | None:
    """Create and flock a lock file that was missing; None when another process got there first."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError:
        return None
    if _fcntl is None:  # pragma: no cover - Windows: nothing to lock with
        return fd
    return _flock_or_close(fd, path)


def _try_lock(path: Path) -> int | None:
    """Open and flock ``path`` without waiting; the descriptor, or None when held elsewhere.

    Raises:
        CorruptMemoryError: ``path`` is a symlink or not a regular file.
    """
    try:
        fd = _open_regular(path)  # flock needs no write access
    except FileNotFoundError:
        return None
    if _fcntl is None:  # pragma: no cover - Windows: cannot tell; leave it
        os.close(fd)
        return None
    return _flock_or_close(fd, path)


def _flock_or_close(fd: int, path: Path) -> int | None:
    """``fd`` exclusively flocked without waiting; None (closed) when held elsewhere or gone."""
    assert _fcntl is not None
    try:
        _fcntl.flock(fd, _fcntl.LOCK_EX | _fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    if not path.exists():  # adopted and removed by another process meanwhile
        os.close(fd)
        return None
    return fd
