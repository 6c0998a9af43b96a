"""What a lead clause or a joined description tells of the user.

Before: "With my bad back, what chair should I buy?" stored nothing (only "As someone with…"
was read as "I have…"); "Being from Ghana, I …" lost the origin ("being from" was left out
with "being from the future"); "I'm 67 and recently retired" stored one fact and no age (a
description joined by "and" could not open with a number).

Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("With my bad knees, which treadmill is gentle?", ["User has bad knees"]),
        ("With my sore back, should I skip deadlifts?", ["User has a sore back"]),
        ("With my eczema, which soap is best?", ["User has eczema"]),
        (
            "Being from Ghana, I find this winter brutal.",
            ["User is from Ghana", "User finds this winter brutal"],
        ),
        ("I'm 58 and recently widowed.", ["User is 58 years old", "User is recently widowed"]),
        ("I'm 23 and pregnant.", ["User is 23 years old", "User is pregnant"]),
    ],
)
def test_the_lead_or_the_joined_description_is_stored(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    "said",
    [
        "With my budget, what laptop can I get?",
        "With my luck, it will rain.",
        "Being from the future, what should I pack?",
        "I'm 10 minutes out and nearly there.",
    ],
)
def test_a_lead_that_says_nothing_of_the_user_stores_nothing(said: str) -> None:
    assert facts_after(said) == []
