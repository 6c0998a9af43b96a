"""Regressions found by attacker 342 in b9e3eb4, 6cd17e4 and 8c75f51.

- 8c75f51 let "<thing>, not <need's thing>" put a need right when no table knows the thing,
  but any word passed for a thing: "Definitely not penicillin." after "I'm allergic to
  penicillin." stored "User is allergic to definitely" and lost the allergy. A thing no table
  knows now counts only after a comma, and not when it is a word of how sure or glad the user
  is ("Seriously", "Thanks", "Lol") or someone named ("Grandma").
- 8c75f51 let "Pecans, not walnuts." put a need right after a reply that asks nothing; but a
  reply may ask for a choice with no question mark ("I'll swap the walnuts for another nut.",
  "Tell me what to use instead."): the answer then replaced the allergy. Such a reply now
  counts as asking.
- 6cd17e4 read "Currently I eat fish oil capsules." as eating fish, which ended a vegetarian
  diet; and dropped "Recently I found out my daughter is allergic to eggs." as a moment.

Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after, facts_of_one_update


@pytest.mark.parametrize(
    ("need", "answer"),
    [
        ("I'm allergic to penicillin.", "Definitely not penicillin."),
        ("I'm allergic to peanuts.", "Absolutely not peanuts!"),
        ("I'm allergic to plums.", "Seriously, not plums."),
        ("I'm allergic to plums.", "Thanks, not plums."),
        ("I'm allergic to plums.", "Lol, not plums."),
        ("I'm allergic to plums.", "Grandma, not plums."),
        ("I'm allergic to plums.", "Okay, not plums."),
    ],
)
def test_a_need_said_again_with_a_word_of_feeling_stays(need: str, answer: str) -> None:
    stored = facts_of_one_update(need, "AI: Noted, I'll keep that out of your meals.", answer)
    assert stored == facts_of_one_update(need)


@pytest.mark.parametrize(
    ("need", "reply", "answer"),
    [
        (
            "I'm allergic to walnuts.",
            "AI: Noted. I'll swap the walnuts in the banana bread for another nut.",
            "Pecans, not walnuts.",
        ),
        (
            "I'm allergic to walnuts.",
            "AI: Noted. Tell me what to use instead of walnuts.",
            "Pecans, not walnuts.",
        ),
        ("I don't eat lamb.", "AI: I'll plan the roast with something else.", "Beef, not lamb."),
        (
            "I'm allergic to cod.",
            "AI: Let me know which fish you'd like in the stew.",
            "Haddock, not cod.",
        ),
    ],
)
def test_an_answer_to_a_reply_offering_a_choice_leaves_the_need(
    need: str, reply: str, answer: str
) -> None:
    assert facts_of_one_update(need, reply, answer)[0] == facts_of_one_update(need)[0]


@pytest.mark.parametrize(
    "later",
    [
        "Currently I eat fish oil capsules.",
        "I now eat fish oil capsules.",
        "Now I eat chicken flavoured crisps.",
    ],
)
def test_a_thing_named_after_meat_ends_no_diet(later: str) -> None:
    assert "User is vegetarian" in facts_after("I'm vegetarian.", later)


def test_meat_itself_said_after_a_time_still_ends_the_diet() -> None:
    assert "User is vegetarian" not in facts_after("I'm vegetarian.", "Now I eat chicken.")


def test_someone_elses_need_said_after_a_time_is_no_moment() -> None:
    stored = facts_after("Recently I found out my daughter is allergic to eggs.")
    assert any("daughter is allergic to eggs" in fact for fact in stored)


@pytest.mark.parametrize(
    ("said", "listed"),
    [
        (
            "I'm vegan and allergic to nuts, eggs, and soy.",
            "User is allergic to nuts, eggs, and soy",
        ),
        (
            "I'm pregnant and allergic to cats, dogs, horses, and dust.",
            "User is allergic to cats, dogs, horses, and dust",
        ),
    ],
)
def test_the_last_item_after_a_comma_and_is_kept_after_two_descriptions(
    said: str, listed: str
) -> None:
    # (b9e3eb4 kept a list after the second description whole only without the comma
    # before "and")
    assert listed in facts_after(said)


@pytest.mark.parametrize(
    ("said", "need"),
    [
        # (6cd17e4 said these "I have now asthma", "I now need a wheelchair": no rule read
        # them, and the own-words reading was dropped as a moment)
        ("Now I have asthma.", "asthma"),
        ("These days I have diabetes.", "diabetes"),
        ("Now I've got a nut allergy.", "nut allergy"),
        ("Now I need a wheelchair.", "wheelchair"),
        ("These days I wear hearing aids.", "hearing aids"),
    ],
)
def test_a_need_had_or_needed_after_a_time_is_stored(said: str, need: str) -> None:
    assert any(need in fact for fact in facts_after(said))


def test_meat_begun_after_a_time_ends_the_diet() -> None:
    after = facts_after("I'm vegetarian.", "Now I've started eating meat again.")
    assert "User is vegetarian" not in after
