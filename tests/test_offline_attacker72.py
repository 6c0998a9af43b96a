"""What attacker 72 found still worse than before the session's extractor changes, pinned."""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after, kept_after


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("Imagine I'm at the pharmacy. I'm allergic to sulfa, what do I ask for?",
         "User is allergic to sulfa"),
        ("Suppose I'm vegan. I'm allergic to lentils, so what protein is left.",
         "User is allergic to lentils"),
        ("In the book I'm reading, the hero is a baker. I'm allergic to rye.",
         "User is allergic to rye"),
        ("如果我是坐地铁去，要多久。我对猫毛过敏。", "用户对猫毛过敏"),
        ("Imagine I'm a fox. Anyway, I live in Dundee now.", "User lives in Dundee now"),
    ],
)  # fmt: skip
def test_real_facts_after_a_question_or_a_way_out_are_kept(said: str, kept: str) -> None:
    assert kept in facts_after(said)


@pytest.mark.parametrize(
    ("first", "now"),
    [
        ("I'm vegetarian since my stroke.", "I'm vegan now."),
        ("I'm vegan because of my gout.", "I'm vegetarian now."),
    ],
)
def test_a_diet_whose_reason_names_something_is_not_withdrawn(first: str, now: str) -> None:
    assert kept_after(first, now)


@pytest.mark.parametrize(
    "said",
    ["I made a spreadsheet to log my blood sugar.", "我吃药就容易出错"],
)
def test_lasting_facts_near_task_words_are_kept(said: str) -> None:
    assert facts_after(said) != []
