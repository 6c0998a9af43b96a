"""Texting shorthand reads as the words it stands for ("pls", "h8", "allergic 2", "i m")."""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("plz always use metric units",
         "User's standing instruction: please always use metric units"),
        ("i h8 olives", "User hates olives"),
        ("im allergic 2 sesame", "User is allergic to sesame"),
        ("i m allergic to wasps", "User is allergic to wasps"),
        ("i'm gluten intolerent", "User is gluten intolerant"),
    ],
)  # fmt: skip
def test_shorthand_is_read_as_the_words(said: str, fact: str) -> None:
    assert facts_after(said) == [fact]
