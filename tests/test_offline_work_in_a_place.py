""" "I work in a bakery" is a workplace, as "I work at a bakery" is.

Before: "work in…" filled no slot, so "I work in a bakery." and then "I work at a bank now."
kept both jobs (the old one shown on every turn), and "I changed jobs." left the bakery. Now
a place of work after "work in a/an/the" (a bakery, a school, an office, a care home…) is the
employer slot; a field or a town ("in IT", "in London", "in a team of five") is not.

Sentences are this project's own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from deerflow_memory.update.offline.rules import slot_of
from tests.test_offline_context import _said_in_turns


@pytest.mark.parametrize(
    ("before", "later", "now"),
    [
        ("I work in a bakery.", "I work at Barclays now.", "User works at Barclays now"),
        ("I work at Boots.", "I work in a care home now.", "User works in a care home now"),
        ("I work in a school.", "I work in a pharmacy now.", "User works in a pharmacy now"),
    ],
)
def test_a_new_workplace_replaces_one_said_with_in(
    tmp_path: Path, before: str, later: str, now: str
) -> None:
    assert _said_in_turns(tmp_path, before, later) == [now]


def test_a_job_change_ends_a_workplace_said_with_in(tmp_path: Path) -> None:
    after = _said_in_turns(tmp_path, "I work in a garage and have eczema.", "I changed jobs.")
    assert "User has eczema" in after
    assert not any("garage" in fact for fact in after)


@pytest.mark.parametrize(
    ("fact", "slot"),
    [
        ("User works in a bakery", ("employer", "bakery")),
        ("User works in an office now", ("employer", "office")),
        ("User works in IT", None),
        ("User works in London", None),
        ("User works in a team of five", None),
    ],
)
def test_the_slot_of_a_stored_fact(fact: str, slot: tuple[str, str] | None) -> None:
    assert slot_of(fact) == slot


@pytest.mark.parametrize(
    ("before", "later", "now"),
    [
        ("I work at Boots.", "I'm working at Greggs now.", "User is working at Greggs now"),
        ("I'm working at Boots.", "I work at Greggs now.", "User works at Greggs now"),
        ("I work at Boots.", "I'm working in a nursery now.", "User is working in a nursery now"),
    ],
)
def test_a_workplace_said_as_going_on_is_the_employer(
    tmp_path: Path, before: str, later: str, now: str
) -> None:
    # ("I'm working at Tesco" stored nothing: attacker 343 named "I'm working in a bakery")
    assert _said_in_turns(tmp_path, before, later) == [now]


@pytest.mark.parametrize("said", ["I'm working at home today.", "I'm working at the moment."])
def test_working_at_home_or_at_the_moment_is_no_employer(tmp_path: Path, said: str) -> None:
    assert _said_in_turns(tmp_path, "I work at Boots.", said) == ["User works at Boots"]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I work in a mine.", "User works in a mine"),
        ("I work at the copper mine.", "User works at the copper mine"),
    ],
)
def test_a_mine_worked_in_is_no_pronoun(tmp_path: Path, said: str, stored: str) -> None:
    # ("User works in a theirs": the pronoun swap read the pit as "mine", attacker 345)
    assert _said_in_turns(tmp_path, said) == [stored]
