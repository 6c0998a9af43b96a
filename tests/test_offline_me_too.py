"""Someone's need, and the user's "me too": "My wife is allergic to eggs. Me too."

Before: the need was someone else's and "Me too." said nothing alone, so the user's own
allergy was lost ("…, and so am I", "Neither can I.", "我老婆对鸡蛋过敏，我也是" alike). Now
the need is read as the user's too, in a sentence, across sentences and across the messages of
one update. Only a need is read so: "My sister is a nurse. Me too." is left as said.
Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.ellipsis import same_need
from tests.test_quality_kinds import facts_after, said_in_one_update


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("My husband is allergic to kiwi. Me too.", ["User is allergic to kiwi"]),
        ("My husband is allergic to kiwi, and so am I.", ["User is allergic to kiwi"]),
        ("My husband is allergic to kiwi and I am too.", ["User is allergic to kiwi"]),
        ("My daughters are allergic to sesame. Same here!", ["User is allergic to sesame"]),
        ("My grandpa can't eat gluten. Neither can I.", ["User cannot eat gluten"]),
        ("Priya is allergic to latex. Me as well.", ["User is allergic to latex"]),
        ("My roommate is lactose intolerant. Me too, sadly.", ["User is lactose intolerant"]),
        ("我老公对芒果过敏，我也是。", ["用户对芒果过敏"]),
        ("我女儿对花生过敏。我也一样。", ["用户对花生过敏"]),
    ],
)
def test_me_too_after_someones_need_is_the_users_need(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    "said",
    [
        "My sister is a nurse. Me too.",  # not a need: left as said
        "My husband is allergic to kiwi. Me too?",  # asked
        "My husband is allergic to kiwi. Me too? No.",
        "My husband is allergic to kiwi. I'm not.",
        "My husband is allergic to kiwi and I'm fine.",
        "Me too.",  # nothing before it
        "我老公对芒果过敏，我不过敏。",
    ],
)
def test_what_is_no_me_too_after_a_need_adds_no_need(said: str) -> None:
    stored = facts_after(said)
    assert not any("kiwi" in fact or "芒果" in fact or "nurse" in fact for fact in stored)


def test_me_too_in_the_next_message() -> None:
    said = said_in_one_update("My nephew is allergic to shellfish.", "Same here.")
    assert said == ["User is allergic to shellfish"]


def test_the_need_is_put_in_the_users_words() -> None:
    assert same_need("So am I.", "My wife is allergic to eggs") == "I'm allergic to eggs"
    assert same_need("Neither can I", "My son can't eat pork") == "I can't eat pork"
    assert same_need("我也是", "我老婆对鸡蛋过敏") == "我对鸡蛋过敏"
    assert same_need("Me too.", "I like eggs") is None  # no one else's need before it
    assert same_need("Me too. " * 20, "My wife is allergic to eggs") is None  # too long


@pytest.mark.timeout(60)
def test_many_me_toos_are_read_in_linear_time() -> None:
    said = "My wife is allergic to eggs, and so am I. " * 20_000
    assert facts_after(said) == ["User is allergic to eggs"]


@pytest.mark.parametrize(
    ("before", "stored"),
    [
        # the message before says more after the need: it is read as a message (attacker 275:
        # read as one sentence, it stored "User is allergic to eggs. Shrimp")
        ("My aunt is allergic to kiwi. Shrimp too.", ["kiwi", "shrimp"]),
        ("My aunt can't eat gluten. Or dairy", ["gluten", "dairy"]),
        ("My aunt is vegan. Strictly", ["vegan"]),
        ("My aunt is allergic to kiwi? Really", []),
    ],
)
def test_me_too_after_a_message_that_says_more(before: str, stored: list[str]) -> None:
    said = said_in_one_update(before, "Me too.")
    assert len(said) == len(stored)
    assert all(thing in fact for thing, fact in zip(stored, said, strict=True))
