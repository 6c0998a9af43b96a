"""Embeddings of facts: one cache of unit vectors per embedder, filled when facts are written.

:class:`FactVectors` maps fact text to its unit vector for one embedder. The
updater's thread fills it when facts are saved (``MemoryService`` wires that),
and file storage persists it beside the document, so the inject node only
embeds the query. A text missing from the cache (e.g. a fact written by another
process) is embedded on first use, in one batch.

Vectors are numpy arrays when numpy is installed (it comes with the
``embeddings`` extra): scoring 1,000 facts is then one matrix product; without
numpy, tuples and pure Python.

How it fails: every call of the embedder goes through one boundary here
(:meth:`FactVectors.query`, :meth:`FactVectors.embed_missing`). Whatever the
embedder raises, and any answer that is not what was asked (not a flat list
of finite numbers, an empty vector, too few or too many vectors, vectors of
mixed lengths in one batch) becomes an
:class:`~deerflow_memory.errors.EmbeddingError` (the original is its
``__cause__``); nothing is cached for the failed call, so malformed vectors
never reach numpy. A cached vector whose length differs from the embedder's
latest output (the deployment changed its size) counts as missing and is
embedded again.
"""

from __future__ import annotations

import importlib
import math
import numbers
import threading
from collections.abc import Iterable, Mapping, Sequence
from operator import mul
from typing import Any, Protocol, runtime_checkable

from deerflow_memory.daemons import signals_held, signals_unheld
from deerflow_memory.errors import EmbeddingError

__all__ = [
    "Embedder",
    "FactVectors",
    "checked_unit_vector",
    "columns",
    "cosine_similarity",
    "unit_vector",
]

_np: Any
try:  # numpy is optional (the embeddings extra brings it)
    # Held: OpenBLAS starts its worker threads (one per extra core) when numpy is
    # imported, with the importing thread's mask; they must not take SIGTERM.
    with signals_held():
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


def checked_unit_vector(value: object, what: str = "vector") -> Any:
    """One vector from an embedder, checked and scaled to length 1.

    Args:
        value: what the embedder returned for one text.
        what: names the vector in the error message.

    Returns:
        A float32 numpy array (tuple of floats without numpy) of length 1, or
        all zeros for an all-zero vector.

    Raises:
        EmbeddingError: ``value`` is not a flat, non-empty sequence of finite
            real numbers (e.g. ``None``, a string, strings, nested lists,
            NaN or inf).
    """
    if value is None or isinstance(value, (str, bytes, Mapping)):
        raise EmbeddingError(f"the embedder returned {type(value).__name__} as a {what}")
    if _np is not None:
        try:
            array = _np.asarray(value)
        except (TypeError, ValueError) as e:  # ragged nesting, odd objects
            raise EmbeddingError(f"the embedder returned a malformed {what}: {e}") from e
        if array.ndim != 1 or array.dtype.kind not in "fiu":
            raise EmbeddingError(
                f"the embedder returned a {what} that is not a flat list of numbers "
                f"(shape {array.shape}, type {array.dtype})"
            )
        if array.size == 0:
            raise EmbeddingError(f"the embedder returned an empty {what}")
        array = array.astype(_np.float64)
        if not _np.isfinite(array).all():
            raise EmbeddingError(f"the embedder returned a {what} with NaN or infinite values")
        scale = float(_np.abs(array).max())  # first to the unit box: no overflow on squaring
        if scale == 0.0:
            return array.astype(_np.float32)
        array /= scale
        return (array / _np.linalg.norm(array)).astype(_np.float32)
    if not isinstance(value, Sequence):
        raise EmbeddingError(f"the embedder returned {type(value).__name__} as a {what}")
    if not value:
        raise EmbeddingError(f"the embedder returned an empty {what}")
    if not all(isinstance(x, numbers.Real) and not isinstance(x, bool) for x in value):
        raise EmbeddingError(f"the embedder returned a {what} that is not a list of numbers")
    floats = [float(x) for x in value]
    if not all(math.isfinite(x) for x in floats):
        raise EmbeddingError(f"the embedder returned a {what} with NaN or infinite values")
    scale = max(abs(x) for x in floats)
    if scale == 0.0:
        return tuple(floats)
    return unit_vector([x / scale for x in floats])


def columns(matrix: Any) -> int:
    """Length of the rows of ``matrix`` (from :meth:`FactVectors.matrix`); 0 when it has none."""
    if _np is not None and isinstance(matrix, _np.ndarray):
        return int(matrix.shape[1]) if matrix.shape[0] else 0
    return len(matrix[0]) if matrix else 0


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

    :attr:`dims` is the length of the embedder's latest vectors (``None``
    before its first call): a cached vector of another length counts as
    missing, so a deployment that changes its output size re-embeds instead
    of failing every turn.

    Args:
        embedder: the embedding model.
        maxsize: texts kept at most.
    """

    def __init__(self, embedder: Embedder, maxsize: int = 50_000) -> None:
        self.embedder = embedder
        self.dims: int | None = None
        self.disagreement: tuple[int, int, float] | None = None
        """(query length, fact vector length, monotonic time) when they last disagreed."""
        self._maxsize = maxsize
        self._vectors: dict[str, Any] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._vectors)

    def _current(self, vector: Any) -> bool:
        dims = self.dims
        return vector is not None and (dims is None or len(vector) == dims)

    def missing(self, texts: Iterable[str]) -> list[str]:
        """The distinct texts of ``texts`` without a vector of the current length, in order."""
        known = self._vectors
        return [t for t in dict.fromkeys(texts) if not self._current(known.get(t))]

    def add(self, vectors: Mapping[str, Sequence[float]]) -> int:
        """Remember vectors computed elsewhere (read from disk, or by the updater).

        Vectors that are malformed, or of another length than :attr:`dims`
        once that is known, are left out (a cache: they are embedded again).

        Returns:
            How many were kept.
        """
        units: dict[str, Any] = {}
        for text, vector in vectors.items():
            try:
                unit = checked_unit_vector(vector, "stored vector")
            except EmbeddingError:
                continue
            if self._current(unit):
                units[text] = unit
        with self._lock:
            if len(self._vectors) + len(units) > self._maxsize:
                self._vectors.clear()
            self._vectors.update(units)
        return len(units)

    def embed_missing(self, texts: Iterable[str]) -> int:
        """Embed the texts without a vector in one call; returns how many were embedded.

        The updater's thread calls this when facts are written, so that the
        inject node finds every fact's vector ready.

        Raises:
            EmbeddingError: the embedder failed, or returned another number of
                vectors than texts, malformed vectors or vectors of mixed lengths.
        """
        missing = self.missing(texts)
        if missing:
            # Outside the lock: embedding may be slow (a model, a remote call).
            try:
                with signals_unheld():  # the app's embedder, maybe on the updater's thread
                    fresh = self.embedder.embed_documents(missing)
            except Exception as e:  # embedders raise their own types (HTTP, timeouts, ...)
                raise EmbeddingError(f"the embedder failed: {type(e).__name__}: {e}") from e
            if fresh is None or isinstance(fresh, (str, bytes, Mapping)):
                raise EmbeddingError(
                    f"the embedder returned {type(fresh).__name__} for {len(missing)} texts"
                )
            try:
                rows = list(fresh)
            except TypeError as e:
                raise EmbeddingError(
                    f"the embedder returned {type(fresh).__name__} for {len(missing)} texts"
                ) from e
            if len(rows) != len(missing):
                raise EmbeddingError(
                    f"the embedder returned {len(rows)} vectors for {len(missing)} texts"
                )
            units = [checked_unit_vector(v, "document vector") for v in rows]
            lengths = {len(u) for u in units}
            if len(lengths) > 1:
                raise EmbeddingError(
                    f"the embedder returned vectors of lengths {sorted(lengths)} in one batch"
                )
            self.dims = lengths.pop()
            with self._lock:
                if len(self._vectors) + len(units) > self._maxsize:
                    self._vectors.clear()
                self._vectors.update(zip(missing, units, strict=True))
        return len(missing)

    def get(self, texts: Sequence[str]) -> dict[str, list[float]]:
        """Known vectors of ``texts`` of the current length as plain lists (for persisting)."""
        known = self._vectors
        found = [(t, v) for t in texts if (v := known.get(t)) is not None and self._current(v)]
        return {t: [float(x) for x in v] for t, v in found}

    def matrix(self, texts: Sequence[str]) -> Any:
        """Unit vectors of ``texts`` in order (embedding the missing ones first), one row each.

        Raises:
            EmbeddingError: see :meth:`embed_missing`.
        """
        self.embed_missing(texts)
        found = [self._vectors.get(t) for t in texts]
        if not all(self._current(r) for r in found):  # cleared by another thread meanwhile
            self.embed_missing(texts)
            found = [self._vectors.get(t) for t in texts]
        rows: list[Any] = [r for r in found if self._current(r)]
        if len(rows) != len(texts):
            raise EmbeddingError("fact vectors changed while being read; retry")
        if _np is not None:
            dim = len(rows[0]) if rows else 0
            return _np.vstack(rows) if rows else _np.zeros((0, dim), dtype=_np.float32)
        return rows

    def query(self, text: str) -> Any:
        """The unit vector of a request text (never cached: queries rarely repeat).

        Sets :attr:`dims`: cached fact vectors of another length become missing.

        Raises:
            EmbeddingError: the embedder failed or returned a malformed vector.
        """
        try:
            with signals_unheld():
                value = self.embedder.embed_query(text)
        except Exception as e:  # embedders raise their own types (HTTP, timeouts, ...)
            raise EmbeddingError(f"the embedder failed: {type(e).__name__}: {e}") from e
        vector = checked_unit_vector(value, "query vector")
        self.dims = len(vector)
        return vector
