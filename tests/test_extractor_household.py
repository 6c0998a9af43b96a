"""What a household eats, where it lives and moves, its children, pets and outings, said with
"we", is the user's too; what a team or a company does with "we" is not."""

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
    # where it lives and moves, its children and pets, a wedding or a trip, its outings
    ("We just moved into a two-bed flat in Salford.", "moved into a two-bed flat in Salford"),
    ("We relocated to Lyon in 2021.", "relocated to Lyon in 2021"),
    ("We're moving back to Cork in the spring.", "is moving back to Cork in the spring"),
    ("We live near the river, so flooding worries me.", "lives near the river"),
    ("we live with my in-laws", "lives with their in-laws"),
    ("We live on a houseboat.", "lives on a houseboat"),
    ("We have a newborn, so sleep is scarce.", "has a newborn"),
    ("We have two 5-year-olds.", "has two 5-year-olds"),
    ("We adopted two kittens from the shelter.", "adopted two kittens from the shelter"),
    ("We rescued a greyhound last spring.", "rescued a greyhound last spring"),
    ("We had our second baby in August!", "had their second baby in August"),
    ("We're getting married in Porto next June.", "is getting married in Porto next June"),
    ("We're planning our honeymoon to Bali.", "is planning their honeymoon to Bali"),
    ("We go kayaking most weekends.", "goes kayaking most weekends"),
    ("We go to the mosque on Fridays.", "goes to the mosque on Fridays"),
    # (helper 364) a pet of any breed, a frequency before the outing, a street lived on
    ("We rescued two whippets from a breeder.", "rescued two whippets from a breeder"),
    ("We got our first cat in May.", "got their first cat in May"),
    ("We usually go sailing in July.", "usually goes sailing in July"),
    ("We live on Mill Lane.", "lives on Mill Lane"),
    ("We live with two lodgers.", "lives with two lodgers"),
]
NOTHING = [
    "We don't eat out much",
    "We never eat before 8",
    "We don't eat at that chain anymore",
    "We're going vegetarian for a week lol",
    "We are vegan-curious",
    "We don't eat lunch together at work",
    # a team's or a company's "we", or an event of the moment
    "We got a new client last week.",
    "We had a long meeting about the roadmap.",
    "We had a great time in Rome.",
    "We're moving to the next sprint.",
    "We go live on Monday.",
    "We adopted a new framework for code review.",
    "We rescued the project in the last week.",
    "We're planning a release for Friday.",
    # (helper 364) what a team adopts, rescues, moves to, lives on or plans, and its outings
    "We adopted an event-driven architecture.",
    "We adopted a new ticketing tool for support.",
    "We adopted a monorepo last quarter.",
    "We rescued a key account from churning.",
    "We're moving to Kubernetes next quarter.",
    "We moved into production on Tuesday.",
    "We relocated to a larger office downtown.",
    "We live on coffee during release week.",
    "We live with tech debt in the billing service.",
    "We live by the rule that main is always green.",
    "We are planning a team trip to Prague.",
    "We're planning a business trip to Oslo.",
    "We're planning a holiday party for the staff.",
    "We had a baby shower for our manager.",
    "We go hiking as a team twice a year.",
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
