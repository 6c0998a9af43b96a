"""A taste said with its contrast, then reversed, leaves only the new taste.

"I prefer trains, not buses" then "Actually I prefer buses, not trains" kept
both "User prefers trains, not buses" and "User prefers buses": the correction's
wrong statement was only the word ("trains"), which matches no stored fact.
"""

from __future__ import annotations

import pytest

from tests.test_offline_attacker51 import _run


@pytest.mark.parametrize(
    ("first", "then", "now"),
    [
        (
            "I prefer trains, not buses",
            "Actually I prefer buses, not trains",
            "User prefers buses",
        ),
        ("I love cats, not dogs", "Sorry, I love dogs, not cats", "User loves dogs"),
        ("我喜欢绿茶，不是红茶", "其实我喜欢红茶，不是绿茶", "用户喜欢红茶"),
    ],
)
def test_the_reversed_taste_replaces_the_first(first: str, then: str, now: str) -> None:
    # said in one conversation
    assert _run(first, then) == ([now], [])
    # or the first stored before
    stored = _run(first)[0]
    assert len(stored) == 1 and stored[0] != now
    assert _run(then, stored=tuple(stored)) == ([now], ["f0"])


def test_a_need_said_with_a_contrast_is_never_removed_by_a_reversal() -> None:
    stored = ("User is allergic to pecans, not walnuts",)
    facts, removed = _run("Actually I'm allergic to walnuts, not pecans", stored=stored)
    assert (facts, removed) == (["User is allergic to walnuts"], [])  # both allergies stay
