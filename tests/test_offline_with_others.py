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


# A diet said of the two as a plural noun was read as a role held together ("are both
# engineers") and stored nothing: it is each one's diet, so the user's.
@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("My partner and I are vegetarians.", ["User is vegetarian (with their partner)"]),
        ("My daughter and I are both coeliacs", ["User is coeliac (with their daughter)"]),
        ("Priya and I are vegans", ["User is vegan (with Priya)"]),
        ("We're pescatarians.", ["User is pescatarian"]),
        ("We are both vegans", ["User is vegan"]),
        ("We are both vegan", ["User is vegan"]),
        # a role held together stays no fact of the user's alone
        ("My partner and I are both architects.", []),
        ("We're both nurses", []),
    ],
)
def test_a_diet_said_as_a_plural_is_the_users(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


# Attacker 284: a diet word that is no diet said at the clause's end is read as before.
@pytest.mark.parametrize(
    "said",
    ["We are diabetic nurses at the clinic.", "We're celiacs' best friend: a gluten-free bakery."],
)
def test_a_diet_word_before_more_is_no_diet_of_the_user(said: str) -> None:
    assert not [fact for fact in facts_after(said) if fact.startswith("User is")]
