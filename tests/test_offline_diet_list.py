"""Diets named together are read as each would be alone: "I'm vegan and gluten-free"
stored nothing, and a list withdrawn later ("I gave up being keto and sober") could not
be read as withdrawing each (attackers 95 and 96)."""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.text import candidates_from_text
from tests.test_quality_kinds import facts_after

FRAMES = [
    "I'm {}.",
    "I am strictly {} these days",
    "I gave up being {}.",
    "I'm not {} anymore",
    "My brother is {}.",
    "We need {} options for the party",
    "I'm {}, said no one ever",
    "I live in Porto and I'm {}",
]


def _each_alone(frame: str, diets: list[str]) -> list[tuple[str, object, bool]]:
    found: list[tuple[str, object, bool]] = []
    for diet in diets:
        for c in candidates_from_text(frame.format(diet)):
            if (c.content, c.retract, c.constraint) not in found:
                found.append((c.content, c.retract, c.constraint))
    return found


@pytest.mark.parametrize("frame", FRAMES)
@pytest.mark.parametrize(
    ("listed", "diets"),
    [
        ("paleo and dairy-free", ["paleo", "dairy-free"]),
        ("kosher, nut-free and teetotal", ["kosher", "nut-free", "teetotal"]),
        ("halal, sober, keto and egg-free", ["halal", "sober", "keto", "egg-free"]),
    ],
)
def test_a_list_of_diets_says_what_each_diet_would_alone(
    frame: str, listed: str, diets: list[str]
) -> None:
    found = [
        (c.content, c.retract, c.constraint) for c in candidates_from_text(frame.format(listed))
    ]
    assert found == _each_alone(frame, diets)


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        ("I'm dairy-free and kosher.", ["User is dairy-free", "User is kosher"]),
        ("I am paleo and also sober", ["User is paleo", "User is sober"]),
        ("I'm keto, sober and Keto", ["User is keto", "User is sober"]),  # said twice: one
    ],
)
def test_each_diet_of_a_list_is_its_own_constraint(said: str, facts: list[str]) -> None:
    found = candidates_from_text(said)
    assert [(c.content, c.constraint) for c in found] == [(fact, True) for fact in facts]


@pytest.mark.parametrize(
    ("first", "now", "kept"),
    [
        ("I'm keto and alcohol-free.", "I'm no longer keto", ["User is alcohol-free"]),
        (
            "I'm kosher, paleo and soy-free",
            "I'm not paleo anymore",
            ["User is kosher", "User is soy-free"],
        ),
        ("I'm halal and dairy-free", "I'm no longer halal and dairy-free", []),
        ("I'm sober and keto.", "I quit being sober and keto.", []),
        ("I'm paleo and nut-free", "I'm not paleo or nut-free anymore", []),
        ("I'm keto and halal", "I'm neither keto nor halal anymore.", []),
        ("I'm paleo, sober and kosher.", "I'm no longer paleo, sober and kosher.", []),
    ],
)
def test_a_list_is_withdrawn_as_each_diet_would_be(first: str, now: str, kept: list[str]) -> None:
    assert facts_after(first, now) == kept


@pytest.mark.parametrize(
    "said",
    [
        "I'm keto or paleo",  # a choice not yet made
        "I'm either halal or kosher",
        "I'm keto and sober and allergic to sesame",  # more coordinated after the diets
    ],
)
def test_a_choice_or_a_longer_list_is_not_split_into_diets(said: str) -> None:
    assert not any(
        c.constraint and c.content in ("User is keto", "User is halal")
        for c in candidates_from_text(said)
    )


def test_plant_diets_said_together_do_not_end_each_other() -> None:
    # Split, "vegetarian now" and "vegan now" each ended the other: nothing was left.
    assert facts_after("I'm vegan", "I'm pescatarian and vegetarian now") != []
    assert facts_after("I'm plant-based and vegan.", "I'm no longer vegan.") == []


@pytest.mark.parametrize(
    ("first", "now", "kept"),
    [
        # a comma ends the clause of the list: what follows is said of something else
        ("I'm kosher.", "I'm no longer teetotal, kosher though.", ["User is kosher"]),
        ("I'm paleo.", "I'm not keto, paleo actually.", ["User is paleo"]),
    ],
)
def test_a_diet_after_a_clause_ends_is_not_read_into_the_list(
    first: str, now: str, kept: list[str]
) -> None:
    # "sober, halal though" was read as a list under "no longer": halal was withdrawn
    # (attacker 97).
    assert facts_after(first, now) == kept


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        ("My sister isn't paleo, but I'm keto or halal.", []),  # another clause's negation
        ("I'm not fussy, I'm kosher or paleo, whatever is easier.", []),
        ("I like neither keto nor paleo.", []),  # "neither" is "not" only after "I'm"
        (  # a list that is no complement
            "I run a halal and kosher catering firm.",
            ["User runs a halal and kosher catering firm"],
        ),
        (
            "I was never keto and sober at the same time.",
            ["User was never keto and sober at the same time"],
        ),
    ],
)
def test_a_list_that_is_not_the_users_own_complement_is_read_as_said(
    said: str, facts: list[str]
) -> None:
    # Each was read once per diet: two constraints from a choice, "User likes not keto",
    # two catering firms (attacker 97).
    assert [c.content for c in candidates_from_text(said)] == facts


def test_every_list_of_a_sentence_is_read() -> None:
    # Only the first list was looked at; one refused hid the user's own after it.
    found = [
        c.content for c in candidates_from_text("I'm paleo and sober, and I'm halal and kosher.")
    ]
    assert sorted(found) == ["User is halal", "User is kosher", "User is paleo", "User is sober"]
    said = "Keto or paleo recipes please, I'm halal and teetotal."
    assert {"User is halal", "User is teetotal"} <= {c.content for c in candidates_from_text(said)}


@pytest.mark.parametrize(
    ("first", "now", "kept"),
    [
        # a diet held now after a list given up is not read into it (attacker 99)
        ("I'm kosher.", "I'm no longer paleo, and also kosher.", ["User is kosher"]),
        ("I'm teetotal.", "I gave up being keto, and teetotal too.", ["User is teetotal"]),
        ("I'm halal.", "I'm not paleo, and halal now.", ["User is halal"]),
        # a list in any sentence of a message, not only the first
        ("I'm paleo and kosher.", "Right. I'm no longer paleo and kosher.", []),
        # what a diet alone may have after it leaves the list split
        ("I'm paleo and kosher.", "I gave up being paleo and kosher last year.", []),
        ("I'm teetotal.", "I'm paleo and sober since May. Said no one ever.", ["User is teetotal"]),
    ],
)
def test_a_list_is_read_per_diet_wherever_it_stands_and_however_it_ends(
    first: str, now: str, kept: list[str]
) -> None:
    assert facts_after(first, now) == kept


def test_a_diet_spelled_two_ways_is_one() -> None:
    assert [c.content for c in candidates_from_text("I'm nut free and nut-free.")] == [
        "User is nut free and nut-free"
    ]


@pytest.mark.parametrize(
    ("first", "now", "kept"),
    [
        # one of several things named leaves the others (newcomer 54: the shellfish allergy
        # went with the walnut one)
        (
            "I'm allergic to mussels and walnuts.",
            "I'm not allergic to walnuts anymore.",
            ["User is allergic to mussels"],
        ),
        ("我对螃蟹和芒果过敏", "我对芒果不过敏了", ["用户对螃蟹过敏"]),
        # things not all known as what one reacts to: kept whole unless all are named
        # ("chilli and lime crisps" may be one thing, "kiwis and quinoa" is two)
        (
            "I'm allergic to chilli and lime crisps.",
            "I'm not allergic to chilli anymore.",
            ["User is allergic to chilli and lime crisps"],
        ),
        (
            "I'm allergic to chilli and lime crisps.",
            "I'm not allergic to chilli and lime crisps anymore.",
            [],
        ),
        # all of them named, joined by "or" too, withdraws it (attacker 100)
        (
            "I'm allergic to mussels and walnuts.",
            "I'm not allergic to mussels or walnuts anymore.",
            [],
        ),
        # one need whatever its words: an aside, a second verb
        ("I'm allergic to walnuts, badly.", "I'm not allergic to walnuts anymore.", []),
        ("I'm allergic to sesame and carry an EpiPen.", "I'm no longer allergic to sesame.", []),
    ],
)
def test_a_need_of_several_things_goes_when_all_are_named(
    first: str, now: str, kept: list[str]
) -> None:
    assert facts_after(first, now) == kept


@pytest.mark.parametrize(
    "now",
    [
        "I'm no longer paleo, kosher, and sober.",  # an Oxford comma is no new clause
        "I'm no longer paleo and kosher now.",  # "now" after a list joined by words alone
        "I stopped being paleo and kosher a couple of years ago.",
    ],
)
def test_a_list_given_up_is_withdrawn_however_it_is_punctuated(now: str) -> None:
    assert facts_after("I'm paleo. I'm kosher.", now) == []
