"""Chinese: steps of a life and what a household does are the user's; a detail of the clause
before (how far, how long, what is around, not used to it yet) is no fact of its own."""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.text import candidates_from_text


def _contents(text: str) -> list[str]:
    return [c.content for c in candidates_from_text(text) if c.content]


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        # a step of a life, said with 刚 or 了
        ("我上个月刚毕业。", "用户上个月刚毕业"),
        ("我刚入职，还在试用期。", "用户刚入职"),
        ("我去年添了个女儿。", "用户去年添了个女儿"),
        ("我当爸爸了！", "用户当爸爸了"),
        ("我前年买了房。", "用户前年买了房"),
        ("我和朋友合伙开了一家奶茶店。", "用户合伙开了一家奶茶店（和朋友一起）"),
        ("我开了一间工作室。", "用户开了一间工作室"),
        # how long something was done, said before what it was
        ("我教了八年书。", "用户教了八年书"),
        ("我跑了三年外卖。", "用户跑了三年外卖"),
        # alone, or living with someone
        ("我一个人生活。", "用户一个人生活"),
        ("我和奶奶住在一起。", "用户和奶奶住在一起"),
        ("我跟表哥合租。", "用户跟表哥合租"),
        ("我和外婆一起住。", "用户和外婆一起住"),
        # (helper 364) "在一起住", "住一起": the same, never "用户住在一起（和…一起）"
        ("我跟姐姐在一起住。", "用户跟姐姐在一起住"),
        ("我跟表弟住一起。", "用户跟表弟住一起"),
        # what the household eats
        ("我们全家都不吃牛肉。", "用户不吃牛肉"),
        ("我们家一直吃素。", "用户吃素"),
    ],
)
def test_it_is_stored(said: str, fact: str) -> None:
    assert fact in _contents(said)


@pytest.mark.parametrize(
    "said",
    [
        "我开了空调。",  # an errand, not a shop
        "我开了个会。",
        "我买了个包。",
        "我等了两个月。",  # how long, of nothing said
        "我要一个人去旅行。",  # a plan for once
        "我们都喜欢用Go。",  # a team's "we"
        "我不太熟悉。",  # used to what?
        # (helper 364) alone for once, or an errand or a wait so long
        "我一个人去的。",
        "我一个人在家好无聊。",
        "我一个人搞不定。",
        "我请了一个月假。",
        "我打了一个月针。",
        "我拖了一年多。",
        "我等了半年多的签证。",
    ],
)
def test_nothing_is_stored(said: str) -> None:
    assert _contents(said) == []


@pytest.mark.parametrize(
    ("said", "fact", "not_alone"),
    [
        ("我每天骑车上学，来回四十分钟。", "用户每天骑车上学，来回四十分钟", "用户来回四十分钟"),
        ("我住在新区，离老城区有点远。", "用户住在新区，离老城区有点远", "用户离老城区有点远"),
        # (helper 364) how far said as how long, and how the place is reached
        (
            "我住在城西，离学校走路五分钟。",
            "用户住在城西，离学校走路五分钟",
            "用户离学校走路五分钟",
        ),
        (
            "我住在城北，离医院开车半小时。",
            "用户住在城北，离医院开车半小时",
            "用户离医院开车半小时",
        ),
        ("我住在镇上，交通不太方便。", "用户住在镇上，交通不太方便", "用户交通不太方便"),
    ],
)
def test_how_far_or_how_long_stays_with_the_clause_before(
    said: str, fact: str, not_alone: str
) -> None:
    contents = _contents(said)
    assert fact in contents
    assert not_alone not in contents


@pytest.mark.parametrize(
    ("said", "kept", "not_a_fact"),
    [
        ("我刚搬到杭州，还不太习惯。", "用户住在杭州", "用户不太习惯"),
        ("我刚换了部门，还在适应。", None, "用户在适应"),
        ("我开车上班，路上经常堵车。", "用户开车上班", "用户路上经常堵车"),
        ("我住在城郊，附近没有超市。", "用户住在城郊", "用户附近没有超市"),
    ],
)
def test_a_detail_of_the_clause_before_is_no_fact_of_its_own(
    said: str, kept: str | None, not_a_fact: str
) -> None:
    contents = _contents(said)
    assert not_a_fact not in contents
    if kept is not None:
        assert any(c.startswith(kept) for c in contents), contents


def test_a_text_about_the_users_of_a_product_is_not_the_users() -> None:
    assert _contents("用户反馈说加载太慢。") == []
