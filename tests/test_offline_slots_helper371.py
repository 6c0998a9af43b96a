"""Helper 371: the user's own single-valued slots in a stored fact (after 91fb782).

91fb782 read every fact opening "User's …" as someone else's, and a relative followed by "who"
as someone else even when the relative is the user: "User's marital status is married", "User is
a father who works at Google" lost their slot, so "I'm divorced now" or a new job no longer
replaced them. Someone else named before "who" or said with "living in" still filled the user's
slot ("User has a son, Leo, who lives in Ohio", "User has a sister living in Ohio", "User’s
mother lives in Ohio"), and "用户的老家在湖南" was read as where the user lives. Memory-model
wordings of the user's home and job had no slot ("User's home is in Leeds", "User and their wife
live in Leeds", "User's current employer is Acme"). Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.rules import slot_of
from tests.test_offline_slots_of_others import _stored
from tests.test_quality_kinds import remember


@pytest.mark.parametrize(
    ("content", "slot"),
    [
        ("User's marital status is married.", ("marital", "married")),
        ("User's relationship status is single.", ("marital", "single")),
        ("User is a father who works at Google.", ("employer", "google")),
        ("User is a single mother that works at Google.", ("employer", "google")),
        ("User's home is in Leeds.", ("location", "leeds")),
        ("The user's current home is located in Leeds.", ("location", "leeds")),
        ("User's current city is Leeds.", ("location", "leeds")),
        ("User and their wife live in Leeds.", ("location", "leeds")),
        ("User lives with their wife in Leeds.", ("location", "leeds")),
        ("User's current employer is Acme.", ("employer", "acme")),
        ("User's job title is software engineer.", ("job", "software engineer")),
        ("User's hometown is Dayton.", ("origin", "dayton")),
        ("User\u2019s name is Bo.", ("name", "bo")),
        ("用户的老家在湖南", ("origin", "湖南")),
    ],
)
def test_the_users_own_slot(content: str, slot: tuple[str, str]) -> None:
    assert slot_of(content) == slot


@pytest.mark.parametrize(
    "content",
    [
        "User has a son, Leo, who lives in Ohio.",
        "User has a brother named Tom who lives in Ohio.",
        "User has a sister living in Ohio.",
        "User\u2019s mother lives in Ohio.",
        "User is dating Anna, who lives in Paris.",
        "User is a father of a son who works at Google.",
        "User lives with chronic pain in her knee.",
        "User's home is a flat in Leeds.",
        "User's job is stressful.",
    ],
)
def test_no_slot_of_the_users(content: str) -> None:
    assert slot_of(content) is None


@pytest.mark.parametrize(
    ("stored", "said"),
    [
        ("User's marital status is married", "I'm divorced now."),
        ("User's home is in Leeds", "I live in York now."),
        ("User and their wife live in Leeds", "I live in York now."),
        ("User's current employer is Acme", "I work at Google now."),
    ],
)
def test_the_users_new_value_replaces_the_old(stored: str, said: str) -> None:
    after = [fact.content for fact in remember(_stored(stored), said).facts]
    assert stored not in after and len(after) == 1, after


@pytest.mark.parametrize(
    ("stored", "said"),
    [
        ("User has a sister living in Ohio", "I live in Leeds."),
        ("User has a son, Leo, who lives in Ohio", "I live in Leeds."),
        ("User\u2019s mother lives in Ohio", "I live in Leeds."),
        ("用户的老家在湖南", "我住在北京。"),
    ],
)
def test_the_stored_fact_stays(stored: str, said: str) -> None:
    after = [fact.content for fact in remember(_stored(stored), said).facts]
    assert stored in after, after
