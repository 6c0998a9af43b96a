"""Helper 371: "the mother of a nurse" is no job, "separated by an ocean" no marital status.

"I'm the mother of a nurse" was the job "mother of a nurse" and replaced "User is a teacher";
"User is separated by an ocean (with their brother)" ("My brother and I are separated by an
ocean") filled the marital slot. Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.rules import slot_of
from tests.test_offline_slots_of_others import _stored
from tests.test_quality_kinds import remember


@pytest.mark.parametrize(
    "said", ["I'm the mother of a nurse.", "I'm the daughter of a doctor.", "I'm a dad to a chef."]
)
def test_someone_elses_job_keeps_the_users(said: str) -> None:
    after = [fact.content for fact in remember(_stored("User is a teacher"), said).facts]
    assert "User is a teacher" in after, after


@pytest.mark.parametrize(
    "content",
    [
        "User is the mother of a nurse",
        "User is the son of a farmer",
        "User is separated by an ocean (with their brother)",
    ],
)
def test_no_slot(content: str) -> None:
    assert slot_of(content) is None


@pytest.mark.parametrize(
    ("content", "slot"),
    [
        ("User is a senior software engineer", ("job", "senior software engineer")),
        ("User is a teacher for kids", ("job", "teacher")),
        ("User is separated", ("marital", "separated")),
    ],
)
def test_the_users_own(content: str, slot: tuple[str, str]) -> None:
    assert slot_of(content) == slot
