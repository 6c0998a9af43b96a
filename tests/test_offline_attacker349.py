"""Forms next to 515e9a7, d4b95a5 and 07102fd (attacker 349). Sentences are this project's own.

- After an assistant's reply that asks something else ("Anything else?"), "Yes I am." or
  "Yes, I still am." right after a withdrawal says the need again; only a bare "yes", or a
  "yes" fitting the question ("Are you sure?" "Yes I am."), answers it.
- Emoji listed with commas after "to"/"avoid" are all said as their words ("allergic to
  🍤, 🦀, 🦞" kept shrimp alone).
- A Chinese time said first, then "我" and a relative ("从小我妹妹对花生过敏") is the relative's
  need, not the user's; "从下个月开始我住在上海" is a home to come, not one now.
"""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.text import candidates_from_text
from tests.test_quality_kinds import facts_of_one_update


def contents(text: str) -> list[str]:
    return [c.content for c in candidates_from_text(text)]


@pytest.mark.parametrize(
    ("reply", "back"),
    [
        ("AI: Got it. Anything else?", "Yes I am."),
        ("AI: Understood, I'll update that. Anything else?", "Yes, I still am."),
        ("AI: You're not keto anymore?", "Yes I still am."),
    ],
)
def test_a_yes_saying_the_need_again_after_another_question_takes_it_back(
    reply: str, back: str
) -> None:
    assert facts_of_one_update("I'm keto.", "I'm not keto anymore.", reply, back) == [
        "User is keto"
    ]


@pytest.mark.parametrize(
    ("reply", "answer"),
    [
        ("AI: Are you sure?", "Yes I am."),
        ("AI: Do you still eat eggs?", "Yes I do."),
        ("AI: Do you still eat eggs?", "Yes, I still do."),
        ("AI: Do you still eat eggs?", "Yes."),
    ],
)
def test_a_yes_fitting_the_question_answers_it(reply: str, answer: str) -> None:
    assert facts_of_one_update("I'm keto.", "I'm not keto anymore.", reply, answer) == []


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I'm allergic to 🦐, 🦀, 🦞.", "User is allergic to shrimp, crabs, lobster"),
        ("I'm allergic to 🦐, 🦀 and 🦞.", "User is allergic to shrimp, crabs and lobster"),
        ("I avoid 🥛,🧀 and 🧈.", "User avoids milk, cheese and butter"),
    ],
)
def test_emoji_listed_with_commas_are_all_said(text: str, fact: str) -> None:
    assert contents(text) == [fact]


def test_a_comma_after_an_emoji_not_listed_says_nothing() -> None:
    assert contents("I'm allergic to: 🥜, 🦐.") == []


@pytest.mark.parametrize(
    "text",
    [
        "从小我妹妹对花生过敏。",
        "这两年我老公住在杭州。",
        "从三月起我女儿住在苏州。",
        "从小我的狗就对鸡肉过敏。",
        "现在我弟弟对芒果过敏。",
    ],
)
def test_a_relative_after_a_chinese_time_said_first_is_not_the_user(text: str) -> None:
    assert contents(text) == []


@pytest.mark.parametrize("text", ["从下个月开始我住在上海。", "从明年起我住在苏州。"])
def test_a_chinese_time_to_come_said_first_is_no_home_now(text: str) -> None:
    assert contents(text) == []


@pytest.mark.parametrize(
    ("text", "fact"),
    [("从小我就对花生过敏。", "用户对花生过敏"), ("从三月起我住在杭州。", "用户住在杭州")],
)
def test_a_chinese_time_said_first_of_the_user_still_reads(text: str, fact: str) -> None:
    assert contents(text) == [fact]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("No walnuts, I'm allergic to them and so's my son.", "User is allergic to walnuts"),
        ("No sesame, I'm allergic to it and to kiwi.", "User is allergic to sesame and to kiwi"),
    ],
)
def test_a_bare_reaction_then_another_or_more_things_with_to(text: str, fact: str) -> None:
    assert contents(text) == [fact]


@pytest.mark.parametrize(
    "text", ["I'm busy, GF wants to visit.", "I'm home and GF is cooking dinner."]
)
def test_gf_doing_something_is_a_girlfriend(text: str) -> None:
    assert not any("gluten" in fact for fact in contents(text))


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("I really enjoy 🎣.", "fish"),
        ("I can't eat 🍨.", "cream"),
        ("I'm allergic to 🌾.", "rice"),
        ("I love 🧡.", "orange"),
    ],
)
def test_an_emoji_drawing_another_thing_is_not_said_as_that_word(text: str, word: str) -> None:
    assert not any(word in fact for fact in contents(text))
