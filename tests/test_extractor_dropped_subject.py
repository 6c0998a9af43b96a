"""Offline extraction of tastes, diets and goals said without "I"; "can't" asks nothing."""

from __future__ import annotations

import pytest

from deerflow_memory.models import FactCategory
from deerflow_memory.update.offline.extractor import candidates_from_text

STATED = [
    # a taste with the subject dropped
    ("Big fan of rainy-day museums over crowded theme parks.", "fan of rainy-day museums"),
    ("huge fan of dark roast coffee", "fan of dark roast coffee"),
    ("Honestly cannot stand reality TV.", "cannot stand reality TV"),
    ("can't stand cilantro, so leave it out", "cannot stand cilantro"),
    ("can't bear loud restaurants", "cannot bear loud restaurants"),
    ("not a fan of long meetings, so keep the agenda tight", "not a fan of long meetings"),
    ("I like hiking, can't stand running", "cannot stand running"),
    # what the user cannot eat, without "I", before a question
    ("Can't eat gluten, any bakeries nearby?", "cannot eat gluten"),
    ("I'm celiac, can't eat bread, what can I order?", "cannot eat bread"),
    # a taste said of the thing
    ("Jazz is my jam.", "loves jazz"),
    ("Board games are totally my thing.", "loves board games"),
    ("NYC bagels are my comfort food", "loves NYC bagels"),
    # a goal with a time and a colon
    ("goal for this year: read 40 books. any short ones?", "goal: read 40 books"),
    ("New year's resolution: learn to swim", "goal: learn to swim"),
    ("Resolution for 2027: run a 10k", "goal: run a 10k"),
    ("My goal this year is to read 30 books.", "goal this year is to read 30 books"),
]

NOTHING = [
    "Can't stand Mondays lol",  # a mood
    "Can't stand this answer, redo it.",  # about the assistant's work
    "can't stand it when you do that",
    "Not a fan of that draft.",
    "big fan of your previous suggestion",
    "Can't wait for the weekend!",
    "can't you just answer",
    "That is my thing",
    "Your answer is my go-to now",
    "Goal: fix the login bug",  # a task, not a goal
    "goal for this sprint: ship the API",
    "My plan: book flights then hotels",
]


@pytest.mark.parametrize(("sentence", "expected"), STATED)
def test_it_is_stored(sentence: str, expected: str) -> None:
    contents = [c.content for c in candidates_from_text(sentence) if c.content]
    assert any(expected.casefold() in c.casefold() for c in contents), contents


@pytest.mark.parametrize("sentence", NOTHING)
def test_nothing_is_stored(sentence: str) -> None:
    assert [c.content for c in candidates_from_text(sentence) if c.content] == []


def test_the_kinds_keep_their_categories() -> None:
    (taste,) = candidates_from_text("Sci-fi is my jam")
    (goal,) = candidates_from_text("New year's resolution: learn to swim")
    (diet,) = candidates_from_text("Can't eat gluten, any bakeries nearby?")
    assert (taste.category, goal.category, diet.category) == (
        FactCategory.PREFERENCE,
        FactCategory.GOAL,
        FactCategory.PREFERENCE,
    )
    assert diet.confidence >= 0.9
