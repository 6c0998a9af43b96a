"""Everyday phrasings the rules now read (surveyor 1's PHRASING, VERBLESS, GRAMMAR, CAT kinds)."""

from __future__ import annotations

import pytest

from deerflow_memory.models import FactCategory
from tests.test_offline_extractor import _extract


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("just moved to Valencia!! 🎉", [("User just moved to Valencia", FactCategory.CONTEXT)]),
        (
            "I read mostly crime novels.",
            [("User reads mostly crime novels", FactCategory.BEHAVIOR)],
        ),
        (
            "I'd love to learn to sail someday.",
            [("User would love to learn to sail someday", FactCategory.GOAL)],
        ),
        ("I'm a full-time dad.", [("User is a full-time dad", FactCategory.CONTEXT)]),
        ("I sort of like techno.", [("User sort of likes techno", FactCategory.PREFERENCE)]),
        ("俺是山东人", [("用户是山东人", FactCategory.CONTEXT)]),
        (
            "My new year's resolution is to run a 10k.",
            [("User's new year's resolution is to run a 10k", FactCategory.GOAL)],
        ),
        (
            "Sorry, I meant I live in Lyon, not Lille.",
            [("User lives in Lyon", FactCategory.CORRECTION)],
        ),
        # a request, or what someone else wrote, stays out
        ("I'd like to book a table", []),
        ("I read your message", []),
    ],
)
def test_everyday_phrasings(said: str, stored: list[tuple[str, FactCategory]]) -> None:
    assert [(f.content, f.category) for f in _extract(said).new_facts] == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a frequency said first goes after the statement; a time to come keeps the statement
        # out: "Next year I work at Microsoft" must not replace today's job (attacker 54)
        ("Most evenings I swim", ["User swims most evenings"]),
        ("Next year I work at Siemens", []),
    ],
)
def test_a_time_said_first(said: str, stored: list[str]) -> None:
    assert [f.content for f in _extract(said).new_facts] == stored
