"""A need the user was told of by a doctor or a test, or found out, is the user's.

Before: "My allergist says I'm allergic to sesame", "The doctor told me I'm allergic to
amoxicillin", "I just found out I'm allergic to latex", "My doctor told me to avoid gluten",
"医生说我对青霉素过敏", "检查结果显示我对尘螨过敏" and "我发现我对芒果过敏" stored nothing: the
need was lost because someone else seemed to be speaking. What anyone else says of the user
("My wife says I'm stubborn", "My mom says I'm allergic to walnuts, but she's wrong") is
still not stored. Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("My allergist says I'm allergic to sesame.", ["User is allergic to sesame"]),
        ("The doctor told me I'm allergic to amoxicillin.", ["User is allergic to amoxicillin"]),
        ("My GP said that I'm lactose intolerant.", ["User is lactose intolerant"]),
        ("The blood tests showed I have celiac disease.", ["User has celiac disease"]),
        (
            "My allergy test came back saying I'm allergic to cat dander.",
            ["User is allergic to cat dander"],
        ),
        ("My doctor told me to avoid gluten.", ["User needs to avoid gluten"]),
        ("My dietitian advised me to cut down on sugar.", ["User needs to cut down on sugar"]),
        ("My doctor said I need to avoid caffeine.", ["User needs to avoid caffeine"]),
        ("I just found out I'm allergic to latex.", ["User is allergic to latex"]),
        ("I've recently learned that I'm allergic to kiwi.", ["User is allergic to kiwi"]),
        ("I recently discovered I can't eat onions.", ["User cannot eat onions"]),
        ("医生说我对青霉素过敏。", ["用户对青霉素过敏"]),
        ("检查结果显示我对尘螨过敏。", ["用户对尘螨过敏"]),
        ("医生说我有高血压。", ["用户有高血压"]),
        ("医生叫我别吃海鲜。", ["用户不能吃海鲜"]),
        ("医生让我少吃盐。", ["用户需要少吃盐"]),
        ("医生让我戒酒。", ["用户需要戒酒"]),  # (newcomer 279: lost at fc55d8c)
        ("医生说我得戒烟。", ["用户需要戒烟"]),
        ("医生告诉我要少吃糖。", ["用户需要少吃糖"]),
        ("我最近才发现我对芒果过敏。", ["用户对芒果过敏"]),
        ("原来我对芒果过敏。", ["用户对芒果过敏"]),
    ],
)
def test_a_need_told_by_a_doctor_or_found_out_is_stored(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    "said",
    [
        "My wife says I'm stubborn.",
        "My friend says I'm a great cook.",
        "My mom says I'm allergic to walnuts, but she's wrong.",
        "My doctor thinks I'm allergic to latex.",  # a guess of the doctor's
        "The doctor said I'm fine.",
        "My doctor told me to rest.",
        "My boss told me to avoid Bob.",
        "医生说我没事。",
        "我发现我很喜欢这家店。",
    ],
)
def test_what_others_say_of_the_user_is_not_stored(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize(
    ("first", "later"),
    [
        ("I'm allergic to sesame.", "My allergist said I'm no longer allergic to sesame."),
        (
            "I'm allergic to sesame.",
            "My allergist says I'm no longer allergic to sesame, but she's wrong.",
        ),
        (
            "I'm allergic to sesame.",
            "The tests showed I'm no longer allergic to sesame, but I doubt it.",
        ),
        ("我对芝麻过敏。", "医生说我对芝麻不过敏了，但我不信。"),
        ("我对芝麻过敏。", "检查结果显示我对芝麻不过敏了。"),
    ],
)
def test_a_doctor_saying_a_need_is_over_withdraws_nothing(first: str, later: str) -> None:
    # a need goes when the user says it is over (attacker 277: "My allergist says I'm no
    # longer allergic to sesame, but she's wrong" lost it)
    (need,) = facts_after(first)
    assert need in facts_after(first, later)


def test_the_user_saying_a_need_is_over_withdraws_it() -> None:
    assert facts_after("I'm allergic to sesame.", "I'm no longer allergic to sesame.") == []
    assert facts_after("我对芝麻过敏。", "我对芝麻不过敏了。") == []
