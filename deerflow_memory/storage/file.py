"""JSON-file storage: one DeerFlow-compatible ``memory.json`` per (user, agent).

Layout under ``root``::

    users/{user_id}/memory.json                       # default agent (agent_name=None)
    users/{user_id}/memory.journal.jsonl              # saves since memory.json was written
    users/{user_id}/agents/{agent_name}/memory.json   # one per named agent
    dead_letters/dl_<hex>.json                        # updates that failed for good
    locks/<hash>.lock                                 # update locks (held load -> save)
    outbox/<process>.jsonl                            # captured turns not yet updated
    fence.key                                         # seals what a delete keeps (0600)

Folder names are :func:`~deerflow_memory.storage.names.storage_name` of the
NFC id: the id itself, or (over 200 UTF-8 bytes, a Windows device name, a
trailing dot) a readable prefix + ``~`` + hash, with the real id recorded in
the folder's ``.id`` file so :meth:`FileMemoryStorage.list_documents` (and the
CLI) report the real id. Any valid id works on ext4, APFS, NTFS and FAT.

How it fails, and what it guarantees:

- Unsafe names (separators, ``..``, absolute paths, control characters, a
  leading dot, over-long) raise :class:`InvalidNameError`, as does a key whose
  folder resolves outside ``root`` (e.g. through a planted symlink).
- A symlinked user, agent or tenant folder or memory file (only ``root`` and
  its own ``users/`` and ``tenants/`` may be links, e.g. to a bigger disk), or
  a FIFO, device or socket where a memory file should be, raises
  :class:`CorruptMemoryError` at once (files are opened ``O_NOFOLLOW |
  O_NONBLOCK`` and checked to be regular): reads, saves and deletes never go
  through a link to another user's memory, and listing skips linked folders.
  In a tenant's view (:meth:`FileMemoryStorage.scoped`) nothing inside the
  tenant folder may be a link: ``users/``, ``dead_letters/``, ``locks/``,
  ``outbox/`` and ``fence.key`` are checked by :meth:`FileMemoryStorage.inside`
  on every read, write, listing and delete (a linked ``users/`` makes listing
  raise, not skip: every load through it is refused too).
- A file that is not UTF-8, not JSON, or not a memory document raises
  :class:`CorruptMemoryError` naming the path and the reason, on ``load`` and on
  ``save`` alike: it is never read as empty and never overwritten; repair it,
  move it away or ``delete`` it.
- A fact id listed twice (a ``memory.json`` from DeerFlow or an editor, a
  journal record) is resolved on load by :func:`~deerflow_memory.models.unique_fact_ids`
  (exact copies dropped, copies with other text renamed, one WARNING); the next
  save writes the whole document. A journal record keeping an item twice
  (overlapping ranges) is corruption.
- ``save`` appends what changed as one line to ``memory.journal.jsonl`` and
  fsyncs it (see :mod:`~deerflow_memory.storage.journal`); ``load`` reads
  ``memory.json`` and replays the journal. When the journal outgrows a bound
  (half the snapshot's size, at least 32 KiB, or 1,000 saves) the save
  *compacts*: it writes the whole document to a temp file in the same folder,
  fsyncs it, renames it over ``memory.json``, fsyncs the folder and removes
  the journal. A crash leaves the old or the new document, never a torn one:
  a torn last journal line is ignored, a stale journal (its header names
  another snapshot, e.g. after DeerFlow rewrote ``memory.json``) too. A temp
  file left by a crash is ignored by ``load``/``list_documents`` and swept by
  the next ``save`` of that document.
- ``save(..., expected_revision=N)`` raises :class:`RevisionConflictError`
  when another writer (thread or process) stored a different revision first.
- ``delete`` replaces ``memory.json`` by a tombstone (an empty document with
  ``deletedAt``, one revision past the deleted one; DeerFlow reads it as an
  empty memory): revisions never restart, so an edit sent with a revision
  read before the delete is refused. A ``memory.json`` written by an older
  version or by DeerFlow (no ``revision``: revision 0) loads as before.
- Operating-system errors (permissions, full disk) propagate as ``OSError``.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import functools
import importlib
import json
import os
import re
import secrets
import stat
import tempfile
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType

from pydantic import ValidationError

from deerflow_memory.caching import BudgetCache, CacheBudget
from deerflow_memory.config import check_path
from deerflow_memory.errors import (
    ConfigError,
    CorruptMemoryError,
    InvalidNameError,
    RevisionConflictError,
)
from deerflow_memory.logs import package_logger
from deerflow_memory.models import (
    ExtractionWatermark,
    MemoryDocument,
    first_problem,
    unique_fact_ids,
)
from deerflow_memory.storage.base import (
    DEFAULT_MAX_CACHED_FACTS,
    MemoryStorage,
    cached_size,
    check_cache_bounds,
    check_save,
    leaves_tombstone,
    tombstone,
    validate_name,
)
from deerflow_memory.storage.dead_letters import (
    DEAD_LETTER_ID,
    DeadLetter,
    UnreadableDeadLetter,
    parse_letter,
    readable_letters,
)
from deerflow_memory.storage.journal import (
    JOURNAL_FILE,
    JournalHeader,
    encode_record,
    header_line,
    parse_journal,
    replay,
)
from deerflow_memory.storage.names import is_mapped, storage_name
from deerflow_memory.storage.sqlite_read_only import kind_of
from deerflow_memory.storage.update_locks import FlockUpdateLocks
from deerflow_memory.storage.views import EmptyView, TenantViews

__all__ = ["FileMemoryStorage"]

_fcntl: ModuleType | None
try:
    _fcntl = importlib.import_module("fcntl")
except ImportError:  # pragma: no cover - Windows
    _fcntl = None

DOCUMENT_FILE = "memory.json"
ID_FILE = ".id"  # the real id of a folder whose name is mapped (see storage_name)
DEAD_LETTER_FOLDER = "dead_letters"
UPDATE_LOCK_FOLDER = "locks"
FENCE_KEY_FILE = "fence.key"  # 64 hex digits: see MemoryStorage.fence_key
TENANT_FOLDER = "tenants"  # tenant t's documents: <root>/tenants/<t>/users/...
LOCK_SUFFIX = ".lock"
_TEMP_PREFIX = f".{DOCUMENT_FILE}."
_TEMP_SUFFIX = ".tmp"
logger = package_logger(__name__)

# Compaction: the journal may reach this share of the snapshot's size (at least the minimum)
# and this many records; the save that would pass either rewrites memory.json instead.
JOURNAL_MAX_FRACTION = 0.5
JOURNAL_MIN_BYTES = 32 * 1024
JOURNAL_MAX_RECORDS = 1000
_LOAD_TRIES = 20  # a load racing a compaction by another process reads again

_Key = tuple[str, str | None]
# (st_ino, st_dev, st_size, st_mtime_ns, st_ctime_ns): a file replaced by
# os.replace gets a new inode, a file rewritten in place a new mtime/size. A freed
# inode number can be reused within one coarse timestamp tick, so a stale hit is
# possible in theory; that is why save() never trusts the stamp, only the bytes.
_Stamp = tuple[int, int, int, int, int]


def _stamp(st: os.stat_result) -> _Stamp:
    return (st.st_ino, st.st_dev, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


@dataclass(frozen=True, slots=True)
class _CacheEntry:
    """A parsed document and the file state (snapshot + journal) it was read from.

    ``stamp is None`` records that no ``memory.json`` existed; ``digest`` is
    ``hash()`` of its raw bytes and ``header`` names it for a new journal.
    ``journal_stamp is None``: no journal file; ``journal_usable``: its header
    names this snapshot (else it is ignored and the next save compacts);
    ``journal_end``: bytes of complete lines, ``journal_tail`` the last of them.
    ``repaired``: ``document`` is not what the files hold (a repeated fact id was
    resolved, see :func:`unique_fact_ids`): the next save compacts, and lines
    another process appends are not replayed onto it (the files are read again).
    ``save`` trusts the entry only when the stamps match and the bytes it can
    check cheaply (the journal's last line, else the whole snapshot) are the
    ones it was built from.
    """

    path: str
    stamp: _Stamp | None
    digest: int | None
    document: MemoryDocument
    header: JournalHeader | None = None
    snapshot_size: int = 0
    journal_stamp: _Stamp | None = None
    journal_usable: bool = False
    journal_end: int = 0
    journal_tail: bytes = b""
    journal_records: int = 0
    repaired: bool = False

    @property
    def journal_path(self) -> str:
        # os.path, not Path(...).with_name: this runs on every warm load (~0.7 µs vs ~3.5 µs).
        return os.path.join(os.path.dirname(self.path), JOURNAL_FILE)


class _PathLock:
    """A ``threading.Lock`` that can live in a ``WeakValueDictionary``."""

    __slots__ = ("__weakref__", "lock")

    def __init__(self) -> None:
        self.lock = threading.Lock()


def _entry_size(entry: _CacheEntry) -> int:
    return cached_size(entry.document)


class FileMemoryStorage(MemoryStorage):
    """Memory documents as JSON files, safe across threads and processes.

    Hands out immutable documents: loaded documents are frozen pydantic models,
    so a warm ``load`` returns the cached object itself, after one ``os.stat``
    confirms the file is unchanged (inode, size, mtime, ctime). A write by
    another process is seen on the next ``load``.

    Writers are serialized per document by a ``threading.Lock`` and, on POSIX,
    an exclusive ``fcntl.flock`` on the sibling ``memory.json.lock``. Where
    ``fcntl`` is missing (Windows) only the thread lock applies: several
    processes writing the same document must then rely on ``expected_revision``
    alone, which still narrows but cannot close the race. Files are created
    with mode 0o600 and user folders with 0o700.

    Example:
        >>> storage = FileMemoryStorage(tmp_dir)  # doctest: +SKIP
        >>> doc = storage.load("alice")  # empty, revision 0  # doctest: +SKIP
        >>> storage.save("alice", None, doc, expected_revision=doc.revision)  # doctest: +SKIP
    """

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        max_cached_documents: int = 1024,
        journal: bool = True,
        max_cached_facts: int = DEFAULT_MAX_CACHED_FACTS,
        cache_budget: CacheBudget | None = None,
    ) -> None:
        """Create a storage rooted at ``root`` (created lazily on first save).

        Args:
            root: Folder that holds ``users/``.
            max_cached_documents: How many parsed documents to keep (least
                recently used are dropped), this storage and its tenants' views
                (:meth:`scoped`) together; 0 disables the cache (and with it
                the journal: every save then rewrites ``memory.json``).
            journal: append each save's changes to ``memory.journal.jsonl``
                (False: every save rewrites ``memory.json``, as DeerFlow does).
            max_cached_facts: the most facts (current and superseded, each
                document counting one more) the cached documents may hold
                together, over this storage and all its tenants' views: one
                bound for the process, however many tenants it serves (the
                default, 200,000, is about 0.3 GB). The least recently used
                document goes first, whichever tenant's, but the newest stays
                cached even if it alone is larger. Bounds the cache's memory by
                size, not only by count (a 5,000-fact document parses to
                several MB).
            cache_budget: the budget to cache documents on, shared with other
                storages (a tenant's view gets its root's, :meth:`scoped`); None: a
                budget of this storage's own, of the two bounds above. Entries are
                filed under the storage's absolute root, so storages of other
                roots never see each other's documents, and a view made again
                for a tenant finds what the previous one cached.

        Raises:
            ConfigError: ``root`` is not a path (a ``str`` or ``os.PathLike``), is
                empty or holds a control character (NUL, ``\\x01``...), is a link
                that leads back to itself, or
                ``max_cached_documents`` or ``max_cached_facts`` is negative or
                not an int.
        """
        check_cache_bounds(max_cached_documents, max_cached_facts)
        given = check_path(root, "storage root")
        try:
            self._root = given.resolve()
        except (RuntimeError, OSError) as error:  # (a link loop: RuntimeError before 3.13)
            raise ConfigError(f"storage root {str(given)!r} cannot be followed: {error}") from None
        self._max_cached = max_cached_documents
        self._max_cached_facts = max_cached_facts
        self._journal = journal
        # One budget for this storage and its tenants' views (scoped passes it on).
        if cache_budget is None:
            cache_budget = CacheBudget(max_cached_documents, max_cached_facts)
        self._cache: BudgetCache[_Key, _CacheEntry]
        self._follow_users_link(True, cache_budget)
        self._locks: weakref.WeakValueDictionary[str, _PathLock] = weakref.WeakValueDictionary()
        self._locks_guard = threading.Lock()
        self._tenants: TenantViews[FileMemoryStorage] = TenantViews()
        self._tenants_guard = threading.Lock()
        self._empty_view = EmptyView()  # reader() of every tenant with nothing stored

    def _follow_users_link(self, allowed: bool, budget: CacheBudget) -> None:
        """Set whether ``users/`` may be a link (not in a tenant's view) and the cache to use.

        The rule is part of the cache's name: a cache hit skips :meth:`path_for`,
        so a storage made on a tenant's folder (its ``users/`` may be a link) must
        not serve its entries to that tenant's view (where it may not), even when
        both share one budget at one root.
        """
        self._users_may_link = allowed
        self._cache = budget.cache((str(self._root), allowed), _entry_size)
        # Held across a whole update (load -> model -> apply -> save) by every process.
        # In a tenant's view the lock folder and files are checked like every other path
        # (a linked locks/ would share or steal another tenant's locks). No bound method:
        # a view must not keep itself alive through its locks (see TenantViews).
        check = None if allowed else functools.partial(_check_unlinked, self._root)
        self._update_locks = FlockUpdateLocks(self._root / UPDATE_LOCK_FOLDER, check=check)

    @property
    def root(self) -> Path:
        """The absolute storage root."""
        return self._root

    def inside(self, path: Path) -> Path:
        """``path`` (a path under :attr:`root`), checked to be reached through no link in a view.

        In a tenant's view (:meth:`scoped`) every path the view reads, writes,
        lists or deletes (``users/``, ``dead_letters/``, ``locks/``, ``outbox/``,
        ``fence.key``) must resolve to itself under the tenant folder as resolved
        when the view was made: a planted link (``tenants/a/dead_letters ->
        tenants/b/dead_letters``) would hand tenant b's data to tenant a. The
        storage itself keeps its rule: its root, ``users/`` and ``tenants/`` may
        be links (e.g. to a bigger disk), and this returns ``path`` unchecked.

        Raises:
            InvalidNameError: in a view, ``path`` resolves outside the tenant folder.
            CorruptMemoryError: in a view, ``path`` is reached through a symbolic link.
        """
        if not self._users_may_link:
            _check_unlinked(self._root, path)
        return path

    def path_for(self, user_id: str, agent_name: str | None = None) -> Path:
        """Where the document of ``(user_id, agent_name)`` lives (it may not exist).

        Raises:
            InvalidNameError: unsafe name, or the folder resolves outside ``root``.
            CorruptMemoryError: a user or agent folder on the way is a symlink (only
                the root and its ``users/`` may be links, e.g. to a bigger disk).
        """
        user_id = validate_name(user_id, "user_id")
        users = self._root / "users"
        folder = _child(users, user_id)
        if agent_name is not None:
            folder = _child(folder / "agents", validate_name(agent_name, "agent_name"))
        # Names cannot contain separators, but a symlink planted in the tree could
        # still lead elsewhere. users/ itself may be a link (data moved to a bigger
        # disk), but not in a tenant's view (tenants/t/users -> tenants/u/users).
        if self._users_may_link:
            base = outer = os.path.realpath(users)
        else:  # checked against the root as resolved when this view was made
            base, outer = str(users), os.path.realpath(self._root)
        real = os.path.realpath(folder)
        if os.path.commonpath([outer, real]) != outer:
            raise InvalidNameError(
                f"memory folder {folder} resolves to {real}, outside the storage root {outer}"
            )
        # Below users/, a symlinked folder would read or delete another user's memory.
        if real != os.path.join(base, os.path.relpath(folder, users)):
            raise CorruptMemoryError(
                folder,
                f"is reached through a symbolic link (to {real}); user and agent folders "
                "must be real folders: only the storage root and its users/ and tenants/ "
                "folders may be links (refused)",
            )
        return folder / DOCUMENT_FILE

    # --- load -----------------------------------------------------------------------

    def load(self, user_id: str, agent_name: str | None = None) -> MemoryDocument:
        """Return the stored document, or an empty one at revision 0.

        Nothing is created on disk. A file written by DeerFlow (no ``revision``)
        loads at revision 0.

        Raises:
            InvalidNameError: unsafe ``user_id`` or ``agent_name``.
            CorruptMemoryError: the file exists but cannot be parsed (left untouched).
        """
        cached = self._cached(user_id, agent_name)
        if cached is not None:
            return cached
        return self._load_from_disk(user_id, agent_name)

    async def aload(self, user_id: str, agent_name: str | None = None) -> MemoryDocument:
        """Async :meth:`load`: a fresh cache entry is returned without a thread hop.

        Only the cold path (parsing a file) runs on a worker thread; the warm path
        costs one ``os.stat`` on the event loop, which is cheap on a local disk.
        """
        cached = self._cached(user_id, agent_name)
        if cached is not None:
            return cached
        return await asyncio.to_thread(self._load_from_disk, user_id, agent_name)

    def _cached(self, user_id: str, agent_name: str | None) -> MemoryDocument | None:
        """The cached document when both files are provably unchanged, else None."""
        key = (user_id, agent_name)
        try:
            entry = self._cache.use(key)
        except TypeError:  # unhashable name: the slow path reports it properly
            return None
        if entry is None:
            return None
        if _stat_or_none(entry.path) != entry.stamp:
            return None
        if entry.stamp is not None and _stat_or_none(entry.journal_path) != entry.journal_stamp:
            return None
        return entry.document

    def _load_from_disk(self, user_id: str, agent_name: str | None) -> MemoryDocument:
        path = self.path_for(user_id, agent_name)
        key = (user_id, agent_name)
        previous = self._cache.get(key)
        entry = self._read(path, previous)
        self._remember(key, entry)
        return entry.document

    def _read(self, path: Path, previous: _CacheEntry | None = None) -> _CacheEntry:
        """Read ``memory.json`` and replay the journal (only its new lines when ``previous`` fits).

        Without the update lock another process may compact meanwhile: the
        snapshot is stat'ed again after the journal was read, and a changed one
        is read again, so the result is always a state that was saved.
        """
        for _ in range(_LOAD_TRIES):
            if previous is not None and previous.stamp is not None:
                caught_up = self._catch_up(path, previous)
                if caught_up is not None:
                    return caught_up
            try:
                with os.fdopen(_open_regular(path), "rb") as f:
                    # fstat of the open file matches the bytes read even if the path
                    # is replaced meanwhile (replace swaps inodes, never rewrites).
                    st = os.fstat(f.fileno())
                    raw = f.read()
            except FileNotFoundError:
                return _CacheEntry(str(path), None, None, MemoryDocument())
            snapshot = _parse(path, raw)
            header = JournalHeader.of(snapshot.revision, raw)
            entry = _CacheEntry(
                str(path), _stamp(st), hash(raw), snapshot, header, snapshot_size=len(raw)
            )
            entry = _unique_ids(path, self._with_journal(path, entry))
            if _stat_or_none(str(path)) == entry.stamp:
                return entry
            previous = None  # compacted meanwhile: read the new snapshot
        raise CorruptMemoryError(path, "kept changing while being read")  # pragma: no cover

    def _with_journal(self, path: Path, entry: _CacheEntry) -> _CacheEntry:
        """``entry`` (a freshly read snapshot) with its journal replayed, if it has one."""
        journal_path = path.with_name(JOURNAL_FILE)
        try:
            fd = _open_regular(journal_path)
        except FileNotFoundError:
            return entry
        try:
            st = os.fstat(fd)
            raw = os.pread(fd, st.st_size, 0)  # only what the stamp covers
        finally:
            os.close(fd)
        journal = parse_journal(journal_path, raw)
        usable = journal.header is not None and journal.header == entry.header
        document = replay(journal_path, entry.document, journal.records) if usable else None
        return replace(
            entry,
            document=document or entry.document,
            journal_stamp=_stamp(st),
            journal_usable=usable,
            journal_end=journal.end,
            journal_tail=journal.last_line,
            journal_records=len(journal.records),
        )

    def _catch_up(self, path: Path, previous: _CacheEntry) -> _CacheEntry | None:
        """``previous`` plus the lines another process appended since, or None (read it all)."""
        if (
            not previous.journal_usable
            or previous.repaired
            or _stat_or_none(str(path)) != previous.stamp
        ):
            return None
        assert previous.journal_stamp is not None
        try:
            fd = _open_regular(previous.journal_path)
        except FileNotFoundError:
            return None
        try:
            st = os.fstat(fd)
            if (st.st_ino, st.st_dev) != previous.journal_stamp[:2] or not _ends_with(
                fd, previous.journal_end, previous.journal_tail
            ):
                return None
            raw = os.pread(fd, max(0, st.st_size - previous.journal_end), previous.journal_end)
        finally:
            os.close(fd)
        journal_path = Path(previous.journal_path)
        journal = parse_journal(journal_path, raw, start=previous.journal_end)
        document = replay(journal_path, previous.document, journal.records)
        entry = replace(
            previous,
            document=document,
            journal_stamp=_stamp(st),
            journal_end=journal.end,
            journal_tail=journal.last_line or previous.journal_tail,
            journal_records=previous.journal_records + len(journal.records),
        )
        return _unique_ids(path, entry)

    # --- save -----------------------------------------------------------------------

    def save(
        self,
        user_id: str,
        agent_name: str | None,
        document: MemoryDocument,
        expected_revision: int | None = None,
    ) -> MemoryDocument:
        """Store ``document`` with ``revision`` = stored revision + 1 (durable on return).

        Appends the changes to the journal, or compacts (see the module docstring).
        The stored revision is read from disk under the lock, not taken from
        ``document``. An existing corrupt file is never overwritten, with or
        without ``expected_revision``: ``delete`` it or repair it first.

        Args:
            user_id: Owner of the memory.
            agent_name: Agent, or None for the default agent.
            document: Content to store; its own ``revision`` is ignored.
            expected_revision: When given, store only if the stored revision equals it.

        Returns:
            The document as stored (new revision); later loads return this object.

        Raises:
            RevisionConflictError: ``expected_revision`` differs from the stored revision.
            CorruptMemoryError: the existing file cannot be parsed (left untouched).
            InvalidNameError: unsafe ``user_id`` or ``agent_name``.
            InvalidDocumentError: ``document`` is not a :class:`MemoryDocument`.
            InvalidArgumentError: ``expected_revision`` is neither an int nor None.
        """
        check_save(document, expected_revision)
        path = self.path_for(user_id, agent_name)
        key = (user_id, agent_name)
        self._make_folders(path.parent, user_id, agent_name)
        with self._exclusive(path):
            current = self._current(key, path)
            stored = current.document.revision
            if expected_revision is not None and expected_revision != stored:
                raise RevisionConflictError(user_id, agent_name, expected_revision, stored)
            new = document.model_copy(update={"revision": stored + 1, "deleted_at": None})
            if _fcntl is not None:
                # Under the flock no other writer is mid-save, so any temp file here
                # belongs to a writer that crashed.
                _sweep_temp_files(path.parent)
            _keep_stale_journal(current)
            entry = self._append(current, new) if self._journal and self._max_cached else None
            if entry is None:
                entry = self._compact(path, new)
            self._remember(key, entry)
        return new

    def compact(self, user_id: str, agent_name: str | None = None) -> bool:
        """Rewrite ``memory.json`` as the whole current document and remove the journal.

        Saves do this by themselves when the journal grows; call it before
        handing ``memory.json`` to a program that does not read the journal.
        The revision does not change.

        Returns:
            True when a journal was folded in or a repeated fact id resolved on
            load was written (False: nothing to do).

        Raises:
            CorruptMemoryError: the files cannot be parsed (left untouched).
            InvalidNameError: unsafe ``user_id`` or ``agent_name``.
        """
        path = self.path_for(user_id, agent_name)
        key = (user_id, agent_name)
        if not path.parent.is_dir():
            return False
        with self._exclusive(path):
            current = self._current(key, path)
            if current.journal_stamp is None and not current.repaired:
                return False
            _keep_stale_journal(current)
            self._remember(key, self._compact(path, current.document))
        return True

    def _current(self, key: _Key, path: Path) -> _CacheEntry:
        """The stored state, under the lock: the cache entry when provably current, else read."""
        entry = self._cache.get(key)
        if entry is not None and self._still_current(entry):
            return entry
        return self._read(path, entry)

    @staticmethod
    def _still_current(entry: _CacheEntry) -> bool:
        if _stat_or_none(entry.path) != entry.stamp:
            return False
        if entry.stamp is None:
            return True  # no memory.json then nor now (a journal without one is ignored)
        try:
            fd = _open_regular(entry.journal_path)
        except FileNotFoundError:
            if entry.journal_stamp is not None:
                return False
            # No journal: trust the snapshot only for the very bytes the entry was built from.
            try:
                return hash(_read_regular(entry.path)) == entry.digest
            except FileNotFoundError:
                return False
        try:
            st = os.fstat(fd)
            return (
                _stamp(st) == entry.journal_stamp
                and st.st_size >= entry.journal_end
                and _ends_with(fd, entry.journal_end, entry.journal_tail)
            )
        finally:
            os.close(fd)

    def _append(self, current: _CacheEntry, new: MemoryDocument) -> _CacheEntry | None:
        """Append ``new``'s changes to the journal; None when the save should compact instead."""
        if current.stamp is None or current.header is None:
            return None  # nothing to apply a record to: the first save writes memory.json
        if current.repaired:
            return None  # records would apply to the repaired document, not to the files
        if current.document.deleted_at is not None:
            return None  # the memory after a tombstone is written whole (see list_documents)
        encoded = encode_record(current.document, new)
        if encoded is None:
            return None
        line, _ = encoded
        fresh = current.journal_stamp is None or not current.journal_usable
        start = 0 if fresh else current.journal_end
        data = header_line(current.header) + line if fresh else line
        bound = max(JOURNAL_MIN_BYTES, int(current.snapshot_size * JOURNAL_MAX_FRACTION))
        if start + len(data) > bound or current.journal_records >= JOURNAL_MAX_RECORDS:
            return None
        journal_path = current.journal_path
        if fresh:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(journal_path)  # a stale journal (another snapshot's): start over
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL
        else:
            flags = os.O_WRONLY
        flags |= getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(journal_path, flags, 0o600)
        try:
            if not fresh and os.fstat(fd).st_size != start:
                os.ftruncate(fd, start)  # drop a torn last line before appending
            _pwrite_all(fd, data, start)
            os.fsync(fd)
            st = os.fstat(fd)
        finally:
            os.close(fd)
        if fresh:
            _fsync_folder(Path(journal_path).parent)
        return replace(
            current,
            document=new,
            journal_stamp=_stamp(st),
            journal_usable=True,
            journal_end=start + len(data),
            journal_tail=line,
            journal_records=(0 if fresh else current.journal_records) + 1,
        )

    def _compact(self, path: Path, document: MemoryDocument) -> _CacheEntry:
        """Write ``document`` whole as ``memory.json`` (atomically) and remove the journal."""
        data = document.to_json().encode("utf-8")
        _write_atomically(path, data)
        st = os.stat(path)  # after the rename: it changes ctime
        # After the new snapshot is durable: a journal left by a crash here names the old
        # snapshot in its header, so it is ignored.
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path.with_name(JOURNAL_FILE))
        header = JournalHeader.of(document.revision, data)
        return _CacheEntry(str(path), _stamp(st), hash(data), document, header, len(data))

    def _make_folders(self, folder: Path, user_id: str, agent_name: str | None) -> None:
        if folder.is_dir():
            return
        users = self._root / "users"
        users.mkdir(parents=True, exist_ok=True)
        user_dir = users / folder.relative_to(users).parts[0]
        # Memory is personal data: user folders are private to the owner.
        user_dir.mkdir(mode=0o700, exist_ok=True)
        _record_id(user_dir, validate_name(user_id, "user_id"))
        if agent_name is not None:
            (user_dir / "agents").mkdir(mode=0o700, exist_ok=True)
            folder.mkdir(mode=0o700, exist_ok=True)
            _record_id(folder, validate_name(agent_name, "agent_name"))

    # --- delete / list --------------------------------------------------------------

    def delete(self, user_id: str, agent_name: str | None = None) -> bool:
        """Replace a document by its tombstone and remove its journal, vectors and lock file.

        ``memory.json`` is replaced (atomically) by the
        :func:`~deerflow_memory.storage.base.tombstone`: an empty document one
        revision past the deleted one, so the next save continues after it and
        a revision read before the delete never matches again. Folders are
        kept. Works on a corrupt file too, as the way to start fresh: its
        revision is then the highest one its files still spell out (the
        snapshot's or the journal's ``"revision": N``, or the last one loaded).

        Returns:
            True when a document existed (a tombstone is none: left as it is).

        Raises:
            InvalidNameError: unsafe ``user_id`` or ``agent_name``.
            CorruptMemoryError: the user's folder is no folder (a link to itself, a file):
                nothing is deleted, and nothing said to be.
        """
        return self._leave_tombstone(user_id, agent_name, (), cleared=False)

    def delete_fenced(self, user_id: str, agent_name: str | None, fence: MemoryDocument) -> bool:
        """:meth:`delete`, the tombstone holding ``fence``'s watermarks (see the base class).

        The fenced tombstone replaces ``memory.json`` in one atomic rename;
        only then are the side files removed (the journal, whose header names
        the old snapshot so a crash leaves it ignored; the fact vectors, a
        cache keyed by text that a memory without facts never reads and the
        next update rewrites; the lock file). Marked cleared (``clearedAt``):
        a memory without watermarks gets it too, when something is stored.
        """
        return self._leave_tombstone(user_id, agent_name, fence.extraction_watermarks, cleared=True)

    def _leave_tombstone(
        self,
        user_id: str,
        agent_name: str | None,
        marks: tuple[ExtractionWatermark, ...],
        *,
        cleared: bool,
    ) -> bool:
        path = self.path_for(user_id, agent_name)
        key = (user_id, agent_name)
        if not path.parent.is_dir():
            if os.path.lexists(path.parent):  # (a link to itself, a file: nothing is deleted)
                raise CorruptMemoryError(path.parent, "is not a folder (a link or a file)")
            if not marks:
                self._forget(key)
                return False
            self._make_folders(path.parent, user_id, agent_name)
        with self._exclusive(path):
            cached = self._cache.get(key)
            try:
                current = self._current(key, path)
                existed = current.stamp is not None and current.document.deleted_at is None
                deleted = current.document.revision
                # A clear marks even a plain delete's tombstone: migrate then respects it.
                stored = current.stamp is not None
            except CorruptMemoryError:  # deleting is the way to start fresh
                existed, deleted, stored = True, _salvaged_revision(path, cached), True
            if leaves_tombstone(existed=existed, stored=stored, marks=marks, cleared=cleared):
                left = tombstone(deleted, marks=marks, cleared=cleared)
                # One write: the old snapshot's inode is freed by the rename, then its
                # journal is removed (a crash between leaves it naming the old snapshot).
                self._remember(key, self._compact(path, left))
                from deerflow_memory.storage.vectors_file import VECTORS_FILE

                with contextlib.suppress(FileNotFoundError):
                    os.unlink(path.with_name(VECTORS_FILE))  # the deleted facts' vectors
            else:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(path.with_name(JOURNAL_FILE))  # one left without its snapshot
            # Waiters on the old lock file notice it is gone and reopen (see _exclusive).
            with contextlib.suppress(FileNotFoundError):
                os.unlink(_lock_path(path))
        return existed

    def tenant_folder(self, tenant_id: str) -> Path:
        """Where tenant ``tenant_id`` (an id already validated) is kept: ``<root>/tenants/<t>/``.

        Only the path: nothing is checked or created.
        """
        return _child(self._root / TENANT_FOLDER, tenant_id)

    def reader(self, tenant_id: str) -> MemoryStorage:
        """Tenant ``t``'s view for reading; one without a folder gets an :class:`EmptyView`.

        That view is one per storage (no folder, cache or lock is made per call).

        Raises:
            InvalidNameError: unsafe ``tenant_id``.
        """
        tenant_id = validate_name(tenant_id, "tenant_id")
        with self._tenants_guard:
            view = self._tenants.get(tenant_id)
        if view is not None:
            return view
        if os.path.lexists(self.tenant_folder(tenant_id)):
            return self.scoped(tenant_id)
        # Nothing stored: reads are empty documents, and nothing is built or created.
        return self._empty_view

    def scoped(self, tenant_id: str | None) -> MemoryStorage:
        """Tenant ``t``'s documents under ``<root>/tenants/<t>/`` (``None``: this storage).

        Raises:
            InvalidNameError: unsafe ``tenant_id``.
            CorruptMemoryError: the tenant folder is a symlink (``tenants/`` may be one).
        """
        if tenant_id is None:
            return self
        tenant_id = validate_name(tenant_id, "tenant_id")
        with self._tenants_guard:
            view = self._tenants.get(tenant_id)
            if view is None:
                folder = self.tenant_folder(tenant_id)
                if os.path.islink(folder):
                    raise CorruptMemoryError(
                        folder,
                        "is a symbolic link; tenant folders must be real folders: only the "
                        "storage root and its users/ and tenants/ folders may be links (refused)",
                    )
                if is_mapped(folder.name):
                    # The real id beside a mapped folder name, so the tenant can be listed.
                    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
                    _record_id(folder, tenant_id)
                view = FileMemoryStorage(
                    folder,
                    max_cached_documents=self._max_cached,
                    journal=self._journal,
                    max_cached_facts=self._max_cached_facts,
                    # One bound for the storage; a view made again for the tenant
                    # finds what the previous one cached (checked against the files).
                    cache_budget=self._cache.budget,
                )
                view._follow_users_link(False, self._cache.budget)
                self._tenants.add(tenant_id, view)
            return view

    def list_documents(self) -> Iterator[tuple[str, str | None]]:
        """Yield ``(user_id, agent_name)`` of every stored memory, sorted.

        Entries whose names would be rejected (temp files, hidden folders),
        symlinked folders and what a delete left (see
        :meth:`MemoryStorage.list_documents`) are skipped. Only a file that
        spells ``"deletedAt"``, ``"sealed"`` or ``"clearedAt"`` (in it or its
        journal) can be such a leftover: those are loaded to tell, the others
        are not parsed.

        Raises:
            InvalidNameError, CorruptMemoryError: in a tenant's view, its ``users/``
                is a link (see :meth:`inside`); nothing is listed.
        """
        return self._memories(
            (user_id, agent_name, self._loader(user_id, agent_name, path))
            for user_id, agent_name, path in self._stored()
        )

    def list_stored(self) -> Iterator[tuple[str, str | None]]:
        """Every ``(user_id, agent_name)`` with a ``memory.json``, what a delete left included."""
        yield from ((user_id, agent_name) for user_id, agent_name, _ in self._stored())

    def _stored(self) -> list[tuple[str, str | None, Path]]:
        """Each stored key and its ``memory.json``, sorted. One that is no regular file (a
        named pipe, a folder, a link) is there too: loading it says what it is, where
        skipping it would hide a user's memory from ``list`` and ``stats``."""
        found: list[tuple[str, str | None, Path]] = []
        users = self.inside(self._root / "users")  # in a view: a linked users/ is refused
        for user_folder, user_id in _valid_subfolders(users):
            user_dir = users / user_folder
            if os.path.lexists(user_dir / DOCUMENT_FILE):
                found.append((user_id, None, user_dir / DOCUMENT_FILE))
            for agent_folder, agent_name in _valid_subfolders(user_dir / "agents"):
                path = user_dir / "agents" / agent_folder / DOCUMENT_FILE
                if os.path.lexists(path):
                    found.append((user_id, agent_name, path))
        return sorted(found, key=lambda key: (key[0], key[1] or ""))

    def _loader(
        self, user_id: str, agent_name: str | None, path: Path
    ) -> Callable[[], MemoryDocument] | None:
        """None when ``path`` cannot hold only what a delete left, else its ``load``."""
        if not _may_hold_only_fence(path):
            return None
        return lambda: self.load(user_id, agent_name)

    # --- the fence key ---------------------------------------------------------------

    def _read_fence_key(self) -> bytes | None:
        """``<root>/fence.key`` if it exists (see :meth:`MemoryStorage.stored_fence_key`)."""
        return _read_key(self.inside(self._root / FENCE_KEY_FILE))

    def _read_or_make_fence_key(self, new: bytes | None) -> bytes:
        """``<root>/fence.key`` (64 hex digits, mode 0600), written with ``new`` if missing.

        Raises:
            CorruptMemoryError: the file is not 64 hex digits (or is a link).
            OSError: it cannot be read or written.
        """
        self.inside(self._root / FENCE_KEY_FILE)
        return _read_or_make_key(self._root, new)

    # --- dead letters ---------------------------------------------------------------

    def _dead_letter_path(self, letter_id: str) -> Path:
        if not DEAD_LETTER_ID.fullmatch(letter_id):
            raise InvalidNameError(f"dead letter id {letter_id!r} is not of the form dl_<hex>")
        return self.inside(self._root / DEAD_LETTER_FOLDER / f"{letter_id}.json")

    def put_dead_letter(self, letter: DeadLetter) -> None:
        """Write ``dead_letters/<id>.json`` atomically (fsynced temp file + rename)."""
        path = self._dead_letter_path(letter.id)
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        _write_atomically(path, letter.to_json().encode("utf-8"))

    def list_dead_letters(self, user_id: str | None = None) -> list[DeadLetter]:
        """Letters under ``dead_letters/``, oldest failure first; unreadable files are skipped.

        They stay on disk and :meth:`unreadable_dead_letters` names them.
        """
        return readable_letters(self.all_dead_letters(), user_id)

    def unreadable_dead_letters(self) -> list[UnreadableDeadLetter]:
        """``dead_letters/dl_*.json`` files that cannot be read: path and reason."""
        return [x for x in self.all_dead_letters() if isinstance(x, UnreadableDeadLetter)]

    def all_dead_letters(self) -> list[DeadLetter | UnreadableDeadLetter]:
        """Every ``dead_letters/dl_*.json``, read once, by file name.

        Raises:
            InvalidNameError, CorruptMemoryError: in a tenant's view, its
                ``dead_letters/`` is a link (see :meth:`inside`); nothing is read.
        """
        folder = self.inside(self._root / DEAD_LETTER_FOLDER)
        try:
            names = sorted(os.listdir(folder))
        except FileNotFoundError:
            return []
        found: list[DeadLetter | UnreadableDeadLetter] = []
        for name in names:
            if not (name.startswith("dl_") and name.endswith(".json")):
                continue
            path, stem = folder / name, name.removesuffix(".json")
            try:
                raw = _read_regular(path)
            except FileNotFoundError:
                continue  # deleted by another process meanwhile
            except CorruptMemoryError as e:
                found.append(UnreadableDeadLetter(str(path), e.reason, stem))
            except OSError as e:
                why = f"cannot be read: {e.strerror or e}"
                found.append(UnreadableDeadLetter(str(path), why, stem))
            else:
                found.append(parse_letter(raw, stem, str(path)))
        return found

    def delete_unreadable_dead_letter(self, letter: UnreadableDeadLetter) -> bool:
        """Remove the file of ``letter`` (one this storage listed); True when it existed.

        Raises:
            InvalidNameError: its name is no ``dl_*`` file name of this folder.
        """
        name = letter.name
        if not name.startswith("dl_") or "/" in name or "\\" in name or "\x00" in name:
            raise InvalidNameError(f"dead letter file name {name!r} is not of the form dl_*")
        return _unlink_durably(self.inside(self._root / DEAD_LETTER_FOLDER / f"{name}.json"))

    def read_dead_letter(self, letter_id: str) -> DeadLetter | None:
        """``dead_letters/<letter_id>.json``, read alone; None when gone or unreadable."""
        try:
            path = self._dead_letter_path(letter_id)
        except InvalidNameError:  # not a name this backend writes: as a listing finds it
            return super().read_dead_letter(letter_id)
        try:
            raw = _read_regular(path)
        except (CorruptMemoryError, OSError):  # gone, or unreadable (listed as such)
            return None
        letter = parse_letter(raw, letter_id, str(path))
        return letter if isinstance(letter, DeadLetter) else None

    def delete_dead_letter(self, letter_id: str) -> bool:
        return _unlink_durably(self._dead_letter_path(letter_id))

    # --- cache and locks ------------------------------------------------------------

    def _remember(self, key: _Key, entry: _CacheEntry) -> None:
        if self._max_cached == 0:
            return
        self._cache.put(key, entry)

    def _forget(self, key: _Key) -> None:
        self._cache.discard(key)

    def _thread_lock(self, path: Path) -> _PathLock:
        with self._locks_guard:
            lock = self._locks.get(str(path))
            if lock is None:
                lock = _PathLock()
                self._locks[str(path)] = lock
            return lock

    @contextlib.contextmanager
    def _exclusive(self, path: Path) -> Iterator[None]:
        """Hold the per-document thread lock and, on POSIX, the inter-process flock."""
        path_lock = self._thread_lock(path)  # strong reference while held
        with path_lock.lock:
            if _fcntl is None:
                yield
                return
            fd = _acquire_flock(_fcntl, _lock_path(path))
            try:
                yield
            finally:
                os.close(fd)  # closing the descriptor releases the flock


# --- helpers (no instance state) --------------------------------------------------------


def _parse(path: Path, raw: bytes) -> MemoryDocument:
    """Decode a stored file; every failure becomes a :class:`CorruptMemoryError`."""
    try:
        # utf-8-sig: a BOM added by an editor is not corruption.
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise CorruptMemoryError(path, f"not UTF-8 ({e.reason} at byte {e.start})") from e
    try:
        data = json.loads(text)
    except (ValueError, RecursionError, MemoryError) as e:
        raise CorruptMemoryError(path, f"not valid JSON ({e})") from e
    if not isinstance(data, dict):
        raise CorruptMemoryError(path, f"expected a JSON object, found {type(data).__name__}")
    try:
        return MemoryDocument.model_validate(data)
    except ValidationError as e:
        raise CorruptMemoryError(
            path,
            f"not a memory document ({e.error_count()} problem(s); {first_problem(e, 'document')})",
        ) from e


def _unique_ids(path: Path, entry: _CacheEntry) -> _CacheEntry:
    """``entry`` with each fact id listed once (see :func:`unique_fact_ids`; warns once)."""
    if entry.journal_records and entry.journal_usable:
        where = f"{path} (with {JOURNAL_FILE})"
    else:
        where = str(path)
    document, changed = unique_fact_ids(entry.document, where)
    return replace(entry, document=document, repaired=True) if changed else entry


def _lock_path(path: Path) -> str:
    return str(path) + LOCK_SUFFIX


def _acquire_flock(fcntl: ModuleType, lock_path: str) -> int:
    """Open and exclusively flock ``lock_path``; return the descriptor.

    ``delete`` unlinks the lock file while holding it; a waiter that then gets
    the lock holds it on an orphaned inode, so it checks that the path still
    names the locked file and otherwise starts over. A lock file that is a
    symbolic link (it could be another user's or tenant's) is never opened.

    Raises:
        CorruptMemoryError: ``lock_path`` is a symbolic link.
    """
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
    while True:
        try:
            fd = os.open(lock_path, flags, 0o600)
        except OSError as e:
            if e.errno in (errno.ELOOP, errno.EMLINK):
                raise CorruptMemoryError(
                    lock_path, "is a symbolic link; lock files must be real files (refused)"
                ) from None
            raise
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            held = os.fstat(fd)
            try:
                current = os.stat(lock_path)
            except FileNotFoundError:
                current = None
        except BaseException:
            os.close(fd)
            raise
        if current is not None and (current.st_ino, current.st_dev) == (
            held.st_ino,
            held.st_dev,
        ):
            return fd
        os.close(fd)


def _is_regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


# What only a delete leaves (MemoryDocument.holds_only_fence) has deletedAt or clearedAt
# set, or watermarks that are all sealed. Saves clear deletedAt and never journal onto
# a tombstone, so it can only be in memory.json; a sealed mark or clearedAt can be in
# either file.
_FENCE_WORDS = (b'"deletedAt"', b'"sealed"', b'"clearedAt"')
_JOURNAL_FENCE_WORDS = (b'"sealed"', b'"clearedAt"')


def _may_hold_only_fence(path: Path) -> bool:
    """False when neither ``path`` nor its journal spells what a fence or tombstone holds.

    Files that cannot be read count as True (``load`` then tells, or reports them).
    """
    try:
        if any(word in _read_regular(path) for word in _FENCE_WORDS):
            return True
        journal = _read_regular(path.with_name(JOURNAL_FILE))
    except FileNotFoundError:
        return False  # no journal: memory.json alone is the document
    except OSError:
        return True
    return any(word in journal for word in _JOURNAL_FENCE_WORDS)


_REVISION_TEXT = re.compile(rb'"revision"\s*:\s*(\d{1,18})')


def _salvaged_revision(path: Path, cached: _CacheEntry | None) -> int:
    """The highest revision a damaged document's files still spell out (0 when none does).

    Its ``memory.json`` and journal are searched for ``"revision": N`` as
    bytes (they may not parse), and ``cached`` (the last state loaded) counts.
    """
    found = [cached.document.revision] if cached is not None else []
    for name in (path, path.with_name(JOURNAL_FILE)):
        try:
            raw = _read_regular(name)
        except OSError:  # missing, or not a regular file (CorruptMemoryError)
            continue
        found += [int(m) for m in _REVISION_TEXT.findall(raw)]
    return max(found, default=0)


def _write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` via a fsynced temp file and a rename."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=_TEMP_PREFIX, suffix=_TEMP_SUFFIX)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_folder(path.parent)


def _read_key(path: Path) -> bytes | None:
    """The fence key stored at ``path``, None when there is no file."""
    try:
        raw = _read_regular(path)
    except FileNotFoundError:
        return None
    try:
        key = bytes.fromhex(raw.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        key = b""
    if len(key) != 32:
        raise CorruptMemoryError(path, "is not a fence key (64 hex digits)")
    return key


def _unlink_durably(path: Path) -> bool:
    """Remove ``path`` and sync its folder; False when it was not there."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        return False
    _fsync_folder(path.parent)
    return True


def _read_or_make_key(root: Path, new: bytes | None = None) -> bytes:
    """The fence key in ``root``; the first caller of any process writes it (``new`` or random)."""
    path = root / FENCE_KEY_FILE
    key = _read_key(path)
    if key is None:
        root.mkdir(parents=True, exist_ok=True, mode=0o700)
        # A complete, fsynced temp file (mkstemp: mode 0600) linked into place:
        # a reader never sees half a key, and of two writers the first one wins.
        fd, tmp = tempfile.mkstemp(dir=root, prefix=".fence.", suffix=_TEMP_SUFFIX)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write((new if new is not None else secrets.token_bytes(32)).hex().encode())
                f.flush()
                os.fsync(f.fileno())
            with contextlib.suppress(FileExistsError):
                os.link(tmp, path)
                _fsync_folder(root)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        key = _read_key(path)
        if key is None:  # removed between the link and the read: nothing sane to do
            raise CorruptMemoryError(path, "vanished while it was being made")
    return key


# Reading never follows a symlink nor waits on a FIFO or device planted as a memory file.
_READ_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


def _kind(folder: str) -> str:
    """What ``folder`` is in words when it is no folder: "a file", "a named pipe (FIFO)"
    (a pipe or a socket there was called a file, attacker 345)."""
    try:
        return kind_of(os.lstat(folder).st_mode) or "a file"
    except OSError:
        return "a file"


def _open_regular(path: str | Path) -> int:
    """A read descriptor of ``path``, a regular file (not a symlink, FIFO, device, socket).

    Raises:
        FileNotFoundError: no such file.
        CorruptMemoryError: it is a symlink or not a regular file (left untouched).
    """
    try:
        fd = os.open(path, _READ_FLAGS)
    except OSError as e:
        folder = os.path.dirname(path)
        if e.errno in (errno.ELOOP, errno.ENOTDIR) and not os.path.isdir(folder):
            # (users/ann linked to itself, or a file there: the folder is wrong, not the file)
            what = "a link that leads back to itself" if os.path.islink(folder) else _kind(folder)
            raise CorruptMemoryError(folder, f"is {what}, not a folder") from None
        if e.errno in (errno.ELOOP, errno.EMLINK):
            raise CorruptMemoryError(
                path, "is a symbolic link; memory files must be real files (refused)"
            ) from None
        if e.errno == errno.ENXIO:  # a socket
            raise CorruptMemoryError(path, "is not a regular file (a socket)") from None
        raise
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        kind = "a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else "special"
        raise CorruptMemoryError(path, f"is not a regular file ({kind})")
    return fd


def _read_regular(path: str | Path) -> bytes:
    """The bytes of the regular file ``path`` (see :func:`_open_regular` for the errors)."""
    with os.fdopen(_open_regular(path), "rb") as f:
        return f.read()


def _stat_or_none(path: str) -> _Stamp | None:
    try:
        return _stamp(os.stat(path))
    except FileNotFoundError:
        return None


def _ends_with(fd: int, end: int, tail: bytes) -> bool:
    """True when the bytes of ``fd`` just before offset ``end`` are ``tail``."""
    if not tail:
        return end == 0
    return end >= len(tail) and os.pread(fd, len(tail), end - len(tail)) == tail


def _pwrite_all(fd: int, data: bytes, offset: int) -> None:
    view = memoryview(data)
    while view:
        written = os.pwrite(fd, view, offset)
        view = view[written:]
        offset += written


def _fsync_folder(folder: Path) -> None:
    """Make a rename or unlink in ``folder`` durable (no-op where unsupported)."""
    if os.name == "nt":  # pragma: no cover - directories cannot be fsynced there
        return
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _sweep_temp_files(folder: Path) -> None:
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.name.startswith(_TEMP_PREFIX) and entry.name.endswith(_TEMP_SUFFIX):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(entry.path)


def _check_unlinked(root: Path, path: Path) -> None:
    """Refuse ``path`` unless it resolves to itself (``root``: the folder it must stay in).

    Raises:
        InvalidNameError: it resolves outside ``root`` (as :meth:`FileMemoryStorage.path_for`).
        CorruptMemoryError: it is reached through a symbolic link.
    """
    real = os.path.realpath(path)
    if real == str(path):
        return
    outer = os.path.realpath(root)
    if os.path.commonpath([outer, real]) != outer:
        raise InvalidNameError(
            f"{path} resolves to {real}, outside the tenant folder {outer}: a symbolic link "
            "in a tenant's folder would reach another tenant's data (refused)"
        )
    raise CorruptMemoryError(
        path,
        f"is reached through a symbolic link (to {real}); everything in a tenant's folder "
        "must be real folders and files: only the storage root and its users/ and tenants/ "
        "folders may be links (refused)",
    )


def _child(parent: Path, name: str) -> Path:
    """``parent / storage_name(name)``, or a folder written before names were mapped."""
    mapped = storage_name(name)
    if mapped != name and len(name.encode("utf-8")) <= 255 and (parent / name).is_dir():
        return parent / name  # e.g. "con" saved on Linux by an earlier version
    return parent / mapped


def _record_id(folder: Path, name: str) -> None:
    """Write the real id next to a mapped folder name (once; same bytes every time)."""
    if not is_mapped(folder.name):
        return
    path = folder / ID_FILE
    data = name.encode("utf-8")
    try:
        if _read_regular(path) == data:
            return
    except FileNotFoundError:
        pass
    _write_atomically(path, data)


def _folder_id(folder: Path, folder_name: str) -> str | None:
    """The id a folder stands for, or None when it is not a valid document folder."""
    if not is_mapped(folder_name):
        try:
            return validate_name(folder_name)  # NFC, also when the filesystem reports NFD
        except InvalidNameError:
            return None
    try:
        name = validate_name(_read_regular(folder / folder_name / ID_FILE).decode("utf-8"))
    except (OSError, UnicodeDecodeError, InvalidNameError):
        return None
    return name if storage_name(name) == folder_name else None


def _valid_subfolders(folder: Path) -> list[tuple[str, str]]:
    """``(folder name, id)`` of real (non-symlink) subfolders that stand for a valid id."""
    try:
        with os.scandir(folder) as entries:
            names = [e.name for e in entries if e.is_dir(follow_symlinks=False)]
    except (FileNotFoundError, NotADirectoryError):
        return []
    valid = []
    for name in sorted(names):
        real = _folder_id(folder, name)
        if real is not None:
            valid.append((name, real))
    return valid


def _keep_stale_journal(current: _CacheEntry) -> None:
    """Move a stale journal that still holds saves aside instead of losing it (under the lock).

    A journal is stale when ``memory.json`` was rewritten by a program that
    does not know it (DeerFlow, an editor): its saves were never in that file,
    so they are no longer in the document. They are kept beside it as
    ``memory.journal.stale-<UTC time>.jsonl`` and a warning says so; the next
    save starts a new journal.
    """
    if current.journal_stamp is None or current.journal_usable or not current.journal_records:
        return
    journal = Path(current.journal_path)
    aside = journal.with_name(
        f"memory.journal.stale-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}.jsonl"
    )
    try:
        os.rename(journal, aside)
    except FileNotFoundError:
        return
    logger.warning(
        "%s was rewritten by another program while %d saved change(s) were only in %s; "
        "they are not in the memory any more and were kept in %s",
        current.path,
        current.journal_records,
        journal.name,
        aside.name,
    )
