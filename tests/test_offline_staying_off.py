"""Diets said as what the user stays off, and two wordings around them.

Before: "I'm avoiding gluten", "I'm off sugar", "I'm staying away from dairy" stored nothing
(no rule knew "avoiding"/"off" with "I'm"); "I'm pescatarian, so fish is fine" stored "User
fishes is fine" (a thing said of read as the verb "fish") and "I fish and sail" "User
fishes and sail"; a contrast kept in a fact stayed
in the first person ("User eats vegan at home, not when I go out").

Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm avoiding gluten.", "User avoids gluten"),
        ("I'm off carbs for now.", "User avoids carbs"),
        ("i'm off sugar lol", "User avoids sugar"),
        ("I'm staying away from dairy for my skin.", "User avoids dairy"),
        ("I'm strictly avoiding alcohol.", "User avoids alcohol"),
        ("I'm cutting out caffeine completely.", "User avoids caffeine"),
    ],
)
def test_what_the_user_stays_off_is_a_need(said: str, stored: str) -> None:
    assert facts_after(said) == [stored]


@pytest.mark.parametrize(
    "said",
    [
        "I'm off work today.",
        "I'm off to the shops.",
        "I'm avoiding my landlord.",
        "I'm off amoxicillin now.",
        "I'm off simvastatin.",
    ],
)
def test_a_day_off_an_errand_or_a_medicine_stopped_is_no_diet(said: str) -> None:
    assert not any("avoids" in fact for fact in facts_after(said))


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm pescatarian, so fish is fine.", ["User is pescatarian"]),
        ("I'm vegan, but honey is ok.", ["User is vegan"]),
        # (and a second pastime after the first is a verb too: "fishes and sails")
        ("I swim, fish and sail.", ["User swims", "User fishes and sails"]),
    ],
)
def test_a_thing_said_of_is_no_verb(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


def test_a_contrast_kept_in_a_fact_is_in_the_third_person() -> None:
    assert facts_after("I drink wine but not when I'm driving.") == [
        "User drinks wine, not when they're driving"
    ]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a need said with "need to"/"have to": a rule reads it, so a "lol" after it does not
        # drop it as a mood (the own-words reading did, helper 356)
        ("I need to avoid salt lol", "User needs to avoid salt"),
        ("I have to cut back on sugar lol", "User has to cut back on sugar"),
        ("My doctor told me to cut back on caffeine lol", "User needs to cut back on caffeine"),
    ],
)
def test_a_need_said_with_lol_is_still_a_need(said: str, stored: str) -> None:
    assert facts_after(said) == [stored]


def test_an_errand_at_a_college_is_no_goal() -> None:
    assert facts_after("I'm going to college to collect my daughter.") == []


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a need said as what the user may not have
        ("I'm not allowed to have caffeine.", ["User is not allowed to have caffeine"]),
        ("I'm not supposed to eat salt or sugar.", ["User is not supposed to eat salt or sugar"]),
        # a run of "no …" ended by one "for me": each is the user's (only the last was read)
        (
            "No pork, no shellfish, no alcohol for me.",
            ["User avoids pork", "User avoids shellfish", "User avoids alcohol"],
        ),
        # a reaction said with "jittery"
        ("Espresso makes me jittery.", ["User reacts to espresso: it makes them jittery"]),
    ],
)
def test_more_ways_of_saying_a_need(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    "said",
    ["I'm not allowed to take ibuprofen.", "No problem, no worries for me.", "No, no, not for me."],
)
def test_a_medicine_or_a_polite_no_is_no_diet(said: str) -> None:
    assert not any("avoids" in f or "allowed" in f for f in facts_after(said))
