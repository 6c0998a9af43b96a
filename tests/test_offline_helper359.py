"""Offline extractor (helper 359, on d5825f7): what a lead clause "With my …" names is said
with "a" only when it is one part of the body."""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("With my bad hip, is a rowing machine a good idea?", "User has a bad hip"),
        ("With my bad shoulder, which backpack should I get?", "User has a bad shoulder"),
        ("With my herniated disc, can I still lift weights?", "User has a herniated disc"),
        ("With my bad hearing, which headphones should I buy?", "User has bad hearing"),
        ("With my sensitive skin, which sunscreen is best?", "User has sensitive skin"),
        ("With my bad knees, which trail is flattest?", "User has bad knees"),
        ("With my bad back, what mattress should I buy?", "User has a bad back"),
    ],
)
def test_a_lead_clause_says_a_only_of_one_part(said: str, stored: str) -> None:
    assert facts_after(said) == [stored]


@pytest.mark.parametrize(
    "said",
    [
        "I'm 10 minutes late and soaked",
        "I'm 3 hours away and lost",
        "I'm 4 and 1 this season",
    ],
)
def test_a_number_joined_to_a_moment_is_no_fact(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm 72 and still teaching", ["User is 72 and still teaching"]),
        ("I'm 8 weeks postpartum and exhausted", ["User is 8 weeks postpartum and exhausted"]),
        ("I'm 38 and divorced", ["User is 38 years old", "User is divorced"]),
    ],
)
def test_a_number_joined_to_what_lasts_is_kept(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored
