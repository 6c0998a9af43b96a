"""Attacker 318's findings against f3705a1, each with sentences of this project's own.

- A medication stopped for a while was withdrawn unless one of a few phrases said so: now a
  word of a while anywhere in the message ("until", "before", "for a week", "temporary",
  "restarting", "复查", "手术", "再吃") keeps a medication's stop from withdrawing it.
- The broad "for a while" guards read every withdrawal ("I don't live in Hull anymore, before
  the pandemic.", "I'm not vegan anymore. Until the pandemic I was.", "我不住在南京了，等结果
  出来再告诉你"): they are gone; only a medication's stop is read so.
- "Kidding about the figs? No, I'm serious." took the allergy back: a question takes nothing.
- "…is allergic" said of someone took the user's last intolerance: it takes the last allergy,
  "…intolerant" the last intolerance.
- "can't" or "avoid" in any fact kept it from every withdrawal ("I play squash but can't
  serve well."): only a need, or a fact a medication's stop names, is kept so.
- "Wait, my son is diabetic." after "I'm diabetic." took the user's diabetes.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after, said_in_one_update


@pytest.mark.parametrize(
    "later",
    [
        "I don't take atenolol anymore, until after the operation.",
        "My GP took me off atenolol. Just two weeks, she said.",
        "My GP took me off atenolol. It's temporary.",
        "I no longer take atenolol. I'm restarting after the holidays.",
        "I'm not on atenolol anymore, just till Monday.",
    ],
)
def test_a_medication_stopped_for_a_while_stays(later: str) -> None:
    assert "User takes atenolol" in facts_after("I take atenolol.", later)


@pytest.mark.parametrize(
    "later", ["我已经停了阿司匹林，下周复查完再说。", "医生让我停用阿司匹林了，只是手术前几天。"]
)
def test_a_medicine_stopped_for_a_while_stays_in_chinese(later: str) -> None:
    assert "用户在吃阿司匹林" in facts_after("我在吃阿司匹林。", later)


@pytest.mark.parametrize(
    ("told", "later"),
    [
        ("I take atenolol.", "I'm not on atenolol anymore."),
        ("I live in Hull.", "I don't live in Hull anymore, before the pandemic."),
        ("I'm pescatarian.", "I'm not pescatarian anymore. Until the pandemic I was."),
        ("我住在南京。", "我不住在南京了，等结果出来再告诉你细节。"),
        ("I play squash but can't serve well.", "I don't play squash anymore."),
    ],
)
def test_a_withdrawal_for_good_still_withdraws(told: str, later: str) -> None:
    assert facts_after(told) != []
    assert facts_after(told, later) == []


def test_a_question_about_a_joke_takes_nothing_back() -> None:
    assert facts_after("I'm allergic to figs.", "Kidding about the figs? No, I'm serious.") == [
        "User is allergic to figs"
    ]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        (
            "I'm allergic to wasps. I'm fructose intolerant. Actually, my niece is allergic.",
            ["User is fructose intolerant"],
        ),
        (
            "I'm fructose intolerant. I'm allergic to wasps. No, my niece is the intolerant one.",
            ["User is allergic to wasps"],
        ),
        ("我对黄蜂过敏，我乳糖不耐受。不对，过敏的是我外甥女。", ["用户乳糖不耐受"]),
    ],
)
def test_the_reaction_named_is_the_one_taken(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


def test_wait_before_someone_elses_need_is_no_correction() -> None:
    assert facts_after("I'm diabetic. Wait, my nephew is diabetic.") == ["User is diabetic"]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # "It's not me who…, it's my son" (attacker 318: kept as the user's)
        ("I'm allergic to wasps. It's not me who's allergic, it's my niece.", []),
        ("I'm allergic to wasps. It's not me, it's my niece.", []),
        ("I'm pescatarian. It's not me who's pescatarian, it's my niece.", []),
        (
            "I'm allergic to wasps and kiwi. It's not me who is allergic to kiwi, it's my niece.",
            ["User is allergic to wasps"],
        ),
        # naming what the user did not say takes nothing
        (
            "I'm allergic to wasps. It's not me who's pescatarian, it's my niece.",
            ["User is allergic to wasps"],
        ),
    ],
)
def test_not_me_who_it_is_someone_else(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


# Attacker 322 (bad input against 58c1706 and before).


@pytest.mark.parametrize(
    "said",
    [
        "I'm allergic to wasps. Actually, my niece is. Sorry, I mean my niece is. So am I.",
        "I'm allergic to wasps. I mean my niece is. I mean my niece is. I'm allergic too.",
    ],
)
def test_a_correction_said_twice_still_lets_the_need_come_back(said: str) -> None:
    # the second one moved nothing and forgot what the first had moved: "So am I." lost it
    assert facts_after(said) == ["User is allergic to wasps"]
    assert facts_after(said.rsplit(". ", 1)[0] + ".") == []  # (without "So am I." it goes)


def test_across_messages_a_correction_said_twice_still_lets_the_need_come_back() -> None:
    said = ("I'm allergic to wasps.", "I mean my niece is.", "I mean my niece is.")
    assert said_in_one_update(*said, "So am I.") == ["User is allergic to wasps"]
    assert said_in_one_update(*said) == []


def test_never_again_is_no_while() -> None:
    assert (
        facts_after("I take atenolol.", "I stopped taking atenolol. I'll never take it again.")
        == []
    )


def test_many_untils_are_read_in_linear_time() -> None:
    # "until " x 16,000 before "I was": each "until" looked ahead to the end (2.2 s); bounded,
    # the search is linear. (A count, not a time: the look-ahead reads at most 80 characters.)
    from deerflow_memory.update.offline.text import _FOR_A_WHILE

    text = "I'm allergic to wasps. " + "until " * 2000 + "I was"
    assert _FOR_A_WHILE.search(text) is not None  # (an "until" far from "I was" still counts)
    assert _FOR_A_WHILE.search("I stopped it until I was 12") is None
