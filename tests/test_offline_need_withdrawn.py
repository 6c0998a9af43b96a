"""A need the user says is over goes, in the words people use for it; the rest of a need of
several things stays.

Before: "我不再对芒果过敏了", "my kiwi allergy went away" and "no longer allergic to kiwis and
bananas" withdrew nothing (the old need stood beside its denial); withdrawing one thing of
"allergic to kiwis and latex" kept the kiwis; and naming one thing of a need the rules could
not split ("kiwis and quinoa") withdrew the whole need, quinoa with it. Sentences are this
project's own.
"""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.retractions import need_things
from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("first", "later", "left"),
    [
        # Chinese: "不再对X过敏", "已经不对X过敏", "X过敏好了", "对A和B都不过敏了"
        ("我对芒果过敏", "我不再对芒果过敏了", []),
        ("我对芒果过敏", "我已经不对芒果过敏了", []),
        ("我对芒果过敏", "我的芒果过敏已经好了", []),
        ("我对芒果和菠萝过敏", "我对芒果和菠萝都不过敏了", []),
        ("我对芒果过敏，还有菠萝", "我对芒果和菠萝都不过敏了", []),
        # English: a need of several things named, outgrown, or gone
        ("I'm allergic to kiwis and bananas.", "I'm no longer allergic to kiwis and bananas.", []),
        (
            "I'm allergic to kiwis. I'm allergic to bananas. I'm allergic to latex.",
            "I'm no longer allergic to kiwis and bananas.",
            ["User is allergic to latex"],
        ),
        ("I'm allergic to kiwis and quinoa.", "I'm no longer allergic to kiwis and quinoa.", []),
        ("I'm allergic to kiwis.", "I outgrew my kiwi allergy.", []),
        ("I'm allergic to bees.", "My bee allergy went away.", []),
        ("I'm lactose intolerant.", "My lactose intolerance cleared up.", []),
        ("I'm sensitive to gluten.", "My gluten sensitivity is gone.", []),
        # one thing of several withdrawn: the others stay, each said alone
        (
            "I'm allergic to kiwis and latex.",
            "I'm no longer allergic to kiwis.",
            ["User is allergic to latex"],
        ),
        (
            "I'm allergic to kiwis, latex and eggs.",
            "I'm no longer allergic to kiwis.",
            ["User is allergic to latex", "User is allergic to eggs"],
        ),
        ("我对芒果、菠萝和虾过敏", "我对菠萝不过敏了", ["用户对芒果过敏", "用户对虾过敏"]),
        ("我对芒果过敏，还有菠萝", "我对菠萝不过敏了", ["用户对芒果过敏"]),
    ],
)
def test_a_need_said_to_be_over_goes_and_only_it(first: str, later: str, left: list[str]) -> None:
    assert facts_after(first) != left  # it was stored
    assert facts_after(first, later) == left


def test_one_thing_withdrawn_in_the_message_that_said_the_need_leaves_the_rest() -> None:
    assert facts_after("I'm allergic to kiwis and latex.") == [
        "User is allergic to kiwis and latex"
    ]
    assert facts_after("I'm allergic to kiwis and latex. I'm no longer allergic to kiwis.") == [
        "User is allergic to latex"
    ]


@pytest.mark.parametrize(
    ("first", "later"),
    [
        # someone else's need, or none named
        ("I'm allergic to kiwis.", "My son's kiwi allergy is gone."),
        ("I'm allergic to kiwis.", "My daughter kiwi allergy went away."),
        ("我对芒果过敏", "我妈的芒果过敏已经好了"),
        ("我对芒果过敏", "我儿子不再对芒果过敏了"),
        ("I'm allergic to kiwis.", "Is my kiwi allergy gone?"),
        # a thing not named
        ("I'm allergic to kiwis and latex.", "I'm no longer allergic to bananas."),
        # things the rules cannot tell apart as one or two: only all of them named ends it
        ("I'm allergic to kiwis and quinoa.", "I'm no longer allergic to kiwis."),
        ("I'm allergic to kiwis and latex since childhood.", "I'm no longer allergic to kiwis."),
        ("I'm allergic to kiwis and latex, badly.", "I'm no longer allergic to kiwis."),
        # examples of a need are no need of their own
        ("I'm allergic to nuts, like almonds.", "I'm no longer allergic to almonds."),
    ],
)
def test_what_names_no_need_of_the_user_withdraws_none(first: str, later: str) -> None:
    need = facts_after(first)
    assert need and set(need) <= set(facts_after(first, later))


def test_the_things_of_a_need() -> None:
    assert need_things("allergic to kiwis and latex") == ("allergic to kiwis", "allergic to latex")
    assert need_things("对芒果、菠萝和虾过敏") == ("对芒果过敏", "对菠萝过敏", "对虾过敏")
    assert need_things("allergic to kiwis") == ()
    assert need_things("allergic to kiwis and quinoa") == ()  # quinoa: no known allergen


@pytest.mark.parametrize(
    ("first", "later"),
    [
        # the need came back, or the withdrawal is taken back
        ("I'm allergic to kiwis.", "My kiwi allergy went away, then came back."),
        ("I'm allergic to kiwis.", "My kiwi allergy cleared up, but it's back now."),
        ("I'm lactose intolerant.", "My lactose intolerance went away, then returned."),
        ("我对芒果过敏", "我的芒果过敏好了，但又复发了"),
        ("我对芒果过敏", "我不再对芒果过敏了，但又复发了"),
        ("I'm allergic to kiwis.", "I outgrew my kiwi allergy, or so I thought."),
        ("I'm allergic to kiwis.", "My kiwi allergy is gone, said nobody."),
        # part of a thing's name withdraws no thing of a list
        ("I'm allergic to peanuts and tree nuts.", "I'm no longer allergic to trees."),
        ("I'm allergic to peanuts and tree nuts.", "I'm no longer allergic to nuts."),
        ("I'm allergic to latex and sulfa drugs.", "I'm no longer allergic to drugs."),
        ("I'm allergic to latex and dust mites.", "I'm no longer allergic to dust."),
        # someone else's, said short or without the apostrophe
        ("I'm allergic to eggs.", "My moms egg allergy is gone."),
        ("I'm allergic to eggs.", "My bf's egg allergy is gone."),
        # a second need said with an adverb is no manner of the first
        (
            "I'm allergic to kiwis and severely allergic to latex.",
            "I'm no longer allergic to kiwis.",
        ),
    ],
)
def test_a_need_that_came_back_or_is_named_in_part_stays(first: str, later: str) -> None:
    need = facts_after(first)
    assert need and set(need) <= set(facts_after(first, later))


@pytest.mark.parametrize(
    ("first", "later", "left"),
    [
        # every thing named, the last after ", and": none left (milk stayed)
        (
            "I'm allergic to peanuts, eggs, and milk.",
            "I'm no longer allergic to peanuts, eggs, and milk.",
            [],
        ),
        # "都" is of the list, not of its last thing ("用户对牛奶都过敏")
        ("我对鸡蛋和牛奶都过敏", "我对鸡蛋不过敏了", ["用户对牛奶过敏"]),
        ("我对鸡蛋和牛奶都过敏", "我对鸡蛋和牛奶都不过敏了", []),
    ],
)
def test_a_list_withdrawn_whole_or_in_part_leaves_what_it_should(
    first: str, later: str, left: list[str]
) -> None:
    assert facts_after(first, later) == left


@pytest.mark.parametrize(
    ("first", "later", "left"),
    [
        # found out, not hedged: "turns out", "after all" (the allergy stayed)
        ("I'm allergic to shellfish.", "Turns out I'm not allergic to shellfish after all.", []),
        ("I'm allergic to shellfish.", "I'm not allergic to shellfish after all.", []),
        # a food the user eats again is no longer one they do not eat ("again now", "started")
        ("I don't eat lamb.", "I eat lamb again now.", ["User eats lamb again now"]),
        ("I don't eat lamb.", "I started eating lamb again.", ["User started eating lamb again"]),
        (
            "I don't drink beer.",
            "I've started drinking beer again.",
            ["User has started drinking beer again"],
        ),
        # …but an allergy stays whatever the user eats
        (
            "I'm allergic to lamb.",
            "I started eating lamb again.",
            [
                "User is allergic to lamb",
                "User started eating lamb again",
            ],
        ),
    ],
)
def test_what_the_user_found_out_or_does_again_replaces_the_old_need(
    first: str, later: str, left: list[str]
) -> None:
    assert facts_after(first, later) == left


@pytest.mark.parametrize(
    "later",
    [
        "My kiwi allergy is gone, yeah right.",
        "My kiwi allergy is gone, in my dreams.",
        "My kiwi allergy is gone, not.",
        "My kiwi allergy went away, until it didn't.",
        "My kiwi allergy is gone... I wish.",
        "My kiwi allergy is gone. Not!",
    ],
)
def test_a_withdrawal_said_not_to_be_so_withdraws_nothing(later: str) -> None:
    assert facts_after("I'm allergic to kiwis.", later) == ["User is allergic to kiwis"]


def test_a_chinese_withdrawal_said_to_be_a_wish_withdraws_nothing() -> None:
    assert "用户对芒果过敏" in facts_after("我对芒果过敏", "我的芒果过敏已经好了，我希望")
    assert "用户对芒果过敏" in facts_after("我对芒果过敏", "我的芒果过敏已经好了，可惜没有")


def test_outgrowing_is_a_withdrawal_of_a_need_only() -> None:
    assert facts_after("I outgrew my rain boots.") == ["User outgrew their rain boots"]
    assert facts_after("I'm allergic to kiwis.", "I outgrew my kiwi allergy.") == []


def test_a_withdrawal_or_a_food_eaten_again_said_not_to_be_so_changes_nothing() -> None:
    assert facts_after("I don't eat pork.", "I started eating pork again, yeah right.") == [
        "User does not eat pork"
    ]


@pytest.mark.parametrize("when", ["as a kid", "years ago", "when I was twelve", "finally"])
def test_a_need_outgrown_at_some_time_is_withdrawn(when: str) -> None:
    assert facts_after("I'm allergic to milk.", f"I outgrew my milk allergy {when}.") == []


@pytest.mark.parametrize(
    ("first", "later", "left"),
    [
        # a denial marked as a correction withdraws a stored need too
        (
            "I'm allergic to peanuts. Shrimp too.",
            "Wait, I'm not allergic to shrimp.",
            ["User is allergic to peanuts"],
        ),
        (
            "I'm allergic to shrimp and peanuts.",
            "Actually I'm not allergic to shrimp.",
            ["User is allergic to peanuts"],
        ),
        ("我对虾过敏", "不对，我对虾不过敏", ["用户对虾不过敏"]),
        # …not a bare one, nor one asked
        ("I'm allergic to shrimp.", "I'm not allergic to shrimp.", ["User is allergic to shrimp"]),
        (
            "I'm allergic to shrimp.",
            "Wait, I'm not allergic to shrimp?",
            ["User is allergic to shrimp"],
        ),
        # hearsay is no withdrawal
        (
            "I'm allergic to milk.",
            "I outgrew my milk allergy as a kid, supposedly.",
            ["User is allergic to milk"],
        ),
        (
            "I'm allergic to milk.",
            "I outgrew my milk allergy, or so they say.",
            ["User is allergic to milk"],
        ),
    ],
)
def test_a_correction_withdraws_and_hearsay_does_not(
    first: str, later: str, left: list[str]
) -> None:
    assert facts_after(first, later) == left
