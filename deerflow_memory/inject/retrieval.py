"""Pick the facts relevant to the current request (SPEC §9, seed 001, issue 13).

When memory grows large, injecting every fact wastes the prompt and dilutes
the model's attention. :func:`select_relevant_facts` keeps:

1. **every guaranteed fact**, whatever the query: constraints (allergies,
   diet, medical and accessibility needs, :func:`~deerflow_memory.inject.constraints.is_constraint`)
   and the ``guaranteed_categories`` (default ``correction``);
2. of the other facts, the ``top_k`` (5) most **relevant**, where relevance
   is by rank, not by raw score:

   - **lexical** (always): BM25 over Chinese and English (:class:`BM25Index`)
     plus topic expansion (:class:`~deerflow_memory.inject.topics.TopicIndex`:
     a hand-written lexicon of 14 life topics, each shared topic weighing
     0.35 of a word, all of them at most 0.45), so "plan a dinner menu"
     finds "Is vegetarian"; only facts sharing a term or a topic are
     candidates, the best ``candidates`` (20); with an embedder, only facts
     sharing a word rank lexically (the embedder judges the rest);
   - **semantic** (when an embedder is given, or ``semantic_scores`` from a
     store's vector index): the ``candidates`` facts of highest cosine;
   - one source alone ranks by its own score; two are fused by reciprocal
     rank, ``Σ 1/(fusion_k + rank)`` (k = 60), so a fact both sources rank
     high beats one that only one source found, and neither source's scale
     (BM25 grows with the memory, e5 cosines sit in 0.7-0.9) matters.

   **Relevance** is that fused (or single-source) score divided by the best
   one, in 0..1. Importance and recency only break near-ties:
   ``score = relevance + tie_break · (w_i·importance + w_r·recency)/(w_i + w_r)``,
   so a fact whose relevance is more than ``tie_break`` (0.05) below another's
   can never pass it. Ties: newer ``createdAt``, then smaller ``id``.

The cut is rank-based (``top_k``): a query sharing neither a word nor a
topic with any fact, and no embedder, gives no relevant fact (guaranteed
facts still come). An
absolute ``similarity_threshold`` can be added, on the source's own scale
(normalised BM25 without an embedder, cosine with one).

Hard isolation by user comes first and for free: a :class:`MemoryDocument`
belongs to one (user, agent), so candidates never include another user's facts.

Indexes are cached by the identity of the (frozen) document, and fact vectors
by text per embedder (:class:`~deerflow_memory.inject.vectors.FactVectors`,
filled when facts are written), so an inject node calling this every turn with
an unchanged memory embeds only the query.

How it fails: invalid :class:`RetrievalConfig` values raise pydantic's
``ValidationError`` (a ``ValueError``); a failing embedder, or one returning
malformed vectors, raises :class:`~deerflow_memory.errors.EmbeddingError`
(the embedder's own exception is its ``__cause__``;
:func:`~deerflow_memory.inject.fallback.rank_facts` catches it and ranks
lexically). A ``createdAt`` that is not ISO-8601 never raises: its recency is
0 (treated as old).
"""

from __future__ import annotations

import heapq
import math
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from deerflow_memory.config import RetrievalConfig
from deerflow_memory.errors import (
    ConfigError,
    EmbeddingError,
    InvalidDocumentError,
    InvalidMessagesError,
)
from deerflow_memory.inject.budget import created_seconds
from deerflow_memory.inject.constraints import guaranteed_members, is_constraint
from deerflow_memory.inject.lexical import BM25Index, clear_lexical_caches, tokenize
from deerflow_memory.inject.topics import TopicIndex
from deerflow_memory.inject.vectors import (
    Embedder,
    FactVectors,
    columns,
    cosine_similarity,
    dot_all,
)
from deerflow_memory.models import Fact, FactCategory, MemoryDocument, SourceType, stored_timestamp

__all__ = [
    "BM25Index",
    "Embedder",
    "FactVectors",
    "RetrievalIndex",
    "RetrievalResult",
    "ScoredFact",
    "clear_retrieval_caches",
    "clip_query",
    "cosine_similarity",
    "filter_document",
    "importance",
    "select_relevant_facts",
    "tokenize",
]


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


DISAGREEMENT_RETRY_SECONDS = 300.0
"""An embedder whose query and document vectors differ in length is tried again after this."""

_indexes = _IdentityCache(maxsize=32)
_fact_vectors = _IdentityCache(maxsize=8)


def fact_vectors_for(embedder: Embedder) -> FactVectors:
    """The shared :class:`FactVectors` of ``embedder`` (one per embedder object)."""
    if isinstance(embedder, FactVectors):
        return embedder
    vectors: FactVectors | None = _fact_vectors.get(embedder)
    if vectors is None:
        vectors = FactVectors(embedder)
        # Strong reference: LangChain embeddings (pydantic models) may not be weak-referenceable.
        _fact_vectors.put(embedder, vectors, weak=False)
    return vectors


def clear_retrieval_caches() -> None:
    """Forget cached indexes, fact vectors and per-text token counts."""
    _indexes.clear()
    _fact_vectors.clear()
    clear_lexical_caches()
    stored_timestamp.cache_clear()


# --- importance and recency ----------------------------------------------------------------

# How far a recent injection may pull a fact's recency towards "used just now".
USE_RECENCY_SHARE = 0.2

_CATEGORY_IMPORTANCE: dict[FactCategory, float] = {
    FactCategory.CORRECTION: 0.3,
    FactCategory.GOAL: 0.25,
    FactCategory.PREFERENCE: 0.2,
    FactCategory.BEHAVIOR: 0.15,
    FactCategory.KNOWLEDGE: 0.15,
    FactCategory.CONTEXT: 0.1,
}
_SOURCE_IMPORTANCE: dict[SourceType, float] = {
    SourceType.USER_STATED: 0.2,
    SourceType.INFERRED: 0.0,
    SourceType.MANUAL: 0.1,
}


def importance(fact: Fact) -> float:
    """How much a fact matters regardless of the request, in 0..1 (a tie-breaker only).

    ``0.5·confidence + category + source``, where category is correction 0.3,
    goal 0.25, preference 0.2, behavior and knowledge 0.15, context 0.1, and
    source is ``user_stated`` 0.2, ``inferred`` 0 (stated outranks inferred,
    SPEC §10). No bonus for words in the content: what must never be missed
    (allergies, diet, health, accessibility) is guaranteed as a constraint
    instead, and a word bonus favours whatever contains the word (工作坊 ⊃ 工作).

    Args:
        fact: the fact.

    Returns:
        The importance.
    """
    value = 0.5 * fact.confidence
    value += _CATEGORY_IMPORTANCE.get(fact.category, 0.1)
    value += _SOURCE_IMPORTANCE.get(fact.source_type, 0.0)
    return min(1.0, max(0.0, value))


# --- the index of one document ---------------------------------------------------------------


@dataclass(frozen=True)
class ScoredFact:
    """One ranked candidate and the parts of its score (for logs, events and tuning)."""

    fact: Fact
    similarity: float
    """0..1 on the source's own scale: cosine (clamped) with an embedder, else normalised BM25."""
    importance: float
    """0..1, see :func:`importance`."""
    recency: float
    """0..1: ``exp(-age_days / recency_decay_days)`` from ``lastConfirmedAt`` or ``createdAt``
    (0 when unparsable), raised a bounded step by a recent ``lastAccessedAt``."""
    score: float
    """``relevance + tie_break · tie-breaker``: what the ranking sorts by."""
    relevance: float = 0.0
    """0..1: fused (or single-source) relevance divided by the best candidate's."""
    lexical_rank: int | None = None
    """1-based rank by BM25 among the candidates; ``None`` when no term is shared."""
    semantic_rank: int | None = None
    """1-based rank by cosine; ``None`` without an embedder or outside the candidates."""


@dataclass(frozen=True)
class RetrievalResult:
    """What :func:`select_relevant_facts` chose and why."""

    facts: tuple[Fact, ...]
    """Every guaranteed fact first, then up to ``top_k`` relevant ones; no fact twice."""
    scored: tuple[ScoredFact, ...]
    """Ranked candidates, best first (the first ``top_k`` are the relevant facts in ``facts``)."""
    candidates: int
    """Non-guaranteed facts ranked (found by some source), before the threshold."""
    guaranteed: int
    """How many of ``facts`` are guaranteed ones (they come first)."""
    constraints: int = 0
    """How many of the guaranteed facts are constraints (they come first of all)."""

    @property
    def relevant(self) -> tuple[Fact, ...]:
        """The facts chosen for relevance (``facts`` without the guaranteed ones)."""
        return self.facts[self.guaranteed :]


class RetrievalIndex:
    """Everything about one document's facts that does not depend on the query.

    The BM25 index now; each fact's importance, and the matrix of fact vectors
    per embedder, when first needed. Build one with :meth:`for_document` to
    reuse it while the document object is unchanged.

    Args:
        facts: the facts of one user's document.
    """

    def __init__(self, facts: Sequence[Fact]) -> None:
        self.facts: tuple[Fact, ...] = tuple(facts)
        self.bm25 = BM25Index(self.facts)
        self.topics = TopicIndex(self.bm25)
        self._importance: dict[int, float] = {}
        self._constraints: tuple[int, ...] | None = None
        self._matrices: dict[int, tuple[FactVectors, Any]] = {}
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

    @property
    def constraints(self) -> tuple[int, ...]:
        """Positions of the constraint facts (:func:`is_constraint`), computed once."""
        if self._constraints is None:
            self._constraints = tuple(i for i, f in enumerate(self.facts) if is_constraint(f))
        return self._constraints

    def timestamp(self, position: int) -> float | None:
        """Creation time of the fact at ``position`` in epoch seconds; ``None`` if unparsable."""
        return stored_timestamp(self.facts[position].created_at)

    def recency(self, position: int, now: float, decay_seconds: float) -> float:
        """0..1 freshness of the fact at ``position`` at ``now`` (epoch seconds).

        ``exp(-age / decay)`` of its ``lastConfirmedAt`` (else ``createdAt``);
        a more recent ``lastAccessedAt`` (the fact was injected lately) raises it
        by at most :data:`USE_RECENCY_SHARE` of the gap to that access's recency,
        so use is one bounded input, never the whole of recency.
        """
        fact = self.facts[position]
        stamp = stored_timestamp(fact.last_confirmed_at or fact.created_at)
        if fact.last_confirmed_at and stamp is None:
            stamp = stored_timestamp(fact.created_at)
        # A fact dated in the future counts as brand new, not as more than new.
        recency = 0.0 if stamp is None else math.exp(-max(0.0, now - stamp) / decay_seconds)
        if fact.last_accessed_at:
            used = stored_timestamp(fact.last_accessed_at)
            if used is not None:
                use = math.exp(-max(0.0, now - used) / decay_seconds)
                if use > recency:
                    recency += USE_RECENCY_SHARE * (use - recency)
        return recency

    def lexical(self, query: str) -> dict[int, float]:
        """Raw lexical score of each fact related to ``query``: ``{position: score > 0}``.

        BM25 over shared terms plus the low-weight score of shared topics
        (:class:`~deerflow_memory.inject.topics.TopicIndex`): a fact sharing no
        term but a topic ("plan a dinner menu" / "Is vegetarian") scores too,
        below any fact of like length that shares a word.
        """
        return self.lexical_of(tokenize(query))

    def lexical_of(self, terms: list[str]) -> dict[int, float]:
        """:meth:`lexical` of a query already cut into ``terms`` (``tokenize``)."""
        return self.topics.add_to(self.bm25.term_scores(terms), terms)

    def cosines(self, query: str, embedder: Embedder) -> list[float]:
        """Cosine of every fact to ``query`` (aligned with :attr:`facts`); embeds only the query.

        Fact vectors come from the embedder's :class:`FactVectors` (filled when
        facts are written); facts without one, or with one of another length
        than the query's (the embedder changed its size), are embedded once,
        in one batch. When the freshly embedded fact vectors still differ in
        length from the query's (a broken embedder), that is remembered and
        raised at once for :data:`DISAGREEMENT_RETRY_SECONDS` (no re-embedding
        of every fact on every turn).

        Raises:
            EmbeddingError: the embedder failed or returned malformed vectors,
                or its document vectors differ in length from its query vector.
        """
        vectors = fact_vectors_for(embedder)
        wanted = vectors.query(query)  # first: it tells the current vector length
        known = vectors.disagreement
        recent = known is not None and time.monotonic() - known[2] < DISAGREEMENT_RETRY_SECONDS
        if known is not None and recent and known[0] == len(wanted):
            # A broken embedder: do not re-embed every fact on every turn to learn it again.
            raise EmbeddingError(
                f"the embedder's query vectors have {known[0]} dimensions, "
                f"its fact vectors {known[1]}"
            )
        entry = self._matrices.get(id(vectors))
        if entry is None or entry[0] is not vectors or columns(entry[1]) != len(wanted):
            matrix = vectors.matrix([f.content for f in self.facts])
            with self._lock:
                self._matrices[id(vectors)] = (vectors, matrix)
        else:
            matrix = entry[1]
        if self.facts and columns(matrix) != len(wanted):
            vectors.disagreement = (len(wanted), columns(matrix), time.monotonic())
            raise EmbeddingError(
                f"the embedder's query vectors have {len(wanted)} dimensions, "
                f"its fact vectors {columns(matrix)}"
            )
        if known is not None:
            vectors.disagreement = None
        return dot_all(matrix, wanted)

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


def _now_timestamp(now: datetime | None) -> float:
    if now is None:
        return datetime.now(UTC).timestamp()
    if now.tzinfo is None:
        now = now.replace(tzinfo=UTC)
    return now.timestamp()


def _ranks(
    scores: Mapping[int, float], pool: Iterable[int], limit: int, order: Any
) -> dict[int, int]:
    """1-based ranks of the best ``limit`` of ``pool`` by ``scores`` (ties by ``order``)."""
    found = [i for i in pool if i in scores]
    if len(found) > limit > 0:
        # Only facts scoring at least the limit-th best score can rank: sort just
        # those by the full key (``order`` is the costly part, one per fact sorted).
        cutoff = heapq.nlargest(limit, [scores[i] for i in found])[-1]
        found = [i for i in found if scores[i] >= cutoff]
    best = sorted(found, key=lambda i: (-scores[i], order(i)))
    return {i: rank for rank, i in enumerate(best[:limit], start=1)}


MAX_QUERY_BYTES = 4_000
"""UTF-8 bytes of a request that ranking reads (see :func:`clip_query`)."""


def _utf8_cut(text: str, size: int, *, tail: bool) -> str:
    # At most ``size`` UTF-8 bytes from one end of ``text``, whole characters only.
    part = text[-size:] if tail else text[:size]  # no character is less than a byte
    data = part.encode("utf-8", "surrogatepass")
    data = data[-size:] if tail else data[:size]
    return data.decode("utf-8", "ignore")  # drops the character cut in half


def clip_query(query: str, limit: int = MAX_QUERY_BYTES) -> str:
    """The part of ``query`` that relevance ranking reads: all of it, or its two ends.

    A request longer than ``limit`` UTF-8 bytes (a pasted document or log)
    keeps its first and last ``limit // 2`` bytes (whole characters), joined
    by a space: what the user asks usually sits before or after what they
    pasted. Without the cut every turn would tokenize and embed the whole paste
    (74.7 ms for 891,000 characters), and an embedding model with an input
    limit (8,191 tokens for OpenAI's) would fail on each such turn. Bytes, not
    characters: a byte-level BPE token holds at least one byte, so the clipped
    request is at most ``limit + 1`` tokens in any such vocabulary, whatever
    the script (4,000 emoji or Hangul characters can be 12,000 tokens).

    Args:
        query: the current request.
        limit: the most UTF-8 bytes kept (at least 2).

    Returns:
        ``query`` itself when it is short enough, otherwise at most ``limit``
        bytes plus the joining space.

    Raises:
        InvalidMessagesError: ``query`` is not a string.
        ConfigError: ``limit`` is not an int of at least 2.
    """
    if not isinstance(query, str):
        raise InvalidMessagesError(f"query must be a str, got {type(query).__name__}")
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 2:
        raise ConfigError(f"limit must be an int of at least 2 bytes, got {limit!r}")
    if len(query) * 4 <= limit:  # four bytes at most per character
        return query
    half = max(limit // 2, 1)
    head = _utf8_cut(query, half, tail=False)
    if len(head) == len(query):
        return query  # short enough in bytes after all
    tail = _utf8_cut(query, half, tail=True)
    if len(head) + len(tail) >= len(query):
        return query
    return f"{head} {tail}"


def select_relevant_facts(
    document: MemoryDocument,
    query: str,
    *,
    config: RetrievalConfig | None = None,
    guaranteed_categories: Iterable[str | FactCategory] = (FactCategory.CORRECTION,),
    now: datetime | None = None,
    embedder: Embedder | None = None,
    index: RetrievalIndex | None = None,
    semantic_scores: Mapping[str, float] | None = None,
    lexical: bool = True,
    guarantee_constraints: bool = True,
) -> RetrievalResult:
    """The facts of ``document`` worth injecting for ``query``.

    See the module docstring for the rule. ``document`` is one user's memory,
    so isolation between users holds by construction.

    Args:
        document: the user's memory document.
        query: the current request (e.g. the last human message); blank means
            "no request": only guaranteed facts are returned. Read through
            :func:`clip_query` (its first and last 2,000 UTF-8 bytes when longer).
        config: candidates, ``top_k``, fusion ``k``, tie-breaker bound and
            weights, optional threshold.
        guaranteed_categories: categories always included, whatever the query.
        now: the time recency is measured from (default: now, UTC; naive = UTC).
        embedder: an embedding model (any LangChain ``Embeddings``) for the
            semantic source; its fact vectors are cached by text.
        index: a prebuilt :class:`RetrievalIndex` of ``document.facts``
            (default: :meth:`RetrievalIndex.for_document`, cached by identity).
        semantic_scores: cosine (or any similarity) by fact id computed
            elsewhere, e.g. by a LangGraph store's vector index; used instead
            of ``embedder``.
        lexical: use the BM25 source (``False``: semantic alone, for measuring).
        guarantee_constraints: constraints are guaranteed (``False``: they
            are ranked like other facts, for measuring ranking alone).

    Returns:
        The chosen facts, the ranked candidates and their score parts.

    Raises:
        InvalidDocumentError: ``document`` is not a :class:`MemoryDocument`.
        InvalidMessagesError: ``query`` is not a string.
        EmbeddingError: the embedder failed or gave malformed vectors (see
            :func:`~deerflow_memory.inject.fallback.rank_facts` for the
            lexical fallback).
        ConfigError: ``guaranteed_categories`` is not an iterable of names.

    Example:
        >>> doc = MemoryDocument(facts=(Fact(content="Enjoys salted peanuts"),
        ...                             Fact(content="Works as a pilot")))
        >>> [f.content for f in select_relevant_facts(doc, "peanut snacks?").facts]
        ['Enjoys salted peanuts']
    """
    if not isinstance(document, MemoryDocument):
        raise InvalidDocumentError(
            f"document must be a MemoryDocument, got {type(document).__name__} "
            "(MemoryDocument.model_validate reads a memory.json mapping)"
        )
    if not isinstance(query, str):
        raise InvalidMessagesError(f"query must be a str, got {type(query).__name__}")
    config = config or _DEFAULT_CONFIG
    query = clip_query(query)
    if index is None:
        index = RetrievalIndex.for_document(document)
    facts = index.facts
    members = guaranteed_members(guaranteed_categories)
    constraint_set = set(index.constraints) if guarantee_constraints else set()
    guaranteed = [i for i, f in enumerate(facts) if i in constraint_set or f.category in members]
    # Constraints first, then by confidence desc, newer first, then id (as injection).
    guaranteed.sort(key=lambda i: facts[i].id)
    guaranteed.sort(key=lambda i: created_seconds(facts[i].created_at), reverse=True)
    guaranteed.sort(key=lambda i: facts[i].confidence, reverse=True)
    guaranteed.sort(key=lambda i: i not in constraint_set)
    chosen = [facts[i] for i in guaranteed]
    n_constraints = sum(1 for i in guaranteed if i in constraint_set)

    if not query.strip() or len(guaranteed) == len(facts):
        return RetrievalResult(tuple(chosen), (), 0, len(chosen), n_constraints)

    excluded = set(guaranteed)
    pool = [i for i in range(len(facts)) if i not in excluded]

    def newest_first(i: int) -> tuple[float, str]:
        stamp = index.timestamp(i)
        return (-stamp if stamp is not None else math.inf, facts[i].id)

    terms = tokenize(query) if lexical else []  # cut once: scored, then matched as words
    raw_lexical = index.lexical_of(terms) if lexical else {}
    lexical_pool = pool
    if raw_lexical and (embedder is not None or semantic_scores is not None):
        # Fused with embeddings, a lone shared CJK character (去, 吃) is noise:
        # only facts sharing a word rank lexically; the embedder judges the rest.
        words = index.bm25.word_matches(terms)
        lexical_pool = [i for i in pool if i in words]
    lexical_ranks = _ranks(raw_lexical, lexical_pool, config.candidates, newest_first)
    semantic: dict[int, float] = {}
    if semantic_scores is not None:
        by_id = {f.id: i for i, f in enumerate(facts)}
        for key, value in semantic_scores.items():
            score = float(value)
            if key in by_id and math.isfinite(score):  # NaN or inf is no evidence
                semantic[by_id[key]] = score
    elif embedder is not None:
        semantic = dict(enumerate(index.cosines(query, embedder)))
    # A cosine of 0 or less is no evidence at all (orthogonal or opposite).
    semantic_ranks = _ranks(
        {i: v for i, v in semantic.items() if v > 0.0}, pool, config.candidates, newest_first
    )

    # Relevance: a single source by its own score, two by reciprocal rank.
    k = config.fusion_k
    relevance: dict[int, float] = {}
    if lexical_ranks and semantic_ranks:
        for ranks in (lexical_ranks, semantic_ranks):
            for i, rank in ranks.items():
                relevance[i] = relevance.get(i, 0.0) + 1.0 / (k + rank)
    elif lexical_ranks:
        relevance = {i: raw_lexical[i] for i in lexical_ranks}
    elif semantic_ranks:
        # Cosines of one embedder crowd into a narrow band (e5: 0.7-0.9): spread
        # the candidates over 0..1 so the tie-breaker bound means the same.
        low = min(semantic[i] for i in semantic_ranks)
        spread = max(semantic[i] for i in semantic_ranks) - low
        relevance = {
            i: (semantic[i] - low) / spread + 1e-9 if spread > 0 else 1.0 for i in semantic_ranks
        }

    def source_similarity(i: int) -> float:
        if semantic:
            return min(1.0, max(0.0, semantic.get(i, 0.0)))
        return index.bm25.normalise(raw_lexical.get(i, 0.0))

    best = max(relevance.values(), default=0.0)
    now_ts = _now_timestamp(now)
    decay_seconds = config.recency_decay_days * 86_400.0
    mix = config.importance_weight + config.recency_weight
    threshold = config.similarity_threshold
    scored: list[tuple[tuple[float, float, str], ScoredFact]] = []
    for i, value in relevance.items():
        similarity = source_similarity(i)
        if threshold is not None and similarity < threshold:
            continue
        recency = index.recency(i, now_ts, decay_seconds)
        imp = index.importance(i)
        tie = (config.importance_weight * imp + config.recency_weight * recency) / mix if mix else 0
        rel = value / best if best > 0 else 0.0
        score = rel + config.tie_break * tie
        item = ScoredFact(
            facts[i], similarity, imp, recency, score, rel,
            lexical_ranks.get(i), semantic_ranks.get(i),
        )  # fmt: skip
        scored.append(((-score, *newest_first(i)), item))
    scored.sort(key=lambda entry: entry[0])
    ranked = tuple(entry[1] for entry in scored)
    chosen.extend(s.fact for s in ranked[: config.top_k])
    return RetrievalResult(tuple(chosen), ranked, len(relevance), len(guaranteed), n_constraints)


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
