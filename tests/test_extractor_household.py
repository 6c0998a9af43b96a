"""What a household eats and how its children learn, said with "we", is the user's too."""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.extractor import candidates_from_text

STATED = [
    ("We don't eat pork, so what can I make for Sunday?", "does not eat pork"),
    ("We're vegetarian, any ideas for a barbecue?", "is vegetarian"),
    ("We are pescatarian these days", "is pescatarian"),
    ("we keep kosher at home", "keeps kosher"),
    ("We eat mostly plant-based, so skip the butter.", "eats mostly plant-based"),
    ("we never eat shellfish", "never eats shellfish"),
    ("We homeschool our two boys, which maths books work?", "homeschools their two boys"),
    ("We rent our flat in Leeds", "rents their flat in Leeds"),  # the household's "our"
]
NOTHING = [
    "We don't eat out much",
    "We never eat before 8",
    "We don't eat at that chain anymore",
    "We're going vegetarian for a week lol",
    "We are vegan-curious",
    "We don't eat lunch together at work",
]


@pytest.mark.parametrize(("sentence", "expected"), STATED)
def test_it_is_stored(sentence: str, expected: str) -> None:
    contents = [c.content for c in candidates_from_text(sentence) if c.content]
    assert any(expected in c for c in contents), contents


@pytest.mark.parametrize("sentence", NOTHING)
def test_a_habit_of_the_moment_is_not(sentence: str) -> None:
    assert [c.content for c in candidates_from_text(sentence) if c.content] == []


@pytest.mark.parametrize(
    ("sentence", "not_the_users"),
    [
        ("We live in Leeds and our name is Smith.", "User's name"),
        ("We have two kids and our names are Tom and Ann.", "User's names"),
        ("We rent a flat and our favourite food is sushi.", "User's favourite food"),
        ("We live in Leeds, our religion is Islam.", "User's religion"),
    ],
)
def test_a_later_clause_about_our_thing_is_not_made_the_users(
    sentence: str, not_the_users: str
) -> None:
    contents = [c.content for c in candidates_from_text(sentence) if c.content]
    assert not any(c.startswith(not_the_users) for c in contents), contents
