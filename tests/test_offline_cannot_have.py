""" "I can't have dairy" is a need, and "海鲜也是" after a need adds to it.

Before: "I can't have dairy" was stored in the user's own words, as no need, so "I can't
have dairy. Or eggs." lost the eggs; and "我对花生过敏，海鲜也是" (the thing, then "也是")
lost the seafood allergy, though "…，还有海鲜" kept it. Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.text import candidates_from_text
from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("I can't have dairy.", "dairy"),
        ("I cannot have gluten anymore.", "gluten"),
        ("I can't have dairy or eggs.", "dairy or eggs"),
        ("I can't have spicy food.", "spicy food"),
    ],
)
def test_cannot_have_a_food_is_a_need(said: str, value: str) -> None:
    (need,) = candidates_from_text(said)
    assert need.constraint
    assert need.value == value


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I can't have dairy. Or eggs.", ["User cannot have dairy", "User cannot have eggs"]),
        ("I can't have gluten. Soy too.", ["User cannot have gluten", "User cannot have soy"]),
        ("我对花生过敏，海鲜也是。", ["用户对花生过敏", "用户对海鲜过敏"]),
        ("我对花生过敏。芒果也是。", ["用户对花生过敏", "用户对芒果过敏"]),
        ("我不吃猪肉，牛肉也一样。", ["用户不吃猪肉", "用户不吃牛肉"]),
        ("我对花生过敏，虾也不行。", ["用户对花生过敏", "用户对虾过敏"]),
        ("我对花生过敏，其实腰果也是。", ["用户对花生过敏", "用户对腰果过敏"]),
    ],
)
def test_a_thing_said_after_the_need_adds_to_it(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I can't have visitors this week.", []),  # no food: no need
        ("我对花生过敏，我老公也是。", ["用户对花生过敏"]),  # someone, not a thing
        ("我对花生过敏，今天也是。", ["用户对花生过敏"]),
        ("我对花生过敏，这个也是。", ["用户对花生过敏"]),
    ],
)
def test_what_is_no_food_adds_nothing(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


def test_cannot_have_what_is_no_food_is_no_need() -> None:
    assert not any(c.constraint for c in candidates_from_text("I can't have pets."))
