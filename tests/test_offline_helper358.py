"""Helper 358: lists and reasons after what the user stays off.

Before: "I'm avoiding dairy and sugar lol" and "I need to avoid salt and sugar lol" stored
nothing and "I'm avoiding gluten, dairy and soy" only "User avoids gluten" (the rules knew one
thing, not a list); "I'm off carbs for my son" stored "User avoids carbs" (a reason for
another person dropped).

Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm avoiding dairy and sugar lol", "User avoids dairy and sugar"),
        ("im off bread, pasta and rice for now", "User avoids bread, pasta and rice"),
        ("I'm staying away from beer and wine haha", "User avoids beer and wine"),
        ("I need to avoid salt and sugar lol", "User needs to avoid salt and sugar"),
        (
            "I have to cut back on coffee, tea and soda lol",
            "User has to cut back on coffee, tea and soda",
        ),
    ],
)
def test_a_list_of_things_stayed_off_is_kept_whole(said: str, stored: str) -> None:
    assert facts_after(said) == [stored]


@pytest.mark.parametrize(
    "said",
    [
        "I'm off carbs for my son.",
        "I'm avoiding gluten for my husband.",
        "I'm off sugar for my wedding.",
        "I'm off sugar and insulin lol",  # a medicine in the list
    ],
)
def test_a_reason_of_another_or_a_medicine_is_no_diet_of_the_user(said: str) -> None:
    assert not any("avoids" in fact for fact in facts_after(said))


def test_a_reason_of_the_users_own_health_is_still_dropped() -> None:
    assert facts_after("I'm off dairy for my gut.") == ["User avoids dairy"]
    assert facts_after("I need to stay off sugar for my teeth lol") == [
        "User needs to stay off sugar for their teeth"
    ]
