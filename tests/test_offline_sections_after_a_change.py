"""The user's work and personal context after the fact it was made from is withdrawn.

Before (newcomer 338): "I work at a bakery." then "I changed jobs." (or "I no longer work at
the bakery.") withdrew the job fact, but "Work: User works at a bakery." stayed in the user's
context and was injected every turn: the section was refreshed only when a new fact filled
one of its slots. Now it is refreshed when one of its facts goes too: from the facts left, else
from what the user said instead ("User changed jobs."), else as no longer so. Sentences are
this project's own.
"""

from __future__ import annotations

import pytest

from deerflow_memory.models import MemoryDocument
from tests.test_quality_kinds import remember


def _sections(*said: str) -> tuple[str, str]:
    document = MemoryDocument()
    for text in said:
        document = remember(document, text)
    return document.user.work_context.summary, document.user.personal_context.summary


@pytest.mark.parametrize(
    ("said", "work", "personal"),
    [
        (("I work at a florist's.", "I changed jobs."), "User changed jobs.", ""),
        (
            ("I work at a florist's.", "I no longer work at the florist's."),
            "User no longer works at a florist's.",
            "",
        ),
        (("I'm a plumber.", "I'm not a plumber anymore."), "User is no longer a plumber.", ""),
        (("我在花店工作。", "我不在花店工作了。"), "用户已不再在花店工作。", ""),
        (
            ("I live in Truro.", "I don't live in Truro anymore."),
            "",
            "User no longer lives in Truro.",
        ),
        # the facts left make the section ("User is a plumber" stays: a trade is not a job left)
        (
            ("I'm a plumber and work at Pipeworks.", "I switched jobs."),
            "User is a plumber.",
            "",
        ),
        (
            ("I live in Truro and work at Pipeworks.", "I quit my job."),
            "User quit their job.",
            "User lives in Truro.",
        ),
    ],
)
def test_a_section_does_not_outlive_its_facts(
    said: tuple[str, ...], work: str, personal: str
) -> None:
    assert _sections(said[0]) != (work, personal)  # (the change is what made them so)
    assert _sections(*said) == (work, personal)
