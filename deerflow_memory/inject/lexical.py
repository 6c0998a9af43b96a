"""Lexical similarity for Chinese and English: a tokenizer and a BM25 index over facts.

Used by :mod:`deerflow_memory.inject.retrieval` when no embedding model is given (with
the topic expansion of :mod:`deerflow_memory.inject.topics` on top), and the tokenizer
by the ``search_memory`` tool. Pure Python, no model, no download.

Deterministic: query terms are scored in their first-seen order (never a set's, whose
order follows the hash seed), so a query gives bit-identical scores in every process.

Never raises on odd text: anything that is not a word, a digit run or CJK is skipped.
"""

from __future__ import annotations

import math
import re
import sys
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from operator import add

from deerflow_memory.caching import TextCache
from deerflow_memory.models import Fact

__all__ = ["CJK_UNIGRAM_WEIGHT", "COMMON_WORD_FLOOR", "BM25Index", "term_counts", "tokenize"]


# --- tokenizer -----------------------------------------------------------------------

# Han (incl. extension A and compatibility), kana and Hangul: written without
# spaces, so they are cut into character unigrams and bigrams instead of words.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_TOKEN_RUN = re.compile(rf"[0-9a-z\u00c0-\u024f]+|[{_CJK}]+")
_CJK_CHAR = re.compile(rf"[{_CJK}]")
_FIRST_CJK = "\u3040"  # every CJK range above starts here or later; Latin runs end below

# Function words and request words ("tell", "please"): they match everything.
_EN_STOPWORD_TEXT = """
a an the and or but if of to in on at by for from with about as into than then
is are was were be been being am do does did doing have has had having not no
i me my mine myself we our you your he him his she her it its they them their
this that these those there here what which who whom whose when where why how
can could would should will shall may might must let please tell give show
any some all each every very just also too so such more most much many
user users use used
"""
_EN_STOPWORDS = frozenset(_EN_STOPWORD_TEXT.split())

# Multi-character entries first: the alternation takes the first that matches.
_ZH_STOPWORD_TEXT = """
用户 我们 你们 他们 她们 一个 这个 那个 什么 怎么 可以 一下
的 了 是 我 你 他 她 吗 呢 吧 啊 和 也 都 在 很 请 给 帮
"""
_ZH_STOPWORDS = tuple(_ZH_STOPWORD_TEXT.split())
# Stopwords split a CJK run, so no bigram spans a dropped word ("用户不吃" → "不吃").
_ZH_SPLIT = re.compile("|".join(map(re.escape, _ZH_STOPWORDS)))


@lru_cache(maxsize=16_384)
def _stem(word: str) -> str:
    """Fold common English inflections so they meet (``peanuts``/``peanut``, ``hiking``/``hike``).

    Deliberately light, not linguistics: plural ``-s/-es/-ies``, then ``-ing``
    or ``-ed``, then a final ``e`` dropped or ``y`` turned to ``i``, then a
    doubled final consonant undone (``running`` → ``run``). Facts and queries go
    through the same function, so odd stems (``like`` → ``lik``) still match.
    """
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies"):
        word = word[:-3] + "i"
    elif word.endswith(("sses", "shes", "ches", "xes", "zes")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
    elif len(word) > 4 and word.endswith("ed"):
        word = word[:-2]
    if len(word) > 3 and word[-1] == "e":
        word = word[:-1]
    elif len(word) > 3 and word[-1] == "y":
        word = word[:-1] + "i"
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
        word = word[:-1]
    return word


def tokenize(text: str) -> list[str]:
    """Split Chinese/English text into the terms BM25 matches on.

    NFKC-normalised (full-width letters and digits fold to ASCII) and
    lowercased. Latin runs become words (stopwords and single letters dropped,
    light stemming, see ``_stem``); digit runs stay as they are; CJK runs are
    split at Chinese stopwords (``用户``, ``的``, ``了``, ``是`` …) and each piece
    yields its characters and its adjacent-character bigrams — no dictionary
    segmenter needed, and a two-character word matches as one bigram plus two
    characters.

    Args:
        text: any text.

    Returns:
        Terms in text order, repeats kept (term frequency matters to BM25).
    """
    terms: list[str] = []
    for run in _TOKEN_RUN.findall(unicodedata.normalize("NFKC", text).lower()):
        if run[0] < _FIRST_CJK:  # a Latin/digit run (runs never mix the two kinds)
            if run.isdigit():
                terms.append(run)
            elif len(run) > 1 and run not in _EN_STOPWORDS:
                terms.append(_stem(run))
            continue
        for piece in _ZH_SPLIT.split(run):
            terms.extend(piece)
            terms.extend(map(add, piece, piece[1:]))
    return terms


def _term_counts(content: str) -> tuple[int, tuple[str, ...], tuple[int, ...]]:
    """Number of terms, the distinct terms and their counts, of one fact's content.

    Cached by text: after a memory update most facts are unchanged, so
    rebuilding the index of the new document re-tokenises only new content.
    Compact on purpose (two tuples, terms interned so facts share them): a
    dict per entry cost ~5.5 KB for a 40-character Chinese fact, ~360 MB at a
    65,536-entry bound; this is ~1 KB, ~17 MB at 16,384 entries.
    """
    terms = tokenize(content)
    counts = Counter(map(sys.intern, terms))
    return len(terms), tuple(counts), tuple(counts.values())


# Bounded by characters too: a 500-character Chinese fact of rare bigrams costs
# ~79 KB here (its bigrams are new strings), so 16,384 entries alone let this
# process-wide cache hold ~760 MB; half a million characters is ~80 MB at most,
# ~10,000 facts of 50 characters.
term_counts = TextCache(_term_counts, max_entries=16_384, max_chars=500_000)


def _is_cjk_char(term: str) -> bool:
    return len(term) == 1 and _CJK_CHAR.match(term) is not None


# --- BM25 -------------------------------------------------------------------------------

# A lone CJK character is weak evidence ("海" in "海边" vs "海鲜"): it counts this
# much of a word. Two characters that form a shared word also share the bigram,
# which counts fully.
CJK_UNIGRAM_WEIGHT = 0.3
# Even a word found in every fact is half as much evidence as a distinctive one
# ("coffee" in a coffee lover's memory), so two shared common words pass the
# threshold while one alone does not.
COMMON_WORD_FLOOR = 0.5


class BM25Index:
    """Okapi BM25 over facts' content (k1=1.5, b=0.75), Chinese and English.

    Built once per set of facts (an inverted index: term → postings), then
    scores any number of queries; a query only touches the postings of its own
    terms, so scoring is proportional to matches, not to the number of facts.

    Args:
        facts: the facts to index, in the order scores are reported.
        k1: term-frequency saturation.
        b: length normalisation.
        saturation: ``k`` of the ``s / (s + k)`` map to 0..1 (see :meth:`normalise`).
    """

    def __init__(
        self,
        facts: Sequence[Fact],
        *,
        k1: float = 1.5,
        b: float = 0.75,
        saturation: float = 0.5,
    ) -> None:
        self._size = len(facts)
        self._k1 = k1
        self._saturation = saturation
        # Only postings and lengths at build time: weights and BM25 parts are
        # computed for the few terms a query touches (cheaper rebuilds).
        # term -> positions of the facts holding it. A term's count in a fact is
        # 1 unless _repeated says otherwise (term -> {position: count > 1}).
        self._postings: dict[str, list[int]] = {}
        self._repeated: dict[str, dict[int, int]] = {}
        lengths: list[int] = []
        postings = self._postings
        get = postings.get
        for index, fact in enumerate(facts):
            length, terms, tfs = term_counts(fact.content)
            lengths.append(length)
            for term in terms:
                plist = get(term)
                if plist is None:
                    postings[term] = [index]
                else:
                    plist.append(index)
            if length != len(terms):  # some term is repeated
                for term, tf in zip(terms, tfs, strict=True):
                    if tf > 1:
                        self._repeated.setdefault(term, {})[index] = tf
        average = (sum(lengths) / len(lengths)) if lengths else 0.0
        # Per-document length part of the BM25 denominator.
        self._norms = [
            k1 * (1.0 - b + b * (length / average if average else 0.0)) for length in lengths
        ]
        n = self._size
        self._idf_max = math.log(1.0 + (n - 0.5) / 1.5) if n else 1.0

    @property
    def idf_max(self) -> float:
        """The idf of a term found in a single fact: the scale of raw scores (1.0 when empty)."""
        return self._idf_max

    def idf_weight(self, df: int) -> float:
        """BM25 idf of a term found in ``df`` facts, on a floor (see :meth:`sparse_scores`).

        ``idf_max·(COMMON_WORD_FLOOR + (1 - COMMON_WORD_FLOOR)·idf/idf_max)``:
        ``idf_max`` for ``df = 1``, half of it for a term in every fact.
        """
        idf = math.log(1.0 + (self._size - df + 0.5) / (df + 0.5))
        rarity = COMMON_WORD_FLOOR + (1.0 - COMMON_WORD_FLOOR) * idf / self._idf_max
        return rarity * self._idf_max

    def _term_weight(self, term: str, df: int) -> float:
        """:meth:`idf_weight` times the CJK unigram discount."""
        weight = CJK_UNIGRAM_WEIGHT if _is_cjk_char(term) else 1.0
        return weight * self.idf_weight(df)

    def postings(self, term: str) -> Sequence[int]:
        """Positions of the facts holding ``term``, ascending (shared: never mutate it)."""
        return self._postings.get(term, ())

    def presence_parts(self) -> list[float]:
        """BM25's term-frequency part for a term found once, per fact: ``(k1 + 1)/(1 + norm)``.

        1.0 in a fact of average length, less in longer ones. A new list each call.
        """
        k1_plus_1 = self._k1 + 1.0
        return [k1_plus_1 / (1.0 + norm) for norm in self._norms]

    def __len__(self) -> int:
        return self._size

    def sparse_scores(self, query: str) -> dict[int, float]:
        """Raw BM25 scores of the facts that share at least one term with ``query``.

        Each distinct query term counts once, with its idf replaced by
        :meth:`idf_weight` (a term in a single fact keeps its idf; a term in
        every fact still counts half), times ``CJK_UNIGRAM_WEIGHT`` for a lone
        CJK character.

        Args:
            query: the request text.

        Returns:
            ``{fact position: score > 0}``.
        """
        return self.term_scores(tokenize(query))

    def term_scores(self, terms: Iterable[str]) -> dict[int, float]:
        """:meth:`sparse_scores` of already tokenized query terms (repeats count once).

        Terms are taken in their first-seen order, never a set's (whose order
        changes with the process's hash seed): the same query gives
        bit-identical scores in every process.
        """
        scores: dict[int, float] = {}
        k1_plus_1 = self._k1 + 1.0
        norms = self._norms
        for term in dict.fromkeys(terms):
            plist = self._postings.get(term)
            if plist is None:
                continue
            weight = self._term_weight(term, len(plist))
            repeated = self._repeated.get(term)
            for doc in plist:
                tf = repeated.get(doc, 1) if repeated else 1
                scores[doc] = scores.get(doc, 0.0) + weight * tf * k1_plus_1 / (tf + norms[doc])
        return scores

    def word_matches(self, terms: Sequence[str]) -> set[int]:
        """Facts sharing a *word* with a query cut into ``terms`` (:func:`tokenize`):
        a Latin word, a number or a CJK bigram.

        A lone shared CJK character (去, 吃) is too weak to stand as evidence on
        its own; it still adds to the score of facts that match otherwise.
        """
        found: set[int] = set()
        for term in set(terms):
            if not _is_cjk_char(term):
                found.update(self._postings.get(term, ()))
        return found

    def scores(self, query: str) -> list[float]:
        """Raw BM25 score of every fact for ``query``, aligned with the indexed facts.

        Args:
            query: the request text.

        Returns:
            One score >= 0 per fact; 0 when no term is shared.
        """
        dense = [0.0] * self._size
        for doc, score in self.sparse_scores(query).items():
            dense[doc] = score
        return dense

    def normalise(self, score: float) -> float:
        """Map a raw score to 0..1: ``s / (s + k)`` with ``s = score / idf_max``.

        ``idf_max`` is the idf of a term found in a single fact, so ``s``
        counts "distinctive words shared" whatever the number of facts (raw
        BM25 grows with the log of the collection size). The saturating map,
        unlike dividing by the best score of the query, is absolute: an
        unrelated query's best match stays low instead of becoming 1.0.
        With ``k = 0.5``, in a fact of average length: one shared distinctive
        word gives ≈ 0.67 (passes 0.55); one shared word found in every fact
        ≈ 0.5 and a lone shared CJK character ≤ 0.4 (both fail); a shared
        two-character Chinese word (bigram + its characters) ≈ 0.75; more
        shared words approach 1. Much longer facts need more shared words
        (BM25 length normalisation).
        """
        s = score / self._idf_max
        return s / (s + self._saturation) if s > 0.0 else 0.0

    def similarities(self, query: str) -> list[float]:
        """Similarity in 0..1 of every fact to ``query``, aligned with the facts.

        Args:
            query: the request text.

        Returns:
            :meth:`normalise` of each raw BM25 score.
        """
        return [self.normalise(score) for score in self.scores(query)]


def clear_lexical_caches() -> None:
    """Forget the per-text token counts and stems."""
    term_counts.cache_clear()
    _stem.cache_clear()
