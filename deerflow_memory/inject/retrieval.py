"""Pick the facts relevant to the current request (SPEC §9, seed 001).

When memory grows large, injecting every fact wastes the prompt and dilutes
the model's attention. :func:`select_relevant_facts` keeps:

1. **all guaranteed facts** (categories in ``guaranteed_categories``, default
   ``correction``), whatever the query;
2. of the other facts, the ``candidates`` (20) with the highest
   **similarity** to the query, minus those below ``similarity_threshold``
   (0.55), ranked by ``0.5·similarity + 0.3·importance + 0.2·recency`` with
   ``recency = exp(-age_days / 30)``, the best ``top_k`` (5) kept. Ties: higher
   score, then newer ``createdAt``, then smaller ``id``.

Hard isolation by user comes first and for free: a :class:`MemoryDocument`
belongs to one (user, agent), so candidates never include another user's facts.

Similarity is the cosine of embeddings when an :class:`Embedder` is given
(any LangChain ``Embeddings``), else a lexical BM25 score for Chinese and
English (:class:`BM25Index`) mapped to 0..1 — see :meth:`BM25Index.similarities`
for why the 0.55 threshold means "shares a distinctive word".
:func:`filter_document` then gives a document holding only the chosen facts,
which :func:`~deerflow_memory.inject.format.render_memory` formats unchanged.

Indexes are cached by the identity of the (frozen) document, and document
embeddings by fact content per embedder, so an inject node calling this every
turn with an unchanged memory tokenises and embeds nothing again.

How it fails: invalid :class:`RetrievalConfig` values raise pydantic's
``ValidationError`` (a ``ValueError``); errors of the embedder propagate
unchanged (nothing is cached for the failed call). A ``createdAt`` that is not
ISO-8601 never raises: its recency is 0 (treated as old).
"""

from __future__ import annotations

import math
import re
import threading
import weakref
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from operator import mul
from typing import Any, Protocol, runtime_checkable

from deerflow_memory.config import RetrievalConfig
from deerflow_memory.inject.lexical import BM25Index, clear_lexical_caches, tokenize
from deerflow_memory.models import Fact, FactCategory, MemoryDocument, SourceType

__all__ = [
    "BM25Index",
    "Embedder",
    "RetrievalIndex",
    "RetrievalResult",
    "ScoredFact",
    "clear_retrieval_caches",
    "cosine_similarity",
    "filter_document",
    "importance",
    "select_relevant_facts",
    "tokenize",
]


# --- embeddings -------------------------------------------------------------------------


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
    return sum(map(mul, a, b)) / norms if norms else 0.0


def _unit(vector: Sequence[float]) -> tuple[float, ...]:
    norm = math.sqrt(sum(map(mul, vector, vector)))
    return tuple(x / norm for x in vector) if norm else tuple(0.0 for _ in vector)


class _EmbeddingCache:
    """Unit vectors of document texts for one embedder, keyed by the text.

    Shared by every index (every document version), so after a memory update
    only facts with new content are embedded. Bounded: cleared when full
    (rare, cheap to refill compared with serving stale memory forever).
    """

    def __init__(self, embedder: Embedder, maxsize: int = 50_000) -> None:
        self.embedder = embedder
        self._maxsize = maxsize
        self._vectors: dict[str, tuple[float, ...]] = {}
        self._lock = threading.Lock()

    def vectors(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        """Unit vectors of ``texts``, embedding only the texts not seen before (in one call)."""
        with self._lock:
            found = {t: v for t in texts if (v := self._vectors.get(t)) is not None}
        missing = list(dict.fromkeys(t for t in texts if t not in found))
        if missing:
            # Outside the lock: embedding may be a slow remote call.
            fresh = self.embedder.embed_documents(missing)
            if len(fresh) != len(missing):
                raise ValueError(f"embedder returned {len(fresh)} vectors for {len(missing)} texts")
            units = dict(zip(missing, map(_unit, fresh), strict=True))
            with self._lock:
                if len(self._vectors) + len(units) > self._maxsize:
                    self._vectors.clear()
                self._vectors.update(units)
            found.update(units)
        return [found[t] for t in texts]


class _IdentityCache:
    """A small LRU keyed by object identity, holding a weak or strong reference.

    Identity, not equality: hashing a large frozen document costs more than the
    lookup saves. A hit requires the referent to be the very same object, so a
    new object reusing a dead one's ``id`` never gets a stale value.
    """

    def __init__(self, maxsize: int) -> None:
        self._maxsize = maxsize
        self._lock = threading.Lock()
        self._entries: OrderedDict[int, tuple[Any, Any]] = OrderedDict()

    def get(self, obj: object) -> Any | None:
        entry = self._entries.get(id(obj))
        if entry is None:
            return None
        ref, value = entry
        referent = ref() if isinstance(ref, weakref.ref) else ref
        return value if referent is obj else None

    def put(self, obj: object, value: Any, *, weak: bool) -> None:
        with self._lock:
            # Drop entries whose object died, so a dead document's index does not
            # linger until LRU eviction (puts are rare: one per index build).
            dead = [
                key
                for key, (ref, _) in self._entries.items()
                if isinstance(ref, weakref.ref) and ref() is None
            ]
            for key in dead:
                del self._entries[key]
            self._entries[id(obj)] = (weakref.ref(obj) if weak else obj, value)
            self._entries.move_to_end(id(obj))
            while len(self._entries) > self._maxsize:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


_indexes = _IdentityCache(maxsize=32)
_embedding_caches = _IdentityCache(maxsize=8)


def _embedding_cache(embedder: Embedder) -> _EmbeddingCache:
    cache: _EmbeddingCache | None = _embedding_caches.get(embedder)
    if cache is None:
        cache = _EmbeddingCache(embedder)
        # Strong reference: LangChain embeddings (pydantic models) may not be weak-referenceable.
        _embedding_caches.put(embedder, cache, weak=False)
    return cache


def clear_retrieval_caches() -> None:
    """Forget cached indexes, document embeddings and per-text token counts."""
    _indexes.clear()
    _embedding_caches.clear()
    clear_lexical_caches()
    _has_signal.cache_clear()
    _timestamp.cache_clear()


# --- importance and recency ----------------------------------------------------------------

# How far a recent injection may pull a fact's recency towards "used just now".
USE_RECENCY_SHARE = 0.2

_CATEGORY_IMPORTANCE: dict[FactCategory, float] = {
    FactCategory.CORRECTION: 0.25,
    FactCategory.GOAL: 0.2,
    FactCategory.PREFERENCE: 0.15,
    FactCategory.BEHAVIOR: 0.1,
    FactCategory.KNOWLEDGE: 0.1,
    FactCategory.CONTEXT: 0.05,
}
_SOURCE_IMPORTANCE: dict[SourceType, float] = {
    SourceType.USER_STATED: 0.1,
    SourceType.INFERRED: 0.0,
}
_SIGNAL_BONUS = 0.15
# Facts that hurt when forgotten (seed 001 §4.1): health, hard rules, job, family, diet.
_SIGNALS = re.compile(
    r"\b(?:allerg\w*|intoleran\w*|anaphyla\w*|never|always|job|career|occupation|"
    r"profession|works?\s+(?:as|at|for)|child|children|kids?|sons?|daughters?|"
    r"wife|husband|pregnan\w*|vegetarian|vegan|halal|kosher|diet\w*|gluten|lactose|"
    r"diabet\w*|medication|disabilit\w*)\b"
    r"|过敏|忌口|从不|从来不|绝不|总是|永远|一直|工作|职业|孩子|儿子|女儿|小孩|"
    r"吃素|素食|清真|饮食|怀孕|糖尿病|药物",
    re.IGNORECASE,
)


@lru_cache(maxsize=65_536)
def _has_signal(content: str) -> bool:
    return _SIGNALS.search(content) is not None


def importance(fact: Fact) -> float:
    """How much a fact matters regardless of the request, in 0..1.

    ``0.5·confidence + category + source + signal``, capped at 1, where
    category is correction 0.25, goal 0.2, preference 0.15, behavior and
    knowledge 0.1, context 0.05; source is ``user_stated`` 0.1, ``inferred`` 0
    (stated outranks inferred, SPEC §10); signal is 0.15 when the content names
    something costly to forget — allergies, "never"/"always", job, children,
    diet (过敏, 从不, 总是, 工作, 孩子, 吃素 …). The maximum of the parts is 1.

    Args:
        fact: the fact.

    Returns:
        The importance.
    """
    value = 0.5 * fact.confidence
    value += _CATEGORY_IMPORTANCE.get(fact.category, 0.05)
    value += _SOURCE_IMPORTANCE.get(fact.source_type, 0.0)
    if _has_signal(fact.content):
        value += _SIGNAL_BONUS
    return min(1.0, max(0.0, value))


@lru_cache(maxsize=65_536)
def _timestamp(created_at: str) -> float | None:
    """Seconds since the epoch of an ISO-8601 time (naive means UTC); ``None`` if unparsable."""
    try:
        moment = datetime.fromisoformat(created_at.strip())
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


# --- the index of one document ---------------------------------------------------------------


@dataclass(frozen=True)
class ScoredFact:
    """One ranked candidate and the parts of its score (for logs and tuning)."""

    fact: Fact
    similarity: float
    """0..1: cosine (clamped) with an embedder, else normalised BM25."""
    importance: float
    """0..1, see :func:`importance`."""
    recency: float
    """0..1: ``exp(-age_days / recency_decay_days)`` from ``lastConfirmedAt`` or ``createdAt``
    (0 when unparsable), raised a bounded step by a recent ``lastAccessedAt``."""
    score: float
    """The weighted sum the ranking uses."""


@dataclass(frozen=True)
class RetrievalResult:
    """What :func:`select_relevant_facts` chose and why."""

    facts: tuple[Fact, ...]
    """Every guaranteed fact first, then up to ``top_k`` relevant ones; no fact twice."""
    scored: tuple[ScoredFact, ...]
    """Candidates at or above the similarity threshold, best first (the first
    ``top_k`` are the relevant facts in ``facts``)."""
    candidates: int
    """Non-guaranteed facts considered (before the threshold), at most ``config.candidates``."""
    guaranteed: int
    """How many of ``facts`` are guaranteed ones (they come first)."""

    @property
    def relevant(self) -> tuple[Fact, ...]:
        """The facts chosen for relevance (``facts`` without the guaranteed ones)."""
        return self.facts[self.guaranteed :]


class RetrievalIndex:
    """Everything about one document's facts that does not depend on the query.

    The BM25 index now; each fact's importance and creation time, and unit
    vectors per embedder, when first needed (most facts never become
    candidates). Build one with :meth:`for_document` to reuse it while the
    document object is unchanged.

    Args:
        facts: the facts of one user's document.
    """

    def __init__(self, facts: Sequence[Fact]) -> None:
        self.facts: tuple[Fact, ...] = tuple(facts)
        self.bm25 = BM25Index(self.facts)
        self._importance: dict[int, float] = {}
        self._vectors: dict[int, tuple[Embedder, list[tuple[float, ...]]]] = {}
        self._filtered: OrderedDict[tuple[str, ...], MemoryDocument] = OrderedDict()
        self._lock = threading.Lock()

    @classmethod
    def for_document(cls, document: MemoryDocument) -> RetrievalIndex:
        """The index of ``document``, built once per document object and then reused.

        Args:
            document: a memory document (frozen; a changed memory is a new object).

        Returns:
            The cached index, or a new one.
        """
        index: RetrievalIndex | None = _indexes.get(document)
        if index is None:
            index = cls(document.facts)
            _indexes.put(document, index, weak=True)
        return index

    def importance(self, position: int) -> float:
        """:func:`importance` of the fact at ``position``, computed once."""
        value = self._importance.get(position)
        if value is None:
            value = self._importance[position] = importance(self.facts[position])
        return value

    def timestamp(self, position: int) -> float | None:
        """Creation time of the fact at ``position`` in epoch seconds; ``None`` if unparsable."""
        return _timestamp(self.facts[position].created_at)

    def recency(self, position: int, now: float, decay_seconds: float) -> float:
        """0..1 freshness of the fact at ``position`` at ``now`` (epoch seconds).

        ``exp(-age / decay)`` of its ``lastConfirmedAt`` (else ``createdAt``);
        a more recent ``lastAccessedAt`` (the fact was injected lately) raises it
        by at most :data:`USE_RECENCY_SHARE` of the gap to that access's recency,
        so use is one bounded input, never the whole of recency.
        """
        fact = self.facts[position]
        stamp = _timestamp(fact.last_confirmed_at or fact.created_at)
        if fact.last_confirmed_at and stamp is None:
            stamp = _timestamp(fact.created_at)
        # A fact dated in the future counts as brand new, not as more than new.
        recency = 0.0 if stamp is None else math.exp(-max(0.0, now - stamp) / decay_seconds)
        if fact.last_accessed_at:
            used = _timestamp(fact.last_accessed_at)
            if used is not None:
                use = math.exp(-max(0.0, now - used) / decay_seconds)
                if use > recency:
                    recency += USE_RECENCY_SHARE * (use - recency)
        return recency

    def similarities(self, query: str, embedder: Embedder | None = None) -> dict[int, float]:
        """Similarity of the facts to ``query``: ``{fact position: 0..1}``.

        Without an embedder only facts sharing a term appear (the others are
        0); with one, every fact appears (cosine clamped to 0..1).

        Args:
            query: the request text.
            embedder: an embedding model, or ``None`` for BM25.

        Returns:
            Similarities by position in :attr:`facts`.
        """
        if embedder is None:
            normalise = self.bm25.normalise
            return {doc: normalise(s) for doc, s in self.bm25.sparse_scores(query).items()}
        vectors = self._document_vectors(embedder)
        q = _unit(embedder.embed_query(query))
        if vectors and len(vectors[0]) != len(q):
            raise ValueError(
                f"embedder gave a {len(q)}-dimensional query vector but "
                f"{len(vectors[0])}-dimensional document vectors"
            )
        # Unit vectors: the dot product is the cosine; negative means unrelated.
        return {doc: min(1.0, max(0.0, sum(map(mul, q, v)))) for doc, v in enumerate(vectors)}

    def _document_vectors(self, embedder: Embedder) -> list[tuple[float, ...]]:
        entry = self._vectors.get(id(embedder))
        if entry is not None and entry[0] is embedder:
            return entry[1]
        vectors = _embedding_cache(embedder).vectors([f.content for f in self.facts])
        with self._lock:
            self._vectors[id(embedder)] = (embedder, vectors)
        return vectors

    def filtered(self, document: MemoryDocument, facts: Iterable[Fact]) -> MemoryDocument:
        """``filter_document(document, facts)``, memoised so repeats return the same object.

        The same object lets :func:`~deerflow_memory.inject.format.render_memory`
        answer from its identity cache while the selection is unchanged.
        """
        chosen = tuple({f.id: f for f in facts}.values())
        key = tuple(f.id for f in chosen)
        cached = self._filtered.get(key)
        if cached is not None and all(a is b for a, b in zip(cached.facts, chosen, strict=True)):
            return cached
        result = document.model_copy(update={"facts": chosen})
        with self._lock:
            self._filtered[key] = result
            while len(self._filtered) > 16:
                self._filtered.popitem(last=False)
        return result


# --- selection --------------------------------------------------------------------------


def _guaranteed_members(categories: Iterable[str | FactCategory]) -> frozenset[FactCategory]:
    if isinstance(categories, str):  # a bare "correction" is one category, not letters
        categories = (categories,)
    names = {str(c).strip().lower() for c in categories}
    return frozenset(c for c in FactCategory if c.value in names)


def _now_timestamp(now: datetime | None) -> float:
    if now is None:
        return datetime.now(UTC).timestamp()
    if now.tzinfo is None:
        now = now.replace(tzinfo=UTC)
    return now.timestamp()


def select_relevant_facts(
    document: MemoryDocument,
    query: str,
    *,
    config: RetrievalConfig | None = None,
    guaranteed_categories: Iterable[str | FactCategory] = (FactCategory.CORRECTION,),
    now: datetime | None = None,
    embedder: Embedder | None = None,
    index: RetrievalIndex | None = None,
) -> RetrievalResult:
    """The facts of ``document`` worth injecting for ``query``.

    See the module docstring for the rule. ``document`` is one user's memory,
    so isolation between users holds by construction.

    Args:
        document: the user's memory document.
        query: the current request (e.g. the last human message); blank means
            "no request": only guaranteed facts are returned.
        config: candidates, threshold, ``top_k``, weights and recency decay.
        guaranteed_categories: categories always included, whatever the query.
        now: the time recency is measured from (default: now, UTC; naive = UTC).
        embedder: an embedding model for semantic similarity; ``None`` = BM25.
        index: a prebuilt :class:`RetrievalIndex` of ``document.facts``
            (default: :meth:`RetrievalIndex.for_document`, cached by identity).

    Returns:
        The chosen facts, the ranked candidates and their score parts.

    Raises:
        Exception: whatever ``embedder`` raises, unchanged.

    Example:
        >>> doc = MemoryDocument(facts=(Fact(content="Is allergic to peanuts"),
        ...                             Fact(content="Works as a pilot")))
        >>> [f.content for f in select_relevant_facts(doc, "peanut-free snacks?").facts]
        ['Is allergic to peanuts']
    """
    config = config or _DEFAULT_CONFIG
    if index is None:
        index = RetrievalIndex.for_document(document)
    facts = index.facts
    members = _guaranteed_members(guaranteed_categories)
    guaranteed = [i for i, f in enumerate(facts) if f.category in members]
    # Same order as injection: confidence desc, newer first, then id.
    guaranteed.sort(key=lambda i: facts[i].id)
    guaranteed.sort(key=lambda i: facts[i].created_at, reverse=True)
    guaranteed.sort(key=lambda i: facts[i].confidence, reverse=True)
    chosen = [facts[i] for i in guaranteed]

    if not query.strip() or len(guaranteed) == len(facts):
        return RetrievalResult(tuple(chosen), (), 0, len(chosen))

    similarity = index.similarities(query, embedder)
    excluded = set(guaranteed)
    pool = [i for i in similarity if i not in excluded]
    if config.similarity_threshold <= 0.0:
        # Zero-similarity facts pass a zero threshold, so they are candidates too.
        pool.extend(i for i in range(len(facts)) if i not in similarity and i not in excluded)

    def newest_first(i: int) -> float:
        stamp = index.timestamp(i)
        return -stamp if stamp is not None else math.inf

    # Highest similarity first; ties: newer createdAt, then smaller id.
    pool.sort(key=lambda i: (-similarity.get(i, 0.0), newest_first(i), facts[i].id))
    candidates = pool[: config.candidates]

    now_ts = _now_timestamp(now)
    decay_seconds = config.recency_decay_days * 86_400.0
    scored: list[tuple[tuple[float, float, str], ScoredFact]] = []
    for i in candidates:
        sim = similarity.get(i, 0.0)
        if sim < config.similarity_threshold:
            continue
        recency = index.recency(i, now_ts, decay_seconds)
        imp = index.importance(i)
        score = (
            config.similarity_weight * sim
            + config.importance_weight * imp
            + config.recency_weight * recency
        )
        sort_key = (-score, newest_first(i), facts[i].id)
        scored.append((sort_key, ScoredFact(facts[i], sim, imp, recency, score)))
    scored.sort(key=lambda item: item[0])
    ranked = tuple(item[1] for item in scored)
    chosen.extend(s.fact for s in ranked[: config.top_k])
    return RetrievalResult(tuple(chosen), ranked, len(candidates), len(guaranteed))


_DEFAULT_CONFIG = RetrievalConfig()


def filter_document(document: MemoryDocument, facts: Iterable[Fact]) -> MemoryDocument:
    """``document`` with only ``facts`` (summaries, history and revision kept).

    Pass the result to :func:`~deerflow_memory.inject.format.render_memory` to
    format just the relevant facts with the usual budget rule. The same
    document and selection give the same object back, so rendering is cached
    too while neither changes.

    Args:
        document: the full memory document.
        facts: the facts to keep (e.g. ``select_relevant_facts(...).facts``);
            a repeated ``id`` is kept once.

    Returns:
        A new (or cached) document.
    """
    return RetrievalIndex.for_document(document).filtered(document, facts)
