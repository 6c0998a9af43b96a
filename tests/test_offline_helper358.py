"""Helper 358: lists and reasons after what the user stays off; Chinese fears, lessons and a
change of work read too widely.

Before: "I'm avoiding dairy and sugar lol" and "I need to avoid salt and sugar lol" stored
nothing and "I'm avoiding gluten, dairy and soy" only "User avoids gluten" (the rules knew one
thing, not a list); "I'm off carbs for my son" stored "User avoids carbs" (a reason for
another person dropped); "我怕下雨", "我怕感冒了" (a worry of the moment), "我现在有点晕车" (how
the user feels now), "我开始学坏了", "我开始学你了" (a result, an imitation) and "我想换工作服"
(clothes changed) were stored.

Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm avoiding dairy and sugar lol", "User avoids dairy and sugar"),
        ("im off bread, pasta and rice for now", "User avoids bread, pasta and rice"),
        ("I'm staying away from beer and wine haha", "User avoids beer and wine"),
        ("I need to avoid salt and sugar lol", "User needs to avoid salt and sugar"),
        (
            "I have to cut back on coffee, tea and soda lol",
            "User has to cut back on coffee, tea and soda",
        ),
    ],
)
def test_a_list_of_things_stayed_off_is_kept_whole(said: str, stored: str) -> None:
    assert facts_after(said) == [stored]


@pytest.mark.parametrize(
    "said",
    [
        "I'm off carbs for my son.",
        "I'm avoiding gluten for my husband.",
        "I'm off sugar for my wedding.",
        "I'm off sugar and insulin lol",  # a medicine in the list
    ],
)
def test_a_reason_of_another_or_a_medicine_is_no_diet_of_the_user(said: str) -> None:
    assert not any("avoids" in fact for fact in facts_after(said))


def test_a_reason_of_the_users_own_health_is_still_dropped() -> None:
    assert facts_after("I'm off dairy for my gut.") == ["User avoids dairy"]
    assert facts_after("I need to stay off sugar for my teeth lol") == [
        "User needs to stay off sugar for their teeth"
    ]


@pytest.mark.parametrize(
    "said",
    [
        "我怕下雨",
        "我怕感冒了",
        "我怕钱不够",
        "我怕错过",
        "我现在有点晕车",
        "我刚晕船",
        "我开始学坏了",
        "我开始学会了",
        "我开始学你了",
        "我想换工作服",
        "我想换个城市的照片",
    ],
)
def test_a_moment_a_result_or_a_request_is_no_lasting_fact(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("我特别怕蜘蛛", "用户特别怕蜘蛛"),
        ("我也晕船", "用户晕船"),
        ("我开始学会计了", "用户开始学会计了"),
        ("我想换个工作试试", "用户想换个工作试试"),
        ("我一直想换行业", "用户一直想换行业"),
    ],
)
def test_fears_lessons_and_changes_of_work_are_still_read(said: str, stored: str) -> None:
    assert facts_after(said) == [stored]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I garden and cook.", "User gardens and cooks"),
        ("i box and run lol", "User boxes and runs"),
        ("I teach and coach.", "User teaches and coaches"),
    ],
)
def test_a_second_verb_said_last_is_in_the_third_person(said: str, stored: str) -> None:
    assert facts_after(said) == [stored]


def test_a_thing_after_a_taste_stays_a_thing() -> None:
    assert facts_after("I like football and travel.") == ["User likes football and travel"]
