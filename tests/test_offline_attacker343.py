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
