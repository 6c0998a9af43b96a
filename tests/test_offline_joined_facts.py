"""A change that ends one statement of a joined fact keeps the others, a need above all.

Before (attacker 336): "I work at a library and have epilepsy." is stored as one fact,
"User works at a library and has epilepsy"; "I changed jobs." then withdrew it whole, and
the epilepsy went with the job. So did an allergy with "I got engaged" after "I'm single and
allergic to…", and insulin with "I had the baby" after "I'm pregnant and take insulin". With
the updater's need test the opposite happened: the whole fact stayed, the job that ended too.
Now such a fact is read part by part (``offline.joined.joined_parts``): what the change ends
goes, what it does not stays as a fact of its own.

Sentences are this project's own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from deerflow_memory.inject.constraints import is_constraint
from deerflow_memory.update.offline.joined import joined_parts
from tests.test_offline_context import _said_in_turns
from tests.test_quality_kinds import facts_after

# (told, later, what stays, what goes)
CHANGES = [
    # (the pen is the user's need: said beside an allergy it is one need with it)
    ("I live in Hove and carry an EpiPen.", "I moved to Bath.", "User carries an EpiPen", "Hove"),
    (
        "I work at a library and have epilepsy.",
        "I changed jobs.",
        "User has epilepsy",
        "library",
    ),
    (
        "I'm single and allergic to sulfa drugs.",
        "I got engaged.",
        "User is allergic to sulfa drugs",
        "single",
    ),
    ("I'm pregnant and take insulin.", "I had the baby.", "User takes insulin", "pregnant"),
    (
        "I'm a pharmacist and have coeliac disease.",
        "I retired in March.",
        "User has coeliac disease",
        "pharmacist",
    ),
    (
        "I live in Bristol and work at Dyson.",
        "I moved to Cardiff.",
        "User works at Dyson",
        "Bristol",
    ),
    (
        "I live in Bristol and work at Dyson.",
        "I quit my job.",
        "User lives in Bristol",
        "Dyson",
    ),
]


@pytest.mark.parametrize(("told", "later", "stays", "goes"), CHANGES)
def test_a_change_ends_only_its_own_part(told: str, later: str, stays: str, goes: str) -> None:
    assert any(goes in fact for fact in facts_after(told))  # (stored first, joined or apart)
    after = facts_after(told, later)
    assert stays in after
    assert not any(goes in fact for fact in after)


@pytest.mark.parametrize(("told", "later", "stays", "goes"), CHANGES)
def test_the_same_through_the_updater_and_its_need_test(
    tmp_path: Path, told: str, later: str, stays: str, goes: str
) -> None:
    after = _said_in_turns(tmp_path, told, later, is_constraint=is_constraint)
    assert stays in after
    assert not any(goes in fact for fact in after)


def test_a_value_said_again_leaves_the_joined_fact_as_it_is() -> None:
    told = "I live in Bristol and work at Dyson."
    assert facts_after(told, "I live in Bristol.") == facts_after(told)


def test_a_part_already_stored_alone_is_not_stored_twice() -> None:
    after = facts_after(
        "I'm allergic to sulfa drugs.", "I'm single and allergic to sulfa drugs.", "I got engaged."
    )
    assert after.count("User is allergic to sulfa drugs") == 1
    assert not any("single" in fact for fact in after)


def test_a_need_named_goes_and_the_rest_stays() -> None:
    after = facts_after(
        "I'm allergic to sesame and work at a bakery.", "I'm not allergic to sesame anymore."
    )
    assert after == ["User works at a bakery"]


@pytest.mark.parametrize(
    ("fact", "parts"),
    [
        ("User is a nurse and vegetarian", ("User is a nurse", "User is vegetarian")),
        (
            "User lives in Bristol and work at Dyson",
            ("User lives in Bristol", "User works at Dyson"),
        ),
        ("User is vegan and still have asthma", ("User is vegan", "User still has asthma")),
        # one need of two things, a taste of two things, someone else's facts: whole
        ("User is allergic to kiwi and mango", ("User is allergic to kiwi and mango",)),
        ("User likes chess and go", ("User likes chess and go",)),
        ("User's son is autistic and has asthma", ("User's son is autistic and has asthma",)),
        (
            "User is allergic to kiwi and mango and uses an inhaler",
            ("User is allergic to kiwi and mango", "User uses an inhaler"),
        ),
    ],
)
def test_joined_parts(fact: str, parts: tuple[str, ...]) -> None:
    assert joined_parts(fact) == parts


def test_a_change_in_the_same_message_ends_only_its_own_part() -> None:
    after = facts_after("I'm pregnant and take metformin. I had the baby on Sunday.")
    assert after == ["User takes metformin"]


def test_a_habit_given_up_ends_only_its_own_part() -> None:
    told = "I drink cola every day and take levothyroxine."
    after = facts_after(told, "I quit drinking cola.")
    assert "User takes levothyroxine" in after
    assert not any("every day" in fact for fact in after)


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm coeliac and pregnant.", ["User is coeliac", "User is pregnant"]),
        ("I'm epileptic and vegan.", ["User is epileptic", "User is vegan"]),
        ("I am divorced and diabetic.", ["User is divorced", "User is diabetic"]),
        ("I'm single and cheerful.", ["User is single"]),  # (a mood is no fact)
        ("I'm sleepy and cold.", []),
    ],
)
def test_two_descriptions_joined_are_each_read(said: str, stored: list[str]) -> None:
    # "I'm diabetic and vegan" matched no rule as a whole and stored nothing, two needs lost
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # "I'm" is left out after the first description and a comma: the rest was dropped
        (
            "I'm 41, epileptic and vegan.",
            ["User is 41 years old", "User is epileptic", "User is vegan"],
        ),
        (
            "I'm divorced, coeliac and pregnant.",
            ["User is divorced", "User is coeliac", "User is pregnant"],
        ),
        (
            "I'm a welder, diabetic and live in Hull.",
            ["User is a welder", "User is diabetic", "User lives in Hull"],
        ),
        # …not a clause of its own, nor a list of a need's things, nor a mood
        ("I'm a single dad, so evenings are chaotic.", ["User is a single dad"]),
        ("I'm allergic to kiwi, lupin and sesame.", ["User is allergic to kiwi, lupin and sesame"]),
        ("I'm sleepy, hungry and cold.", []),
    ],
)
def test_descriptions_listed_after_a_comma_are_each_read(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # (attacker 339: the whole clause was stored, "User is vegan and hubby allergic to nuts")
        ("I'm vegetarian and hubby allergic to cashews.", ["User is vegetarian"]),
        ("I'm coeliac and both kids diabetic.", ["User is coeliac"]),
        ("I'm pescatarian and the twins vegan.", ["User is pescatarian"]),
    ],
)
def test_a_second_description_of_someone_else_is_not_the_users(
    said: str, stored: list[str]
) -> None:
    assert facts_after(said) == stored
