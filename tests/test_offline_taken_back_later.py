"""A statement taken back in a later message, and a field after a visit of someone else's.

Before: "Just kidding about the kiwi." as a message of its own (a later update) withdrew
nothing, while in the same message it did; "No kidding about…" is no taking back. And "My
son saw the allergist. Allergies: kiwi." stored the son's allergy as the user's, though "My
son's intake form. Allergies: kiwi." did not. Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after, facts_of_one_update


@pytest.mark.parametrize(
    ("told", "later", "stored"),
    [
        ("I'm allergic to kiwi.", "Just kidding about the kiwi.", []),
        (
            "I'm allergic to kiwi and lupin.",
            "Just kidding about the kiwi.",
            ["User is allergic to lupin"],
        ),
        ("I'm pescatarian.", "I was only joking about being pescatarian.", []),
        ("I play the bagpipes.", "Kidding about the bagpipes!", []),
        ("我对猕猴桃过敏。", "我说对猕猴桃过敏是开玩笑的。", []),
        ("我对猕猴桃过敏。", "猕猴桃那个是逗你的。", []),
    ],
)
def test_a_later_message_takes_a_statement_back(told: str, later: str, stored: list[str]) -> None:
    assert facts_after(told) != []  # (so the test cannot pass by nothing being read)
    assert facts_after(told, later) == stored


@pytest.mark.parametrize(
    "later",
    [
        "No kidding about the kiwi, it's serious.",
        "I'm not kidding about the kiwi.",
        "Just kidding about the weather.",
        "我不是开玩笑的。",
    ],
)
def test_what_takes_nothing_back_keeps_it(later: str) -> None:
    told = "我对猕猴桃过敏。" if "我" in later else "I'm allergic to kiwi."
    stored = facts_after(told)
    assert stored != []
    assert facts_after(told, later) == stored


def test_in_one_update_after_a_reply() -> None:
    turns = ("I'm allergic to kiwi and lupin.", "Just kidding about the kiwi.", "AI: Ha, okay.")
    assert facts_of_one_update(*turns) == ["User is allergic to lupin"]


@pytest.mark.parametrize(
    "said",
    [
        "My son saw the allergist. Allergies: kiwi.",
        "My son saw the allergist today.\nAllergies: kiwi, lupin",
        "My son had his allergy test. Allergies: kiwi.",
        "我儿子今天去看了过敏科。过敏：猕猴桃。",
    ],
)
def test_a_field_after_a_visit_of_someone_elses_is_theirs(said: str) -> None:
    assert facts_after(said) == []
    field = "过敏：猕猴桃。" if "过敏" in said else "Allergies: kiwi."
    assert facts_after(field) != []  # the same field alone is the user's


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("My son saw the allergist. I'm allergic to kiwi.", ["User is allergic to kiwi"]),
        ("My son saw the allergist. My allergies: kiwi.", ["User is allergic to kiwi"]),
        ("I saw the allergist. Allergies: kiwi.", ["User is allergic to kiwi"]),
    ],
)
def test_the_users_own_after_it_stays(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    "said",
    ["My nephew is here.", "Hold on, my nephew is here.", "The courier's here."],
)
def test_someone_arriving_is_no_description_of_the_user(said: str) -> None:
    # "<description> here" ("Pescatarian here.") told of the user; "my nephew is here" stored
    # "User: My nephew is"
    assert facts_after(said) == []
    assert facts_after("Pescatarian here.") == ["User: Pescatarian"]
