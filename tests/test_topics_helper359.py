"""Topic lexicon (helper 359): false bridges of ambiguous words, and bridges a diet needs."""

from __future__ import annotations

import pytest

from deerflow_memory.inject.lexical import tokenize
from deerflow_memory.inject.topics import default_lexicon
from deerflow_memory.models import MemoryDocument
from tests import test_topics


def ranked(facts: tuple[str, ...], query: str) -> list[str]:
    """Every candidate among ``facts``, best first (:func:`tests.test_topics.ranked`)."""
    document = MemoryDocument(facts=tuple(test_topics.fact(c) for c in facts))
    return test_topics.ranked(document, query)


def shares_no_word(query: str, content: str) -> bool:
    return not set(tokenize(query)) & set(tokenize(content))


def test_a_search_engine_is_no_trip() -> None:
    facts = ("Commutes by train to Glasgow", "Drives an old Volvo estate", "Keeps bees")
    query = "How do search engines index pages?"
    assert all(shares_no_word(query, c) for c in facts)
    assert ranked(facts, query) == []


def test_a_lab_is_no_school() -> None:
    facts = ("Daughter is in third grade", "Keeps bees", "Collects vinyl")
    query = "Safety rules for the lab"
    assert ranked(facts, query) == []


def test_salt_and_sugar_reach_what_a_diet_of_health_counts() -> None:
    pressure = "Has high blood pressure"
    diabetic = "Was diagnosed with diabetes last spring"
    facts = (pressure, diabetic, "Keeps bees", "Collects vinyl", "Commutes by train to Glasgow")
    query = "How much salt is fine in a stew?"
    assert shares_no_word(query, pressure)
    assert pressure in ranked(facts, query)
    query = "Is brown sugar better than white?"
    assert shares_no_word(query, diabetic)
    assert diabetic in ranked(facts, query)


def test_chinese_salt_kept_low_reaches_blood_pressure_and_utilities_a_shared_flat() -> None:
    pressure = "血压一直偏高"
    flat = "跟同学合租一套房"
    facts = (pressure, flat, "喜欢养蜂", "收藏黑胶唱片")
    assert pressure in ranked(facts, "想控盐，炒菜怎么调味")
    assert pressure in ranked(facts, "低糖的早餐有哪些")
    assert flat in ranked(facts, "这个月水电费好贵")
    # a lone 糖 or 盐 is any dish's (糖醋, 盐焗): no health of its own
    assert pressure not in ranked(facts, "糖醋排骨怎么做")


def test_code_words_are_no_dog_and_no_trip() -> None:
    facts = ("Has a border collie", "Drives a Tesla", "Keeps bees")
    assert ranked(facts, "Why does my fetch() call hang?") == []
    assert ranked(facts, "How do I map over a list in Python?") == []


def test_an_obstacle_or_an_action_plan_is_no_wheelchair() -> None:
    wheelchair = "出门要坐轮椅"
    facts = (wheelchair, "喜欢养蜂", "收藏黑胶唱片")
    assert wheelchair not in ranked(facts, "制定一个行动计划")
    assert wheelchair not in ranked(facts, "怎么克服社交障碍")
    assert wheelchair in ranked(facts, "博物馆有无障碍通道吗")


@pytest.mark.parametrize("word", ["购物车", "arm"])
def test_a_word_of_another_sense_is_no_topic(word: str) -> None:
    # (a shopping cart is no car, an ARM laptop no arm: both bridged to the wrong facts)
    lexicon = default_lexicon()
    assert "travel" not in lexicon.topics_of(tokenize(word))
    assert "health" not in lexicon.topics_of(tokenize(word))
