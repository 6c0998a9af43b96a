"""What the user is doing this minute is no fact; what they do or hold for a while is.

Before: "I'm looking at the menu.", "I'm sitting in a cafe.", "I'm waiting for the bus.",
"I need to go now." and "I had pasta for dinner." were stored as facts ("User is sitting in
a cafe"). Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    "said",
    [
        "I'm looking at the menu.",
        "I'm just sitting in a cafe.",
        "I'm standing at the gate.",
        "I'm waiting for the bus.",
        "I'm still waiting on my food.",
        "I need to go now.",
        "I gotta run.",
        "I had pasta for dinner.",
        "I just ate a sandwich for lunch today.",
    ],
)
def test_this_minute_is_no_fact(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm sitting on the board of a charity.", "User is sitting on the board of a charity"),
        ("I'm waiting for my visa.", "User is waiting for their visa"),
        ("I have oatmeal for breakfast every day.", "User has oatmeal for breakfast every day"),
        ("I need to leave early on Fridays.", "User needs to leave early on Fridays"),
        ("I had a stroke last year.", "User had a stroke last year"),
    ],
)
def test_what_lasts_is_still_kept(said: str, stored: str) -> None:
    assert facts_after(said) == [stored]
