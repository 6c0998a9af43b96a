"""What attacker 73's sweep of 740 messages found worse than before the session, pinned."""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    "diet",
    [
        "I'm vegetarian for my health.",
        "I'm vegan because of my cholesterol.",
        "I went vegetarian after my bypass.",
        "I follow a vegan diet because of my eczema.",
    ],
)
def test_eating_meat_again_ends_a_diet_whatever_its_reason(diet: str) -> None:
    assert facts_after(diet, "I eat meat now.") == ["User eats meat now"]


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("Imagine I'm a beginner. I'm 45 and I live in Ohio, how do I start lifting?",
         "User lives in Ohio"),
        ("Say I'm a complete novice. I have asthma, how should I start running?",
         "User has asthma"),
        ("Suppose I'm a tourist. I'm allergic to dairy.", "User is allergic to dairy"),
    ],
)  # fmt: skip
def test_imagine_or_say_opens_a_question_about_the_users_own_life(said: str, kept: str) -> None:
    assert kept in facts_after(said)
