"""A saying with "live in", "work at" or "name is" fills no slot, so it replaces nothing.

"I live in the moment" is no home, "I work at my own pace" no employer, "my name is
mud" no name: each once replaced the real value (attacker 68). A capitalised word is
a place's name ("I live in Hope, Idaho").
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("first", "saying", "kept"),
    [
        ("I live in Tromsø.", "honestly i live in the moment", "User lives in Tromsø"),
        ("I live in Tromsø.", "I live in constant fear of my inbox.", "User lives in Tromsø"),
        ("I'm based in Lisbon.", "i'm based in reality, unlike my boss", "User is based in Lisbon"),
        ("I work at Globex.", "I work at my own pace.", "User works at Globex"),
        ("I work at Globex.", "i work at a standing desk these days", "User works at Globex"),
        ("My name is Oskar.", "my name is mud at home right now", "User's name is Oskar"),
    ],
)  # fmt: skip
def test_a_saying_does_not_replace_the_real_value(first: str, saying: str, kept: str) -> None:
    assert kept in facts_after(first, saying)


@pytest.mark.parametrize(
    ("first", "later", "old"),
    [
        ("I live in Tromsø.", "I live in Hope, Idaho now.", "User lives in Tromsø"),
        ("I work at Globex.", "I work at Pace Logistics now.", "User works at Globex"),
    ],
)
def test_a_place_or_employer_named_like_a_saying_still_replaces(
    first: str, later: str, old: str
) -> None:
    facts = facts_after(first, later)
    assert old in facts_after(first) and old not in facts and len(facts) == 1


@pytest.mark.parametrize(
    ("first", "later", "old"),
    [
        ("I live in Tromsø.", "i live in hope valley now", "User lives in Tromsø"),
        ("I work at Globex.", "i work at a laptop repair shop now", "User works at Globex"),
    ],
)
def test_a_lower_case_name_that_starts_like_a_saying_still_replaces(
    first: str, later: str, old: str
) -> None:
    # "peace river", "a computer store": a word after the saying makes it a name (attacker 69)
    facts = facts_after(first, later)
    assert old not in facts and len(facts) == 1
