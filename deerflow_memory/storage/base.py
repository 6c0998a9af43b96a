"""The storage contract every backend fulfils, and the name rules they share.

A backend stores one :class:`MemoryDocument` per ``(user_id, agent_name)``;
``agent_name=None`` is the default agent. ``load`` of a document that was never
saved returns an empty document at revision 0. ``save`` writes atomically,
increments ``revision`` and returns the stored document; with
``expected_revision`` it raises :class:`RevisionConflictError` when another
writer got there first, so the caller can re-apply its change to the fresh
document instead of overwriting it.

Revisions of one ``(user_id, agent_name)`` never repeat, deletes included:
``delete`` leaves a *tombstone* (:func:`tombstone`: an empty document with
``deletedAt`` set, at the deleted revision + 1), ``load`` returns it as it
is (no memory: :meth:`MemoryDocument.holds_only_fence` is true, so
``list_documents`` skips it) and the next ``save`` continues after it. So an edit or an updater
holding a revision read before the delete gets a conflict, never a match
with the next memory's revision (an ABA). ``delete_fenced`` writes a tombstone
that keeps the deleted memory's watermarks (its fence), in one write.

Backends also keep :class:`DeadLetter` records (updates that failed for good):
``put_dead_letter`` / ``list_dead_letters`` / ``delete_dead_letter``.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager

from deerflow_memory.arguments import expect_document, expect_number
from deerflow_memory.errors import ConfigError, CorruptMemoryError
from deerflow_memory.models import ExtractionWatermark, MemoryDocument, utc_now_iso
from deerflow_memory.storage.dead_letters import DeadLetter, UnreadableDeadLetter
from deerflow_memory.storage.names import MAX_NAME_LENGTH, validate_name

__all__ = [
    "DEFAULT_MAX_CACHED_FACTS",
    "MAX_NAME_LENGTH",
    "MemoryStorage",
    "cached_size",
    "check_cache_bounds",
    "check_save",
    "leaves_tombstone",
    "tombstone",
    "validate_name",
]

# A storage's caches of parsed documents, its tenants' views included, hold at most this
# many facts together (about 0.3 GB: 1,024 cached documents of 200 facts measured 337 MB;
# see cached_size and caching.CacheBudget).
DEFAULT_MAX_CACHED_FACTS = 200_000


def check_cache_bounds(max_cached_documents: object, max_cached_facts: object) -> None:
    """Both bounds of a storage's document cache are whole numbers >= 0.

    Raises:
        ConfigError: one is negative, or not an int (a bool, a float, None).
    """
    for name, value in (
        ("max_cached_documents", max_cached_documents),
        ("max_cached_facts", max_cached_facts),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ConfigError(f"{name} must be a whole number >= 0, got {value!r:.60}")


def check_save(document: object, expected_revision: object) -> None:
    """The type checks of ``save``: a :class:`MemoryDocument`, and an int or None.

    Raises:
        InvalidDocumentError: ``document`` is not a :class:`MemoryDocument`.
        InvalidArgumentError: ``expected_revision`` is neither an int nor None.
    """
    expect_document(document)
    expect_number(expected_revision, "expected_revision", integer=True, optional=True)


def cached_size(document: MemoryDocument) -> int:
    """What a parsed document weighs in a storage's cache: its facts, current and
    superseded, plus one (a document's own fields)."""
    return 1 + len(document.facts) + len(document.superseded_facts)


def tombstone(
    deleted_revision: int,
    now: str | None = None,
    *,
    marks: tuple[ExtractionWatermark, ...] = (),
    cleared: bool = False,
) -> MemoryDocument:
    """What ``delete`` leaves of a memory stored at ``deleted_revision``.

    An empty document at ``deleted_revision + 1`` (the delete is a change too:
    an edit made at the deleted revision must not apply to the empty memory),
    with ``lastUpdated`` and ``deletedAt`` set to ``now`` (ISO 8601 UTC,
    default: the current time), holding ``marks`` (the deleted memory's
    watermarks: its fence); ``clearedAt`` too when ``cleared`` (what a user's
    clear leaves, see :meth:`MemoryStorage.delete_fenced`).
    """
    now = now or utc_now_iso()
    return MemoryDocument(
        last_updated=now,
        deleted_at=now,
        cleared_at=now if cleared else None,
        extraction_watermarks=marks,
        revision=max(0, deleted_revision) + 1,
    )


def leaves_tombstone(
    *, existed: bool, stored: bool, marks: tuple[ExtractionWatermark, ...], cleared: bool
) -> bool:
    """Whether a delete writes its :func:`tombstone` (the rule both backends follow).

    Args:
        existed: a memory (not a tombstone) is stored.
        stored: anything is stored, a tombstone included.
        marks: the fence to keep (``delete_fenced``); ``()`` for a plain delete.
        cleared: the delete is a user's clear (``delete_fenced``).

    A memory is replaced by its tombstone, and a fence is always written
    (what a delete must keep). A plain delete of a tombstone or of nothing
    writes nothing, while a clear marks a stored tombstone ``clearedAt`` too,
    so ``migrate`` respects it.
    """
    return existed or bool(marks) or (cleared and stored)


class MemoryStorage(ABC):
    """Where memory documents live. Implementations must be thread-safe."""

    @abstractmethod
    def load(self, user_id: str, agent_name: str | None = None) -> MemoryDocument:
        """Return the stored document (a tombstone after a delete), or an empty one at revision 0.

        Raises:
            InvalidNameError: unsafe ``user_id`` or ``agent_name``.
            CorruptMemoryError: the stored document cannot be parsed (left untouched).
        """

    @abstractmethod
    def save(
        self,
        user_id: str,
        agent_name: str | None,
        document: MemoryDocument,
        expected_revision: int | None = None,
    ) -> MemoryDocument:
        """Store ``document`` atomically and return it as stored (revision incremented).

        The stored document is never a tombstone (``deletedAt`` is cleared).

        Raises:
            RevisionConflictError: ``expected_revision`` is given and differs from the stored one.
            InvalidNameError: unsafe ``user_id`` or ``agent_name``.
        """

    @abstractmethod
    def delete(self, user_id: str, agent_name: str | None = None) -> bool:
        """Remove a document, leaving its :func:`tombstone`; True when one existed.

        A tombstone already there is not a document (False, nothing written);
        a key never saved gets no tombstone (it never had a revision above 0).
        """

    def delete_fenced(self, user_id: str, agent_name: str | None, fence: MemoryDocument) -> bool:
        """Replace a document by its :func:`tombstone` holding ``fence``'s watermarks, in one write.

        What deleting a memory leaves (see ``update/forget.py``): the content
        goes and the watermarks stay, so old threads are not learned again. One
        write, so a crash leaves the old document or the fenced tombstone, never
        an empty document without watermarks (the old threads' next turns would
        learn everything again). Only ``fence.extraction_watermarks`` is kept.
        A key never saved, or a tombstone, gets the fenced tombstone too (the
        fence is what a delete must keep). The tombstone is marked cleared
        (``clearedAt``), watermarks or not, so a later ``migrate`` does not copy
        the memory back; without watermarks a key never saved gets nothing.

        Default: :meth:`save` of the fence (one atomic write by its contract;
        the stored document is then no tombstone, but holds only the fence);
        on a document that cannot be read, :meth:`delete` then that save;
        without watermarks, :meth:`delete` (not marked cleared). The file and
        store backends override it to write the tombstone itself.

        Returns:
            True when a document existed (as :meth:`delete`).

        Raises:
            InvalidNameError: unsafe ``user_id`` or ``agent_name``.
            StorageError: the backend failed.
        """
        marks = fence.extraction_watermarks
        if not marks:
            return self.delete(user_id, agent_name)
        try:
            current = self.load(user_id, agent_name)
        except CorruptMemoryError:
            existed = self.delete(user_id, agent_name)
        else:
            stored = current.revision > 0 or not current.is_empty()
            existed = stored and current.deleted_at is None
        cleared = MemoryDocument(extraction_watermarks=marks, cleared_at=utc_now_iso())
        self.save(user_id, agent_name, cleared)
        return existed

    @abstractmethod
    def list_documents(self) -> Iterator[tuple[str, str | None]]:
        """Every stored memory's ``(user_id, agent_name)``, sorted.

        What only a delete left is not a memory and is skipped: a document
        whose :meth:`load` :meth:`~MemoryDocument.holds_only_fence` (a
        tombstone, or the fence a cleared memory keeps), whatever its size.
        A document that cannot be read is listed (``load`` reports it).
        :meth:`list_stored` lists those leftovers too.
        """

    def list_stored(self) -> Iterator[tuple[str, str | None]]:
        """Every stored ``(user_id, agent_name)``, sorted: what a delete left included.

        ``migrate`` copies from it: the fence a cleared memory keeps is what
        stops its old threads from being learned again. Default:
        :meth:`list_documents` (a backend that keeps no such leftovers).
        """
        return self.list_documents()

    def _memories(
        self,
        stored: Iterable[tuple[str, str | None, Callable[[], MemoryDocument] | None]],
    ) -> Iterator[tuple[str, str | None]]:
        """``list_documents`` of the backends: the one place that skips what a delete left.

        ``stored`` gives each stored key with ``None`` when the backend proved
        cheaply that it holds a memory, else a call returning what ``load``
        returns for it. A document that cannot be read is listed.
        """
        found = []
        for user_id, agent_name, document in stored:
            try:
                if document is not None and document().holds_only_fence():
                    continue
            except OSError:  # StorageError included: listed, so it can be seen and repaired
                pass
            found.append((user_id, agent_name))
        yield from sorted(found, key=lambda key: (key[0], key[1] or ""))

    # --- tenants --------------------------------------------------------------------

    def reader(self, tenant_id: str) -> MemoryStorage:
        """Tenant ``tenant_id``'s view for reading only (the memory inject and GET paths).

        Like :meth:`scoped`, but a backend may answer a tenant that holds no
        data with a view it does not keep, so reads of many made-up tenant ids
        cost no memory (default: :meth:`scoped`). Never write through it.

        Raises:
            InvalidNameError: unsafe ``tenant_id``.
            ConfigError: this backend has no tenant scoping.
        """
        return self.scoped(tenant_id)

    def scoped(self, tenant_id: str | None) -> MemoryStorage:
        """The same backend seen from one tenant: its own documents, same ``load(user, agent)``.

        ``None`` (no tenant) is this storage itself, so data written before
        tenants existed stays where it is. The same user id in two tenants is
        two memories. File storage keeps a tenant under ``tenants/<tenant>/``,
        store-based storage under the namespace prefix plus ``("tenants", tenant)``.

        Raises:
            InvalidNameError: unsafe ``tenant_id``.
            ConfigError: this backend has no tenant scoping.
        """
        if tenant_id is None:
            return self
        from deerflow_memory.errors import ConfigError

        validate_name(tenant_id, "tenant_id")
        raise ConfigError(f"{type(self).__name__} cannot scope memory by tenant")

    # --- what a delete keeps -------------------------------------------------------

    def fence_key(self) -> bytes:
        """The secret (32 bytes) that seals what deleting a memory keeps, made on first use.

        A delete keeps the deleted memory's watermarks so old threads are not
        learned again; their thread ids and message keys are stored as
        HMAC-SHA256 under this key (see ``update/sealing.py``). The file backend
        keeps it in ``fence.key`` at the root (mode 0600), store backends as an
        item under ``namespace_prefix + ("fence",)``. Default: one per storage
        object (for in-memory backends, whose data dies with the object).

        Raises:
            StorageError: the key cannot be read or made (``CorruptMemoryError``
                when the stored key is not 32 bytes of hex).
        """
        return self._fence_key_or_make(None)

    def stored_fence_key(self) -> bytes | None:
        """The fence key if one was made; never makes one (``migrate`` reads the source's).

        Raises:
            StorageError: as :meth:`fence_key`.
        """
        key = self.__dict__.get("_fence_key")
        if key is None:
            key = self._read_fence_key()
            if key is None:
                return None
            key = self.__dict__.setdefault("_fence_key", key)
        return bytes(key)

    def _read_fence_key(self) -> bytes | None:
        """The stored key, None when none was made; backends that store one override it."""
        return None

    def adopt_fence_key(self, key: bytes) -> bytes:
        """Make ``key`` the fence key when none was made yet; return the key in force.

        ``migrate`` passes the source's key so the fences it copies still match.
        A storage that already has a key keeps it (its own fences use it).

        Raises:
            ValueError: ``key`` is not 32 bytes.
            StorageError: as :meth:`fence_key`.
        """
        if len(key) != 32:
            raise ValueError("a fence key is 32 bytes")
        return self._fence_key_or_make(bytes(key))

    def _fence_key_or_make(self, new: bytes | None) -> bytes:
        # Cached on the object once read or made (a dict setdefault: one key per object).
        key = self.__dict__.get("_fence_key")
        if key is None:
            key = self.__dict__.setdefault("_fence_key", self._read_or_make_fence_key(new))
        return bytes(key)

    def _read_or_make_fence_key(self, new: bytes | None) -> bytes:
        """The stored key, else ``new`` (or a random one) stored; backends override it."""
        if new is not None:
            return new
        import secrets

        return secrets.token_bytes(32)

    def list_memories(self) -> Iterator[tuple[str, str | None]]:
        """The same as :meth:`list_documents` (the older name, kept working)."""
        return self.list_documents()

    # --- the update lock: held across load -> model call -> apply -> save ---------

    def update_lock(
        self, user_id: str, agent_name: str | None, timeout: float
    ) -> AbstractContextManager[None]:
        """Hold the document's update lock (all processes sharing this storage wait on it).

        The default serializes updates within this process only; backends
        shared by processes override it (file: ``flock``; SQLite: ``flock``
        beside the database; Postgres: an advisory lock).

        Raises:
            UpdateLockTimeoutError: not had within ``timeout`` seconds.
        """
        locks = self.__dict__.get("_update_locks")
        if locks is None:
            from deerflow_memory.storage.update_locks import LocalUpdateLocks

            locks = self.__dict__.setdefault("_update_locks", LocalUpdateLocks())
        return locks.hold(user_id, agent_name, timeout)

    # --- dead letters: updates that failed for good (see storage/dead_letters.py) ---

    def put_dead_letter(self, letter: DeadLetter) -> None:
        """Store ``letter`` durably, replacing the letter with the same ``id``.

        Raises:
            StorageError: the backend cannot write it (the caller logs the loss).
        """
        raise NotImplementedError(f"{type(self).__name__} does not keep dead letters")

    def list_dead_letters(self, user_id: str | None = None) -> list[DeadLetter]:
        """Every stored dead letter (only ``user_id``'s when given), oldest failure first."""
        raise NotImplementedError(f"{type(self).__name__} does not keep dead letters")

    def read_dead_letter(self, letter_id: str) -> DeadLetter | None:
        """The stored letter ``letter_id`` as it is now; None when gone or unreadable.

        Backends read the one letter; this default lists them all (correct,
        one listing per call).
        """
        return next((x for x in self.list_dead_letters() if x.id == letter_id), None)

    def delete_dead_letter(self, letter_id: str) -> bool:
        """Remove one letter (after a successful retry); True when it existed."""
        raise NotImplementedError(f"{type(self).__name__} does not keep dead letters")

    def all_dead_letters(self) -> list[DeadLetter | UnreadableDeadLetter]:
        """Every stored letter, each read once: readable ones and those that cannot be read.

        What :meth:`list_dead_letters` and :meth:`unreadable_dead_letters` give
        together, in one pass (deleting a memory needs both). Default: those two.
        """
        return [*self.list_dead_letters(), *self.unreadable_dead_letters()]

    def unreadable_dead_letters(self) -> list[UnreadableDeadLetter]:
        """Stored letters that cannot be read (where and why), which ``list_dead_letters`` skips.

        They are kept as they are; ``deerflow-memory pending`` lists them. Default: none.
        """
        return []

    def delete_unreadable_dead_letter(self, letter: UnreadableDeadLetter) -> bool:
        """Remove ``letter``, one :meth:`unreadable_dead_letters` listed; True when it existed.

        Deleting a memory uses it for the damaged letters of that memory. Default:
        nothing to remove (no unreadable letters are kept).

        Raises:
            InvalidNameError: its ``name`` cannot be one of this backend's letters.
            StorageError: the backend failed.
        """
        return False

    # Async twins: by default the sync call runs on a worker thread so an event
    # loop is never blocked by disk or database I/O.
    async def aload(self, user_id: str, agent_name: str | None = None) -> MemoryDocument:
        return await asyncio.to_thread(self.load, user_id, agent_name)

    async def asave(
        self,
        user_id: str,
        agent_name: str | None,
        document: MemoryDocument,
        expected_revision: int | None = None,
    ) -> MemoryDocument:
        return await asyncio.to_thread(self.save, user_id, agent_name, document, expected_revision)

    async def adelete(self, user_id: str, agent_name: str | None = None) -> bool:
        return await asyncio.to_thread(self.delete, user_id, agent_name)

    async def aput_dead_letter(self, letter: DeadLetter) -> None:
        await asyncio.to_thread(self.put_dead_letter, letter)

    async def alist_dead_letters(self, user_id: str | None = None) -> list[DeadLetter]:
        return await asyncio.to_thread(self.list_dead_letters, user_id)

    async def adelete_dead_letter(self, letter_id: str) -> bool:
        return await asyncio.to_thread(self.delete_dead_letter, letter_id)
