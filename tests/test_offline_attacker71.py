"""What attacker 71 found still worse than before the session's extractor changes, pinned."""

from __future__ import annotations

import pytest

from tests.test_hygiene import facts_said_on_a_monday
from tests.test_quality_kinds import facts_after, kept_after


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("Suppose I'm a vegan, what could I cook? I'm allergic to oats.",
         "User is allergic to oats"),  # a question sets no scene
        ("Let's say I switch jobs in May. I work at Hooli.", "User works at Hooli"),  # a plan
        ("假设我明年去日本，要准备什么？我对芒果过敏。", "用户对芒果过敏"),
        ("In the campaign, I play a bard. I'm allergic to wasps btw.",
         "User is allergic to wasps"),  # stepping out of the scene again
    ],
)  # fmt: skip
def test_facts_after_a_question_or_a_plan_are_the_users(said: str, kept: str) -> None:
    assert kept in facts_after(said)


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("I'm allergic to kiwi.", "I didn't tell you I'm allergic to kiwi, did I"),
        ("I'm allergic to kiwi.", "Oh wait, I never mentioned I'm allergic to kiwi."),
        ("我对芒果过敏", "我没告诉过你我对芒果过敏吧"),
        ("我住在成都", "我没说过我住在成都吧"),
    ],
)
def test_telling_or_asking_whether_it_was_told_withdraws_nothing(first: str, then: str) -> None:
    assert kept_after(first, then)


@pytest.mark.parametrize(
    "said",
    [
        "I'm waiting for a hip replacement.",
        "我正在等骨髓移植",
        "我是第一次养狗",
        "I've worked with big datasets for years as an analyst.",
        "I have a terror of heights.",
        "I have 40 minutes each way to the office.",
    ],
)
def test_lasting_facts_are_not_task_talk(said: str) -> None:
    assert facts_after(said) != []


@pytest.mark.parametrize(
    ("first", "now"),
    [
        ("I'm vegetarian for ethical reasons.", "I eat meat now."),
        ("I follow a vegan diet.", "I eat fish now."),
    ],
)
def test_a_diet_with_its_reason_is_still_the_diet(first: str, now: str) -> None:
    assert facts_after(first, now) == [facts_after(now)[0]]


@pytest.mark.parametrize(
    "said",
    [
        "I lived in Oslo for six months.",
        "I was a barista for eight months in college.",
        "I pay my rent by the 1st.",
        "I file my hours by Friday.",
    ],
)
def test_the_past_or_a_habit_sets_no_end(said: str) -> None:
    facts = facts_said_on_a_monday(said)
    assert facts and all(f.expires_at is None for f in facts)


def test_a_correction_of_a_stored_day_is_kept() -> None:
    facts = facts_after("I have physio on Mondays.", "It's on Wednesday, not Monday.")
    assert "User clarified: on Wednesday, not Monday" in facts


@pytest.mark.parametrize(
    "said", ["从现在起，只吃素", "Going forward, no gluten for me, I'm celiac."]
)
def test_a_diet_after_a_time_frame_is_no_standing_order(said: str) -> None:
    assert not any("standing instruction" in f or "长期要求" in f for f in facts_after(said))
