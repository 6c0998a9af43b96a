"""Topic expansion of lexical retrieval: "plan a dinner menu" finds "Is vegetarian".

BM25 (:mod:`deerflow_memory.inject.lexical`) only sees shared words, and a
memory query often shares none with the fact that answers it: "周末想出去玩"
with "喜欢爬山", "plan a dinner menu" with "Is vegetarian". Without an
embedder, this module bridges such pairs through a few broad topics of a
person's life.

**The lexicon** is ``deerflow_memory/inject/data/topics.txt``: 16 topics
(food and diet, travel, health, work, family and home, pets, sport, outdoors
and hobbies, music/books/films, tech, money and shopping, learning and
languages, schedule, friends and occasions, getting around, sight and
hearing), each with the English words and
Chinese words (one or two characters) that point to it, ~1,430 terms
written by hand from general knowledge of these domains, not fitted to any
test or benchmark table. A word sits under one topic, or two when it truly
bridges them ("allergic": food and health). English words are stemmed by the
tokenizer's own stemmer and Chinese words are the tokenizer's own bigrams and
characters, so topics are found from the terms BM25 already has: a fact's
topics are the union of its terms' topics, a query's likewise. Loaded once,
on first use (~3 ms), never at import.

**The weight**: a topic counts as one more BM25 term, found once in each fact
that has any of its words, weighing ``TOPIC_WEIGHT`` (0.35) of a word of the
same rarity (the topic's rarity among the facts, times ``idf_max``), times
BM25's length part. All the topics a fact shares with the query add up to at
most ``TOPIC_CAP`` (0.45) word-weights, below ``COMMON_WORD_FLOOR`` (0.5), the
least a shared word weighs: in facts of like length one shared word (a Latin
word, a number, a CJK bigram) outranks any number of shared topics, while a
shared topic outranks a lone shared CJK character as common (0.3 of a word)
and breaks ties between facts with the same words. The two numbers follow
from that order, not from a fit: on ``bench/quality.py retrieval`` any
weight from 0.1 to 0.45 gives R@5 0.79-0.80 over all its queries. Normalised
(:meth:`~deerflow_memory.inject.lexical.BM25Index.normalise`), a topic-only
match in a fact of average length is at most 0.47, while one shared
distinctive word gives ~0.67: an absolute ``similarity_threshold`` of 0.55
keeps topic-only matches out.

**Cost**: nothing at index build; a topic's facts (the union of its words'
postings) are gathered the first time a query touches the topic, then kept
with the index. A query costs one dictionary lookup per term, plus one
addition per fact of each of its topics.

How it fails: never on odd text (topics come from :func:`tokenize`'s terms,
which skip anything that is not a word, a digit run or CJK). A malformed
lexicon file raises ``ValueError`` naming the line, on first use.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources

from deerflow_memory.inject.lexical import BM25Index, tokenize

__all__ = [
    "TOPIC_CAP",
    "TOPIC_WEIGHT",
    "TopicIndex",
    "TopicLexicon",
    "default_lexicon",
]

TOPIC_WEIGHT = 0.35
"""A shared topic's weight, as a share of a shared word's (same rarity, same fact)."""
TOPIC_CAP = 0.45
"""The most all topics one fact shares add up to, in word-weights (< ``COMMON_WORD_FLOOR``)."""
MAX_TOPICS_PER_WORD = 2

_CJK_FIRST = "\u3040"


@dataclass(frozen=True)
class TopicLexicon:
    """Which topics each term points to, and which terms point to each topic.

    Terms are as :func:`~deerflow_memory.inject.lexical.tokenize` yields them
    (English stems, Chinese characters and bigrams).
    """

    by_term: Mapping[str, tuple[str, ...]]
    """term → its topics (one or two, sorted)."""
    by_topic: Mapping[str, tuple[str, ...]]
    """topic → its terms, in lexicon order."""

    @classmethod
    def parse(cls, text: str) -> TopicLexicon:
        """Read the lexicon format (see ``data/topics.txt``): ``[topic]`` lines, then words.

        Args:
            text: the lexicon text.

        Returns:
            The lexicon.

        Raises:
            ValueError: a word before any ``[topic]``, an empty or repeated
                topic, an English word that is not one term for the tokenizer
                (a stopword, two words), a Chinese word longer than two
                characters or split by a stopword, or a word under more than
                :data:`MAX_TOPICS_PER_WORD` topics.
        """
        by_topic: dict[str, list[str]] = {}
        by_term: dict[str, list[str]] = {}
        topic: str | None = None
        for number, line in enumerate(text.splitlines(), start=1):
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                continue
            if stripped.startswith("[") and stripped.endswith("]"):
                topic = stripped[1:-1].strip()
                if not topic or topic in by_topic:
                    raise ValueError(
                        f"topic lexicon line {number}: empty or repeated topic {line!r}"
                    )
                by_topic[topic] = []
                continue
            if topic is None:
                raise ValueError(f"topic lexicon line {number}: words before any [topic]")
            for word in stripped.split():
                term = _term_of(word, number)
                topics = by_term.setdefault(term, [])
                if topic not in topics:
                    topics.append(topic)
                    by_topic[topic].append(term)
                if len(topics) > MAX_TOPICS_PER_WORD:
                    raise ValueError(
                        f"topic lexicon line {number}: {word!r} is under more than "
                        f"{MAX_TOPICS_PER_WORD} topics ({', '.join(topics)})"
                    )
        for name, terms in by_topic.items():
            if not terms:
                raise ValueError(f"topic lexicon: topic {name!r} has no words")
        return cls(
            by_term={term: tuple(sorted(topics)) for term, topics in by_term.items()},
            by_topic={name: tuple(terms) for name, terms in by_topic.items()},
        )

    def topics_of(self, terms: Iterable[str]) -> tuple[str, ...]:
        """The distinct topics of ``terms``, sorted (a stable order keeps scores bit-identical).

        Args:
            terms: terms from :func:`~deerflow_memory.inject.lexical.tokenize`.

        Returns:
            Topic names; empty when no term is in the lexicon.
        """
        get = self.by_term.get
        found: set[str] = set()
        for term in terms:
            topics = get(term)
            if topics is not None:
                found.update(topics)
        return tuple(sorted(found))


def _term_of(word: str, number: int) -> str:
    """The one term ``word`` stands for in tokenized text (its stem, or itself in Chinese)."""
    terms = tokenize(word)
    if word[0] >= _CJK_FIRST:
        # A one- or two-character word is itself a term of any text holding it.
        if len(word) <= 2 and word in terms:
            return word
    elif len(terms) == 1:
        return terms[0]
    raise ValueError(
        f"topic lexicon line {number}: {word!r} is not one term for the tokenizer "
        "(English: one word, not a stopword; Chinese: one or two characters, no stopword)"
    )


@cache
def default_lexicon() -> TopicLexicon:
    """The packaged lexicon, ``deerflow_memory/inject/data/topics.txt``, read once.

    Raises:
        ValueError: the file is malformed (see :meth:`TopicLexicon.parse`).
    """
    path = resources.files("deerflow_memory.inject").joinpath("data", "topics.txt")
    return TopicLexicon.parse(path.read_text(encoding="utf-8"))


class TopicIndex:
    """Topic scores of one :class:`BM25Index`'s facts for any query's terms.

    Builds nothing up front: a topic's facts are gathered from the BM25
    postings of its words the first time a query has the topic, then kept.

    Args:
        bm25: the index of the facts (its postings, rarity and length parts).
        lexicon: the topics (default: :func:`default_lexicon`).
    """

    def __init__(self, bm25: BM25Index, lexicon: TopicLexicon | None = None) -> None:
        self._bm25 = bm25
        self._lexicon = lexicon
        # topic -> (its weight, positions of its facts, weight × BM25 length part of each)
        self._parts: dict[str, tuple[float, tuple[int, ...], tuple[float, ...]]] = {}
        self._presence: list[float] | None = None

    def _presence_parts(self) -> list[float]:
        if self._presence is None:
            self._presence = self._bm25.presence_parts()
        return self._presence

    @property
    def lexicon(self) -> TopicLexicon:
        """The lexicon in use (the default one is loaded on first use)."""
        if self._lexicon is None:
            self._lexicon = default_lexicon()
        return self._lexicon

    def facts_of(self, topic: str) -> tuple[int, ...]:
        """Positions of the facts that have ``topic`` (any of its words), ascending."""
        return self._part(topic)[1]

    def _part(self, topic: str) -> tuple[float, tuple[int, ...], tuple[float, ...]]:
        part = self._parts.get(topic)
        if part is None:
            bm25 = self._bm25
            found: set[int] = set()
            for term in self.lexicon.by_topic.get(topic, ()):
                found.update(bm25.postings(term))
            facts = tuple(sorted(found))
            weight = TOPIC_WEIGHT * bm25.idf_weight(len(facts)) if facts else 0.0
            presence = self._presence_parts()
            part = (weight, facts, tuple(weight * presence[i] for i in facts))
            self._parts[topic] = part  # one assignment: threads may race to the same value
        return part

    def scores(self, terms: Iterable[str]) -> dict[int, float]:
        """Topic score of each fact sharing a topic with ``terms``: ``{position: score > 0}``.

        Per fact: ``min(TOPIC_CAP·idf_max, Σ TOPIC_WEIGHT·idf_weight(df_topic))``
        over the shared topics, times BM25's part for a term found once
        (``(k1 + 1)/(1 + norm)``), so it adds to raw BM25 scores on their scale.

        Args:
            terms: the query's terms (:func:`~deerflow_memory.inject.lexical.tokenize`).

        Returns:
            The scores; empty when no topic is shared.
        """
        return self.add_to({}, terms)

    def add_to(self, scores: dict[int, float], terms: Iterable[str]) -> dict[int, float]:
        """Add :meth:`scores` of ``terms`` into ``scores`` (e.g. raw BM25 scores) and return it.

        Topics are taken in sorted order, so the sums are bit-identical in every process.
        """
        topics = self.lexicon.topics_of(terms)
        if not topics:
            return scores
        parts = [self._part(topic) for topic in topics]
        get = scores.get
        if sum(part[0] for part in parts) <= TOPIC_CAP * self._bm25.idf_max:
            for _, facts, values in parts:  # the cap cannot bind: add each topic's part
                for position, value in zip(facts, values, strict=True):
                    scores[position] = get(position, 0.0) + value
            return scores
        shared = dict.fromkeys(parts[0][1], parts[0][0])
        for weight, facts, _ in parts[1:]:
            for position in facts:
                shared[position] = shared.get(position, 0.0) + weight
        cap = TOPIC_CAP * self._bm25.idf_max
        presence = self._presence_parts()
        for position, total in shared.items():
            scores[position] = get(position, 0.0) + min(total, cap) * presence[position]
        return scores
