"""A label before what the user tells ("Bad news: I'm allergic to cats") is no part of it.

Before: "Bad news:", "Important:", "Warning:", "Reminder:", "One more thing:", "Update:"
before a statement of the user's dropped it (a need included, and "Good news: I'm no longer
allergic to cats" withdrew nothing), though "FYI:", "Note:" and "PS:" were read. Sentences are
this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_offline_attacker51 import _run
from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("Bad news: I'm allergic to sesame", ["User is allergic to sesame"]),
        ("Important: I'm allergic to sesame.", ["User is allergic to sesame"]),
        ("Warning - I'm allergic to sesame", ["User is allergic to sesame"]),
        ("Reminder: I'm vegan", ["User is vegan"]),
        ("One more thing: I'm lactose intolerant", ["User is lactose intolerant"]),
        ("Also important: I'm vegan", ["User is vegan"]),
        ("Update: I moved to Ghent", ["User moved to Ghent"]),
        # no label, no statement of the user's
        ("Important meeting tomorrow", []),
        ("Warning signs are everywhere", []),
    ],
)
def test_a_label_before_the_statement_is_no_part_of_it(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


def test_a_withdrawal_after_a_label_withdraws() -> None:
    said = "Good news: I'm no longer allergic to sesame"
    assert _run(said, stored=("User is allergic to sesame",)) == ([], ["f0"])
