"""Sealed watermarks: what a delete keeps of a thread, matched but not readable.

Deleting a memory leaves a *fence* (see :mod:`~deerflow_memory.update.forget`):
the watermarks that stop old threads' messages from being learned again. A
plain watermark holds the thread id and the message keys (a LangGraph id, or
``h:`` + a hash of the text that a guess can confirm). So the fence stores
them *sealed*: each is ``HMAC-SHA256(fence_key, value)`` (hex, first
:data:`SEAL_CHARS` characters), the fence key being a secret of the storage
(:meth:`MemoryStorage.fence_key`). An update of the same thread seals its own
thread id and message keys and looks them up; someone holding the stored
document alone can neither read them back nor test guesses.

A key with a message id is stored as its seal, ``.`` and the seal of its id
(:func:`seal_key`), so an update can tell a message the fence holds (same id
and text) from one that reuses a fenced id with other text (new words: see
:meth:`SealedKeys.holds_id`). Fences written before hold the key's seal alone.

Pure functions here, except :func:`fenced_keys`, which asks the storage for
its key only when a document holds a sealed watermark (a memory never
deleted pays one scan of its watermarks).
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass, field

from deerflow_memory.models import ExtractionWatermark, MemoryDocument
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.update.incremental import FENCE_RUN, MAX_KEYS_PER_THREAD, key_id

__all__ = [
    "SEAL_CHARS",
    "SealedKeys",
    "fenced_keys",
    "has_sealed",
    "seal",
    "seal_key",
    "seal_watermarks",
    "sealed_keys_for",
]

SEAL_CHARS = 32
"""Hex characters kept of a seal (128 bits)."""


def seal(key: bytes, value: str) -> str:
    """``value`` sealed under ``key``: the first :data:`SEAL_CHARS` hex digits of HMAC-SHA256."""
    return hmac.digest(key, value.encode("utf-8", "surrogatepass"), "sha256").hex()[:SEAL_CHARS]


def seal_key(key: bytes, message_key: str) -> str:
    """``message_key`` as a fence stores it: its seal, then ``.`` and its id's seal (if any)."""
    sealed = seal(key, message_key)
    ident = key_id(message_key)
    return sealed if ident == message_key else f"{sealed}.{seal(key, ident)}"


def has_sealed(document: MemoryDocument) -> bool:
    """True when ``document`` holds a sealed watermark (its memory was deleted once)."""
    return any(mark.sealed for mark in document.extraction_watermarks)  # ~12 µs at 200 marks


@dataclass(frozen=True, slots=True)
class SealedKeys:
    """The sealed message keys of one thread; ``key in it`` seals a plain message key first.

    A :class:`~deerflow_memory.update.incremental.Fence`. Attributes:
        sealed: the seals of the keys.
        ids: the seals of the ids of the keys that have one (fences written
            before ids were sealed too hold none).
        full: older messages of the thread may have fallen off the mark (it
            holds as many keys as a thread keeps, or it was ``truncated``: a
            compact mark's).
        run: fenced messages in a row that stand for the older ones before
            them, when ``full``: :data:`FENCE_RUN`, or all the keys of a
            truncated mark holding fewer.

    Each value is sealed once (an update asks about a message more than once;
    one instance serves one update).
    """

    fence_key: bytes
    sealed: frozenset[str]
    ids: frozenset[str] = frozenset()
    full: bool = False
    run: int = FENCE_RUN
    _seals: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    def _seal(self, value: str) -> str:
        found = self._seals.get(value)
        if found is None:
            found = self._seals[value] = seal(self.fence_key, value)
        return found

    def holds_id(self, ident: str) -> bool:
        """True when a message with id ``ident`` was fenced (with whatever text)."""
        return self._seal(ident) in self.ids

    def __contains__(self, message_key: object) -> bool:
        if not isinstance(message_key, str):
            return False
        if self._seal(message_key) in self.sealed:
            return True
        # A fence sealed from keys of earlier versions holds bare message ids.
        ident = key_id(message_key)
        return ident != message_key and self._seal(ident) in self.sealed


def sealed_keys_for(
    document: MemoryDocument, thread_id: str, fence_key: bytes
) -> SealedKeys | None:
    """The sealed keys ``document`` holds for ``thread_id`` (plain), or None."""
    wanted = seal(fence_key, thread_id)
    for mark in document.extraction_watermarks:
        if mark.sealed and mark.thread_id == wanted:
            keys, ids = set(), set()
            for entry in mark.message_keys:
                key, _, ident = entry.partition(".")
                keys.add(key)
                if ident:
                    ids.add(ident)
            held = len(mark.message_keys)
            full = held >= MAX_KEYS_PER_THREAD or mark.truncated
            run = max(1, min(FENCE_RUN, held))
            return SealedKeys(fence_key, frozenset(keys), frozenset(ids), full, run)
    return None


def fenced_keys(
    storage: MemoryStorage, document: MemoryDocument, thread_id: str
) -> SealedKeys | None:
    """What a delete fenced of ``thread_id`` in ``document``, or None (no storage access then).

    Raises:
        StorageError: the storage's fence key cannot be read or made.
    """
    if not has_sealed(document):
        return None
    return sealed_keys_for(document, thread_id, storage.fence_key())


def seal_watermarks(document: MemoryDocument, fence_key: bytes) -> MemoryDocument:
    """``document`` with every plain watermark sealed under ``fence_key``.

    A thread that already has a sealed watermark (deleted before) gets one
    mark: its sealed keys, then the newly sealed ones, the newest
    :data:`~deerflow_memory.update.incremental.MAX_KEYS_PER_THREAD` kept;
    ``truncated`` while fewer (a compact mark's older keys are gone). When the
    newer mark is truncated itself, its keys alone: what it dropped lies
    between it and the older sealed keys, which could never run on to it in a
    history (see :func:`~deerflow_memory.update.incremental.select_new_messages`).
    Marks stay in order of their ``updatedAt``. Every thread keeps its mark
    (compact ones too): there are as many as threads a delete ever fenced.
    """
    by_thread: dict[str, ExtractionWatermark] = {}
    for mark in document.extraction_watermarks:
        if not mark.sealed:
            mark = ExtractionWatermark(
                thread_id=seal(fence_key, mark.thread_id),
                message_keys=tuple(seal_key(fence_key, k) for k in mark.message_keys),
                updated_at=mark.updated_at,
                sealed=True,
                truncated=mark.truncated,
            )
        old = by_thread.get(mark.thread_id)
        if old is not None and mark.truncated:
            mark = mark.model_copy(update={"updated_at": max(old.updated_at, mark.updated_at)})
        elif old is not None:
            merged = list(dict.fromkeys(reversed((*old.message_keys, *mark.message_keys))))
            keys = tuple(reversed(merged[:MAX_KEYS_PER_THREAD]))
            mark = mark.model_copy(
                update={
                    "message_keys": keys,
                    "updated_at": max(old.updated_at, mark.updated_at),
                    "truncated": old.truncated and len(keys) < MAX_KEYS_PER_THREAD,
                }
            )
        by_thread[mark.thread_id] = mark
    marks = sorted(by_thread.values(), key=lambda m: m.updated_at)
    return document.model_copy(update={"extraction_watermarks": tuple(marks)})
