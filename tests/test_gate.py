"""The extraction gate (issue 10 item 3): it skips the model only for turns it recognises as
teaching nothing about the user, and never for a self-statement of the tables it was fixed on.

The tables live in ``tests/gate_turns.py`` (in-sample) and ``tests/gate_heldout.py``
(held-out, then fresh); ``python bench/gate.py`` prints their figures and the stream skip rate.
"""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory.capture.gate import burst_needs_model, is_self_referential
from deerflow_memory.capture.signals import SignalDetector
from tests.gate_heldout import FRESH, HELDOUT, GateTurn, gate_keeps
from tests.gate_turns import TABLE

IN_SAMPLE = tuple(GateTurn(text, about) for text, about in TABLE)


def _has_chinese(text: str) -> bool:
    return any("\u4e00" <= c <= "\u9fff" for c in text)


@pytest.mark.parametrize(
    ("turns", "at_least"), [(IN_SAMPLE, 100), (HELDOUT, 150), (FRESH, 60)], ids=str
)
def test_each_table_is_large_zh_and_en_and_half_self_statements(
    turns: tuple[GateTurn, ...], at_least: int
) -> None:
    assert len(turns) >= at_least
    assert 0.4 <= sum(_has_chinese(t.text) for t in turns) / len(turns) <= 0.6
    assert 0.45 <= sum(t.about_user for t in turns) / len(turns) <= 0.55


@pytest.mark.parametrize(
    "turns", [IN_SAMPLE, HELDOUT, FRESH], ids=["in-sample", "held-out", "fresh"]
)
def test_the_gate_never_skips_a_self_statement_of_a_table(turns: tuple[GateTurn, ...]) -> None:
    detector = SignalDetector()
    assert [t.text for t in turns if t.about_user and not gate_keeps(t, detector)] == []


@pytest.mark.parametrize("turns", [IN_SAMPLE, HELDOUT], ids=["in-sample", "held-out"])
def test_the_gate_skips_most_turns_that_say_nothing_about_the_user(
    turns: tuple[GateTurn, ...],
) -> None:
    detector = SignalDetector()
    others = [t for t in turns if not t.about_user]
    skipped = [t for t in others if not gate_keeps(t, detector)]
    assert len(skipped) / len(others) >= 0.9


@pytest.mark.parametrize(
    "text",
    [
        "vegan since forever",
        "Two kids, both in primary school.",
        "家里养了一只狗",
        "不喝咖啡",
        "Heading to Rome on the 3rd, any must-see places?",
        "腰不好，推荐个办公椅",
        "Suggest a weekend plan, toddler in tow",
        "Should I accept the job offer from Acme?",
    ],
)
def test_a_statement_without_a_first_person_is_kept(text: str) -> None:
    assert is_self_referential(text)


@pytest.mark.parametrize(
    "text",
    [
        "can I sort a dict by value?",
        "我能在 Windows 上装 Redis 吗",
        "translate to german: I am tired and my feet hurt",
        "把下面这句翻译成英文：我今天很累",
        "```\nmy_list = [1, 2]  # I want this sorted\n```\nwhat does this do",
        "Explain recursion like I'm five.",
        "thanks, that helps!",
        "好的，明白了",
        "如果我们用 B 树会怎样",
    ],
)
def test_a_question_request_or_small_talk_is_skipped_even_with_a_first_person(text: str) -> None:
    assert not is_self_referential(text)


@pytest.mark.parametrize(
    "text",
    [
        "给我儿子推荐几本适合8岁孩子的书",
        "帮我儿子找个钢琴老师",
        "给我女儿推荐个夏令营",
        "为我老公挑一款剃须刀",
        "替我妈挂个专家号",
        "推荐几本书给我8岁的儿子",
        "帮我家猫选一款猫粮",
        "给我的狗起个名字",
        "Recommend books for my 8-year-old son",
    ],
)
def test_a_request_for_someone_in_the_users_life_is_kept(text: str) -> None:
    # "给我儿子推荐…" is "Recommend … for my son": the son is the user's, a fact to learn.
    assert is_self_referential(text)


@pytest.mark.parametrize(
    "text",
    [
        "给我推荐几本书",
        "给我推荐适合孩子的书",
        "帮我先生成一个列表",
        "帮我们写个周报",
        "给我讲个笑话",
    ],
)
def test_a_zh_request_for_the_user_alone_is_still_skipped(text: str) -> None:
    assert not is_self_referential(text)


def test_a_bare_answer_is_kept_after_a_question_but_not_after_an_offer() -> None:
    yes = [HumanMessage("yes")]
    assert burst_needs_model(yes, context=[AIMessage("Do you have any pets?")])
    assert burst_needs_model(yes, context=[AIMessage("预算大概多少？")])
    assert not burst_needs_model(yes, context=[AIMessage("Want me to add type hints too?")])
    assert not burst_needs_model(yes, context=[AIMessage("要不要我再举个例子？")])
    assert not burst_needs_model(yes, context=[AIMessage("Paris is the capital of France.")])
