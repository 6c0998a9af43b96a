"""What attacker 70 found the session's own extractor changes doing wrong, pinned.

Each case was kept by the code before this session and lost, or made false, by one
of its changes: a denial that named a thing withdrew every fact about it, the task
filter took health and job facts, a weekly range got an end date, a diet said "now"
withdrew a job at a vegan cafe, and a routine of the day in Chinese was dropped.
"""

from __future__ import annotations

import pytest

from tests.test_hygiene import facts_said_on_a_monday
from tests.test_quality_kinds import facts_after, kept_after


@pytest.mark.parametrize(
    ("first", "denial"),
    [
        ("I'm allergic to prawns.", "I never said I wanted prawns, I'm allergic."),
        ("I'm allergic to prawns.", "I never said I liked prawns."),
        ("I live in Tulsa.", "I never said I liked Tulsa."),
        ("I have three kids.", "I never said I wanted kids."),
    ],
)
def test_a_denial_withdraws_only_what_it_repeats(first: str, denial: str) -> None:
    assert kept_after(first, denial)


@pytest.mark.parametrize(
    "said",
    [
        "I have to leave out sesame because I'm allergic to it.",
        "I have to go dairy free because of my stomach.",
        "I make a lot of typos because I'm dyslexic.",
        "I'm a data analyst working with huge datasets.",
        "I get shin splints when I run",
        "我需要把药放在冰箱里",
        "我中文叫王川",
    ],
)
def test_health_and_job_facts_are_not_task_talk(said: str) -> None:
    assert facts_after(said) != []


@pytest.mark.parametrize(
    "said",
    [
        "I teach Monday through Thursday.",
        "I do dialysis Tuesday thru Saturday.",
        "I'm clean for 8 months now.",
    ],
)
def test_a_weekly_range_or_a_time_so_far_is_no_end(said: str) -> None:
    facts = facts_said_on_a_monday(said)
    assert facts and all(f.expires_at is None for f in facts)


@pytest.mark.parametrize(
    ("first", "now"),
    [
        ("I work at a vegan bakery.", "I'm vegetarian now."),
        ("I'm a vegetarian cook.", "I'm vegan now."),
        ("I run a vegan food blog.", "I eat meat now"),
    ],
)
def test_a_diet_said_now_keeps_facts_that_only_mention_a_diet(first: str, now: str) -> None:
    assert kept_after(first, now)


@pytest.mark.parametrize("said", ["我晚上要去医院做透析", "我晚上有课"])
def test_a_routine_of_the_day_in_chinese_is_kept(said: str) -> None:
    assert facts_after(said) != []


def test_a_correction_of_a_stored_number_is_kept() -> None:
    facts = facts_after("My birthday is March 14.", "It's the 4th, not the 14th.")
    assert "User clarified: the 4th, not the 14th" in facts


@pytest.mark.parametrize(
    ("first", "saying"),
    [
        ("I live in Ghent.", "I live in denial about my sleep"),
        ("I live in Ghent.", "I live in the past sometimes"),
        ("I work at Initech.", "I work at a desk all day."),
        ("I work at Initech.", "I work at night in the warehouse."),
    ],
)
def test_a_saying_followed_by_more_words_still_fills_no_slot(first: str, saying: str) -> None:
    assert kept_after(first, saying)


@pytest.mark.parametrize(
    "said", ["My birthday's May 9.", "I was born June 2, 1991.", "我生日4月8号"]
)
def test_a_birthday_in_other_words_is_lasting(said: str) -> None:
    [fact] = facts_said_on_a_monday(said)
    assert fact.expires_at is None
