"""The offline extractor reads the user's age, and a newer age replaces the stored one."""

from __future__ import annotations

import pytest

from deerflow_memory.models import FactCategory, MemoryDocument
from tests.test_offline_extractor import _extract, _fact

CX, CR = FactCategory.CONTEXT, FactCategory.CORRECTION


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm 27 years old.", ["User is 27 years old"]),
        ("i'm 58", ["User is 58 years old"]),
        ("I am 33 yrs old", ["User is 33 years old"]),
        ("I'm 19 😅", ["User is 19 years old"]),
        ("I just turned 50!", ["User is 50 years old"]),
        ("I'm 41 and I live in Ghent", ["User is 41 years old", "User lives in Ghent"]),
        ("我36岁", ["用户36岁"]),
        ("我今年是29岁了", ["用户今年29岁"]),
        ("我已经七十岁了", ["用户已经七十岁"]),
        ("我二十三岁。", ["用户二十三岁"]),
        ("我十三四岁", []),  # a range is no age to keep
        # numbers that are no age of someone telling it, or no age at all
        ("I'm 3", []),
        ("I'm 450", []),
        ("I'm 10 minutes late", []),
        ("I'm 6 months pregnant", ["User is 6 months pregnant"]),  # a need, no age
    ],
)
def test_the_users_age_is_a_fact(said: str, stored: list[str]) -> None:
    assert [f.content for f in _extract(said).new_facts] == stored


@pytest.mark.parametrize(
    ("said", "category"),
    [("I'm 39 now", CX), ("Actually I'm 39, not 93.", CR)],
)
def test_a_newer_age_replaces_the_stored_one_and_leaves_others_ages(
    said: str, category: FactCategory
) -> None:
    document = MemoryDocument(
        facts=(
            _fact("f1", "User is 93 years old"),
            _fact("f2", "User's daughter is 11 years old"),
        )
    )
    update = _extract(said, document=document)
    assert [(f.content, f.category) for f in update.new_facts] == [
        ("User is 39 years old", category)
    ]
    assert [r.id for r in update.facts_to_remove] == ["f1"]


def test_a_chinese_age_correction_replaces_the_stored_age() -> None:
    document = MemoryDocument(facts=(_fact("f1", "用户52岁"),))
    update = _extract("不对，我是25岁，不是52岁。", document=document)
    assert [(f.content, f.category) for f in update.new_facts] == [("用户25岁", CR)]
    assert [r.id for r in update.facts_to_remove] == ["f1"]


def test_a_chinese_fact_that_starts_with_an_age_is_no_age_of_the_users() -> None:
    # attacker 49: "用户3岁的女儿对花生过敏" was replaced by "我35岁", an allergy lost
    document = MemoryDocument(
        facts=(
            _fact("f1", "用户3岁的女儿对花生过敏"),
            _fact("f2", "用户25岁开始学钢琴"),
            _fact("f3", "用户今年30岁，住在上海"),
        )
    )
    update = _extract("我35岁", document=document)
    assert [f.content for f in update.new_facts] == ["用户35岁"]
    assert update.facts_to_remove == ()


@pytest.mark.parametrize(
    "said",
    ["Lol I'm 12.", "I'm 12 lol", "我今年两百岁", "我两岁", "我二三十岁", "I feel like I'm 80."],
)
def test_a_joke_or_an_impossible_age_does_not_replace_the_stored_one(said: str) -> None:
    document = MemoryDocument(facts=(_fact("f1", "User is 34 years old"),))
    assert _extract(said, document=document).is_noop()
