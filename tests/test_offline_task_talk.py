"""Talk about the task at hand is no lasting fact about the user.

Most of a coding or office chat's first-person sentences were kept in the user's own
words: "User has a dataframe with 3 columns", "User has to go", "用户每次运行都报错"
(attacker 68: 30 of 46 such sentences). Choosing among the answer's options ("the old
version", "第二个方案") is no taste either. Lasting facts in the same words stay.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    "said",
    [
        "i have a spreadsheet with two tabs",
        "I keep getting a TypeError on line 12",
        "i'm getting a 500 error from the login page",
        "I've tried clearing the cache",
        "I have a column called price_usd",
        "sorry i have to run",
        "I only have 15 minutes",
        "I prefer the second draft",
        "我有个疑问",
        "我一运行就报错",
        "我有一个文件叫data.csv",
        "我更喜欢第一版",
    ],
)
def test_task_talk_is_not_stored(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I write SQL for a living", "User writes SQL for a living"),
        ("I have a cat called Miso", "User has a cat called Miso"),
        ("I cycle to work every day", "User cycles to work every day"),
        ("我每天都写代码", "用户每天都写代码"),
    ],
)
def test_lasting_facts_in_the_same_words_stay(said: str, fact: str) -> None:
    assert facts_after(said) == [fact]


@pytest.mark.parametrize("said", ["我下午有个面试", "我下午要开会"])
def test_an_event_of_today_is_not_stored(said: str) -> None:
    assert facts_after(said) == []


def test_a_need_at_night_is_still_stored() -> None:
    assert facts_after("我晚上睡觉要戴牙套") == ["用户晚上睡觉要戴牙套"]


def test_id_like_to_with_a_goal_verb_is_a_goal_and_with_an_errand_nothing() -> None:
    # (newcomer 47: "I'd like to…" goals were missed; "I want to…" ones were kept)
    assert facts_after("I'd like to learn the cello someday") == [
        "User would like to learn the cello someday"
    ]
    assert facts_after("I'd like to order a pizza") == []
