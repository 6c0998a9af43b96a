"""A change said with "now" takes back what it changes, without a "no longer".

"I don't eat pork" then "I eat pork now" kept both, and so did "I'm vegetarian" then
"I'm vegan now"; "I hate running" then "I love running now" kept both tastes (the slot
was "running now"); "I'm vegan now" beside "User is vegan" added a copy (attacker 68).
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after, kept_after


@pytest.mark.parametrize(
    ("before", "now", "left"),
    [
        ("I don't eat lamb.", "I eat lamb now", ["User eats lamb now"]),
        ("I never cycle.", "I cycle these days", ["User cycles these days"]),
        ("I'm pescatarian.", "I'm vegetarian now.", ["User is vegetarian now"]),
        ("I'm vegan.", "I'm flexitarian now", ["User is flexitarian now"]),
        ("I dislike sushi.", "I love sushi now", ["User loves sushi now"]),
        ("I'm vegan.", "I'm vegan now", ["User is vegan"]),
    ],
)
def test_a_change_said_with_now_replaces_what_it_changes(
    before: str, now: str, left: list[str]
) -> None:
    assert facts_after(before, now) == left


@pytest.mark.parametrize(
    ("before", "now"),
    [
        ("I don't eat lamb.", "I eat beef now"),  # another thing: both hold
        ("I'm pescatarian.", "My daughter is vegan now"),  # someone else's diet
    ],
)
def test_a_change_of_something_else_takes_nothing_back(before: str, now: str) -> None:
    assert kept_after(before, now)
