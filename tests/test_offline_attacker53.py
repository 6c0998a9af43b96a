"""Attacker 53's findings, each pinned."""

from __future__ import annotations

import pytest

from tests.test_offline_attacker51 import _run


@pytest.mark.parametrize(
    ("said", "stored_fact", "noted"),
    [
        # the stored need stays and the clarification is kept as said: "Not almonds,
        # cashews" may answer a recipe as well as an allergy (attacker 54)
        ("Not almonds, it's cashews", "User is allergic to almonds", "cashews, not almonds"),
        ("不是芒果，是菠萝", "用户对芒果过敏", "是菠萝，不是芒果"),
    ],
)
def test_a_short_correction_of_a_need_keeps_it_and_notes_the_words(
    said: str, stored_fact: str, noted: str
) -> None:
    facts, removed = _run(said, stored=(stored_fact,))
    assert removed == [] and len(facts) == 1 and noted in facts[0]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm a good nurse", ["User is a good nurse"]),  # a job said with praise is a job
        ("I'm an excellent chef", ["User is an excellent chef"]),
        (
            "I used to be a nurse, now I work in IT",
            ["User used to be a nurse", "User now works in IT"],
        ),
        (
            "I lived in Oslo for years, now I visit it every year",
            ["User lived in Oslo for years, now they visit it every year"],
        ),
        ("I am 素食者", ["用户是素食者"]),
        ("I'm 在深圳工作", ["用户在深圳工作"]),
    ],
)
def test_jobs_fields_and_mixed_openings(said: str, stored: list[str]) -> None:
    assert _run(said)[0] == stored


def test_a_job_said_with_praise_replaces_the_stored_job() -> None:
    assert _run("I'm a great teacher", stored=("User is a nurse",))[1] == ["f0"]
