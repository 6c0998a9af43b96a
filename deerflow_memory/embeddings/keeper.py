"""``VectorKeeper``: fact vectors computed when facts are written, read when memory is injected.

``MemoryService`` holds one per embedder. Two moments:

- **write** (the updater's worker thread, after a saved update):
  :meth:`VectorKeeper.after_update` embeds the facts whose text has no vector
  yet, in one batch, and — for the file backend — writes them to
  ``memory.vectors.json`` beside the document. So the cost of embedding is paid
  once per new fact, off the agent's turn.
- **read** (the inject node): :meth:`VectorKeeper.before_inject` loads the
  vectors file once per document per process, so after a restart the inject
  node still embeds only the query.

For LangGraph-store storage the store's own ``index`` is the vector store:
facts are put with ``index=["content"]``, and :func:`store_semantic_scores`
asks ``store.search(namespace, query=...)`` for similarities (the store embeds
the query), so a service without an embedder still ranks by meaning when the
store has an index.

How it fails: vectors are a cache, never data. A failing embedder or an
unwritable vectors file is logged and the update stays saved; the inject
path then embeds missing facts itself on first use. A vectors file that is
not a regular file, is larger than its bound
(:func:`~deerflow_memory.storage.vectors_file.size_bound` of
``max(max_facts, facts)``), is another embedder's or holds vectors of another
length than the embedder now returns is read as "no vectors" and rewritten
after the next update. :func:`store_semantic_scores` turns any failure of the
store's search into :class:`~deerflow_memory.errors.EmbeddingError`.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from deerflow_memory.daemons import signals_unheld
from deerflow_memory.errors import EmbeddingError, StorageError
from deerflow_memory.inject.retrieval import clip_query, fact_vectors_for
from deerflow_memory.inject.vectors import Embedder, FactVectors
from deerflow_memory.logs import package_logger
from deerflow_memory.models import MemoryDocument
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.storage.vectors_file import (
    VECTORS_FILE,
    load_vectors,
    size_bound,
    write_vectors,
)

__all__ = ["VectorKeeper", "embedder_name", "store_semantic_scores"]

logger = package_logger(__name__)


def embedder_name(embedder: Embedder) -> str:
    """A stable name for vectors written by ``embedder``: its class plus its model, if any."""
    model = getattr(embedder, "model", None) or getattr(embedder, "model_name", None)
    name = type(embedder).__name__
    return f"{name}:{model}" if isinstance(model, str) and model else name


def _vectors_path(storage: MemoryStorage, user_id: str, agent_name: str | None) -> Path | None:
    path_for = getattr(storage, "path_for", None)  # the file backend's document path
    if path_for is None:
        return None
    document_path = path_for(user_id, agent_name)
    return document_path.with_name(VECTORS_FILE) if isinstance(document_path, Path) else None


# Documents whose vectors file state is remembered; past this the oldest is
# forgotten (it costs one more file read), so a server seeing many users, or
# many made-up tenants (each read through a throwaway view), stays bounded.
MAX_TRACKED_FILES = 4096

_Key = tuple[MemoryStorage, str, str | None]


class VectorKeeper:
    """Fact vectors of one embedder: filled on writes, persisted beside file documents.

    Args:
        embedder: the embedding model (any LangChain ``Embeddings``).
        max_facts: the configured fact cap, for the vectors file's size bound.
    """

    def __init__(self, embedder: Embedder, *, max_facts: int = 200) -> None:
        self.embedder = embedder
        self.vectors: FactVectors = fact_vectors_for(embedder)
        self.name = embedder_name(embedder)
        self.max_facts = max_facts
        # Per document of a file backend whose vectors file was looked at: the
        # length of the vectors in it as read (0: none usable, so rewrite it;
        # -1: not read). Keyed on the storage object itself (held, not its id:
        # a dead view's id is reused) and bounded (MAX_TRACKED_FILES).
        self._files: OrderedDict[_Key, int] = OrderedDict()
        self._lock = threading.Lock()

    def _track(self, key: _Key, dims: int) -> None:
        with self._lock:
            self._files[key] = dims
            self._files.move_to_end(key)
            while len(self._files) > MAX_TRACKED_FILES:
                self._files.popitem(last=False)

    def _load_file(
        self, storage: MemoryStorage, user: str, agent: str | None, document: MemoryDocument
    ) -> None:
        key = (storage, user, agent)
        if key in self._files or getattr(storage, "path_for", None) is None:
            return  # looked at already, or a backend without vectors files
        self._track(key, -1)
        path = _vectors_path(storage, user, agent)
        texts = [f.content for f in document.facts]
        missing = self.vectors.missing(texts)
        if path is not None and missing:
            bound = size_bound(max(self.max_facts, len(texts)), self.vectors.dims)
            stored = load_vectors(path, self.name, missing, max_bytes=bound)
            self._track(key, stored.dims if stored.usable else 0)
            self.vectors.add(stored.vectors)

    def before_inject(
        self, storage: MemoryStorage, user: str, agent: str | None, document: MemoryDocument
    ) -> None:
        """Make the stored vectors of ``document``'s facts available (one file read per process).

        Never raises, never blocks on a special file (see the module docstring).
        """
        self._load_file(storage, user, agent, document)

    def after_update(self, storage: MemoryStorage, user: str, agent: str | None) -> int:
        """Embed the new facts of the saved document and persist them; returns how many.

        Runs on the updater's worker thread. Never raises (see the module docstring).
        """
        try:
            document = storage.load(user, agent)
            texts = [f.content for f in document.facts]
            self._load_file(storage, user, agent, document)
            embedded = self.vectors.embed_missing(texts)
            path = _vectors_path(storage, user, agent)
            key = (storage, user, agent)
            stale = self._files.get(key, -1) not in (-1, self.vectors.dims)
            if path is not None and (embedded or stale or not path.is_file()):
                write_vectors(path, self.name, self.vectors.get(texts))
                self._track(key, self.vectors.dims or 0)
            return embedded
        except (EmbeddingError, StorageError, OSError) as e:  # a cache: the update is saved
            logger.warning("fact vectors not written for user %r: %s", user, e)
            return 0
        except Exception:
            logger.warning("fact vectors not written for user %r", user, exc_info=True)
            return 0


def store_semantic_scores(
    storage: MemoryStorage, user: str, agent: str | None, query: str, limit: int
) -> dict[str, float] | None:
    """Similarity of facts to ``query`` from a LangGraph store's vector index; ``None`` if none.

    Only for :class:`~deerflow_memory.storage.store.StoreMemoryStorage` over a
    store configured with an ``index``; the store embeds the query, read through
    :func:`~deerflow_memory.inject.retrieval.clip_query` as ranking reads it.

    Raises:
        EmbeddingError: the search failed (the store's embed function, its
            database) or gave a score that is not a finite number.
    """
    store: Any = getattr(storage, "store", None)
    namespace = getattr(storage, "facts_namespace", None)
    if store is None or namespace is None or not getattr(store, "index_config", None):
        return None
    try:
        with signals_unheld():
            items = store.search(namespace(user, agent), query=clip_query(query), limit=limit)
    except Exception as e:  # the store's embed function raises its own types
        raise EmbeddingError(f"the store's vector search failed: {type(e).__name__}: {e}") from e
    scores: dict[str, float] = {}
    for item in items:
        score = getattr(item, "score", None)
        if score is None:
            continue
        try:
            value = float(score)
        except (TypeError, ValueError) as e:
            raise EmbeddingError(f"the store's vector search gave the score {score!r}") from e
        if not math.isfinite(value):
            raise EmbeddingError(f"the store's vector search gave the score {value}")
        scores[str(item.key).split("~", 1)[0]] = value
    return scores
