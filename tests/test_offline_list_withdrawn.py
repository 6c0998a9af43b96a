"""One thing of a list withdrawn keeps the others (newcomer 372).

"I play tennis and chess." then "I don't play tennis anymore." left nothing: the fact went
whole, the chess with it. A fact of one verb and a list of things now loses only the thing
named. Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.retractions import without_thing
from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("before", "later", "left"),
    [
        ("I play tennis and chess.", "I don't play tennis anymore.", ["User plays chess"]),
        ("I play tennis and chess.", "I don't play chess anymore.", ["User plays tennis"]),
        (
            "I use pandas and numpy at work.",
            "I don't use pandas anymore.",
            ["User uses numpy at work"],
        ),
        ("I love sushi and ramen.", "Not sushi anymore.", ["User loves ramen"]),
    ],
)
def test_the_other_things_of_a_list_stay(before: str, later: str, left: list[str]) -> None:
    assert facts_after(before, later) == left


@pytest.mark.parametrize(
    ("content", "what", "left"),
    [
        (
            "User uses pandas, numpy and polars at work",
            "numpy",
            "User uses pandas and polars at work",
        ),
        ("User plays tennis and table tennis", "tennis", None),  # names both: goes whole
        ("User plays tennis and chess", "golf", None),  # names none
        ("User is allergic to peanuts and shellfish", "peanuts", None),  # a need: its own rule
        ("User works at a bank and lives in Leeds", "bank", None),  # two statements: joined parts
    ],
)
def test_only_a_list_of_one_verb_loses_one_thing(content: str, what: str, left: str | None) -> None:
    assert without_thing(content, what) == left
