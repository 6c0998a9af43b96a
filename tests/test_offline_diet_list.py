"""Diets said together are kept apart: "I'm vegan and gluten-free" stored nothing, and
"I'm vegan, gluten-free and sober" stored only the first."""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.text import candidates_from_text
from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        ("I'm dairy-free and kosher.", ["User is dairy-free", "User is kosher"]),
        ("I am paleo and also sober", ["User is paleo", "User is sober"]),
        (
            "I'm vegetarian, nut-free and teetotal",
            ["User is vegetarian", "User is nut-free", "User is teetotal"],
        ),
        (
            "I'm mostly plant-based and sugar-free these days",
            ["User is mostly plant-based these days", "User is mostly sugar-free these days"],
        ),
        ("I'm pescatarian and halal too!", ["User is pescatarian", "User is halal"]),
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
            "I'm kosher, vegan and soy-free",
            "I'm not vegan anymore",
            ["User is kosher", "User is soy-free"],
        ),
        ("I'm vegetarian and dairy-free", "I'm no longer vegetarian and dairy-free", []),
    ],
)
def test_one_diet_of_a_list_is_withdrawn_alone(first: str, now: str, kept: list[str]) -> None:
    assert facts_after(first, now) == kept


@pytest.mark.parametrize(
    "said",
    [
        "I was vegan and gluten-free at university",
        "I used to be keto and sugar-free",
        "My partner is keto and dairy-free",
        "I'm not paleo and sugar-free",
        "Are you vegan and nut-free?",
        "I'm buying vegan and gluten-free bread",
        "If I were vegan and soy-free I'd starve",
    ],
)
def test_a_past_someone_elses_or_an_unsaid_list_is_no_diet_of_the_users(said: str) -> None:
    assert not any(c.constraint and c.content for c in candidates_from_text(said))


@pytest.mark.parametrize(
    "said",
    [
        # past, given up or negated before a comma: the list is not split into current diets
        "I'm no longer paleo, halal and teetotal",
        "I gave up being keto, sugar-free and sober",
        "I was pescatarian, nut-free and sober back then",
        "I'm never dairy-free, keto and sober",
        # a tail that may take the list back leaves it unsplit
        "I'm keto and dairy-free, not really",
        "I'm paleo and sober, or at least I was",
        "I'm halal and nut-free, in my dreams",
        "I'm kosher and keto, sort of",
    ],
)
def test_a_list_given_up_or_taken_back_stores_no_current_diet(said: str) -> None:
    # A comma split it, and each diet after it was read as the user's now (attacker 95).
    assert not any(c.constraint and not c.retract for c in candidates_from_text(said))


def test_plant_diets_said_together_do_not_end_each_other() -> None:
    # Split, "vegetarian now" and "vegan now" each ended the other: nothing was left.
    assert facts_after("I'm vegan", "I'm pescatarian and vegetarian now") != []


def test_a_diet_said_twice_in_a_list_is_one_fact() -> None:
    found = candidates_from_text("I'm keto, sober and Keto")
    assert [c.content for c in found] == ["User is keto", "User is sober"]
