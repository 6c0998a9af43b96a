""" "My son and I are both allergic to…": the user's need, said with someone else.

Before: "My son and I are both allergic to cashews" stored "User ares both allergic to
cashews" (only a partner, children, parents or a pet were read before "and I", and "both"
stayed), "My sister and I both love opera" "User boths love opera". Every kin word is read
now, and "both"/"all" go. Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        (
            "My son and I are both allergic to cashews.",
            ["User is allergic to cashews (with their son)"],
        ),
        ("My mom and I are both vegan.", ["User is vegan (with their mom)"]),
        ("My sister and I both love opera.", ["User loves opera (with their sister)"]),
        ("My kids and I all eat vegetarian.", ["User eats vegetarian (with their kids)"]),
        (
            "My wife and I are allergic to cashews.",
            ["User is allergic to cashews (with their wife)"],
        ),
    ],
)
def test_a_need_or_taste_shared_with_someone_is_the_users(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored
