"""Attacker 277 against the needs told by a doctor, "me too" of several people, "I can't
have…", "…也是", the need before a hypothetical and hedged withdrawals (fd1f618).

Each case failed there: a doctor's "no longer" withdrew a need the user doubted; a claim
the user denied, asked about or heard from family was stored as a need; a joke said before
an "if" stayed; "…, I'm positive" no longer confirmed a withdrawal; "I can't have cats" was
a need; a hedge, a time or a verb became the thing of "…也是"; a doctor's words stored
things that are no need; a list before "unless" was cut; "me too" copied a condition or
an idiom. Also: "Shellfish is off limits for me" is a need now. Sentences are this
project's own.
"""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.text import candidates_from_text
from tests.test_quality_kinds import facts_after


def _needs(said: str) -> list[str]:
    return [c.content for c in candidates_from_text(said) if c.constraint]


@pytest.mark.parametrize(
    "said",
    [
        "The doctor said I'm allergic to sesame. She was wrong.",
        "The test showed I'm allergic to sesame, but it was a false positive.",
        "My old doctor said I'm allergic to amoxicillin, but I'm not.",
        "My doctor says I'm allergic to sesame, is that true?",
        "My doctor told me I can't eat sugar, but I still do.",
        "I found out I'm allergic to sesame as a baby but I grew out of it.",
        "医生说我对芝麻过敏，后来发现不是。",
        "医生说我对芝麻过敏，误诊了。",
        "医生说我有糖尿病，其实我没有。",
        "I was told I'm allergic to sesame by my mom.",
        "My doctor told me to avoid him.",
        "The tests showed I have two kids.",
        "医生说我是个好人。",
        "医生叫我别吃药。",
        "医生叫我别吃太多。",
        "I can't have cats.",
        "I can't have Turkey.",
    ],
)
def test_no_need_is_read_from_what_was_doubted_or_is_no_need(said: str) -> None:
    assert _needs(said) == []


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I found out I'm allergic to sesame from my mom.", ["User is allergic to sesame"]),
        ("My doctor said I need to avoid caffeine.", ["User needs to avoid caffeine"]),
        ("医生让我少吃盐。", ["用户需要少吃盐"]),
        (
            "I'm allergic to penicillin and, if I remember, sulfa.",
            ["User is allergic to penicillin"],
        ),
        ("I'm allergic to sesame I think.", ["User is allergic to sesame"]),
        ("I don't eat pork I guess.", ["User does not eat pork"]),
        ("I say what I think.", ["User says what they think"]),
        ("我对花生过敏，好像鸡蛋也是。", ["用户对花生过敏", "用户对鸡蛋过敏"]),
        ("我对花生过敏，闻到海鲜也是。", ["用户对花生过敏"]),
        ("I can't have fish.", ["User cannot have fish"]),
        ("Shellfish is off limits for me.", ["User avoids shellfish"]),
        ("Peanuts and cashews are a no-go for me.", ["User avoids peanuts and cashews"]),
        ("My husband never eats lamb. Me neither.", ["User never eats lamb"]),
    ],
)
def test_what_is_stored(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    "said",
    [
        "I'm allergic to peanuts, not really, if you must know.",
        "I'm allergic to peanuts, just kidding, if you care.",
        "I'm vegan, not really, if you wondered.",
        "I'm allergic to penicillin, or at least I was as a kid, if I remember.",
        "我是素食者，开玩笑的，如果你信的话。",
        "我对猫过敏，开玩笑的，如果是就好了。",
        "My son and daughter are allergic to peanuts if they eat a lot. Me too.",
        "Tom and Priya are allergic to each other. Me too.",
        "My wife and son are allergic to lentils and love jazz. Me too.",
        "My parents never eat with us. Me neither.",
        "我老婆从来不吃亏，我也是。",
        "我老婆不吃醋，我也是。",
        "The kitchen is off limits for me.",
    ],
)
def test_nothing_is_stored(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize(
    ("first", "later"),
    [
        ("I'm allergic to sesame.", "I'm not allergic to sesame anymore, I'm positive."),
        ("I'm vegan.", "I'm not vegan anymore, I'm positive."),
    ],
)
def test_a_withdrawal_said_positive_withdraws(first: str, later: str) -> None:
    assert facts_after(first)
    assert facts_after(first, later) == []


def test_a_list_before_unless_is_not_cut_to_its_first_thing() -> None:
    # (the whole list is conditional: nothing is kept, never its first thing alone)
    said = "I'm allergic to peanuts and tree nuts unless they're roasted."
    assert facts_after(said) == []
