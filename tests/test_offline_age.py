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
        ("我十三四岁", ["用户十三四岁"]),
        # numbers that are no age of someone telling it, or no age at all
        ("I'm 3", []),
        ("I'm 450", []),
        ("I'm 10 minutes late", []),
        ("I'm 6 months pregnant", []),
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
