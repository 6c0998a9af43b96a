"""Attacker 339: what e09343b and 17fcbfa let through.

e09343b read a medication after "I meant" as a thing one reacts to, so it put right an
allergy or a food need said last: "I take warfarin. I'm allergic to penicillin." then "I mean
rivaroxaban." lost the penicillin allergy; "I can't eat gluten." then "I meant metformin."
stored "User cannot eat metformin" and lost the gluten. Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after, facts_of_one_update


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # the drug meant may be of the medication said first: the allergy stays
        (
            ("I'm on warfarin. I'm allergic to penicillin.", "I mean rivaroxaban."),
            [
                "User is on warfarin",
                "User is allergic to penicillin",
                "User is allergic to rivaroxaban",
            ],
        ),
        (
            ("我在吃华法林，对青霉素过敏。", "不对，是利伐沙班。"),
            ["用户在吃华法林", "用户对青霉素过敏", "用户对利伐沙班过敏"],
        ),
        # a medication puts right no need of a food
        (("I'm allergic to peanuts.", "Sorry, I meant insulin."), ["User is allergic to peanuts"]),
        (("I can't eat gluten.", "I meant metformin."), ["User cannot eat gluten"]),
        (
            ("I take warfarin. I'm allergic to shellfish.", "Sorry, I meant apixaban."),
            ["User takes warfarin", "User is allergic to shellfish"],
        ),
        # as before: a drug one is known to react to puts an allergy right; a medication a
        # medication
        (
            ("I'm allergic to penicillin.", "I meant amoxicillin."),
            ["User is allergic to amoxicillin"],
        ),
        (("I take warfarin.", "Sorry, I meant apixaban."), ["User takes apixaban"]),
    ],
)
def test_a_medication_meant_puts_right_no_allergy_in_its_place(
    said: tuple[str, ...], stored: list[str]
) -> None:
    assert facts_of_one_update(*said) == stored


# 17fcbfa read a list after "I'm <description>," as the user's: someone else's needs and
# what the user is not, or was, were stored as the user's.
@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm married, husband diabetic and allergic to shellfish.", ["User is married"]),
        ("I'm vegetarian, wife vegan and son allergic to nuts.", ["User is vegetarian"]),
        ("I'm a vet, dogs allergic to chicken.", ["User is a vet"]),
        ("I'm okay, the kids vegan and gluten free.", []),
        ("I'm retired, formerly vegan and diabetic.", ["User is retired"]),
        ("I'm single, no kids and vegan.", ["User is single"]),
        ("I'm no longer single, vegan and diabetic.", []),
        # each item read alone must say something of the user
        ("I'm a dietitian, vegan and diabetic clients mostly.", ["User is a dietitian"]),
        ("I'm a cook, vegan dishes and gluten free baking.", ["User is a cook"]),
        ("I'm back, coffee in hand and ready.", []),
        # each description a fact of its own
        (
            "I'm single, vegan and allergic to nuts.",
            ["User is single", "User is vegan", "User is allergic to nuts"],
        ),
        (
            "I'm a nurse, currently pregnant and vegan.",
            ["User is a nurse", "User is currently pregnant", "User is vegan"],
        ),
    ],
)
def test_a_list_after_a_description_is_the_users_only(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


# "I'm A and allergic to X, Y and Z": the list after the second description was dropped
# (before d6b9f8f too), keeping the allergy to X only.
@pytest.mark.parametrize(
    ("said", "stored"),
    [
        (
            "I'm vegan and allergic to kiwi, mango and eggs.",
            ["User is vegan", "User is allergic to kiwi, mango and eggs"],
        ),
        (
            "I'm 34, diabetic and on insulin, metformin and aspirin.",
            [
                "User is 34 years old",
                "User is diabetic",
                "User is on insulin, metformin and aspirin",
            ],
        ),
    ],
)
def test_a_need_listed_after_a_second_description_keeps_its_list(
    said: str, stored: list[str]
) -> None:
    assert facts_after(said) == stored


def test_the_list_stays_when_the_first_description_ends() -> None:
    said = ("I'm vegan and allergic to kiwi, mango and eggs.", "I'm not vegan anymore.")
    assert facts_after(*said) == ["User is allergic to kiwi, mango and eggs"]
