"""What attacker 269 found in the fixes of attacker 267's findings, pinned by kind. Sentences
are this project's own, in the shapes found.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after, said_in_one_update


@pytest.mark.parametrize(
    "said",
    [
        # a given name holding a character of a food, an illness or an adverb is still a name
        "王冬梅对虾过敏。",
        "韩梅梅不吃辣。",
        "李炎对芒果过敏。",
        "陈果对虾过敏。",
        "王小米不吃辣。",
        "王和平对虾过敏。",
        "张国才不吃辣。",
        "王也对虾过敏。",
    ],
)
def test_a_name_with_a_food_or_adverb_character_is_someone_else(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("李梅不吃辣，我也是。", ["用户不吃辣"]),
        ("王和平不吃辣，我也是。", ["用户不吃辣"]),
    ],
)
def test_me_too_after_such_a_name_is_the_users_need(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    "said",
    [
        # a food or an illness said first: the verb takes nothing after it, or the word is an
        # illness ("高血压"): the user's need, as before the names were read
        "黄瓜不能吃。",
        "杨梅不能吃，会过敏。",
        "龙眼不能吃，会过敏。",
        "石榴不能吃。",
        "高血压不能吃太咸。",
        "高烧不能吃甜的。",
    ],
)
def test_a_food_or_illness_said_first_is_still_the_users(said: str) -> None:
    assert facts_after(said) and facts_after(said)[0].startswith("用户")


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a thing that only ends like the one before is put in its place
        ("I'm allergic to apples, I mean pineapples.", ["pineapples"]),
        ("我对桃过敏，我是说核桃。", ["核桃"]),
        ("我对梨过敏，我是说凤梨。", ["凤梨"]),
        # a kind of things before it stays, whatever is meant after it
        ("I'm allergic to nuts, I mean coconuts.", ["nuts", "coconuts"]),
        ("I'm allergic to shellfish, I mean shrimp.", ["shellfish", "shrimp"]),
        ("I can't eat fish, I mean shellfish.", ["fish", "shellfish"]),
        ("I don't eat meat, I mean pork.", ["meat", "pork"]),
        ("我对海鲜过敏，我是说虾。", ["海鲜", "虾"]),
        ("我对坚果过敏，我是说花生。", ["坚果", "花生"]),
    ],
)
def test_only_a_thing_that_names_no_kind_is_put_right(said: str, stored: list[str]) -> None:
    facts = facts_after(said)
    assert len(facts) == len(stored)
    assert all(thing in fact for thing, fact in zip(stored, facts, strict=True))


@pytest.mark.parametrize(
    "turns",
    [
        # the reply opened a turn of its own: what follows answers it
        ("My wife is allergic to eggs.", "AI: Got it. I hope she feels better soon.", "Me too."),
        (
            "My husband can't eat gluten.",
            "AI: I can't wait to help you plan meals.",
            "Neither can I.",
        ),
        ("I'm allergic to walnuts.", "AI: What does your son avoid?", "Pecans too."),
        ("I'm allergic to walnuts.", "AI: Which fruits do you like?", "Also mangoes."),
        ("我对核桃过敏。", "AI: 你喜欢什么水果？", "还有芒果。"),
    ],
)
def test_what_answers_the_reply_adds_nothing_to_the_need_before(turns: tuple[str, ...]) -> None:
    assert said_in_one_update(*turns) == said_in_one_update(turns[0])


def test_the_users_own_slip_is_put_right_after_a_question() -> None:
    turns = (
        "I'm allergic to walnuts.",
        "AI: Should I use almond butter?",
        "Sorry, I meant pecans.",
    )
    assert said_in_one_update(*turns) == ["User is allergic to pecans"]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("My wife is allergic to eggs, as am I.", ["User is allergic to eggs"]),
        ("My wife is allergic to eggs. I am as well.", ["User is allergic to eggs"]),
        # (what someone will not do is often once or for a while: no need of the user's)
        ("My wife won't eat pork. Neither will I.", []),
    ],
)
def test_more_me_too_wordings(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored
