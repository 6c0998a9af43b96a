"""Relevance retrieval: BM25 (Chinese and English), embeddings, ranking and guaranteed facts."""

from __future__ import annotations

import doctest
import math
import random
import re
import zlib
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import deerflow_memory.inject.retrieval as retrieval_module
from deerflow_memory.config import MemoryConfig, RetrievalConfig
from deerflow_memory.errors import ConfigError
from deerflow_memory.inject.constraints import is_constraint
from deerflow_memory.inject.format import render_memory
from deerflow_memory.inject.retrieval import (
    BM25Index,
    Embedder,
    RetrievalIndex,
    cosine_similarity,
    filter_document,
    importance,
    select_relevant_facts,
    tokenize,
)
from deerflow_memory.models import Fact, FactCategory, MemoryDocument, Section, SourceType

NOW = datetime(2025, 7, 1, tzinfo=UTC)
CORRECTION, CONTEXT = FactCategory.CORRECTION, FactCategory.CONTEXT


def fact(
    content: str,
    *,
    id: str | None = None,
    category: FactCategory = FactCategory.PREFERENCE,
    confidence: float = 0.8,
    created_at: str = "2025-06-30T10:00:00Z",
    source_type: SourceType = SourceType.USER_STATED,
) -> Fact:
    kwargs = {"id": id} if id is not None else {}
    return Fact(
        content=content,
        category=category,
        confidence=confidence,
        created_at=created_at,
        source_type=source_type,
        **kwargs,
    )


# (no word of a topic: "salted" is food since the lexicon knows salt, and the embedder test
# below needs a fact lexical retrieval cannot reach)
PRETZEL = fact("Keeps pretzels in the desk drawer", id="fact_pretzel")
FISHING_ZH = fact("周末喜欢去海边钓鱼", id="fact_fishing_zh")
SAX = fact("Plays saxophone in a jazz trio", id="fact_sax")
JOB = fact("Works as a backend engineer on payment systems", id="fact_job")
CITY_ZH = fact("在杭州工作，周末去爬山", id="fact_city_zh")
PYTHON_FIX = fact("Uses Python 3.12 (not 3.8)", id="fact_python", category=FactCategory.CORRECTION)
TEA_FIX = fact("更喜欢绿茶而不是红茶", id="fact_tea", category=FactCategory.CORRECTION)
PEANUT = fact("Is allergic to peanuts", id="fact_peanut", confidence=0.95)
GUARANTEED = {PYTHON_FIX, TEA_FIX, PEANUT}

DOC = MemoryDocument(
    user={"workContext": Section(summary="Backend engineer at a fintech company.")},
    facts=(PRETZEL, FISHING_ZH, SAX, JOB, CITY_ZH, PYTHON_FIX, TEA_FIX, PEANUT),
)


def relevant_contents(document: MemoryDocument, query: str, **kwargs: object) -> list[str]:
    result = select_relevant_facts(document, query, now=NOW, **kwargs)  # type: ignore[arg-type]
    return [f.content for f in result.relevant]


class ConceptEmbedder:
    """Deterministic fake: words map to concepts (synonyms share one), hashed into 32 dims."""

    CONCEPTS: ClassVar[dict[str, str]] = {
        "restaurant": "food",
        "dinner": "food",
        "pretzels": "food",
        "eat": "food",
        "engineer": "work",
        "backend": "work",
        "job": "work",
    }

    def __init__(self) -> None:
        self.document_calls: list[list[str]] = []
        self.query_calls: list[str] = []

    def _embed(self, text: str) -> list[float]:
        vector = [0.0] * 32
        for word in re.findall(r"[a-z]+", text.lower()):
            concept = self.CONCEPTS.get(word)
            if concept is not None:
                vector[zlib.crc32(concept.encode()) % 32] += 1.0
        return vector

    def embed_query(self, text: str) -> list[float]:
        self.query_calls.append(text)
        return self._embed(text)

    def embed_documents(self, texts: list[str]) -> list[Sequence[float]]:
        self.document_calls.append(list(texts))
        return [self._embed(t) for t in texts]


# --- lexical retrieval ------------------------------------------------------------------------


def test_an_english_query_retrieves_the_fact_sharing_a_distinctive_word() -> None:
    assert relevant_contents(DOC, "Any good pretzel recipes?") == [PRETZEL.content]


def test_a_chinese_query_ranks_first_the_fact_sharing_a_word() -> None:
    # 去 alone is shared with the Hangzhou fact too: weak evidence, ranked below.
    assert relevant_contents(DOC, "推荐几个钓鱼的好去处") == [FISHING_ZH.content, CITY_ZH.content]


@pytest.mark.parametrize(
    "query",
    ["What's the weather in Paris?", "今天天气怎么样", "给我讲个笑话", "Tell me a joke"],
)
def test_an_unrelated_query_retrieves_only_the_guaranteed_facts(query: str) -> None:
    result = select_relevant_facts(DOC, query, now=NOW)
    assert set(result.facts) == GUARANTEED
    assert result.relevant == ()


def test_constraints_come_first_then_guaranteed_categories_then_relevant_facts() -> None:
    result = select_relevant_facts(DOC, "any pretzel recipes?", now=NOW)
    assert result.facts[0] == PEANUT
    assert result.constraints == 1
    assert set(result.facts[1:3]) == {PYTHON_FIX, TEA_FIX}
    assert result.guaranteed == 3
    assert result.facts[3:] == (PRETZEL,)


def test_guaranteed_categories_are_configurable() -> None:
    goal = fact("Plans to run a marathon", category=FactCategory.GOAL)
    doc = MemoryDocument(facts=(PYTHON_FIX, goal, PEANUT))
    result = select_relevant_facts(doc, "weather?", guaranteed_categories=("goal",), now=NOW)
    assert result.facts == (PEANUT, goal)


def test_a_blank_query_returns_only_guaranteed_facts_without_calling_the_embedder() -> None:
    embedder = ConceptEmbedder()
    result = select_relevant_facts(DOC, "   ", now=NOW, embedder=embedder)
    assert set(result.facts) == GUARANTEED
    assert embedder.query_calls == []


def test_top_k_limits_the_relevant_facts_to_the_best_ranked() -> None:
    facts = tuple(
        fact(f"Drinks coffee with variant {i}", id=f"fact_{i}", confidence=0.5 + i / 20)
        for i in range(8)
    )
    result = select_relevant_facts(
        MemoryDocument(facts=facts), "coffee variant", config=RetrievalConfig(top_k=3), now=NOW
    )
    assert len(result.relevant) == 3
    assert len(result.scored) == 8
    assert result.relevant == tuple(s.fact for s in result.scored[:3])
    assert [f.id for f in result.relevant] == ["fact_7", "fact_6", "fact_5"]


def test_only_the_most_similar_candidates_are_ranked() -> None:
    strong = fact("Loves green tea and matcha", id="fact_strong", confidence=0.3)
    weak = fact(
        "Drinks green smoothies after running",
        id="fact_weak",
        confidence=1.0,
        category=FactCategory.GOAL,
    )
    doc = MemoryDocument(facts=(strong, weak))
    result = select_relevant_facts(
        doc, "green tea matcha", config=RetrievalConfig(candidates=1), now=NOW
    )
    # The weak match has the higher importance but never becomes a candidate.
    assert result.candidates == 1
    assert result.relevant == (strong,)
    assert select_relevant_facts(doc, "green tea matcha", now=NOW).candidates == 2


def test_an_optional_similarity_threshold_drops_less_similar_facts() -> None:
    scored = select_relevant_facts(DOC, "pretzel snacks", now=NOW).scored
    pretzel_similarity = next(s.similarity for s in scored if s.fact == PRETZEL)
    above = RetrievalConfig(similarity_threshold=min(1.0, pretzel_similarity + 0.01))
    below = RetrievalConfig(similarity_threshold=pretzel_similarity - 0.01)
    assert PRETZEL not in select_relevant_facts(DOC, "pretzel snacks", config=above, now=NOW).facts
    assert PRETZEL in select_relevant_facts(DOC, "pretzel snacks", config=below, now=NOW).facts


def test_without_an_embedder_a_fact_sharing_no_term_and_no_topic_is_never_a_candidate() -> None:
    config = RetrievalConfig(similarity_threshold=0.0, top_k=10)
    result = select_relevant_facts(DOC, "weather in Paris", config=config, now=NOW)
    assert result.candidates == 0
    assert result.relevant == ()


def test_in_a_small_memory_a_single_shared_word_is_enough() -> None:
    # A fixed similarity threshold used to drop this match: three facts, one weak overlap.
    doc = MemoryDocument(
        facts=(
            fact("Grew up near the harbour in a fishing town"),
            fact("Owns a tabby cat called Miso"),
            fact("Commutes by bicycle"),
        )
    )
    assert relevant_contents(doc, "any tips for a rainy bicycle ride?") == ["Commutes by bicycle"]


# --- ranking ------------------------------------------------------------------------------------


def test_of_two_equally_similar_facts_the_newer_ranks_first() -> None:
    # The older one is slightly more confident: only recency can put the newer first.
    old = fact(
        "Likes jazz concerts", id="fact_a", confidence=0.85, created_at="2025-03-01T00:00:00Z"
    )
    new = fact(
        "Likes jazz concerts", id="fact_b", confidence=0.8, created_at="2025-06-30T00:00:00Z"
    )
    result = select_relevant_facts(MemoryDocument(facts=(old, new)), "jazz tonight?", now=NOW)
    assert result.relevant == (new, old)
    assert result.scored[0].recency > result.scored[1].recency
    assert result.scored[0].similarity == result.scored[1].similarity


def test_a_user_stated_fact_outranks_an_inferred_one_at_equal_similarity() -> None:
    # The inferred one is a day newer: only importance can put the stated one first.
    stated = fact("Likes jazz concerts", id="fact_b", created_at="2025-06-29T00:00:00Z")
    inferred = fact(
        "Likes jazz concerts",
        id="fact_a",
        created_at="2025-06-30T00:00:00Z",
        source_type=SourceType.INFERRED,
    )
    result = select_relevant_facts(MemoryDocument(facts=(inferred, stated)), "jazz", now=NOW)
    assert result.relevant == (stated, inferred)


def test_the_score_is_relevance_plus_the_bounded_tie_breaker() -> None:
    config = RetrievalConfig(importance_weight=0.75, recency_weight=0.25, tie_break=0.1)
    top = select_relevant_facts(DOC, "pretzel snacks", config=config, now=NOW).scored[0]
    assert top.relevance == 1.0
    assert top.score == pytest.approx(
        top.relevance + 0.1 * (0.75 * top.importance + 0.25 * top.recency)
    )
    assert top.importance == importance(PRETZEL)
    assert top.recency == pytest.approx(math.exp(-(14 / 24) / 30))  # 14 hours old


def test_recency_decay_days_controls_how_fast_old_facts_fade() -> None:
    old = fact("Likes jazz", created_at="2025-05-02T00:00:00Z")  # 60 days before NOW
    doc = MemoryDocument(facts=(old,))
    fast = select_relevant_facts(
        doc, "jazz", config=RetrievalConfig(recency_decay_days=30), now=NOW
    )
    slow = select_relevant_facts(
        doc, "jazz", config=RetrievalConfig(recency_decay_days=60), now=NOW
    )
    assert fast.scored[0].recency == pytest.approx(math.exp(-2))
    assert slow.scored[0].recency == pytest.approx(math.exp(-1))


def test_an_unparsable_created_at_counts_as_old_and_a_future_one_as_new() -> None:
    broken = fact("Likes jazz", id="fact_a", created_at="last summer")
    future = fact("Likes jazz", id="fact_b", created_at="2030-01-01T00:00:00Z")
    result = select_relevant_facts(MemoryDocument(facts=(broken, future)), "jazz", now=NOW)
    recency = {s.fact.id: s.recency for s in result.scored}
    assert recency == {"fact_a": 0.0, "fact_b": 1.0}
    assert result.relevant == (future, broken)


def test_exact_ties_are_broken_by_id_whatever_the_document_order() -> None:
    a = fact("Likes jazz", id="fact_a")
    b = fact("Likes jazz", id="fact_b")
    for order in ((a, b), (b, a)):
        result = select_relevant_facts(MemoryDocument(facts=order), "jazz", now=NOW)
        assert result.relevant == (a, b)


def test_the_same_inputs_give_the_same_result_whatever_the_fact_order() -> None:
    rng = random.Random(3)
    query = "钓鱼 and pretzel snacks"
    first = select_relevant_facts(DOC, query, now=NOW)
    for _ in range(5):
        shuffled = list(DOC.facts)
        rng.shuffle(shuffled)
        again = select_relevant_facts(MemoryDocument(facts=tuple(shuffled)), query, now=NOW)
        assert again.facts == first.facts
        assert again.scored == first.scored
    assert {PRETZEL, FISHING_ZH} <= set(first.relevant)


# --- importance -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("higher", "lower"),
    [
        (
            fact("Uses vim", category=FactCategory.CORRECTION),
            fact("Uses vim", category=FactCategory.CONTEXT),
        ),
        (
            fact("Learn Rust", category=FactCategory.GOAL),
            fact("Learn Rust", category=FactCategory.CONTEXT),
        ),
        (fact("Uses vim"), fact("Uses vim", source_type=SourceType.INFERRED)),
        (fact("Uses vim", confidence=0.9), fact("Uses vim", confidence=0.5)),
    ],
)
def test_importance_rises_with_category_source_and_confidence(higher: Fact, lower: Fact) -> None:
    assert importance(higher) > importance(lower)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        (fact("报名了陶艺工作坊"), fact("报名了陶艺课")),
        (fact("Always orders the same pizza"), fact("Usually orders the same pizza")),
        (fact("Has two kids"), fact("Has two bikes")),
    ],
)
def test_words_in_the_content_give_no_importance_bonus(one: Fact, other: Fact) -> None:
    assert importance(one) == importance(other)


@given(
    confidence=st.floats(0.0, 1.0),
    category=st.sampled_from(list(FactCategory)),
    source_type=st.sampled_from(list(SourceType)),
    content=st.text(max_size=40),
)
def test_importance_stays_within_zero_and_one(
    confidence: float, category: FactCategory, source_type: SourceType, content: str
) -> None:
    value = importance(
        Fact(content=content, confidence=confidence, category=category, source_type=source_type)
    )
    assert 0.0 <= value <= 1.0


# --- embeddings -------------------------------------------------------------------------------


def test_an_embedder_switches_similarity_to_cosine() -> None:
    # No word in common, so BM25 finds nothing; the embedder knows restaurants are food.
    assert relevant_contents(DOC, "recommend a restaurant") == []
    embedder = ConceptEmbedder()
    assert relevant_contents(DOC, "recommend a restaurant", embedder=embedder) == [PRETZEL.content]
    assert embedder.query_calls == ["recommend a restaurant"]


def test_document_embeddings_are_computed_once_per_fact_content() -> None:
    embedder = ConceptEmbedder()
    select_relevant_facts(DOC, "dinner plans", embedder=embedder, now=NOW)
    assert sorted(embedder.document_calls[0]) == sorted(f.content for f in DOC.facts)
    select_relevant_facts(DOC, "a job question", embedder=embedder, now=NOW)
    updated = MemoryDocument(facts=(*DOC.facts, fact("Eats dinner late")))
    select_relevant_facts(updated, "dinner plans", embedder=embedder, now=NOW)
    assert embedder.document_calls[1:] == [["Eats dinner late"]]


def test_a_fake_embedder_satisfies_the_embedder_protocol() -> None:
    assert isinstance(ConceptEmbedder(), Embedder)


def test_cosine_similarity_is_the_normalised_dot_product() -> None:
    assert cosine_similarity([1.0, 0.0], [2.0, 0.0]) == pytest.approx(1.0)
    assert cosine_similarity([1.0, 1.0], [1.0, 0.0]) == pytest.approx(math.sqrt(0.5))
    assert cosine_similarity([0.0, 0.0], [1.0, 0.0]) == 0.0
    with pytest.raises(ValueError, match="length"):
        cosine_similarity([1.0], [1.0, 0.0])


# --- BM25 and the tokenizer ---------------------------------------------------------------------


def test_bm25_scores_are_aligned_with_the_facts_and_reward_more_shared_words() -> None:
    facts = [fact("green tea lover"), fact("black coffee"), fact("green tea and matcha latte")]
    index = BM25Index(facts)
    scores = index.scores("green tea matcha")
    assert len(scores) == 3
    assert scores[1] == 0.0
    assert scores[2] > scores[0] > 0.0
    similarities = index.similarities("green tea matcha")
    assert all(0.0 <= s < 1.0 for s in similarities)
    assert similarities[2] > similarities[0]


def test_bm25_rewards_a_repeated_word_at_equal_length() -> None:
    facts = [fact("matcha latte, matcha cake"), fact("matcha latte, lemon cake"), fact("chess")]
    scores = BM25Index(facts).scores("matcha")
    assert scores[0] > scores[1] > 0.0


def test_a_word_common_to_most_facts_is_weak_evidence() -> None:
    facts = [fact(f"Likes {thing}") for thing in ("jazz", "tea", "hiking", "chess")]
    similarities = BM25Index(facts).similarities("what do I like")
    assert max(similarities) < 0.55


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Is allergic to PEANUTS", ["allergic", "peanut"]),
        ("hiking, hiked, hikes", ["hik", "hik", "hik"]),
        ("running and runs", ["run", "run"]),
        ("Ｐｙｔｈｏｎ 3.12", ["python", "3", "12"]),
        ("用户不吃海鲜", ["不", "吃", "海", "鲜", "不吃", "吃海", "海鲜"]),
        ("我的猫", ["猫"]),
    ],
)
def test_tokenize_folds_case_inflections_and_width_and_cuts_chinese_into_ngrams(
    text: str, expected: list[str]
) -> None:
    assert tokenize(text) == expected


# --- config, index reuse, filtering -------------------------------------------------------------


@pytest.mark.parametrize(
    "bad",
    [{"top_k": 0}, {"candidates": 0}, {"similarity_threshold": 1.5}, {"recency_decay_days": 0}],
)
def test_out_of_range_config_values_are_rejected(bad: dict[str, float]) -> None:
    # a ConfigError naming the setting, as MemoryConfig's (sweeper 57: pydantic's
    # multi-line ValidationError before)
    (name,) = bad
    with pytest.raises(ConfigError, match=rf"^invalid memory configuration: {name}: ") as raised:
        RetrievalConfig(**bad)
    assert "\n" not in str(raised.value)
    with pytest.raises(ConfigError, match=rf"retrieval\.{name}: "):
        MemoryConfig(retrieval=bad)


def test_the_index_is_reused_for_the_same_document_object_only() -> None:
    index = RetrievalIndex.for_document(DOC)
    assert RetrievalIndex.for_document(DOC) is index
    assert RetrievalIndex.for_document(DOC.model_copy()) is not index


def test_an_explicit_index_gives_the_same_result_as_the_cached_one() -> None:
    explicit = select_relevant_facts(DOC, "pretzel", index=RetrievalIndex(DOC.facts), now=NOW)
    assert explicit == select_relevant_facts(DOC, "pretzel", now=NOW)


def test_filter_document_keeps_summaries_and_only_the_given_facts_for_rendering() -> None:
    result = select_relevant_facts(DOC, "any pretzel snacks?", now=NOW)
    filtered = filter_document(DOC, result.facts)
    assert filtered.user == DOC.user
    assert filtered.facts == result.facts
    text = render_memory(filtered, token_counting="char").text
    assert "pretzels" in text and "peanuts" in text and "Python 3.12" in text and "绿茶" in text
    assert "saxophone" not in text and "钓鱼" not in text
    assert filter_document(DOC, result.facts) is filtered


def test_filter_document_keeps_a_repeated_fact_once() -> None:
    assert filter_document(DOC, [PRETZEL, PRETZEL, JOB]).facts == (PRETZEL, JOB)


def test_the_module_examples_run() -> None:
    failures, _ = doctest.testmod(
        retrieval_module, extraglobs={"Fact": Fact, "MemoryDocument": MemoryDocument}
    )
    assert failures == 0


# --- invariants ---------------------------------------------------------------------------------

WORDS = ["tea", "coffee", "jazz", "peanut", "海鲜", "花生", "工作", "猫", "hiking", "python"]


@st.composite
def documents(draw: st.DrawFn) -> MemoryDocument:
    n = draw(st.integers(0, 12))
    facts = []
    for i in range(n):
        words = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=4))
        facts.append(
            Fact(
                id=f"fact_{i:02d}",
                content=" ".join(words),
                category=draw(st.sampled_from(list(FactCategory))),
                confidence=draw(st.floats(0.0, 1.0)),
                created_at=f"2025-{draw(st.integers(1, 12)):02d}-01T00:00:00Z",
            )
        )
    return MemoryDocument(facts=tuple(facts))


@settings(max_examples=150, deadline=None)
@given(
    document=documents(),
    query=st.lists(st.sampled_from([*WORDS, "weather"]), max_size=4).map(" ".join),
    top_k=st.integers(1, 6),
    candidates=st.integers(1, 8),
    threshold=st.one_of(st.none(), st.floats(0.0, 1.0)),
)
def test_the_selection_is_a_duplicate_free_subset_within_its_bounds(
    document: MemoryDocument, query: str, top_k: int, candidates: int, threshold: float | None
) -> None:
    config = RetrievalConfig(top_k=top_k, candidates=candidates, similarity_threshold=threshold)
    result = select_relevant_facts(document, query, config=config, now=NOW)
    guaranteed = [
        f for f in document.facts if f.category is FactCategory.CORRECTION or is_constraint(f)
    ]
    assert set(result.facts) <= set(document.facts)
    assert len({f.id for f in result.facts}) == len(result.facts)
    assert set(result.facts[: result.guaranteed]) == set(guaranteed)
    assert len(result.relevant) <= top_k
    assert result.candidates <= candidates
    assert threshold is None or all(s.similarity >= threshold for s in result.scored)
    assert all(0.0 <= s.similarity <= 1.0 for s in result.scored)
    assert [s.score for s in result.scored] == sorted(
        (s.score for s in result.scored), reverse=True
    )
