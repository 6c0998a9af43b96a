"""What the user says they fear, get sick from travelling, learn or want of work, in Chinese.

Before: "我怕狗", "我很怕蛇", "我怕冷", "我恐高", "我有点晕车" stored nothing (too short for the
own-words fallback, and no rule); "我开始学游泳了" stored nothing while "I started learning to
swim" is kept; "我想换工作" was refused with "我想换个话题" (a change of topic is a request).
A worry of the moment ("我怕来不及", "我怕你误会") is still no fact.

Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("我怕猫。", "用户怕猫"),
        ("我特别怕蜘蛛。", "用户特别怕蜘蛛"),
        ("我很怕热。", "用户很怕热"),
        ("我害怕打雷。", "用户害怕打雷"),
        ("我恐高。", "用户恐高"),
        ("我晕船。", "用户晕船"),
        ("我有点晕机。", "用户有点晕机"),
        ("我开始学滑雪了。", "用户开始学滑雪了"),
        ("我在学书法。", "用户在学书法"),
        ("我想换份工作。", "用户想换份工作"),
        ("我打算换行业。", "用户打算换行业"),
    ],
)
def test_what_the_user_fears_learns_or_wants_is_stored(said: str, stored: str) -> None:
    assert facts_after(said) == [stored]


@pytest.mark.parametrize(
    "said",
    [
        "我怕赶不上。",
        "我怕你不高兴。",
        "我怕麻烦你。",
        "我怕说错。",
        "我想换个话题。",
        "我在学校。",
    ],
)
def test_a_worry_of_the_moment_or_a_request_is_not(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize("left", ["我从美团辞职了。", "我从京东离职了。"])
def test_leaving_a_named_employer_ends_the_job(left: str) -> None:
    # ("我从X辞职了" kept "用户在美团工作": only "我辞职了" ended the job)
    after = facts_after("我在美团工作。" if "美团" in left else "我在京东工作。", left)
    assert not any("工作" in fact for fact in after), after
    assert after and "职了" in after[0]


@pytest.mark.parametrize("said", ["好像不太对", "感觉不太对。", "我总觉得有点不对劲。"])
def test_a_doubt_of_the_moment_is_no_fact(said: str) -> None:
    # ("好像不太对" was stored as "用户好像不太对" beside the correction it signals: helper 360)
    assert facts_after(said) == []
