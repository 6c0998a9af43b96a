"""Forms next to helper 351's bare reaction with a thing more said on (helper 352). Sentences
are this project's own.

- "No prawns, I'm allergic to them and eggs are fine though" was read as a need for the
  eggs too ("User is allergic to prawns and eggs are fine"): the thing said on with a verb
  of its own is a remark said apart, not a second need.
- An emoji before a name ("I live with 🐱 Miso and 🐶 Rex") was said as its word since the
  emoji after a joining word is said however the sentence goes on ("…with cats Miso and
  dogs Rex"); before a name it draws the name's kind and decorates, as it did before.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after, facts_of_one_update


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("Hold the crab, I'm allergic to it and eggs are fine though.", "User is allergic to crab"),
        ("No squid please, I'm allergic to it and milk is okay.", "User is allergic to squid"),
        (
            "Skip the cashews, I'm allergic to them and oats are fine.",
            "User is allergic to cashews",
        ),
    ],
)
def test_a_thing_said_on_with_its_own_verb_is_no_second_need(said: str, stored: str) -> None:
    assert facts_after(said) == [stored]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        (
            "Hold the crab, I'm allergic to it and kiwi fruit.",
            "User is allergic to crab and kiwi fruit",
        ),
        ("No squid, I'm allergic to it, peanuts and sesame too.", None),
        ("Skip the cashews, I'm allergic to them & mango (mildly).", None),
    ],
)
def test_things_said_on_to_the_end_are_still_needs(said: str, stored: str | None) -> None:
    facts = facts_after(said)
    assert facts and all("allergic" in f for f in facts), facts
    if stored is not None:
        assert facts == [stored]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I share a flat with 🐱 Pippa and 🐶 Otto.", "User shares a flat with Pippa and Otto"),
        ("I walk to work with 🐶 Biscuit.", "User walks to work with Biscuit"),
    ],
)
def test_an_emoji_before_a_name_draws_its_kind_and_decorates(said: str, stored: str) -> None:
    assert facts_after(said) == [stored]


def test_an_emoji_thing_said_on_after_a_joining_word_is_still_said() -> None:
    assert facts_after("I go hiking with 🐶 every weekend.") == [
        "User goes hiking with dogs every weekend"
    ]


@pytest.mark.parametrize(
    ("fact", "withdrawn", "thanks"),
    [
        ("I'm allergic to kiwi.", "I'm not allergic to kiwi anymore.", "Yes, thanks"),
        ("I live in Turin.", "I moved out of Turin.", "yeah. thank you!"),
    ],
)
def test_a_bare_yes_with_thanks_takes_no_withdrawal_back(
    fact: str, withdrawn: str, thanks: str
) -> None:
    assert facts_of_one_update(fact, withdrawn, thanks) == []


def test_yes_i_am_with_thanks_still_takes_it_back() -> None:
    said = ("I'm allergic to kiwi.", "I'm not allergic to kiwi anymore.", "Yes I am. Thanks")
    assert facts_of_one_update(*said) == ["User is allergic to kiwi"]
