"""Memory documents in a LangGraph ``BaseStore``: InMemoryStore, SqliteStore, PostgresStore.

Layout, under ``namespace_prefix`` (default ``("deerflow_memory",)``)::

    (*prefix, "users", <user>, "agents", <agent or "%_default">)          key "_document"
    (*prefix, "users", <user>, "agents", <agent or "%_default">, "facts") key <fact id>
    (*prefix, "dead_letters")                                             key <letter id>
    (*prefix, "fence")                                                    key "key" (fence key)

The ``_document`` item holds everything but the facts (version, lastUpdated,
user, history, unknown top-level keys) plus ``revision``, the ordered fact
keys and a generation id. Each fact is its own item, indexed on ``content``
when the store has a vector index, so two updaters adding different facts
never overwrite each other; ``load`` assembles the document again.

Labels are made safe with a reversible escape (``%`` → ``%25``, ``.`` → ``%2E``):
``alice@example.com`` and ``alice@example_com`` stay distinct.

What differs from :class:`FileMemoryStorage`, honestly:

- No compare-and-swap in a store: ``save`` checks ``expected_revision`` and
  writes while holding a per-document lock — process-local always, plus a
  PostgreSQL advisory lock for Postgres stores (or any :class:`DocumentLock`).
  Writers in other processes that skip that lock (a SqliteStore file shared by
  processes) can slip between check and write; even then no fact is lost, as a
  save deletes only facts its writer loaded and removed — but the last
  writer's summaries win and two saves may get the same revision.
- Atomicity is the store's: SqliteStore runs a save in one transaction.
  PostgresStore deletes removed facts, then writes changed facts *and* the
  document item in one ``INSERT`` (per 2,000 writes): a crash in between
  leaves the old revision minus some removed facts, never a torn document
  item. Other stores apply writes in order, the document item last.
- ``save`` returns the caller's document at the new revision; facts a
  lock-skipping writer added meanwhile stay stored and appear on the next load.
- Every ``load`` reads the store (another process may have written); an
  unchanged document comes back as the same object, without re-validation.
- ``delete`` replaces the ``_document`` item by a tombstone (an empty
  document with ``deletedAt``, one revision past the deleted one, a new
  generation) and deletes the fact items, as files do: revisions never
  restart, so a revision read before a delete never matches again.
- Fact items that repeat a fact id (written by another process or version)
  are resolved on load as with files (:func:`~deerflow_memory.models.unique_fact_ids`,
  one WARNING); the next save deletes the items the document no longer holds.
- Async stores (``AsyncSqliteStore``, ``AsyncPostgresStore``): use ``aload``/
  ``asave``/``adelete`` on their loop; the sync methods work from other threads
  only and raise :class:`StorageError` on the store's loop.
- Store failures raise :class:`StorageError`; an unparsable item raises
  :class:`CorruptMemoryError` and is left alone. So does a row whose stored JSON
  the store itself cannot decode (it raises a ``ValueError``): that document
  only, named by its namespace; ``list_documents`` still lists it (and the
  others), and ``delete`` removes it with the fact items that still decode.
"""

from __future__ import annotations

import asyncio
import re
import secrets
import sqlite3
import threading
import uuid
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, ExitStack
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal

from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    SearchOp,
)
from pydantic import ValidationError

from deerflow_memory.arguments import expect, expect_items, expect_store, wrong_type
from deerflow_memory.caching import BudgetCache, CacheBudget
from deerflow_memory.daemons import signals_unheld
from deerflow_memory.errors import (
    ConfigError,
    CorruptMemoryError,
    RevisionConflictError,
    StorageError,
    StoreClosedError,
)
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
from deerflow_memory.storage.closed import (
    damaged_database_error,
    damaged_said,
    is_operational,
    is_store_closed,
)
from deerflow_memory.storage.dead_letters import (
    DeadLetter,
    UnreadableDeadLetter,
    parse_letter,
    readable_letters,
)
from deerflow_memory.storage.names import storage_name
from deerflow_memory.storage.shared_locks import (
    shared_update_locks,
    sqlite_database_file,
    sqlite_lock_folder,
)
from deerflow_memory.storage.store_locks import (
    DocumentLock,
    DocumentLocks,
    FlockDocumentLock,
    PostgresAdvisoryLock,
    PostgresUpdateLocks,
)
from deerflow_memory.storage.update_locks import FlockUpdateLocks, LocalUpdateLocks
from deerflow_memory.storage.views import TenantViews

__all__ = [
    "DEFAULT_AGENT_LABEL",
    "DEFAULT_NAMESPACE_PREFIX",
    "DOCUMENT_KEY",
    "DocumentLock",
    "PostgresAdvisoryLock",
    "StoreMemoryStorage",
    "decode_label",
    "encode_label",
]

DEFAULT_NAMESPACE_PREFIX: tuple[str, ...] = ("deerflow_memory",)
DOCUMENT_KEY = "_document"
_MAX_FACT_ITEMS = 100_000  # fact items read when deleting a damaged document (max_facts <= 10,000)
# The encoder always writes "%" followed by two hex digits, so "%_" never comes from a name.
DEFAULT_AGENT_LABEL = "%_default"
TENANT_LABEL = "tenants"  # tenant t: namespace_prefix + ("tenants", t) + ("users", ...)
_FACTS = "facts"
_DEAD_LETTERS = "dead_letters"
_FENCE = "fence"
_FENCE_LOCK = "\x00fence key"  # an update-lock name no user id can take (NUL is refused)
# First search limit (stores default to 10, which would silently drop facts). A full
# page is read again whole with a larger limit, never continued with ``offset``:
# PostgresStore orders by updated_at, which ties within a save, so offset pages
# can skip or repeat items.
_PAGE = 1000
_PAGE_GROWTH = 16
# Writes per batch call: PostgreSQL allows 65,535 parameters per statement (4-5 per row).
_MAX_WRITES_PER_BATCH = 2000
_UNSAFE_LABEL_CHARS = re.compile(r"[%.\x00]")
_ESCAPE = re.compile(r"%([0-9A-F]{2})")


def encode_label(name: str) -> str:
    """Escape ``name`` into a store namespace label (no ``.``, no NUL); reversible and injective."""
    return _UNSAFE_LABEL_CHARS.sub(lambda m: f"%{ord(m.group()):02X}", name)


def decode_label(label: str) -> str:
    """Inverse of :func:`encode_label`."""
    return _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), label)


@dataclass(frozen=True, slots=True)
class _Base:
    """The facts a document was loaded (or saved) with: a later save diffs against them."""

    generation: str
    facts: dict[str, Any]  # item key -> fact JSON as stored


@dataclass(frozen=True, slots=True)
class _Loaded:
    """The last document assembled for a namespace and the raw items it came from."""

    doc_value: Any
    facts: dict[str, Any]
    document: MemoryDocument


# What an entry weighs on the cache budget: each fact once per form it is kept in
# (see :func:`~deerflow_memory.storage.base.cached_size`). A _Loaded keeps a fact twice
# (parsed, and the stored JSON it was parsed from); the latest _Base often shares that
# JSON with it, so the sum may overstate what is held, never understate it.
def _base_size(entry: _Base) -> int:
    return 1 + len(entry.facts)


def _loaded_size(entry: _Loaded) -> int:
    return cached_size(entry.document) + len(entry.facts)


@dataclass(frozen=True, slots=True)
class _SavePlan:
    ops: list[Op]
    stored: MemoryDocument
    base: _Base
    loaded: _Loaded | None  # what a load right after this save will find, if known


# Items are written without a TTL, so reads never refresh one: in PostgresStore a
# refreshing search adds an UPDATE that costs ~25 ms per load at 100k items.
def _get_document(ns: tuple[str, ...]) -> GetOp:
    return GetOp(ns, DOCUMENT_KEY, refresh_ttl=False)


def _search_facts(ns: tuple[str, ...], limit: int) -> SearchOp:
    return SearchOp((*ns, _FACTS), limit=limit, refresh_ttl=False)


def _chunks(ops: list[Op]) -> list[list[Op]]:
    """Split a save's writes into batches, in order: the document item stays in the last one."""
    return [ops[i : i + _MAX_WRITES_PER_BATCH] for i in range(0, len(ops), _MAX_WRITES_PER_BATCH)]


def _generation(doc_value: Any) -> str:
    return str(doc_value.get("generation", "")) if isinstance(doc_value, dict) else ""


def _is_tombstone(doc_value: Any) -> bool:
    """True for the ``_document`` item a delete left (see :func:`tombstone`)."""
    meta = doc_value.get("document") if isinstance(doc_value, dict) else None
    return isinstance(meta, dict) and meta.get("deletedAt") is not None


def _revision_of(doc_value: Any) -> int | None:
    """The revision a ``_document`` item records; None when it is missing or unreadable."""
    revision = doc_value.get("revision") if isinstance(doc_value, dict) else None
    if isinstance(revision, bool) or not isinstance(revision, int | str):
        return None
    try:
        return max(0, int(revision))
    except ValueError:
        return None


def _tombstone_value(
    deleted_revision: int, marks: tuple[ExtractionWatermark, ...] = (), *, cleared: bool = False
) -> dict[str, Any]:
    """The ``_document`` item a delete leaves: the tombstone (holding ``marks``, the
    fence of a deleted memory; ``clearedAt`` when ``cleared``), no fact keys, a new
    generation."""
    document = tombstone(deleted_revision, marks=marks, cleared=cleared)
    meta = document.to_dict()
    meta.pop("facts", None)
    meta.pop("revision", None)
    return {
        "document": meta,
        "revision": document.revision,
        "factKeys": [],
        "generation": uuid.uuid4().hex,
    }


def _fact_keys(document: MemoryDocument) -> list[str]:
    """Item keys of the facts: the fact id, suffixed for a repeated id so nothing collapses."""
    seen: dict[str, int] = {}
    keys = []
    for fact in document.facts:
        n = seen.get(fact.id, 0)
        seen[fact.id] = n + 1
        keys.append(fact.id if n == 0 else f"{fact.id}~{n}")
    return keys


class _SameObject:
    """Hashes and compares by the identity of the object it holds (a store may define
    ``__eq__`` or be unhashable); names a store's caches on a shared budget."""

    __slots__ = ("held",)

    def __init__(self, held: object) -> None:
        self.held = held

    def __hash__(self) -> int:
        return id(self.held)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _SameObject) and other.held is self.held


def _damaged_said(store: object, error: BaseException) -> str:
    """The error for a store whose SQLite database file is damaged (``error``, SQLite's),
    naming the file where it can be asked."""
    try:
        where = sqlite_database_file(store)
    except (sqlite3.Error, ValueError):
        where = None
    named = (
        f"SQLite memory database {where}" if where else f"the database of {type(store).__name__}"
    )
    return damaged_said(named, error)


def _check_arguments(
    store: object,
    namespace_prefix: object,
    document_lock: object,
    resources: object,
    update_locks: object,
    cache_budget: object,
) -> None:
    """The type checks of :class:`StoreMemoryStorage`'s arguments (see its Raises)."""
    expect_store(store)
    expect_items(namespace_prefix, str, "namespace_prefix", "namespace label", ConfigError)
    if not (
        document_lock is None
        or document_lock == "auto"
        or all(callable(getattr(document_lock, m, None)) for m in ("acquire", "release", "close"))
    ):
        wrong_type("document_lock", "'auto', None or a DocumentLock", document_lock)
    expect(resources, ExitStack, "resources", "an ExitStack", optional=True)
    expect(update_locks, LocalUpdateLocks, "update_locks", "a LocalUpdateLocks", optional=True)
    expect(cache_budget, CacheBudget, "cache_budget", "a CacheBudget", optional=True)


class StoreMemoryStorage(MemoryStorage):
    """Memory documents in any LangGraph ``BaseStore``, one item per fact.

    Args:
        store: the store; sync (InMemoryStore, SqliteStore, PostgresStore) or
            async (AsyncSqliteStore, AsyncPostgresStore — use the ``a*`` methods).
        namespace_prefix: first namespace labels of every item.
        document_lock: a cross-process lock; ``"auto"`` uses a PostgreSQL advisory
            lock for Postgres stores, ``flock`` files in ``<file>.locks/`` for a
            ``SqliteStore`` on a database file (as ``storage: sqlite``) and none
            otherwise; ``None`` turns it off.
        resources: closed by :meth:`close` (connections the factory opened).
        update_locks: the locks held across a whole update (and dead-letter
            claims); default a PostgreSQL advisory lock for Postgres stores,
            ``flock`` files in ``<file>.locks/`` for a ``SqliteStore`` on a file,
            else locks of this process shared by every storage over the same
            store object and prefix (``storage.shared_locks``).
        max_cached_documents: how many cache entries to keep (least recently
            used are dropped), this storage and its tenants' views
            (:meth:`scoped`) together. A loaded document takes two: the
            document and the items a later save diffs against (each older
            revision still kept for a save: one more).
        max_cached_facts: the most facts those entries may hold together, over
            this storage and all its tenants' views: one bound for the process,
            however many tenants it serves. Each fact counts once per form it
            is kept in (the parsed document, the stored JSON it came from, the
            base of a later save: about three per cached fact, so the same bound
            keeps about a third of the documents :class:`FileMemoryStorage`
            keeps), and each entry one more; the newest entry stays even if larger.
        cache_budget: the budget to cache on, shared with other storages (a
            tenant's view gets its root's, :meth:`scoped`); None: a budget of
            this storage's own, of the two bounds above. Entries are filed
            under the store object, so storages of other stores never see each
            other's documents.

    Raises:
        InvalidArgumentError: ``store`` is not a LangGraph ``BaseStore``, or
            ``document_lock``, ``update_locks``, ``cache_budget`` or ``resources``
            has the wrong type.
        ConfigError: an empty ``namespace_prefix``, one that is not a list of
            labels (a bare string) or an invalid label; a cache bound that is
            negative or not a whole number.

    Example:
        >>> from langgraph.store.memory import InMemoryStore
        >>> storage = StoreMemoryStorage(InMemoryStore())
        >>> storage.load("alice@example.com").revision
        0
    """

    def __init__(
        self,
        store: BaseStore,
        namespace_prefix: Sequence[str] = DEFAULT_NAMESPACE_PREFIX,
        *,
        document_lock: DocumentLock | Literal["auto"] | None = "auto",
        resources: ExitStack | None = None,
        max_cached_documents: int = 1024,
        update_locks: LocalUpdateLocks | None = None,
        max_cached_facts: int = DEFAULT_MAX_CACHED_FACTS,
        cache_budget: CacheBudget | None = None,
    ) -> None:
        _check_arguments(
            store, namespace_prefix, document_lock, resources, update_locks, cache_budget
        )
        self.store = store
        self.namespace_prefix = tuple(namespace_prefix)
        if not self.namespace_prefix or self.namespace_prefix[0] == "langgraph":
            raise ConfigError(f"namespace_prefix {namespace_prefix!r}: non-empty, not 'langgraph'")
        for label in self.namespace_prefix:
            if not label or "." in label or "\x00" in label:
                raise ConfigError(f"invalid namespace label {label!r}: empty, '.' or NUL")
        if document_lock == "auto":
            document_lock = PostgresAdvisoryLock.for_store(store)
            folder = sqlite_lock_folder(store) if document_lock is None else None
            if folder is not None:  # the save locks storage: sqlite takes on this file
                document_lock = FlockDocumentLock(folder)
        self._document_lock = document_lock
        self._tenants: TenantViews[StoreMemoryStorage] = TenantViews()
        self._tenants_guard = threading.Lock()
        self._locks = DocumentLocks(store, document_lock)
        # Held across a whole update (see MemoryStorage.update_lock).
        if update_locks is None and isinstance(document_lock, PostgresAdvisoryLock):
            update_locks = PostgresUpdateLocks(document_lock, "/".join(self.namespace_prefix))
        if update_locks is None:  # shared by every storage over this store object
            update_locks = shared_update_locks(store, self.namespace_prefix)
        self._update_locks = update_locks
        self._resources = resources
        check_cache_bounds(max_cached_documents, max_cached_facts)
        # Bases to diff saves against, and the last assembled document per namespace so
        # an unchanged document is not validated again on every load: both on one
        # budget, which this storage's tenant views share (keys are whole namespaces).
        budget = cache_budget
        if budget is None:  # (not ``or``: an empty budget has len 0)
            budget = CacheBudget(max_cached_documents, max_cached_facts)
        # Filed under the store object: storages of other stores sharing the budget
        # never see each other's documents (keys are namespaces, alike in each store).
        same_store = _SameObject(store)
        self._bases: BudgetCache[tuple[tuple[str, ...], int], _Base] = budget.cache(
            ("bases", same_store), _base_size
        )
        self._loaded: BudgetCache[tuple[str, ...], _Loaded] = budget.cache(
            ("loaded", same_store), _loaded_size
        )
        self._max_cached = max_cached_documents
        self._max_cached_facts = max_cached_facts
        self._native_async = True

    # --- tenants --------------------------------------------------------------------

    def scoped(self, tenant_id: str | None) -> MemoryStorage:
        """Tenant ``t``'s documents under ``namespace_prefix + ("tenants", t)`` (``None``: self).

        Raises:
            InvalidNameError: unsafe ``tenant_id``.
        """
        if tenant_id is None:
            return self
        tenant_id = validate_name(tenant_id, "tenant_id")
        with self._tenants_guard:
            view = self._tenants.get(tenant_id)
            if view is None:
                label = encode_label(tenant_id)
                shared = self.__dict__.get("_update_locks")
                locks = None  # Postgres: derived from the tenant's prefix in __init__
                if isinstance(shared, FlockUpdateLocks):
                    # Every process updating this tenant's documents waits on the same files.
                    locks = FlockUpdateLocks(shared.folder / TENANT_LABEL / storage_name(tenant_id))
                view = StoreMemoryStorage(
                    self.store,
                    (*self.namespace_prefix, TENANT_LABEL, label),
                    document_lock=self._document_lock,
                    max_cached_documents=self._max_cached,
                    update_locks=locks,
                    max_cached_facts=self._max_cached_facts,
                    cache_budget=self._bases.budget,  # one bound for the storage
                )
                self._tenants.add(tenant_id, view)
            return view

    # --- namespaces -----------------------------------------------------------------

    def document_namespace(self, user_id: str, agent_name: str | None = None) -> tuple[str, ...]:
        """Namespace of the ``_document`` item; validates the names.

        Raises:
            InvalidNameError: unsafe ``user_id`` or ``agent_name``.
        """
        user = encode_label(validate_name(user_id, "user_id"))
        agent = DEFAULT_AGENT_LABEL
        if agent_name is not None:
            agent = encode_label(validate_name(agent_name, "agent_name"))
        return (*self.namespace_prefix, "users", user, "agents", agent)

    def facts_namespace(self, user_id: str, agent_name: str | None = None) -> tuple[str, ...]:
        """Namespace holding one item per fact (search it with ``query=`` when indexed)."""
        return (*self.document_namespace(user_id, agent_name), _FACTS)

    def _location(self, ns: tuple[str, ...]) -> str:
        return f"{type(self.store).__name__}:{'/'.join(ns)}"

    # --- store calls ------------------------------------------------------------------

    def _batch(self, ops: list[Op], ns: tuple[str, ...] | None = None) -> list[Any]:
        """``store.batch(ops)``; errors as :class:`StorageError` (``ns``: see :meth:`_failure`)."""
        try:
            with signals_unheld():  # the app's store (its index may run an embedder)
                return self.store.batch(ops)
        except asyncio.InvalidStateError as e:
            raise StorageError(
                f"{type(self.store).__name__} is async: use aload/asave/adelete on its event "
                "loop (the sync methods only work from other threads)"
            ) from e
        except Exception as e:
            raise self._failure(e, ns) from e

    async def _abatch(self, ops: list[Op], ns: tuple[str, ...] | None = None) -> list[Any]:
        if not self._native_async:
            return await asyncio.to_thread(self._batch, ops, ns)
        try:
            return await self.store.abatch(ops)
        except NotImplementedError:
            # A sync-only store (SqliteStore): run its sync batch off the event loop.
            self._native_async = False
            return await asyncio.to_thread(self._batch, ops, ns)
        except Exception as e:
            raise self._failure(e, ns) from e

    def _failure(self, error: Exception, ns: tuple[str, ...] | None) -> StorageError:
        if is_store_closed(error, self.store):  # closed by the app: no retry can work
            return StoreClosedError(
                f"{type(self.store).__name__} is closed ({type(error).__name__}: {error}); "
                "close the MemoryService before the store it writes to"
            )
        if (damaged := damaged_database_error(error)) is not None:  # the file, not a row
            return StorageError(_damaged_said(self.store, damaged))
        # Reading one document (``ns``), a ValueError is a stored value that does not
        # decode (a damaged JSON row): that document is corrupt, the store is fine.
        # SqliteStore wraps every failed query in a ValueError: a locked database is not that.
        if ns is not None and isinstance(error, ValueError) and not is_operational(error):
            return CorruptMemoryError(
                self._location(ns), f"a stored item cannot be decoded: {error}"
            )
        return StorageError(f"{type(self.store).__name__} failed: {error}")

    @staticmethod
    def _read_ops(ns: tuple[str, ...], limit: int) -> list[Op]:
        return [_get_document(ns), _search_facts(ns, limit)]

    # --- locks --------------------------------------------------------------------------

    def _lock_key(self, ns: tuple[str, ...]) -> str:
        return "deerflow_memory:" + "\x1f".join(ns)

    # --- pure assembly and planning -------------------------------------------------

    def _remember(
        self, ns: tuple[str, ...], revision: int, base: _Base, loaded: _Loaded | None = None
    ) -> None:
        self._bases.put((ns, revision), base)
        if loaded is not None:
            self._loaded.put(ns, loaded)

    def _assemble(
        self, ns: tuple[str, ...], doc_item: Item | None, facts: list[Item]
    ) -> MemoryDocument:
        doc_value = doc_item.value if doc_item is not None else None
        fact_values = {item.key: item.value for item in facts}
        last = self._loaded.get(ns)
        if last is not None and last.doc_value == doc_value and last.facts == fact_values:
            document = last.document  # unchanged since last time: skip validation
            # The base keeps the equal items already held, not a second copy of them.
            self._remember(ns, document.revision, _Base(_generation(doc_value), last.facts))
            return document
        meta: dict[str, Any] = {}
        revision, order, generation = 0, [], ""
        if doc_item is not None:
            value = doc_item.value
            try:
                meta = dict(value["document"])
                revision = int(value["revision"])
                order = [str(k) for k in value["factKeys"]]
                generation = str(value["generation"])
            except (KeyError, TypeError, ValueError) as e:
                raise CorruptMemoryError(self._location(ns), f"bad document item: {e!r}") from e
        by_key = {item.key: item for item in facts}
        ordered = [by_key.pop(k) for k in order if k in by_key]
        # Facts written by a writer that crashed or raced before its document item.
        ordered += sorted(by_key.values(), key=lambda i: (str(i.value.get("createdAt", "")), i.key))
        meta.pop("facts", None)
        try:
            document = MemoryDocument.model_validate(
                {**meta, "facts": [i.value for i in ordered], "revision": revision}
            )
        except ValidationError as e:
            raise CorruptMemoryError(self._location(ns), first_problem(e, "document")) from e
        # Items written by another process or version may repeat a fact id; the next
        # save deletes the items the resolved document no longer holds.
        document, _ = unique_fact_ids(document, self._location(ns))
        self._remember(
            ns, revision, _Base(generation, fact_values), _Loaded(doc_value, fact_values, document)
        )
        return document

    def _plan_save(
        self,
        ns: tuple[str, ...],
        current: Item | None,
        document: MemoryDocument,
        expected_revision: int | None,
        names: tuple[str, str | None],
    ) -> _SavePlan:
        value = current.value if current is not None else {}
        try:
            current_rev = int(value.get("revision", 0))
            stored_keys = [str(k) for k in value.get("factKeys", [])]
            generation = str(value.get("generation") or uuid.uuid4().hex)
        except (TypeError, ValueError) as e:
            raise CorruptMemoryError(self._location(ns), f"bad document item: {e!r}") from e
        if expected_revision is not None and expected_revision != current_rev:
            raise RevisionConflictError(names[0], names[1], expected_revision, current_rev)

        cached = self._bases.get((ns, document.revision))
        # ``base`` = the facts the caller's document was derived from: only those may be
        # deleted, so a fact added by a writer the caller never saw is never lost.
        if cached is not None:
            # Same revision number but another generation (a writer that raced without
            # the lock; a delete never repeats a revision): the caller saw another state.
            base = cached.facts if cached.generation == generation else {}
        elif document.revision == current_rev:
            # Loaded elsewhere (another instance, evicted): at the latest revision, what
            # is stored is what the caller saw.
            base = dict.fromkeys(stored_keys)
        else:
            base = {}  # unknown base: delete nothing we cannot prove the caller removed

        facts_ns = (*ns, _FACTS)
        keys = _fact_keys(document)
        ops: list[Op] = []
        written: dict[str, Any] = {}
        for key, fact in zip(keys, document.facts, strict=True):
            fact_value = fact.model_dump(mode="json", by_alias=True, exclude_none=True)
            written[key] = fact_value
            if base.get(key) != fact_value:
                ops.append(PutOp(facts_ns, key, fact_value, index=["content"]))
        removed = [k for k in base if k not in written]
        ops.extend(PutOp(facts_ns, k, None) for k in removed)
        gone = set(removed)
        kept = [k for k in stored_keys if k not in written and k not in gone]

        new_rev = current_rev + 1
        meta = document.to_dict()
        meta.pop("facts", None)
        meta.pop("revision", None)
        meta.pop("deletedAt", None)  # a save stores a memory, never a tombstone
        doc_value = {
            "document": meta,
            "revision": new_rev,
            "factKeys": keys + kept,
            "generation": generation,
        }
        ops.append(PutOp(ns, DOCUMENT_KEY, doc_value, index=False))  # last: see module docstring
        stored = document.model_copy(update={"revision": new_rev, "deleted_at": None})
        # A document repeating a fact id (keys "id~1"...) is resolved by the next load.
        repeated = any(key != fact.id for key, fact in zip(keys, document.facts, strict=True))
        loaded = _Loaded(doc_value, written, stored) if not kept and not repeated else None
        return _SavePlan(ops, stored, _Base(generation, written), loaded)

    # --- sync API ---------------------------------------------------------------------

    def _read(self, ns: tuple[str, ...]) -> tuple[Item | None, list[Item]]:
        limit = _PAGE
        while True:
            doc_item, facts = self._batch(self._read_ops(ns, limit), ns)
            if len(facts) < limit:
                return doc_item, facts
            limit *= _PAGE_GROWTH

    def load(self, user_id: str, agent_name: str | None = None) -> MemoryDocument:
        ns = self.document_namespace(user_id, agent_name)
        return self._assemble(ns, *self._read(ns))

    def save(
        self,
        user_id: str,
        agent_name: str | None,
        document: MemoryDocument,
        expected_revision: int | None = None,
    ) -> MemoryDocument:
        check_save(document, expected_revision)
        ns = self.document_namespace(user_id, agent_name)
        with self._locks.hold(self._lock_key(ns)):
            (current,) = self._batch([_get_document(ns)], ns)
            plan = self._plan_save(ns, current, document, expected_revision, (user_id, agent_name))
            for chunk in _chunks(plan.ops):
                self._batch(chunk)
        self._remember(ns, plan.stored.revision, plan.base, plan.loaded)
        return plan.stored

    def _delete_plan(
        self,
        ns: tuple[str, ...],
        doc_item: Item | None,
        facts: list[Item],
        marks: tuple[ExtractionWatermark, ...] = (),
        *,
        cleared: bool = False,
    ) -> tuple[list[Op], bool]:
        """The writes deleting a readable document, and whether one existed.

        The fact items go; the ``_document`` item becomes the tombstone (one
        revision past it, holding ``marks``; ``clearedAt`` when ``cleared``),
        written last: a crash before it leaves the old document item,
        watermarks included. Without ``marks``, a tombstone without facts is no
        document: nothing to write, unless ``cleared`` (a clear marks a plain
        delete's tombstone too, so ``migrate`` respects it).
        """
        value = doc_item.value if doc_item is not None else None
        existed = bool(facts) or (value is not None and not _is_tombstone(value))
        revision = self._known_revision(ns, _revision_of(value))
        write = leaves_tombstone(
            existed=existed, stored=value is not None, marks=marks, cleared=cleared
        )
        ops = self._delete_ops(ns, facts, revision, marks, cleared=cleared) if write else []
        return ops, existed

    def _delete_ops(
        self,
        ns: tuple[str, ...],
        facts: list[Item],
        revision: int,
        marks: tuple[ExtractionWatermark, ...] = (),
        *,
        cleared: bool = False,
    ) -> list[Op]:
        ops: list[Op] = [PutOp((*ns, _FACTS), item.key, None) for item in facts]
        value = _tombstone_value(revision, marks, cleared=cleared)
        ops.append(PutOp(ns, DOCUMENT_KEY, value, index=False))
        return ops

    def _known_revision(self, ns: tuple[str, ...], stored: int | None = None) -> int:
        """``stored``, or (unreadable) the highest revision this object saw of ``ns``."""
        if stored is not None:
            return stored
        seen = [rev for (space, rev), _ in self._bases.items() if space == ns]
        last = self._loaded.get(ns)
        if last is not None:
            seen.append(last.document.revision)
        return max(seen, default=0)

    def delete(self, user_id: str, agent_name: str | None = None) -> bool:
        return self._leave_tombstone(user_id, agent_name, (), cleared=False)

    def delete_fenced(self, user_id: str, agent_name: str | None, fence: MemoryDocument) -> bool:
        """:meth:`delete`, the tombstone holding ``fence``'s watermarks (see the base class).

        The tombstone is the ``_document`` item, written with the last batch
        (after the fact items are deleted): a crash before it leaves the old
        item and its watermarks, never an unfenced empty document. Marked
        cleared (``clearedAt``): a memory without watermarks gets it too, when
        something is stored.
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
        ns = self.document_namespace(user_id, agent_name)
        with self._locks.hold(self._lock_key(ns)):
            try:
                ops, existed = self._delete_plan(ns, *self._read(ns), marks, cleared=cleared)
            except CorruptMemoryError:  # deleting is the way to start fresh (as with files)
                facts = self._readable_facts(ns)
                revision = self._known_revision(ns)
                ops = self._delete_ops(ns, facts, revision, marks, cleared=cleared)
                existed = True
            for chunk in _chunks(ops):
                self._batch(chunk)
        return existed

    def _readable_facts(self, ns: tuple[str, ...]) -> list[Item]:
        """The fact items of a damaged document that still decode (none when they do not)."""
        try:
            (facts,) = self._batch([_search_facts(ns, _MAX_FACT_ITEMS)], ns)
        except CorruptMemoryError:
            return []
        return list(facts)

    def list_documents(self) -> Iterator[tuple[str, str | None]]:
        """Every stored memory's ``(user_id, agent_name)``, sorted (see the base class).

        Only a document without fact items can be what a delete left: its
        ``_document`` item (already read) is assembled as ``load`` would to tell.
        """
        return self._memories(
            (user, agent, None if doc_item is None else partial(self._assemble, ns, doc_item, []))
            for user, agent, ns, doc_item in self._stored()
        )

    def list_stored(self) -> Iterator[tuple[str, str | None]]:
        """Every stored ``(user_id, agent_name)``, what a delete left included, sorted."""
        stored = ((user, agent) for user, agent, _, _ in self._stored())
        yield from sorted(stored, key=lambda n: (n[0], n[1] or ""))

    def _stored(self) -> Iterator[tuple[str, str | None, tuple[str, ...], Item | None]]:
        """Each stored key, its namespace, and its ``_document`` item when it has no fact item.

        A damaged document comes with no item (listed: ``load`` reports it).
        """
        root = (*self.namespace_prefix, "users")
        candidates: dict[tuple[str, ...], tuple[str, str | None]] = {}
        offset = 0
        while True:
            condition = MatchCondition(match_type="prefix", path=root)
            op = ListNamespacesOp(match_conditions=(condition,), limit=_PAGE, offset=offset)
            page = self._batch([op])[0]
            for namespace in page:
                rest = namespace[len(root) :]
                if len(rest) in (3, 4) and rest[1] == "agents" and rest[3:] in ((), (_FACTS,)):
                    agent = None if rest[2] == DEFAULT_AGENT_LABEL else decode_label(rest[2])
                    ns = namespace[: len(root) + 3]
                    candidates[ns] = (decode_label(rest[0]), agent)
            offset += len(page)
            if len(page) < _PAGE:
                break
        # Some stores keep a namespace after its last item is deleted: check each one.
        for ns, (user, agent) in candidates.items():
            try:
                doc_item, facts = self._batch([_get_document(ns), _search_facts(ns, 1)], ns)
            except CorruptMemoryError:
                yield user, agent, ns, None  # there, but damaged: load reports it for this one
                continue
            if facts:
                yield user, agent, ns, None
            elif doc_item is not None:
                yield user, agent, ns, doc_item

    # --- the fence key -----------------------------------------------------------------

    def _read_fence_key(self) -> bytes | None:
        """The fence key item if it exists (see :meth:`MemoryStorage.stored_fence_key`)."""
        item = self._batch([GetOp((*self.namespace_prefix, _FENCE), "key")])[0]
        return None if item is None else self._key_of(item)

    def _read_or_make_fence_key(self, new: bytes | None) -> bytes:
        """The item ``(*namespace_prefix, "fence")`` / ``"key"``, made once under an update lock.

        It sits in the store with the data: whoever can read every row of the
        store can read it too.

        Raises:
            StorageError: the store failed (``CorruptMemoryError``: the item is not a key).
        """
        ns = (*self.namespace_prefix, _FENCE)
        item = self._batch([GetOp(ns, "key")])[0]
        if item is None:
            # Writers in other processes take the same lock: the first key stays.
            with self.update_lock(_FENCE_LOCK, None, 30.0):
                item = self._batch([GetOp(ns, "key")])[0]
                if item is None:
                    made = new if new is not None else secrets.token_bytes(32)
                    self._batch([PutOp(ns, "key", {"key": made.hex()}, index=False)])
                    item = self._batch([GetOp(ns, "key")])[0]
        return self._key_of(item)

    def _key_of(self, item: Item | None) -> bytes:
        ns = (*self.namespace_prefix, _FENCE)
        raw = item.value.get("key") if item is not None else None
        try:
            key = bytes.fromhex(raw) if isinstance(raw, str) else b""
        except ValueError:
            key = b""
        if len(key) != 32:
            raise CorruptMemoryError(self._location(ns), "the fence key is not 64 hex digits")
        return key

    # --- dead letters -----------------------------------------------------------------

    @property
    def dead_letter_namespace(self) -> tuple[str, ...]:
        """Namespace of the dead-letter items (key = letter id, value = its camelCase JSON)."""
        return (*self.namespace_prefix, _DEAD_LETTERS)

    def put_dead_letter(self, letter: DeadLetter) -> None:
        """Store ``letter`` as one item (replacing the one with the same id)."""
        self._batch([PutOp(self.dead_letter_namespace, letter.id, letter.to_dict(), index=False)])

    def list_dead_letters(self, user_id: str | None = None) -> list[DeadLetter]:
        """Every letter item, oldest failure first; items that do not parse are skipped.

        They stay in the store and :meth:`unreadable_dead_letters` names them.
        """
        return readable_letters(self.all_dead_letters(), user_id)

    def unreadable_dead_letters(self) -> list[UnreadableDeadLetter]:
        """Letter items that do not parse or whose id is not their key: namespace/key and why."""
        return [x for x in self.all_dead_letters() if isinstance(x, UnreadableDeadLetter)]

    def all_dead_letters(self) -> list[DeadLetter | UnreadableDeadLetter]:
        """Every letter item, read once (one search)."""
        return [
            parse_letter(value, key, "/".join([*self.dead_letter_namespace, key]))
            for key, value in self._dead_letter_items()
        ]

    def _dead_letter_items(self) -> list[tuple[str, Any]]:
        limit = _PAGE
        while True:
            op = SearchOp(self.dead_letter_namespace, limit=limit, refresh_ttl=False)
            (items,) = self._batch([op])
            if len(items) < limit:
                break
            limit *= _PAGE_GROWTH
        return [(item.key, item.value) for item in items]

    def delete_unreadable_dead_letter(self, letter: UnreadableDeadLetter) -> bool:
        """Remove the item of ``letter`` (one this storage listed); True when it existed."""
        return self.delete_dead_letter(letter.name) if letter.name else False

    def read_dead_letter(self, letter_id: str) -> DeadLetter | None:
        """The letter item ``letter_id`` (one get); None when gone or unreadable."""
        ns = self.dead_letter_namespace
        (item,) = self._batch([GetOp(ns, letter_id, refresh_ttl=False)])
        if item is None:
            return None
        letter = parse_letter(item.value, item.key, "/".join([*ns, item.key]))
        return letter if isinstance(letter, DeadLetter) else None

    def delete_dead_letter(self, letter_id: str) -> bool:
        ns = self.dead_letter_namespace
        (existing,) = self._batch([GetOp(ns, letter_id, refresh_ttl=False)])
        if existing is None:
            return False
        self._batch([PutOp(ns, letter_id, None)])
        return True

    # --- async API --------------------------------------------------------------------

    async def _aread(self, ns: tuple[str, ...]) -> tuple[Item | None, list[Item]]:
        limit = _PAGE
        while True:
            doc_item, facts = await self._abatch(self._read_ops(ns, limit), ns)
            if len(facts) < limit:
                return doc_item, facts
            limit *= _PAGE_GROWTH

    async def aload(self, user_id: str, agent_name: str | None = None) -> MemoryDocument:
        ns = self.document_namespace(user_id, agent_name)
        return self._assemble(ns, *(await self._aread(ns)))

    async def asave(
        self,
        user_id: str,
        agent_name: str | None,
        document: MemoryDocument,
        expected_revision: int | None = None,
    ) -> MemoryDocument:
        check_save(document, expected_revision)
        ns = self.document_namespace(user_id, agent_name)
        async with self._locks.ahold(self._lock_key(ns)):
            (current,) = await self._abatch([_get_document(ns)], ns)
            plan = self._plan_save(ns, current, document, expected_revision, (user_id, agent_name))
            for chunk in _chunks(plan.ops):
                await self._abatch(chunk)
        self._remember(ns, plan.stored.revision, plan.base, plan.loaded)
        return plan.stored

    async def adelete(self, user_id: str, agent_name: str | None = None) -> bool:
        ns = self.document_namespace(user_id, agent_name)
        async with self._locks.ahold(self._lock_key(ns)):
            try:
                ops, existed = self._delete_plan(ns, *(await self._aread(ns)))
            except CorruptMemoryError:  # as delete()
                facts = await asyncio.to_thread(self._readable_facts, ns)
                ops, existed = self._delete_ops(ns, facts, self._known_revision(ns)), True
            for chunk in _chunks(ops):
                await self._abatch(chunk)
        return existed

    # --- for the outbox: raw store calls under this storage's locks -----------------

    def run_ops(self, ops: list[Op]) -> list[Any]:
        """Run store operations (errors as :class:`StorageError`)."""
        return self._batch(ops)

    def hold_lock(self, key: str) -> AbstractContextManager[None]:
        """Hold the write lock named ``key`` (process-local plus the cross-process one)."""
        return self._locks.hold(key)

    def database_time(self) -> float | None:
        """The database's clock (epoch seconds) for Postgres stores; None for the others.

        Raises:
            StorageError: the database cannot be reached.
        """
        lock = self._document_lock
        return lock.clock() if isinstance(lock, PostgresAdvisoryLock) else None

    # --- lifetime ---------------------------------------------------------------------

    def close(self) -> None:
        """Close the cross-process lock and whatever the factory opened for this storage."""
        self._locks.close()
        if self._resources is not None:
            self._resources.close()

    def __enter__(self) -> StoreMemoryStorage:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
