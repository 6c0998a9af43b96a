"""A listed thing whose word is also a verb ("fish", "duck", "milk") after a comma.

Before: "I'm allergic to walnuts, fish and sesame." stored "User is allergic to walnuts" and
"User fishes and sesame": the items after the comma were read as a clause of the user's
with "I" left out ("I fish and sesame"), so every item after the first was lost as a need.
Now a fragment that only names things a need may name goes on the list before it; a habit
said with such a verb ("…, fish most weekends") is still the user's. Sentences are this
project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("said", "things"),
    [
        ("I'm allergic to walnuts, fish and sesame.", ("walnuts", "fish", "sesame")),
        ("I'm allergic to celery, fish, and lupin.", ("celery", "fish", "lupin")),
        ("I'm allergic to mustard, milk and kiwi.", ("mustard", "milk", "kiwi")),
        ("I'm intolerant to oats, fish.", ("oats", "fish")),
        ("I don't eat veal, duck or goose.", ("veal", "duck", "goose")),
    ],
)
def test_every_listed_thing_stays_on_the_need(said: str, things: tuple[str, ...]) -> None:
    stored = facts_after(said)
    assert len(stored) == 1
    assert all(thing in stored[0] for thing in things)
    assert not any("fishes" in fact or "ducks" in fact for fact in stored)


def test_a_habit_said_with_such_a_verb_is_still_the_users() -> None:
    stored = facts_after("I live near the harbour, fish most Sundays.")
    assert "User fishes most Sundays" in stored
