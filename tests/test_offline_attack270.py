"""What attacker 270 found in the fixes of attacker 269's findings, pinned by kind. Sentences
are this project's own, in the shapes found.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after, said_in_one_update


@pytest.mark.parametrize(
    ("turns", "stored"),
    [
        # an acknowledgement, or a question of more needs, opens no turn of its own: what
        # follows still adds to the need before it (or says "me too" of it)
        (
            ("I'm allergic to sesame.", "AI: Got it. Any other allergies?", "Also walnuts."),
            ["User is allergic to sesame", "User is allergic to walnuts"],
        ),
        (
            ("I'm allergic to sesame.", "AI: Noted, I'll remember that.", "Also walnuts."),
            ["User is allergic to sesame", "User is allergic to walnuts"],
        ),
        (
            ("I'm allergic to sesame.", "AI: I'm sorry to hear that.", "Cashews too."),
            ["User is allergic to sesame", "User is allergic to cashews"],
        ),
        (
            ("I'm allergic to sesame.", "AI: Got it.", "AI: Anything else?", "Also walnuts."),
            ["User is allergic to sesame", "User is allergic to walnuts"],
        ),
        (
            ("我对芝麻过敏。", "AI: 好的，我会记住的。", "还有开心果。"),
            ["用户对芝麻过敏", "用户对开心果过敏"],
        ),
        (
            ("我不吃香菜。", "AI: 好的，我会避开香菜。你还有别的忌口吗？", "还有葱。"),
            ["用户不吃香菜", "用户不吃葱"],
        ),
        (
            ("My uncle is allergic to eggs.", "AI: Noted, I'll keep that in mind.", "Me too."),
            ["User is allergic to eggs"],
        ),
        (("我舅舅对鸡蛋过敏。", "AI: 好的，我会注意的。", "我也是。"), ["用户对鸡蛋过敏"]),
    ],
)
def test_an_acknowledgement_lets_the_next_message_add_to_the_need(
    turns: tuple[str, ...], stored: list[str]
) -> None:
    assert said_in_one_update(*turns) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a kind of things put right with a thing of another kind: put right
        ("I'm allergic to nuts, I mean eggs.", ["eggs"]),
        ("I'm allergic to shellfish, I mean sesame.", ["sesame"]),
        ("I'm allergic to dairy. Oops, I meant soy.", ["soy"]),
        ("我对海鲜过敏，我是说花生。", ["花生"]),
        ("我对鱼过敏，我是说鸡蛋。", ["鸡蛋"]),
        # …with a thing of that kind: both stay
        ("I'm allergic to nuts, I mean peanuts.", ["nuts", "peanuts"]),
        ("I'm allergic to dairy, I mean milk.", ["dairy", "milk"]),
        ("我不吃鱼，我是说鱿鱼。", ["鱼", "鱿鱼"]),
    ],
)
def test_a_kind_is_kept_only_for_a_thing_of_that_kind(said: str, stored: list[str]) -> None:
    facts = facts_after(said)
    assert len(facts) == len(stored)
    assert all(thing in fact for thing, fact in zip(stored, facts, strict=True))


@pytest.mark.parametrize(
    "said",
    [
        # a food said first, before how much, how cooked or a particle: the user's
        "杨梅不能吃太多，会过敏。",
        "龙虾不能吃太多，会过敏。",
        "老姜不能吃，会过敏。",
        "白米饭不能吃太多，我有糖尿病。",
        "白酒不能喝一滴。",
        "黄瓜不吃生的。",
        "黄瓜不吃滴。",
        "黄鱼很喜欢吃。",
        # an illness said first
        "白血病不能吃生冷的。",
        "毛囊炎不能吃辣的。",
    ],
)
def test_a_food_or_illness_before_an_amount_is_the_users(said: str) -> None:
    facts = facts_after(said)
    assert facts and facts[0].startswith("用户") and len(facts[0]) > 4


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("王冬梅对虾过敏，我也是。", ["用户对虾过敏"]),
        ("张晓明对花生过敏。我也是。", ["用户对花生过敏"]),
    ],
)
def test_me_too_after_a_three_character_name(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("My friend won't drink alcohol at the party. Neither will I.", []),
        ("Mark won't eat until 7pm. Me neither.", []),
    ],
)
def test_what_someone_will_not_do_is_no_need_of_the_users(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored
