"""A diet the user has begun is stored: "我最近开始吃素" and "我已经改吃素了" were lost,
and "I'm vegan since 2015" (said in the present, as many do) stored nothing."""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.text import candidates_from_text
from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("我最近开始吃素", "用户最近开始吃素"),
        ("我上个月开始吃素了", "用户上个月开始吃素了"),
        ("我已经改吃素了", "用户已经改吃素了"),
        ("我转为吃纯素了", "用户转为吃纯素了"),
        # said in the present since a date
        ("I'm vegan since 2015", "User is vegan since 2015"),
        ("I'm strictly kosher since 2019.", "User is strictly kosher since 2019"),
        ("I'm pescatarian since last spring", "User is pescatarian since last spring"),
    ],
)
def test_a_diet_begun_is_a_constraint(said: str, fact: str) -> None:
    found = candidates_from_text(said)
    [candidate] = [c for c in found if c.content]
    assert (candidate.content, candidate.constraint) == (fact, True)
    assert all(c.retract for c in found if not c.content)  # (only the diets it ends)


@pytest.mark.parametrize("said", ["我吃素了", "我今天开始吃素了", "我开始吃早饭了"])
def test_a_meal_or_a_day_is_no_diet(said: str) -> None:
    # "我吃素了" may be one meal; "今天" makes it the day's; breakfast is no diet.
    assert not any(c.constraint for c in candidates_from_text(said))


@pytest.mark.parametrize(
    "said", ["I'm vegan since you asked", "I'm vegan since never", "I'm keto since Monday lol"]
)
def test_since_what_is_no_time_makes_no_diet(said: str) -> None:
    # "since .+" stored these as constraints (attacker 87): only a time a diet began counts.
    assert not any(c.constraint for c in candidates_from_text(said))


@pytest.mark.parametrize(
    ("first", "now"),
    [
        ("I'm vegan since 2015", "I'm no longer vegan"),
        ("I've been vegetarian since I was 12.", "I stopped being vegetarian."),
        ("I'm vegan now.", "I'm not vegan anymore."),
        ("I'm strictly kosher since last spring", "I'm no longer kosher"),
    ],
)
def test_a_diet_with_its_start_or_a_now_is_withdrawn_like_the_bare_diet(
    first: str, now: str
) -> None:
    # "User is vegan since 2015" and "User is vegan now" outlived "I'm no longer vegan".
    assert facts_after(first, now) == []


@pytest.mark.parametrize(
    ("first", "now", "kept"),
    [
        ("I'm vegetarian.", "I'm vegan since 2015.", "User is vegan since 2015"),
        ("I'm vegan.", "I've been pescatarian since May.", "User has been pescatarian since May"),
    ],
)
def test_a_diet_held_since_a_time_ends_the_other_plant_diets(
    first: str, now: str, kept: str
) -> None:
    # Both diets stood, one contradicting the other (attacker 89).
    assert facts_after(first, now) == [kept]
