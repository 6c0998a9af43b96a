"""Attacker 343: nearby forms and regressions of a5651ce, deff39e and 563e632.

- A short reply that only reacts ("Oops, sorry.", "Wait a sec.", "Make that two.", "My bad,
  lol.") put right no home, workplace, job or name: it stored "User lives in Sorry" in place
  of the town said. "I mean Headingley." after "Which part of Leeds?" answers the question.
- "I now work in the office." or "I work in the kitchen." says where in the employer's, not
  a new employer: the employer said before stays.
- "Yep lol" after a question answers it: a withdrawal just said stands.

Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.retractions import WITHDRAWAL_UNDONE
from tests.test_quality_kinds import facts_after, facts_of_one_update


@pytest.mark.parametrize(
    ("said", "reply"),
    [
        ("I live in Harrogate.", "Oops, sorry."),
        ("I live in Harrogate.", "Wait a sec."),
        ("I live in Harrogate.", "I mean, seriously."),
        ("I work at Boots.", "Make that two."),
        ("I work at Boots.", "Oops, haha."),
        ("My name is Priya.", "My bad, lol."),
        ("I'm a welder.", "Oops, typo."),
        ("I'm a welder.", "Whoops, thanks."),
        ("i live in harrogate.", "whoops wrong chat"),
        ("i live in harrogate.", "oops autocorrect"),
    ],
)
def test_a_reaction_puts_no_value_right(said: str, reply: str) -> None:
    assert facts_of_one_update(said, "AI: Noted.", reply) == facts_of_one_update(said)
    assert facts_of_one_update(f"{said} {reply}") == facts_of_one_update(said)


@pytest.mark.parametrize(
    ("said", "question", "answer"),
    [
        ("I live in Harrogate.", "AI: Which part of town?", "I mean Starbeck."),
        ("I'm a teacher.", "AI: What subject do you teach?", "I mean maths."),
        ("I live in Harrogate.", "AI: Any team you follow?", "Or rather Leeds United."),
    ],
)
def test_an_answer_to_a_question_puts_no_value_right(said: str, question: str, answer: str) -> None:
    assert facts_of_one_update(said, question, answer) == facts_of_one_update(said)


def test_a_slip_put_right_still_counts() -> None:
    assert facts_of_one_update("I live in Ripon.", "AI: Noted.", "Oops, Thirsk.") == [
        "User lives in Thirsk"
    ]
    assert facts_of_one_update("I'm a welder.", "AI: Noted.", "Oops, plumber.") == [
        "User is a plumber"
    ]


@pytest.mark.parametrize(
    "where", ["I now work in the office.", "I work in the kitchen.", "I work in the lab."]
)
def test_a_part_of_the_employers_keeps_the_employer(where: str) -> None:
    assert "User works at Boots" in facts_after("I work at Boots.", where)


def test_a_named_place_after_the_is_still_a_workplace() -> None:
    assert facts_after("I work at Boots.", "I work in the village bakery.") == [
        "User works in the village bakery"
    ]


@pytest.mark.parametrize("answer", ["Yep lol", "Yes! hahaha", "yeah 😂"])
def test_a_laughing_yes_answers_and_the_withdrawal_stands(answer: str) -> None:
    turns = ("I'm vegetarian.", "I'm not vegetarian anymore.", "AI: Is that a big change?")
    assert facts_of_one_update(*turns, answer) == []


def test_kidding_with_a_laugh_still_takes_it_back() -> None:
    turns = ("I'm vegetarian.", "I'm not vegetarian anymore.", "AI: Is that a big change?")
    assert facts_of_one_update(*turns, "Just kidding lol") == ["User is vegetarian"]


@pytest.mark.parametrize(
    ("said", "reply"),
    [
        ("我住在绍兴。", "我是说真的"),
        ("我住在绍兴。", "应该是吧"),
        ("我住在绍兴。", "不对，是我的错"),
        ("我住在绍兴。", "不对，是开玩笑的"),
        ("我叫阿强。", "我是说真的。"),
    ],
)
def test_a_chinese_reaction_puts_no_value_right(said: str, reply: str) -> None:
    assert facts_of_one_update(said, "AI: 好的。", reply) == facts_of_one_update(said)
    assert facts_of_one_update(f"{said}{reply}") == facts_of_one_update(said)


def test_a_chinese_answer_to_a_question_puts_no_value_right() -> None:
    turns = ("我住在绍兴。", "AI: 你最喜欢绍兴哪里？", "我是说鲁迅故里")
    assert "用户住在绍兴" in facts_of_one_update(*turns)


def test_a_chinese_slip_put_right_still_counts() -> None:
    assert facts_of_one_update("我住在绍兴。", "AI: 好的。", "不对，是宁波。") == ["用户住在宁波"]


@pytest.mark.parametrize(
    ("employer", "kind"),
    [
        ("I work for Tesco.", "I work in a warehouse."),
        ("I work at Barclays.", "I work in an office in Canary Wharf."),
        ("I work for the NHS.", "I work in a hospital."),
    ],
)
def test_a_kind_of_place_said_after_an_employer_keeps_the_employer(
    employer: str, kind: str
) -> None:
    assert facts_after(employer, kind)[0] == facts_after(employer)[0]
    assert facts_of_one_update(f"{employer} {kind}")[0] == facts_after(employer)[0]


def test_a_kind_of_place_said_as_a_change_still_replaces_the_employer() -> None:
    assert facts_after("I work for Tesco.", "I work in a warehouse now.") == [
        "User works in a warehouse now"
    ]


@pytest.mark.parametrize(
    "before",
    [
        "I work in a bakery in Leeds.",
        "I work in a hospital as a porter.",
        "I work in a shop part-time.",
    ],
)
def test_a_place_worked_in_with_more_said_is_replaced_by_a_new_employer(before: str) -> None:
    assert facts_after(before, "I work at Tesco now.") == ["User works at Tesco now"]


@pytest.mark.parametrize(
    "back",
    ["jk xD", "Just kidding :P", "Kidding 🤪", "jk lmfao", "jk hahah", "Kidding 😂 I still am"],
)
def test_taken_back_with_any_laugh(back: str) -> None:
    turns = ("I'm vegetarian.", "I'm not vegetarian anymore.", "AI: Is that a big change?")
    assert facts_of_one_update(*turns, back) == ["User is vegetarian"]


def test_many_laughs_are_read_in_linear_time() -> None:
    for text in (
        "jk" + " xD" * 20_000 + "?",
        "jk" + " :P" * 20_000 + "?",
        "jk" + " hahah" * 20_000 + "?",
    ):
        assert WITHDRAWAL_UNDONE.fullmatch(text) is None


@pytest.mark.parametrize(
    ("said", "correction", "stored"),
    [
        ("I'm a welder.", "Oops, a plumber.", "User is a plumber"),
        ("I'm a welder.", "Oops, an electrician.", "User is an electrician"),
        ("I work at Boots.", "Oops, at Superdrug.", "User works at Superdrug"),
        ("I live in Ripon.", "Sorry, I meant in Thirsk.", "User lives in Thirsk"),
    ],
)
def test_the_word_before_the_value_is_not_said_twice(
    said: str, correction: str, stored: str
) -> None:
    assert facts_of_one_update(said, "AI: Noted.", correction) == [stored]
