""" "Me too" after the need of several people, or of one who "never" eats something.

Before: "My wife and son are allergic to eggs. Me too." and "Tom, Anna and my dad can't eat
gluten. Neither can I." stored nothing (only one person was read before the need), nor did
"My wife never eats pork. Me neither." ("never" was no need's verb) or "我老婆从来不吃猪肉，
我也不吃": the user's own need was lost. "王伟和李娜都对虾过敏" (two people named) was stored as
the user's need ("用户王伟和李娜都对虾过敏"). Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.rules import base_form
from tests.test_quality_kinds import facts_after, said_in_one_update


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("My wife and son are allergic to lentils. Me too.", ["User is allergic to lentils"]),
        (
            "My wife and my son are allergic to lentils, and so am I.",
            ["User is allergic to lentils"],
        ),
        ("Tom and Priya are allergic to lentils. Same here.", ["User is allergic to lentils"]),
        ("Both my kids are allergic to lentils. Me too.", ["User is allergic to lentils"]),
        ("Tom, Priya and my dad can't eat gluten. Neither can I.", ["User cannot eat gluten"]),
        ("My husband never eats lamb. Me neither.", ["User never eats lamb"]),
        ("My husband never eats lamb, and neither do I.", ["User never eats lamb"]),
        ("My aunt never touches dairy. Me neither.", ["User never touches dairy"]),
        ("My husband never drinks. Me neither.", ["User never drinks"]),
        ("我老婆和儿子都对扁豆过敏，我也是。", ["用户对扁豆过敏"]),
        ("王伟和李娜都对扁豆过敏，我也是。", ["用户对扁豆过敏"]),
        ("我老婆从来不吃羊肉，我也不吃。", ["用户不吃羊肉"]),
        ("我老婆从不吃羊肉。我也是。", ["用户不吃羊肉"]),
    ],
)
def test_me_too_after_the_need_of_several_people_or_a_never(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("first", "later", "stored"),
    [
        ("My wife and son are allergic to lentils.", "Me too.", ["User is allergic to lentils"]),
        ("My husband never eats lamb.", "Neither do I.", ["User never eats lamb"]),
        ("我老婆和儿子都对扁豆过敏。", "我也是。", ["用户对扁豆过敏"]),
    ],
)
def test_me_too_in_the_next_message(first: str, later: str, stored: list[str]) -> None:
    assert said_in_one_update(first, later) == stored


@pytest.mark.parametrize(
    "said",
    [
        "My husband never eats lamb. So do I.",  # "so" after a need that is not
        "My wife and son are doctors. Me too.",  # no need
        "Everyone and my wife are allergic to lentils. Me too.",  # nobody named first
        "王伟和李娜都对扁豆过敏。",  # theirs, not the user's
        "王伟和李娜都不吃辣。",
    ],
)
def test_what_is_not_the_users_need_stays_unsaid(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize(
    ("said", "verb"),
    [("eats", "eat"), ("touches", "touch"), ("has", "have"), ("uses", "use"), ("drinks", "drink")],
)
def test_the_verb_after_never_is_said_as_the_users(said: str, verb: str) -> None:
    # "never eats" is said again as "I never eat" (rules.base_form, which gave "ha" for "has")
    assert base_form(said) == verb
