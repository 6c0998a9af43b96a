"""Helper 356: what 1e2f4d6, bfac02a and ae5ee31 still read wrong.

- an origin is a place: a clause spelled with its "I" capital and the rest in lower case
  ("I'm from the marketing team") is how most users write, not a user who types no
  capitals; "from the state department" is no state one comes from;
- a short "I'm a …" refused for a degree, a jest or the chat partner refuses only those
  said alone or of the moment ("I'm a person with diabetes" was lost), and a degree goes on
  to any state ("I'm a bit under the weather"); "I'm a yes", "I'm a test message" answer
  the chat;
- how late one is on what ("I'm a day late on rent") and how many feet away is a moment;
- "moving to" a tool, a plan, a place in the room or for a weekend is no life to come;
- a word of the moment after a past time said first stays out of the fact;
- what is given up may be a list, and smoking taken up again replaces its giving up.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    "said",
    [
        "I'm from the marketing team.",
        "i'm from the marketing team",
        "I'm from a big family",
        "I'm from a different planet lol",
        "i'm from ikea customer service",
        "I'm from the state department.",
        "i'm from my phone",
        "I'm from the local paper.",
    ],
)
def test_a_team_a_desk_or_a_family_is_no_origin(said: str) -> None:
    assert not [f for f in facts_after(said) if f.startswith("User is from")], said


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("i'm from texas", "User is from texas"),
        ("im from new mexico lol", "User is from new mexico"),
        ("I'm from a small town in Ohio.", "User is from a small town in Ohio"),
        ("I'm from the countryside", "User is from the countryside"),
        ("I'm from the Netherlands.", "User is from the Netherlands"),
    ],
)
def test_a_place_of_origin_is_still_kept(said: str, fact: str) -> None:
    assert facts_after(said) == [fact]


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I'm a person with diabetes.", "User is a person with diabetes"),
        ("I'm a person who stutters", "User is a person who stutters"),
        ("I'm a human being with celiac disease", "User is a human being with celiac disease"),
        ("I'm a mess with money.", "User is a mess with money"),
        ("I'm a bit of a foodie", "User is a bit of a foodie"),
        ("I'm a bookworm too", "User is a bookworm"),
    ],
)
def test_a_short_i_am_a_said_on_is_kept(said: str, fact: str) -> None:
    assert facts_after(said) == [fact]


@pytest.mark.parametrize(
    "said",
    [
        "I'm a bit under the weather.",
        "I'm a tiny bit nervous",
        "I'm a little bit of everything",
        "I'm a huge fan!",
        "I'm a yes",
        "I'm a no, sorry",
        "I'm a test message",
        "I'm a go",
        "I'm a total wreck today",
        "I'm a day late on rent.",
        "I'm a week behind with work",
        "I'm 5 ft from the door",
        "I'm 100 meters from the finish line",
    ],
)
def test_a_degree_a_chat_answer_or_how_late_is_no_fact(said: str) -> None:
    assert facts_after(said) == [], said


@pytest.mark.parametrize(
    "said",
    [
        "I'm moving to plan B.",
        "I'm moving to the cloud next week",
        "I'm moving to Python 3 next week",
        "I'm moving to a new phone plan next month",
        "I'm moving to the front of the line",
        "I'm moving to my parents' place for the weekend",
        "I'm moving to Oslo next week for a conference",
        "I'm moving to the gym now",
    ],
)
def test_moving_to_a_tool_a_plan_or_a_stay_is_no_life_to_come(said: str) -> None:
    assert facts_after(said) == [], said


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I'm moving to Berlin 2 weeks from now", "User is moving to Berlin 2 weeks from now"),
        ("I'm moving to London for a year.", "User is moving to London for a year"),
        ("i'm relocating to austin next month", "User is relocating to austin next month"),
    ],
)
def test_a_move_to_come_is_still_kept(said: str, fact: str) -> None:
    assert facts_after(said) == [fact]


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("3 years ago I moved to Lisbon lol", "User moved to Lisbon 3 years ago"),
        ("Last year I got divorced haha", "User got divorced last year"),
        ("In 2018 I moved to Perth too", "User moved to Perth in 2018"),
    ],
)
def test_a_word_of_the_moment_stays_out_after_a_past_time_said_first(said: str, fact: str) -> None:
    assert facts_after(said) == [fact]


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I gave up smoking and drinking.", "User gave up smoking and drinking"),
        ("I quit cigarettes and alcohol", "User quit cigarettes and alcohol"),
    ],
)
def test_a_list_given_up_is_said(said: str, fact: str) -> None:
    assert facts_after(said) == [fact]


@pytest.mark.parametrize(
    ("given_up", "again"),
    [
        ("I quit smoking.", "I started smoking again."),
        ("I gave up vaping", "I've started vaping again"),
    ],
)
def test_smoking_begun_again_replaces_its_giving_up(given_up: str, again: str) -> None:
    after = facts_after(given_up, again)
    assert len(after) == 1 and "again" in after[0], after
