"""What a Chinese-speaking user used to be withdraws what was stored, as "I used to be…" does.

"我以前吃素，现在吃肉了" kept the stored "用户吃素" beside "用户以前吃素", and lost
"现在吃肉": the diet, a constraint shown first on every turn, contradicted itself.
"""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.text import candidates_from_text
from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("before", "now", "facts"),
    [
        ("我吃素。", "我以前吃素，现在吃肉了。", ["用户以前吃素", "用户现在吃肉"]),
        ("我吃素。", "我以前吃素。", ["用户以前吃素"]),
        ("我是一名护士。", "我之前是护士。", ["用户之前是护士"]),
        ("我对芒果过敏。", "我以前对芒果过敏。", ["用户以前对芒果过敏"]),
        ("我在一家银行上班。", "我曾经在一家银行上班。", ["用户曾经在一家银行上班"]),
        ("我是程序员。", "我以前是程序员，现在是老师了。", ["用户以前是程序员", "用户现在是老师"]),
        # what no rule reads is not kept: "现在改喝茶" might be anyone's or anything's
        ("我喜欢喝可乐。", "我以前喜欢喝可乐，现在改喝茶了。", ["用户以前喜欢喝可乐"]),
    ],
)  # fmt: skip
def test_what_the_user_used_to_be_replaces_the_stored_fact(
    before: str, now: str, facts: list[str]
) -> None:
    assert facts_after(before, now) == facts


@pytest.mark.parametrize(
    ("before", "now"),
    [
        ("我喜欢爬山。", "我以前就喜欢爬山。"),  # still so
        ("我喜欢爬山。", "我以前也喜欢爬山。"),
        ("我去过冰岛。", "我以前去过冰岛。"),  # an experience, not a past state
        ("我吃素。", "我以前不吃素。"),  # a negation: not read as a change
        # said to hold still (attacker 60): the allergy, diet, job or home stays
        ("我对芒果过敏。", "我曾经对芒果过敏，现在还是过敏。"),
        ("我对芒果过敏。", "我以前对芒果过敏，现在更严重了。"),
        ("我对芒果过敏。", "我以前对芒果过敏，现在也是。"),
        ("我吃素。", "我以前吃素，现在依然吃素。"),
        ("我是护士。", "我以前是护士，现在仍然是护士。"),
        ("我住在上海。", "我以前住在上海，至今没搬。"),
    ],
)
def test_a_past_that_still_holds_withdraws_nothing(before: str, now: str) -> None:
    assert facts_after(before, now)[0] == "用户" + before.removeprefix("我").removesuffix("。")


@pytest.mark.parametrize(
    "said",
    [
        # an event done, a thing or person of the user's, or "the time when" (attacker 60)
        "我之前约了牙医",
        "我之前买了一辆二手车",
        "我以前吃素的时候瘦了五斤",
        "我以前的手机，现在坏掉了",
        "我以前的上司是律师，现在当法官了",
        "我以前室友吃素，现在吃肉了",
        "我之前问过，现在明白了",
        "其实我对虾不过敏，之前是误诊",
        "抱歉，之前打错了，是李娜",
        "之前说我住在成都，其实我搬走了",
    ],
)
def test_the_conversation_or_a_mistake_is_no_past_of_the_user(said: str) -> None:
    # Nothing is withdrawn, and no "现在…" is kept as the user's new state.
    found = candidates_from_text(said)
    assert not any(c.retract for c in found), found
    assert not any("现在" in c.content for c in found), found


def test_now_alone_with_le_is_still_a_moment() -> None:
    # "我现在吃饭了" is a meal; only after what the user used to do is "现在…了" a new state.
    assert [c.content for c in candidates_from_text("我现在吃饭了")] == []
    assert [c.content for c in candidates_from_text("我现在去上班了")] == []
