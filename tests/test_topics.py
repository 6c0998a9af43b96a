"""Topic expansion of lexical retrieval: a query sharing no word finds the facts of its topic."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deerflow_memory.config import RetrievalConfig
from deerflow_memory.inject.lexical import BM25Index, tokenize
from deerflow_memory.inject.retrieval import RetrievalIndex, select_relevant_facts
from deerflow_memory.inject.topics import (
    MAX_TOPICS_PER_WORD,
    TOPIC_CAP,
    TopicIndex,
    TopicLexicon,
    default_lexicon,
)
from deerflow_memory.models import Fact, FactCategory, MemoryDocument

NOW = datetime(2025, 7, 1, tzinfo=UTC)


def fact(content: str, *, id: str | None = None) -> Fact:
    kwargs = {"id": id} if id is not None else {}
    return Fact(
        content=content,
        category=FactCategory.PREFERENCE,
        confidence=0.8,
        created_at="2025-06-30T10:00:00Z",
        **kwargs,
    )


def relevant(document: MemoryDocument, query: str, **kwargs: object) -> list[str]:
    result = select_relevant_facts(document, query, now=NOW, **kwargs)  # type: ignore[arg-type]
    return [f.content for f in result.relevant]


def ranked(document: MemoryDocument, query: str) -> list[str]:
    """Every candidate, best first, constraints ranked like the others."""
    result = select_relevant_facts(
        document,
        query,
        now=NOW,
        guaranteed_categories=(),
        guarantee_constraints=False,
        config=RetrievalConfig(top_k=20),
    )
    return [s.fact.content for s in result.scored]


# --- a query sharing no word --------------------------------------------------------------------

VEGETARIAN = fact("Is vegetarian", id="fact_vegetarian")
CUISINE = fact("Loves Sichuan cuisine", id="fact_cuisine")
CAT = fact("Owns a tabby cat called Miso", id="fact_cat")
EDITOR = fact("Writes Rust in Neovim", id="fact_editor")
EN_DOC = MemoryDocument(facts=(VEGETARIAN, CUISINE, CAT, EDITOR))


def test_an_english_query_sharing_no_word_retrieves_the_facts_of_its_topic() -> None:
    query = "plan a dinner menu"
    assert not set(tokenize(query)) & set(tokenize(CUISINE.content + " " + VEGETARIAN.content))
    assert relevant(EN_DOC, query) == [CUISINE.content]  # vegetarian: a guaranteed constraint
    assert ranked(EN_DOC, query) == [VEGETARIAN.content, CUISINE.content]


HIKING_ZH = fact("喜欢爬山", id="fact_hiking_zh")
BANK_ZH = fact("在一家银行上班", id="fact_bank_zh")
LAPTOP_ZH = fact("去年换了新电脑", id="fact_laptop_zh")
ZH_DOC = MemoryDocument(facts=(HIKING_ZH, BANK_ZH, LAPTOP_ZH))


def test_a_chinese_query_sharing_no_word_retrieves_the_fact_of_its_topic_first() -> None:
    # 去 alone is shared with the laptop fact: a lone common character weighs less than a topic.
    query = "周末想出去玩"
    assert not set(tokenize(query)) & set(tokenize(HIKING_ZH.content))
    assert relevant(ZH_DOC, query) == [HIKING_ZH.content, LAPTOP_ZH.content]


# Words the lexicon lacked (a car, a race, a leg, a wedding's, a dog's breed, a gig's) and the
# topics of getting around and of sight and hearing: each query shares no word with the fact it
# finds among the first two of its memory (one language per memory, as a user's is).
BRIDGED_EN = MemoryDocument(
    facts=(
        fact("Uses a wheelchair", id="fact_wheelchair"),
        fact("Is colorblind", id="fact_colorblind"),
        fact("Drives an electric hatchback", id="fact_car"),
        fact("Has a bad knee", id="fact_knee"),
        fact("Plays bass in a covers band", id="fact_band"),
        fact("Got engaged in spring", id="fact_engaged"),
        fact("Has a beagle", id="fact_dog"),
        fact("Writes Rust in Neovim", id="fact_editor_en"),
        fact("Volunteers at an animal shelter", id="fact_shelter"),
        fact("Has asthma", id="fact_asthma"),
        fact("Shares a flat with two housemates", id="fact_housemates"),
        fact("Is three years sober", id="fact_sober"),
    )
)
BRIDGED_ZH = MemoryDocument(
    facts=(
        fact("坐轮椅", id="fact_wheelchair_zh"),
        fact("是色盲", id="fact_colorblind_zh"),
        fact("在攒钱买房", id="fact_house_zh"),
        fact("养了一只柯基", id="fact_corgi_zh"),
        fact("喜欢爵士乐", id="fact_jazz_zh"),
    )
)


@pytest.mark.parametrize(
    ("document", "query", "found"),
    [
        (BRIDGED_EN, "is the theatre step-free with a ramp", "Uses a wheelchair"),
        (BRIDGED_EN, "pick a palette for my slides, which hues work", "Is colorblind"),
        (
            BRIDGED_EN,
            "where can I park and charge near the station",
            "Drives an electric hatchback",
        ),
        (BRIDGED_EN, "stretches for a sore leg after a race", "Has a bad knee"),
        (BRIDGED_EN, "tips for my next gig", "Plays bass in a covers band"),
        (BRIDGED_EN, "ideas for the honeymoon", "Got engaged in spring"),
        (BRIDGED_EN, "where to walk a pup", "Has a beagle"),
        (BRIDGED_EN, "how can I help stray kittens", "Volunteers at an animal shelter"),
        (BRIDGED_EN, "cold air makes me wheeze", "Has asthma"),
        (BRIDGED_EN, "how to split the utility bills fairly", "Shares a flat with two housemates"),
        (BRIDGED_EN, "a mocktail to order at the party", "Is three years sober"),
        (BRIDGED_ZH, "这个景点有电梯吗", "坐轮椅"),
        (BRIDGED_ZH, "海报适合用什么字体", "是色盲"),
        (BRIDGED_ZH, "首付要准备多少", "在攒钱买房"),
        (BRIDGED_ZH, "金毛和哪些狗合得来", "养了一只柯基"),
    ],
)
def test_common_words_and_the_access_topics_bridge_a_query(
    document: MemoryDocument, query: str, found: str
) -> None:
    facts = {f.content: f for f in document.facts}
    assert not set(tokenize(query)) & set(tokenize(facts[found].content))
    assert found in ranked(document, query)[:2]


def test_full_width_and_inflected_words_find_their_topic() -> None:
    assert relevant(EN_DOC, "ＤＩＮＮＥＲ ｐａｒｔｉｅｓ?") == [CUISINE.content]
    assert relevant(EN_DOC, "cooking for guests") == [CUISINE.content]


# --- words still come first ---------------------------------------------------------------------


def test_a_shared_word_outranks_a_fact_sharing_only_topics() -> None:
    party = fact("Loves parties", id="fact_party")
    document = MemoryDocument(facts=(party, CAT))
    # birthday, gift, buy: social and money; "Miso" is the only shared word.
    assert ranked(document, "what gift should I buy Miso for her birthday?") == [
        CAT.content,
        party.content,
    ]


def test_a_shared_chinese_word_outranks_a_fact_sharing_only_topics() -> None:
    party = fact("很喜欢参加聚会", id="fact_party_zh")
    cat = fact("家里的猫叫小米", id="fact_cat_zh")
    document = MemoryDocument(facts=(party, cat))
    assert ranked(document, "给小米买什么生日礼物") == [cat.content, party.content]


def test_a_shared_topic_breaks_a_tie_between_facts_sharing_the_same_word() -> None:
    # Same length, same word: without topics the smaller id ("..._a") would come first.
    novels = fact("Anna loves long novels", id="fact_anna_a")
    flights = fact("Anna loves long flights", id="fact_anna_b")
    document = MemoryDocument(facts=(novels, flights))
    assert ranked(document, "plan a trip with Anna") == [flights.content, novels.content]


def test_topics_never_add_up_to_a_word() -> None:
    # A fact sharing four of the query's topics, and one sharing one word found in every fact.
    many = fact("Cooks dinner after the gym and a flight home", id="fact_many")
    word = fact("Cooks rice", id="fact_word")
    index = RetrievalIndex([many, word])
    terms = tokenize("recipe for a workout trip with my family")
    topic_scores = index.topics.scores(terms)
    assert set(index.topics.lexicon.topics_of(terms)) >= {"food", "sport", "travel", "family"}
    presence = index.bm25.presence_parts()
    assert topic_scores[0] <= TOPIC_CAP * index.bm25.idf_max * presence[0] + 1e-12
    assert TOPIC_CAP < 0.5  # the least a shared word weighs (COMMON_WORD_FLOOR)


def test_a_similarity_threshold_keeps_topic_only_matches_out() -> None:
    config = RetrievalConfig(similarity_threshold=0.55)
    assert relevant(EN_DOC, "plan a dinner menu", config=config) == []
    assert relevant(EN_DOC, "Any Sichuan recipes?", config=config) == [CUISINE.content]


def test_unrelated_and_time_only_queries_still_find_nothing() -> None:
    for query in ("What's the weather like today?", "今天天气怎么样", "Tell me a joke"):
        assert relevant(EN_DOC, query) == []
        assert relevant(ZH_DOC, query) == []


def test_with_an_embedder_a_topic_alone_does_not_make_a_lexical_candidate() -> None:
    scores = {VEGETARIAN.id: 0.1, CUISINE.id: 0.1, CAT.id: 0.1, EDITOR.id: 0.1}
    result = select_relevant_facts(
        EN_DOC, "plan a dinner menu", now=NOW, semantic_scores=scores, guarantee_constraints=False
    )
    assert all(s.lexical_rank is None for s in result.scored)


# --- odd text and determinism -------------------------------------------------------------------

ODD = [
    "",
    " \t\n",
    "\x00\x01\x7f",
    "\ud800 lone surrogate \udfff",
    "🍕🍣🐶✈️",
    "e\u0301te\u0301 ﬁsh ﬂight Ⅻ ⅻ",
    "\u200b\u200d\ufeff",
    "مرحبا بالعالم",
    "１２３ ａｂｃ",
    "吃" * 5_000,
    "dinner " * 5_000,
    "ꙮ𝔡𝔦𝔫𝔫𝔢𝔯",
    "a" * 100_000,
]


@pytest.mark.parametrize("text", ODD, ids=range(len(ODD)))
def test_odd_text_in_a_query_or_a_fact_never_raises(text: str) -> None:
    document = MemoryDocument(facts=(*EN_DOC.facts, *ZH_DOC.facts, fact(text[:500] or "x")))
    result = select_relevant_facts(document, text, now=NOW)
    assert all(math.isfinite(s.score) for s in result.scored)
    index = RetrievalIndex.for_document(document)
    assert all(math.isfinite(v) and v > 0 for v in index.lexical(text).values())


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60), st.lists(st.text(max_size=40), max_size=6))
def test_lexical_scores_are_finite_and_positive_for_any_text(
    query: str, contents: list[str]
) -> None:
    index = RetrievalIndex([fact(c or "x") for c in contents])
    scores = index.lexical(query)
    assert all(math.isfinite(v) and v > 0 for v in scores.values())
    assert scores == index.lexical(query)


_SCORES_SCRIPT = """
from deerflow_memory.inject.retrieval import RetrievalIndex
from deerflow_memory.models import Fact
facts = [Fact(content=c) for c in (
    "Cooks dinner after the gym and a flight home", "Is vegetarian", "喜欢周末去海边爬山钓鱼",
    "Plans a trip to Lisbon with the kids", "每天早上跑步，周末和朋友聚餐")]
index = RetrievalIndex(facts)
for query in ("dinner plans for a weekend trip with friends and family",
              "周末想和家人出去玩，吃点好的", "gym flight dinner kids vegetarian Lisbon"):
    print(sorted((i, s.hex()) for i, s in index.lexical(query).items()))
"""


def test_lexical_scores_are_bit_identical_whatever_the_hash_seed() -> None:
    outputs = set()
    for seed in ("1", "2", "3", "4"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        run = subprocess.run(
            [sys.executable, "-c", _SCORES_SCRIPT], env=env, capture_output=True, text=True
        )
        assert run.returncode == 0, run.stderr
        outputs.add(run.stdout)
    assert len(outputs) == 1


# --- the lexicon ----------------------------------------------------------------------------------


def test_the_packaged_lexicon_is_small_bilingual_and_bounded() -> None:
    lexicon = default_lexicon()
    assert 10 <= len(lexicon.by_topic) <= 20
    assert len(lexicon.by_term) <= 2_000
    for topic, terms in lexicon.by_topic.items():
        assert any(t.isascii() for t in terms), topic
        assert any(not t.isascii() for t in terms), topic
    assert all(1 <= len(topics) <= MAX_TOPICS_PER_WORD for topics in lexicon.by_term.values())
    # Terms are what the tokenizer yields: stems meet inflections.
    assert lexicon.topics_of(tokenize("meals")) == lexicon.topics_of(tokenize("meal")) == ("food",)
    assert lexicon.topics_of(tokenize("过敏")) == ("food", "health")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("dinner", "before any"),
        ("[food]\nthe", "not one term"),
        ("[food]\nice cream", None),
        ("[food]\n冰淇淋", "not one term"),
        ("[food]\n请客", "not one term"),
        ("[a]\nx1 tea\n[b]\ntea\n[c]\ntea", "more than"),
        ("[a]\ntea\n[a]\ncoffee", "repeated"),
        ("[a]\n[b]\ntea", "has no words"),
    ],
)
def test_a_malformed_lexicon_is_refused_with_its_line(text: str, problem: str | None) -> None:
    if problem is None:  # two words on a line are two entries
        assert set(TopicLexicon.parse(text).by_term) == {"ice", "cream"}
        return
    with pytest.raises(ValueError, match=problem):
        TopicLexicon.parse(text)


def test_a_topic_index_with_its_own_lexicon() -> None:
    lexicon = TopicLexicon.parse("[boats]\nsailing kayak\n帆船")
    facts = [fact("Goes sailing every summer"), fact("周末去划帆船"), fact("Likes tea")]
    topics = TopicIndex(BM25Index(facts), lexicon)
    assert topics.facts_of("boats") == (0, 1)
    assert set(topics.scores(tokenize("kayak trip"))) == {0, 1}
    assert topics.scores(tokenize("tea")) == {}
