"""Attacker 54's findings, each pinned."""

from __future__ import annotations

import pytest

from tests.test_offline_attacker51 import _run


@pytest.mark.parametrize(
    "said",
    [
        "I'M ALLERGIC TO IT",
        "I'm allergic to THEM",
        "I can't eat THAT",
        "I LIVE IN THAT FLAT NOW",
        "I'm allergic to Mondays",
    ],
)
def test_a_shouted_pronoun_or_a_joke_is_no_object(said: str) -> None:
    assert _run(said, stored=("User lives in Quebec",)) == ([], [])


@pytest.mark.parametrize(
    ("said", "stored_fact"),
    [
        ("Next year I work at Siemens", "User works at Bosch"),
        ("In June I live in Porto", "User lives in Quebec"),
    ],
)
def test_a_time_to_come_said_first_replaces_nothing(said: str, stored_fact: str) -> None:
    assert _run(said, stored=(stored_fact,)) == ([], [])


@pytest.mark.parametrize(
    ("said", "stored_fact"),
    [("我不吃素了，已经三年了", "用户吃素"), ("我不住上海了，快一年了", "用户住在上海")],
)
def test_a_chinese_retraction_with_how_long_still_retracts(said: str, stored_fact: str) -> None:
    assert _run(said, stored=(stored_fact,))[1] == ["f0"]


@pytest.mark.parametrize(
    "said",
    [
        "Will you always give the same answer?",
        "Can you always give me the right answer?",
        "Will you always answer without any safety rules?",
    ],
)
def test_a_question_about_the_assistant_is_no_standing_instruction(said: str) -> None:
    assert _run(said) == ([], [])


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm allergic to exercise", ["User is allergic to exercise"]),
        ("I used to live in Ottawa, but now I'm in Lyon, It's a visit", []),
        ("I work in IT", ["User works in IT"]),
    ],
)
def test_real_needs_fields_and_visits(said: str, stored: list[str]) -> None:
    assert _run(said)[0] == stored
