"""Common statements the rules read only one way, now read the other ways too.

Before, each stored nothing: a job said with a time after it ("I'm a teacher now", "I'm
retired now": the job rules ended at the job, so a new job left the old one standing); a
favourite said the other way round ("Hiking is my favourite hobby", "Paris is my favourite
city"); a mother tongue ("My mother tongue is Polish"); a skill just taken up ("I recently
started learning Spanish": the own-words reading took "recently started…" for an errand
done today, unlike "I recently took up…"). And a favourite said again of the same kind
("My favourite city is Rome." then "My favourite city is Lisbon.") kept both: a stored
favourite now fills the slot of its kind. "我在腾讯工作了五年" (a workplace with how long)
stored nothing, and "I'm allergic to both cats and dogs" stored the cats only: "dogs" was
taken for someone else's description, as "hubby" in "I'm vegan and hubby allergic to nuts"
is (only a clause no rule reads whole is so split). "I don't do dairy" was no need.

Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.text import candidates_from_text
from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("before", "later", "now"),
    [
        ("I'm an accountant.", "I'm a teacher now.", "User is a teacher now"),
        ("I work as a welder.", "I'm retired now.", "User is retired now"),
        ("I'm a cashier.", "I'm a pharmacist these days.", "User is a pharmacist these days"),
    ],
)
def test_a_job_said_with_a_time_after_it_replaces_the_old(
    before: str, later: str, now: str
) -> None:
    assert facts_after(before, later) == [now]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("Hiking is my favourite hobby.", "User's favourite hobby is Hiking"),
        ("Lisbon is my favourite city.", "User's favourite city is Lisbon"),
        ("The Kinks are my all-time favourite band.", "User's favourite band is the Kinks"),
        ("Green is definitely my favorite colour.", "User's favourite colour is Green"),
    ],
)
def test_a_favourite_said_the_other_way_round(said: str, stored: str) -> None:
    assert facts_after(said) == [stored]


def test_a_favourite_said_the_other_way_round_replaces_the_one_before() -> None:
    said = ("My favourite city is Rome.", "Lisbon is my favourite city now.")
    assert facts_after(*said) == ["User's favourite city is Lisbon"]


@pytest.mark.parametrize(
    "said", ["This is my favourite song.", "It is my favourite.", "That one is my favourite."]
)
def test_a_favourite_of_something_pointed_at_is_no_fact(said: str) -> None:
    assert facts_after(said) == []


def test_a_favourite_of_another_kind_stays() -> None:
    said = ("My favourite city is Rome.", "My favourite food is pho.")
    assert facts_after(*said) == ["User's favourite city is Rome", "User's favourite food is pho"]


def test_a_chinese_favourite_said_again_replaces_the_one_before() -> None:
    assert facts_after("我最喜欢的城市是罗马。", "我最喜欢的城市是里斯本。") == [
        "用户最喜欢的城市是里斯本"
    ]


def test_a_mother_tongue() -> None:
    assert facts_after("My mother tongue is Welsh.") == ["User's native language is Welsh"]


@pytest.mark.parametrize(
    "said",
    [
        "I recently started learning Greek.",
        "I just started learning to knit.",
        "I recently started taking sailing lessons.",
    ],
)
def test_a_skill_just_taken_up_is_stored(said: str) -> None:
    assert len(facts_after(said)) == 1


@pytest.mark.parametrize("said", ["I just started cooking lunch.", "I just started the kettle."])
def test_an_errand_just_started_is_no_fact(said: str) -> None:
    assert candidates_from_text(said) == []


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm allergic to both cats and dogs.", ["User is allergic to both cats and dogs"]),
        ("I'm allergic to horses and dogs both.", ["User is allergic to horses and dogs both"]),
        # (someone else's description after "and" still goes)
        ("I'm pescatarian and hubby allergic to kiwi.", ["User is pescatarian"]),
    ],
)
def test_a_need_of_two_things_with_a_pet_last_is_one_need(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("我在上海工作了五年。", "用户在上海工作了五年"),
        ("我在医院上班快十年了。", "用户在医院上班快十年了"),
    ],
)
def test_a_chinese_workplace_said_with_how_long(said: str, stored: str) -> None:
    assert facts_after(said) == [stored]
    assert facts_after(said, "我在银行工作。") == ["用户在银行工作"]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I don't do gluten.", "User avoids gluten"),
        ("I don't really do eggs or dairy.", "User avoids eggs or dairy"),
        ("I don't do shellfish either.", "User avoids shellfish"),
    ],
)
def test_a_food_left_out_said_casually_is_a_need(said: str, stored: str) -> None:
    (candidate,) = candidates_from_text(said)
    assert (candidate.content, candidate.constraint) == (stored, True)


@pytest.mark.parametrize("said", ["I don't do mornings.", "I don't do small talk."])
def test_what_is_no_food_left_out_is_no_need(said: str) -> None:
    assert not any(c.constraint for c in candidates_from_text(said))
