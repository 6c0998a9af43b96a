"""Attacker 50's findings on this session's extractor changes, each pinned."""

from __future__ import annotations

import pytest

from deerflow_memory.models import MemoryDocument
from tests.test_offline_extractor import _extract, _fact


def _run(*said: str, stored: tuple[str, ...] = ()) -> tuple[list[str], list[str]]:
    document = MemoryDocument(facts=tuple(_fact(f"f{i}", c) for i, c in enumerate(stored)))
    update = _extract(*said, document=document)
    return [f.content for f in update.new_facts], [r.id for r in update.facts_to_remove]


def test_a_fact_said_again_after_a_correction_stays() -> None:
    assert _run(
        "I'm not allergic to aspirin, it's ibuprofen",
        "Actually I'm allergic to aspirin too",
        stored=("User is allergic to aspirin",),
    ) == (["User is allergic to ibuprofen"], [])


def test_a_correction_taken_back_keeps_both_allergies_rather_than_lose_one() -> None:
    _, removed = _run(
        "Actually I'm allergic to pecans, not cashews",
        "Sorry, no, I'm allergic to cashews, not pecans",
        stored=("User is allergic to cashews",),
    )
    assert removed == []  # the stored allergy is never lost to a correction


@pytest.mark.parametrize(
    "said",
    [
        "I'm not allergic to wheat, it's coeliac disease",
        "I'm not allergic to cats, that's my sister",
        "I'm not allergic to penicillin, it was a misdiagnosis",
        "I'm not allergic to dogs, it's probably the shampoo",
        "I'm not allergic to anything, it's just a cold",
    ],
)
def test_a_reason_or_a_person_after_its_is_no_new_allergen(said: str) -> None:
    facts, removed = _run(said, stored=("User is allergic to wheat", "User is allergic to cats"))
    assert not any("allergic to" in f and "not" not in f for f in facts)
    assert removed == []


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I don't care for olives, it's the texture", ["User does not care for olives"]),
        ("I don't work at Siemens, it's a rumour", ["User does not work at Siemens"]),
        ("I'm not a fan of dill, it's soapy", ["User is not a fan of dill"]),
    ],
)
def test_not_x_its_y_is_read_only_for_needs_homes_and_work(said: str, stored: list[str]) -> None:
    assert _run(said)[0] == stored


@pytest.mark.parametrize(
    "said", ["Pain level? I'm 8", "Dress size? I'm 8", "On a scale of 1 to 10, I'm 7"]
)
def test_a_bare_number_asked_as_something_else_is_no_age(said: str) -> None:
    assert _run(said, stored=("User is 41 years old",)) == ([], [])


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # the nickname only where it is meant
        ("朋友叫我睡觉", []),
        ("同事都叫我加班", []),
        # meaning kept at the end of a sentence
        ("I always try to be honest", ["User always tries to be honest"]),
        # durable needs are no errands
        ("I need to go gluten-free", ["User needs to go gluten-free"]),
        # a job or a habit at a place, and life events just had, are kept
        ("I'm on the flight crew for Delta", ["User is on the flight crew for Delta"]),
        ("I'm at the gym 5 days a week", ["User is at the gym 5 days a week"]),
        ("I just had a baby", ["User just had a baby"]),
        ("我在机场上班十年了", ["用户在机场上班十年了"]),
        # a career goal is no request
        ("我想当一名翻译", ["用户想当一名翻译"]),
        # "like" the verb, and "Being …" with a verb of its own
        ("Do people with money like me?", []),
        ("Being a parent is hard.", []),
        # a lead clause keeps what the rules do not know
        ("As a woman with PCOS, what should I eat?", ["User has PCOS"]),
    ],
)
def test_guards_of_this_session_keep_what_they_should(said: str, stored: list[str]) -> None:
    assert _run(said)[0] == stored


def test_my_names_before_more_than_a_name_fills_no_name_slot() -> None:
    assert _run("my names kinda odd, it's Xiomara", stored=("User's name is Priya",))[1] == []
