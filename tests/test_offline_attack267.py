"""What attacker 267 found in this stop's reading of additions, corrections, "me too" and
named people, each pinned by kind. Sentences are this project's own, in the shapes found.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after, said_in_one_update


@pytest.mark.parametrize(
    "said",
    [
        # a food, a drink or an illness said first, before "can't eat": the user's need, not
        # someone named (a surname starts each of these words)
        "黄豆不能吃。",
        "马铃薯不能吃。",
        "杨梅不能吃，会过敏。",
        "方便面不能吃。",
        "高粱酒不能喝。",
        "高血压不能吃太咸。",
    ],
)
def test_a_thing_said_first_is_no_name(said: str) -> None:
    assert facts_after(said), said


def test_a_thing_said_first_after_a_need_is_kept() -> None:
    assert facts_after("我对花生过敏，黄豆也不能吃。")[1:] != []


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("王伟对虾过敏，我也是。", ["用户对虾过敏"]),
        ("小王对虾过敏。我也是。", ["用户对虾过敏"]),
        ("我女儿乳糖不耐受，我也是。", ["用户乳糖不耐受"]),
        ("我老公不能吃辣，我也不能。", ["用户不能吃辣"]),
        ("我妈对青霉素过敏，我也是，很严重。", ["用户对青霉素过敏"]),
        ("My sister is allergic to figs, me too.", ["User is allergic to figs"]),
        ("My sister is allergic to figs. Yeah me too.", ["User is allergic to figs"]),
        ("My sister is allergic to wasps and I am too, sadly.", ["User is allergic to wasps"]),
    ],
)
def test_me_too_in_more_wordings(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    "said",
    [
        # "and I do" after someone's need that is not: the user does eat it
        "My husband doesn't eat lamb, and I do.",
        "My son can't eat gluten, and so do I.",
        "My son can't eat gluten. So can I.",
        # "neither" after a need that is
        "My sister is allergic to figs. Me neither.",
        # an apology is no "me too" (it was read as "…and I am" once "sorry" was cut)
        "My sister is allergic to figs and I am sorry.",
        # no one in particular
        "Nobody is allergic to water. Me neither.",
        "Everyone is allergic to something. Me too.",
    ],
)
def test_what_is_no_me_too_stores_no_need(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize(
    "turns",
    [
        # an answer to the assistant is no correction of the need before it
        ("I don't eat lamb.", "AI: Would you like a veal stew instead?", "No, chicken."),
        ("I can't eat lamb.", "AI: Veal or beef tonight?", "Rather chicken."),
        ("I don't eat lamb.", "AI: Here is a menu with veal.", "Make that chicken."),
        ("我不吃羊肉。", "AI: 给你推荐牛肉面？", "不对，是鸡肉。"),
        ("I'm allergic to kiwi.", "AI: Should I use almond butter?", "No, butter."),
        ("I'm gluten intolerant.", "AI: Want pasta?", "No, rice."),
    ],
)
def test_an_answer_to_the_assistant_puts_no_need_right(turns: tuple[str, ...]) -> None:
    assert said_in_one_update(*turns) == said_in_one_update(turns[0])


@pytest.mark.parametrize(
    ("turns", "stored"),
    [
        (
            ("I'm allergic to walnuts.", "AI: Noted.", "Sorry, I meant pecans."),
            ["User is allergic to pecans"],
        ),
        (
            ("I'm allergic to walnuts.", "AI: Noted.", "No wait, pecans."),
            ["User is allergic to walnuts", "User is allergic to pecans"],
        ),
        (("我对核桃过敏。", "AI: 好的。", "说错了，应该是碧根果。"), ["用户对碧根果过敏"]),
    ],
)
def test_the_users_own_slip_is_put_right_in_the_next_message(
    turns: tuple[str, ...], stored: list[str]
) -> None:
    assert said_in_one_update(*turns) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a kind of the need said first: the broader need may still hold, both are kept
        ("I'm allergic to nuts, I mean peanuts.", ["nuts", "peanuts"]),
        ("我不喝酒。其实是啤酒。", ["酒", "啤酒"]),
        # "No dogs" is no mark of correction
        ("I'm allergic to cats. No dogs.", ["cats"]),
    ],
)
def test_a_correction_that_narrows_or_is_none_keeps_the_need(said: str, stored: list[str]) -> None:
    facts = facts_after(said)
    assert len(facts) == len(stored)
    assert all(thing in fact for thing, fact in zip(stored, facts, strict=True))


def test_me_too_then_put_right_is_of_the_thing_meant() -> None:
    assert facts_after("我老公对芒果过敏，我也是。不对，是木瓜。") == ["用户对木瓜过敏"]
    said = "My husband is allergic to mangoes. Me too. Sorry, I meant papaya."
    assert facts_after(said) == ["User is allergic to papaya"]


def test_a_denied_intolerance_said_as_a_noun_goes() -> None:
    assert facts_after("I have a gluten intolerance. Actually, I'm not gluten intolerant.") == []
