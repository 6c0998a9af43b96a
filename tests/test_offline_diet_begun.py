"""A diet the user has begun is stored: "我最近开始吃素" and "我已经改吃素了" were lost,
and "I'm vegan since 2015" (said in the present, as many do) stored nothing."""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.text import candidates_from_text


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("我最近开始吃素", "用户最近开始吃素"),
        ("我上个月开始吃素了", "用户上个月开始吃素了"),
        ("我已经改吃素了", "用户已经改吃素了"),
        ("我转为吃纯素了", "用户转为吃纯素了"),
    ],
)
def test_a_diet_begun_is_a_constraint(said: str, fact: str) -> None:
    [candidate] = candidates_from_text(said)
    assert (candidate.content, candidate.constraint) == (fact, True)


@pytest.mark.parametrize("said", ["我吃素了", "我今天开始吃素了", "我开始吃早饭了"])
def test_a_meal_or_a_day_is_no_diet(said: str) -> None:
    # "我吃素了" may be one meal; "今天" makes it the day's; breakfast is no diet.
    assert not any(c.constraint for c in candidates_from_text(said))


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I'm vegan since 2015", "User is vegan since 2015"),
        ("I'm strictly kosher since 2019.", "User is strictly kosher since 2019"),
        ("I'm pescatarian since last spring", "User is pescatarian since last spring"),
    ],
)
def test_a_diet_said_in_the_present_since_a_date_is_a_constraint(said: str, fact: str) -> None:
    [candidate] = candidates_from_text(said)
    assert (candidate.content, candidate.constraint) == (fact, True)
