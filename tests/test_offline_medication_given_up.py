"""A medication given up, and a thing given up that is no allergy over.

Before: "I don't take lisinopril anymore" stored "User does not take lisinopril" beside "User
takes lisinopril", and "My cardiologist took me off atorvastatin" and "我已经停了阿司匹林"
withdrew nothing. Worse, giving a thing up withdrew an allergy to it: "I stopped taking
amoxicillin", "I gave up walnuts" and "I no longer have dogs" each lost the allergy (a need
lost). Now a medication given up withdraws the medication; an allergy, intolerance or
sensitivity goes by its thing alone only when what was said of it is taken back ("Forget what
I said about walnuts"). Sentences are this project's own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from deerflow_memory.inject.constraints import is_constraint
from tests.test_offline_context import _said_in_turns
from tests.test_quality_kinds import facts_after, facts_of_one_update


@pytest.mark.parametrize(
    ("told", "later", "stored"),
    [
        ("I take lisinopril.", "I don't take lisinopril anymore.", []),
        ("I take insulin and metformin.", "I no longer take insulin.", ["User takes metformin"]),
        ("I take sertraline.", "I'm not on sertraline anymore.", []),
        ("I take atorvastatin.", "My cardiologist took me off atorvastatin last month.", []),
        ("我在吃阿司匹林。", "我已经停了阿司匹林。", []),
        ("我每天打胰岛素。", "医生让我停用胰岛素了。", []),
    ],
)
def test_a_medication_given_up_is_withdrawn(told: str, later: str, stored: list[str]) -> None:
    assert facts_after(told) != []  # (so the test cannot pass by nothing being read)
    assert facts_after(told, later) == stored


@pytest.mark.parametrize(
    ("told", "later"),
    [
        # for a while only
        ("I take lisinopril.", "I don't take lisinopril anymore, only until the scan."),
        ("I take lisinopril.", "My doctor took me off lisinopril for now."),
        ("I take lisinopril.", "I'm off lisinopril now."),
        # a thing given up is no allergy over
        ("I'm allergic to amoxicillin.", "I stopped taking amoxicillin."),
        ("I'm allergic to amoxicillin.", "I'm no longer taking amoxicillin."),
        ("I'm allergic to walnuts.", "I gave up walnuts."),
        ("I'm allergic to dogs.", "I no longer have dogs."),
        ("I'm allergic to ibuprofen.", "I don't take ibuprofen anymore."),
        ("我对阿司匹林过敏。", "我已经停了阿司匹林。"),
        # no medicine ("停了" a bicycle is parking it)
        ("我有一辆自行车。", "我停了自行车。"),
    ],
)
def test_what_is_not_given_up_for_good_stays(told: str, later: str) -> None:
    stored = facts_after(told)
    assert stored != []
    assert all(fact in facts_after(told, later) for fact in stored)


@pytest.mark.parametrize(
    ("told", "later"),
    [
        ("I'm allergic to walnuts.", "Forget what I said about walnuts."),
        ("I'm allergic to walnuts.", "I was wrong about walnuts."),
        ("I'm allergic to walnuts.", "I'm no longer allergic to walnuts."),
        ("我对核桃过敏。", "忘掉我说的核桃那条。"),
        ("我对核桃过敏。", "我之前说对核桃过敏是说错了。"),
    ],
)
def test_what_was_said_of_an_allergy_taken_back_withdraws_it(told: str, later: str) -> None:
    assert facts_after(told) != []
    assert facts_after(told, later) == []


@pytest.mark.parametrize(
    ("told", "later"),
    [
        # "I stopped taking X" is a medication's stop too: a limit stays, a while keeps it
        ("I can't take naproxen or ibuprofen.", "I stopped taking ibuprofen."),
        ("I take atenolol.", "I stopped taking atenolol. Only for a fortnight."),
    ],
)
def test_stopped_taking_is_a_medications_stop(told: str, later: str) -> None:
    stored = facts_after(told)
    assert stored != []
    assert facts_after(told, later) == stored


@pytest.mark.parametrize(
    ("told", "later"),
    [
        ("我在吃华法林。", "我把华法林停了。"),
        ("我每天吃布洛芬。", "医生让我把布洛芬停掉了。"),
        ("我在吃奥美拉唑。", "我已经不吃奥美拉唑了。"),
        ("我在用胰岛素。", "我现在不用胰岛素了。"),
        ("我在吃舍曲林。", "我已经不再服用舍曲林了。"),
    ],
)
def test_a_chinese_medication_given_up_by_its_names_ending_is_withdrawn(
    told: str, later: str
) -> None:
    assert facts_after(told, later) == []


@pytest.mark.parametrize(
    ("told", "later"),
    [
        # an allergy or a limit stays when the thing is given up
        ("我对阿莫西林过敏。", "我把阿莫西林停了。"),
        ("我不能吃布洛芬。", "我已经不吃布洛芬了。"),
        # no drug is named
        ("我在吃华法林。", "我把车停了。"),
    ],
)
def test_what_a_chinese_stop_does_not_name_stays(told: str, later: str) -> None:
    assert facts_after(told, later) == facts_after(told) != []


@pytest.mark.parametrize(
    "later",
    [
        ["AI: Noted.", "Only for ten days, until the operation."],
        ["Just for a fortnight."],
        ["AI: Okay.", "Temporarily, my cardiologist wants a break."],
        ["AI: Got it.", "I'm restarting after the holidays."],
    ],
)
def test_a_stop_said_for_a_while_in_the_next_message_keeps_the_medication(
    later: list[str],
) -> None:
    turns = ["I take atenolol every morning.", "I stopped taking atenolol.", *later]
    assert "User takes atenolol every morning" in facts_of_one_update(*turns)


def test_a_while_word_later_in_the_next_message_or_two_messages_on_keeps_nothing() -> None:
    said = ["I take atenolol every morning.", "I stopped taking atenolol."]
    assert facts_of_one_update(*said, "I moved to Hull. Before that I lived in Goole.") == [
        "User moved to Hull"
    ]
    assert facts_of_one_update(*said, "Thanks.", "Just for a fortnight.") == []


@pytest.mark.parametrize(
    "later",
    [
        "我把华法林停了，做完胃镜再吃。",
        "我把华法林停了，就这几天。",
        "医生让我停用华法林了，等拆线再说。",
    ],
)
def test_a_chinese_stop_for_a_while_keeps_the_medication_and_stores_no_when(later: str) -> None:
    # "做完胃镜再吃" says when the medication starts again: no fact of its own
    assert facts_after("我在吃华法林。", later) == ["用户在吃华法林"]


def test_a_chinese_stop_of_a_drug_named_otherwise_for_a_while_keeps_it() -> None:
    # 左甲状腺素 ends in none of the drug endings the stops read first: the plain "不吃…了"
    # withdrew it whatever the while said (attackers 317/318's corpus, after this stop's lists)
    told = "我在吃左甲状腺素。"
    assert facts_after(told, "我现在不吃左甲状腺素了，下周复查完再说。") == ["用户在吃左甲状腺素"]
    assert facts_after(told, "我现在不吃左甲状腺素了。") == []


@pytest.mark.parametrize(
    ("told", "later"),
    [
        ("我在吃氯吡格雷。", "我把氯吡格雷停了。"),
        ("我每天吃二甲双胍。", "我不吃二甲双胍了。"),
        ("我每天打胰岛素。", "我现在不用胰岛素了。"),
    ],
)
def test_a_chinese_stop_withdraws_the_medication_with_the_services_need_test(
    tmp_path: Path, told: str, later: str
) -> None:
    # The service's need test reads "用户在吃氯吡格雷" as a need, which goes only when the
    # stop names it: "在吃" was read as part of what the need is of, so it never was
    # (attacker 337). Without that test the stop withdrew it all along.
    assert _said_in_turns(tmp_path, told, is_constraint=is_constraint) != []
    assert _said_in_turns(tmp_path / "later", told, later, is_constraint=is_constraint) == []
