"""A need said with "currently", and a drug known by its ending said with "I'm on".

Before: "I'm currently vegan.", "I'm currently on insulin." and "I'm currently pregnant."
stored nothing ("currently" was no adverb the rules let through, as "still" or "now" are),
nor did "I'm on lisinopril." (only drugs named in the vocabulary were read after "I'm on").
Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.extractor import OfflineExtractor
from tests.test_quality_kinds import _turns, facts_after, said_in_one_update


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm currently vegetarian.", "User is currently vegetarian"),
        ("I'm currently on insulin.", "User is currently on insulin"),
        ("I'm presently on blood thinners.", "User is presently on blood thinners"),
        ("I'm currently pregnant.", "User is currently pregnant"),
        ("I'm on ramipril.", "User is on ramipril"),
        ("I'm currently on escitalopram.", "User is currently on escitalopram"),
        ("I'm on atorvastatin 20mg daily.", "User is on atorvastatin 20mg daily"),
    ],
)
def test_the_need_is_stored(said: str, stored: str) -> None:
    assert facts_after(said) == [stored]


def test_a_drug_said_with_im_on_is_a_need_its_stop_withdraws() -> None:
    (said,) = OfflineExtractor.candidates(_turns(("I'm on ramipril.",)))
    assert said.constraint
    assert facts_after("I'm on ramipril.", "I stopped taking ramipril.") == []
    # (a stop for a while keeps it, as for any medication)
    assert facts_after("I'm on ramipril.", "I stopped ramipril, only for a week.") == [
        "User is on ramipril"
    ]


@pytest.mark.parametrize("said", ["I'm on Stephen's side.", "I'm on the train.", "I'm on holiday."])
def test_im_on_something_else_is_no_drug(said: str) -> None:
    assert not any("is on" in fact for fact in said_in_one_update(said))
