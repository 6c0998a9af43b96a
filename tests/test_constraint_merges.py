"""A model-proposed merge touching a constraint needs a near-identical restatement (attack 21 F3).

Two different allergies ("…to peanuts" / "…to penicillin", lexical similarity 0.53) passed the
0.5 floor of model merges: the penicillin allergy was superseded and no longer injected.
"""

from __future__ import annotations

import pytest

from deerflow_memory.inject.constraints import is_constraint
from deerflow_memory.models import Fact, FactCategory, FactMerge, MemoryDocument, MemoryUpdate
from deerflow_memory.update.hygiene import tidy
from deerflow_memory.update.merges import merge_problem, screen_merges

NOW = "2026-06-01T00:00:00Z"


def pair(a: str, b: str, category: FactCategory = FactCategory.CONTEXT) -> list[Fact]:
    facts = [
        Fact(id="fact_a", content=a, category=category, confidence=0.95, created_at=NOW),
        Fact(id="fact_b", content=b, category=category, confidence=0.9, created_at=NOW),
    ]
    return [f.model_copy(update={"constraint": is_constraint(f)}) for f in facts]


DIFFERENT_CONSTRAINTS = [
    ("User is severely allergic to peanuts", "User is severely allergic to penicillin"),
    ("User has type 1 diabetes", "User has type 2 diabetes"),
    ("User takes 10mg of warfarin daily", "User takes 50mg of warfarin daily"),
    ("User's daughter is allergic to eggs", "User is allergic to eggs"),
    ("User is allergic to eggs", "User's daughter is allergic to eggs"),
]


@pytest.mark.parametrize(("a", "b"), DIFFERENT_CONSTRAINTS)
def test_two_different_constraints_are_not_merged(a: str, b: str) -> None:
    group = pair(a, b)
    assert all(f.constraint for f in group)
    assert merge_problem(group, is_constraint=is_constraint) is not None
    update = MemoryUpdate(facts_to_merge=(FactMerge(ids=("fact_a", "fact_b")),))
    screened = screen_merges(update, group, is_constraint=is_constraint)
    assert screened.facts_to_merge == ()
    [rejection] = screened.rejected
    assert rejection.item == "factsToMerge[0]"
    assert rejection.reason.startswith("not merged:")
    result = tidy(MemoryDocument(facts=tuple(group)), now=NOW, update=update, threshold=0.85)
    assert sorted(f.id for f in result.document.facts) == ["fact_a", "fact_b"]


def always_same(a: Fact, b: Fact) -> float:
    return 1.0


@pytest.mark.parametrize(
    ("a", "b", "why"),
    [
        ("User takes 10 mg of warfarin daily", "User takes 50 mg of warfarin daily", "numbers"),
        ("用户有1型糖尿病", "用户有2型糖尿病", "numbers"),
        ("用户有一型糖尿病", "用户有二型糖尿病", "numbers"),
        ("User's son is allergic to eggs", "User is allergic to eggs", "people"),
        ("用户的女儿对鸡蛋过敏", "用户对鸡蛋过敏", "people"),
    ],
)
def test_near_identical_constraints_still_need_the_same_numbers_and_people(
    a: str, b: str, why: str
) -> None:
    group = pair(a, b)
    problem = merge_problem(group, similarity=always_same, is_constraint=lambda f: True)
    assert problem is not None and why in problem


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Is allergic to peanuts", "Has a peanut allergy"),
        ("User is severely allergic to peanuts", "User has a severe allergy to peanuts"),
        ("用户有1型糖尿病", "用户有一型糖尿病"),
    ],
)
def test_a_restated_constraint_still_merges(a: str, b: str) -> None:
    group = pair(a, b)
    similarity = None if a.isascii() else always_same
    assert merge_problem(group, similarity=similarity, is_constraint=lambda f: True) is None
    update = MemoryUpdate(facts_to_merge=(FactMerge(ids=("fact_a", "fact_b")),))
    if similarity is None:
        result = tidy(MemoryDocument(facts=tuple(group)), now=NOW, update=update, threshold=1.1)
        assert [f.id for f in result.document.facts] == ["fact_a"]


def test_non_constraint_paraphrases_merge_at_the_model_floor_as_before() -> None:
    group = pair("Prefers short answers", "Prefers concise answers", FactCategory.PREFERENCE)
    assert not any(f.constraint for f in group)
    assert merge_problem(group, is_constraint=is_constraint) is None


def test_the_constraint_floor_is_the_configured_threshold() -> None:
    group = pair("User has type 1 diabetes", "User has type 2 diabetes")
    # A low configured threshold lets the similarity pass; the numbers still differ.
    problem = merge_problem(group, is_constraint=is_constraint, constraint_floor=0.5)
    assert problem is not None and "numbers" in problem
    group = pair("User is severely allergic to peanuts", "User is severely allergic to penicillin")
    assert merge_problem(group, is_constraint=is_constraint, constraint_floor=0.5) is None
