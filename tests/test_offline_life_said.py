"""A life said as it changes: a past time said first, the present after a past, a change to
come, a doctor's "cut back", and what is eaten, drunk or smoked given up.

Before: "Two years ago I moved to Bergen" stored nothing ("I moved to Bergen two years ago"
did); "I worked at a bank, now I'm a teacher" lost the teacher (only some past verbs let
"now I'm…" be read); "I'm graduating in June", "I'm retiring next year" stored nothing and
"I'm moving to Oslo next week" was dropped as a moment; "My doctor told me to cut back on
salt" stored nothing ("…to cut down on" did); "I gave up sugar", "I quit smoking" withdrew the
habit and said no more, and "I gave up on that plan" was stored.

Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a past time said first is said after, as it would be read there
        ("Two years ago I moved to Bergen.", "User moved to Bergen two years ago"),
        ("Last spring I got engaged.", "User got engaged last spring"),
        ("In 2021 I was diagnosed with lupus.", "User was diagnosed with lupus in 2021"),
        (
            "A few months ago, I started working at a brewery.",
            "User started working at a brewery a few months ago",
        ),
        # a change of life to come, whatever day it comes
        ("I'm graduating in June.", "User is graduating in June"),
        ("I'm retiring next year.", "User is retiring next year"),
        ("I'm moving to Oslo next week.", "User is moving to Oslo next week"),
        ("I'm starting a new job tomorrow!", "User is starting a new job tomorrow"),
        (
            "I'm going back to university in the autumn.",
            "User is going back to university in the autumn",
        ),
        # a doctor's word to eat or drink less
        ("My doctor told me to cut back on salt.", "User needs to cut back on salt"),
        ("My GP advised me to go easy on red meat.", "User needs to go easy on red meat"),
        # what is eaten, drunk or smoked, given up
        ("I gave up sugar.", "User gave up sugar"),
        ("I quit vaping.", "User quit vaping"),
        ("I've given up alcohol.", "User has given up alcohol"),
    ],
)
def test_the_change_is_stored(said: str, stored: str) -> None:
    assert facts_after(said) == [stored]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I worked at a bank, now I'm a teacher.", "User is now a teacher"),
        ("I studied law, now I work as a chef.", "User now works as a chef"),
        ("I taught maths for years, now I'm a potter.", "User is now a potter"),
    ],
)
def test_the_present_after_a_past_is_read(said: str, stored: str) -> None:
    assert stored in facts_after(said)


@pytest.mark.parametrize(
    "said",
    [
        "I'm moving to the next question.",
        "I'm moving to a new desk tomorrow.",
        "I'm moving the sofa tomorrow.",
        "I gave up on that plan.",
        "I gave up on it.",
        "Last year was rough.",
        "Three weeks ago I broke my wrist.",
    ],
)
def test_a_moment_or_the_chat_is_not(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize(
    ("given_up", "again"),
    [
        ("I gave up sugar.", "I eat sugar again now."),
        ("I quit smoking.", "I smoke again."),
        ("I've given up coffee.", "I drink coffee again."),
    ],
)
def test_a_habit_taken_up_again_replaces_its_giving_up(given_up: str, again: str) -> None:
    after = facts_after(given_up, again)
    assert len(after) == 1 and "again" in after[0], after


def test_a_habit_given_up_still_withdraws_the_habit() -> None:
    assert facts_after("I drink beer every weekend.", "I gave up beer.") == ["User gave up beer"]
