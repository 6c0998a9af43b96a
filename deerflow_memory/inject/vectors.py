"""Embeddings of facts: one cache of unit vectors per embedder, filled when facts are written.

:class:`FactVectors` maps fact text to its unit vector for one embedder. The
updater's thread fills it when facts are saved (``MemoryService`` wires that),
and file storage persists it beside the document, so the inject node only
embeds the query. A text missing from the cache (e.g. a fact written by another
process) is embedded on first use, in one batch.

Vectors are numpy arrays when numpy is installed (it comes with the
``embeddings`` extra): scoring 1,000 facts is then one matrix product; without
numpy, tuples and pure Python.

How it fails: errors of the embedder propagate unchanged (nothing is cached
for the failed call); an embedder returning the wrong number of vectors, or
vectors of another dimension than the query's, raises ``ValueError``.
"""

from __future__ import annotations

import importlib
import math
import threading
from collections.abc import Iterable, Mapping, Sequence
from operator import mul
from typing import Any, Protocol, runtime_checkable

__all__ = ["Embedder", "FactVectors", "cosine_similarity", "unit_vector"]

_np: Any
try:  # numpy is optional (the embeddings extra brings it)
    _np = importlib.import_module("numpy")
except ImportError:  # pragma: no cover - exercised only without numpy
    _np = None


@runtime_checkable
class Embedder(Protocol):
    """What retrieval needs of an embedding model; LangChain ``Embeddings`` satisfy it."""

    def embed_query(self, text: str) -> Sequence[float]:
        """Embed the request text."""
        ...

    def embed_documents(self, texts: list[str]) -> Sequence[Sequence[float]]:
        """Embed stored texts, one vector per text, in order."""
        ...


def cosine_similarity(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine of the angle between two vectors (0.0 when either is all zeros).

    Args:
        a: a vector.
        b: a vector of the same length.

    Returns:
        A value in -1..1.

    Raises:
        ValueError: the vectors differ in length.
    """
    if len(a) != len(b):
        raise ValueError(f"vectors differ in length: {len(a)} != {len(b)}")
    norms = math.sqrt(sum(map(mul, a, a))) * math.sqrt(sum(map(mul, b, b)))
    return float(sum(map(mul, a, b)) / norms) if norms else 0.0


def unit_vector(vector: Sequence[float]) -> Any:
    """``vector`` scaled to length 1 (all zeros stay zeros); a numpy array when numpy is there."""
    if _np is not None:
        array = _np.asarray(vector, dtype=_np.float32)
        norm = float(_np.linalg.norm(array))
        return array / norm if norm else array
    norm = math.sqrt(sum(map(mul, vector, vector)))
    return tuple(x / norm for x in vector) if norm else tuple(0.0 for _ in vector)


def dot_all(matrix: Any, query: Any) -> list[float]:
    """Dot product of each row of ``matrix`` (from :meth:`FactVectors.matrix`) with ``query``."""
    if _np is not None and isinstance(matrix, _np.ndarray):
        if matrix.shape[0] == 0:
            return []
        if matrix.shape[1] != len(query):
            raise ValueError(
                f"query vector has {len(query)} dimensions, fact vectors {matrix.shape[1]}"
            )
        return [float(x) for x in matrix @ query]
    rows: list[Sequence[float]] = matrix
    if rows and len(rows[0]) != len(query):
        raise ValueError(f"query vector has {len(query)} dimensions, fact vectors {len(rows[0])}")
    return [sum(map(mul, row, query)) for row in rows]


class FactVectors:
    """Unit vectors of fact texts for one embedder, keyed by the text.

    Shared by every document version, so after a memory update only facts
    with new content are embedded, and by the updater thread (which adds
    vectors as facts are written) and the inject node (which reads them).
    Bounded: cleared when full (rare; cheap to refill compared with serving
    stale memory forever). Thread-safe.

    Args:
        embedder: the embedding model.
        maxsize: texts kept at most.
    """

    def __init__(self, embedder: Embedder, maxsize: int = 50_000) -> None:
        self.embedder = embedder
        self._maxsize = maxsize
        self._vectors: dict[str, Any] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._vectors)

    def missing(self, texts: Iterable[str]) -> list[str]:
        """The distinct texts of ``texts`` that have no vector yet, in order."""
        known = self._vectors
        return [t for t in dict.fromkeys(texts) if t not in known]

    def add(self, vectors: Mapping[str, Sequence[float]]) -> None:
        """Remember vectors computed elsewhere (read from disk, or by the updater)."""
        units = {text: unit_vector(v) for text, v in vectors.items()}
        with self._lock:
            if len(self._vectors) + len(units) > self._maxsize:
                self._vectors.clear()
            self._vectors.update(units)

    def embed_missing(self, texts: Iterable[str]) -> int:
        """Embed the texts without a vector in one call; returns how many were embedded.

        The updater's thread calls this when facts are written, so that the
        inject node finds every fact's vector ready.

        Raises:
            ValueError: the embedder returned another number of vectors than texts.
        """
        missing = self.missing(texts)
        if missing:
            # Outside the lock: embedding may be slow (a model, a remote call).
            fresh = self.embedder.embed_documents(missing)
            if len(fresh) != len(missing):
                raise ValueError(f"embedder returned {len(fresh)} vectors for {len(missing)} texts")
            self.add(dict(zip(missing, fresh, strict=True)))
        return len(missing)

    def get(self, texts: Sequence[str]) -> dict[str, list[float]]:
        """Known vectors of ``texts`` as plain lists (for persisting); unknown texts left out."""
        found = {t: v for t in texts if (v := self._vectors.get(t)) is not None}
        return {t: [float(x) for x in v] for t, v in found.items()}

    def matrix(self, texts: Sequence[str]) -> Any:
        """Unit vectors of ``texts`` in order (embedding the missing ones first), one row each."""
        self.embed_missing(texts)
        vectors = self._vectors
        found = [vectors.get(t) for t in texts]
        if any(r is None for r in found):  # cleared by another thread meanwhile: refill
            self.embed_missing(texts)
            found = [self._vectors.get(t) for t in texts]
        rows: list[Any] = [r for r in found if r is not None]
        if len(rows) != len(texts):
            raise RuntimeError("fact vectors were evicted while being read; retry")
        if _np is not None:
            dim = len(rows[0]) if rows else 0
            return _np.vstack(rows) if rows else _np.zeros((0, dim), dtype=_np.float32)
        return rows

    def query(self, text: str) -> Any:
        """The unit vector of a request text (never cached: queries rarely repeat)."""
        return unit_vector(self.embedder.embed_query(text))
