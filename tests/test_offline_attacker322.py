"""Findings of attacker 322 and of the gaps named at its stop, with sentences of this project's own.

- An emoji standing for a word ("My 🐱 is allergic to fish") was removed with the
  pictographs that only decorate a sentence, which left "User's is allergic to fish" (the
  cat's need stored as the user's) and "allergic to and shellfish". After a possessive, an
  article or a preposition it is the word, and stays.
- "It's not me who's allergic, it's my son" said twice in one run-on sentence was read as
  "it's Y, not X" with Y = "not me who's …" and stored a clarification as long as the message
  (41,000 characters from 1,000 repeats): Y never starts with "not".
- People called as chat calls them ("my hubby", "my MIL", "my bf", "my other half") were
  things of the user's: "My hubby is allergic to kiwi." stored "User's hubby is allergic to
  kiwi", and "Sorry, my bf is." put nothing right.
- "Scratch that" and "Correction:" were no marks of a slip: "…Scratch that, my son is."
  kept the need as the user's and "…Scratch that, mangoes." kept both things.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after, facts_of_one_update


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("My 🐈 is allergic to chicken.", []),
        ("My 👧 is allergic to sesame.", []),
        ("Our 🐕 is lactose intolerant.", []),
        # (a thing a need may name is said as its word: tests/test_offline_emoji_things.py)
        ("I'm allergic to 🦐 and walnuts.", ["User is allergic to shrimp and walnuts"]),
        ("I adore my 🐈.", ["User adores their 🐈"]),
        # decoration after a word stays out, as before
        ("I'm pescatarian 🐟.", ["User is pescatarian"]),
        ("我对尘螨过敏🤧", ["用户对尘螨过敏"]),
    ],
)
def test_an_emoji_where_a_word_stands_is_that_word(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # before a word that is no verb or joining word, an emoji decorates (attacker 331)
        ("My 🌟 nurse says I'm anaemic.", ["User is anaemic"]),
        ("Also 🙈 and 🙈 I'm allergic to kiwi.", ["User is allergic to kiwi"]),
        ("My 📋 allergies: kiwi, sesame", ["User is allergic to kiwi, sesame"]),
        ("My 💕 wife and I are pescatarian.", ["User is pescatarian (with their wife)"]),
        ("I'm vegan and 🌿 I don't drink milk.", ["User is vegan", "User does not drink milk"]),
    ],
)
def test_an_emoji_before_another_word_decorates(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


def test_an_emoji_for_someone_else_puts_nothing_right_and_takes_nothing() -> None:
    # who "👧" is cannot be read: the user's need stays (the safe side), and no junk fact
    assert facts_after("I'm allergic to sesame. Actually, my 👧 is.") == [
        "User is allergic to sesame"
    ]


@pytest.mark.parametrize("times", [2, 3, 50])
def test_not_me_who_said_again_is_no_clarification(times: int) -> None:
    said = "I can't eat gluten. " + "It's not me who's intolerant, it's my daughter, " * times
    stored = facts_after(said)
    assert not any("clarified" in fact for fact in stored)
    assert all(len(fact) < 100 for fact in stored)


@pytest.mark.parametrize(
    "said",
    [
        "It's not Bristol, not Bath, it's Cardiff.",
        "I said not the green folder, not the grey one.",
    ],
)
def test_no_clarification_starts_with_not(said: str) -> None:
    assert not any("clarified" in fact for fact in facts_after(said))


@pytest.mark.parametrize(
    "said",
    [
        "My hubby is allergic to kiwi.",
        "My MIL is coeliac.",
        "My bf is allergic to latex.",
        "My other half is vegan.",
        "My wifey is diabetic.",
        "My kiddo is allergic to eggs.",
        "My bestie is allergic to cats.",
    ],
)
def test_a_person_called_as_in_chat_is_no_thing_of_the_users(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("My mild eczema is back.", ["User's mild eczema is back"]),
        ("My silly habit is biting my nails.", ["User's silly habit is biting their nails"]),
        ("My file server is down.", ["User's file server is down"]),
    ],
)
def test_short_chat_names_are_read_as_whole_words(said: str, stored: list[str]) -> None:
    # "mil", "sil", "fil" inside other words are no people: the user's own thing is stored
    assert facts_after(said) == stored


def test_a_name_is_not_read_as_a_grandmother() -> None:
    assert "User has asthma" in facts_after("Nan Goldin's photos moved me.\nConditions: asthma")


@pytest.mark.parametrize(
    "said",
    [
        "I'm allergic to kiwi. Sorry, my hubby is.",
        "I'm allergic to kiwi. Scratch that, my bf is.",
        "I'm allergic to kiwi. Correction: my MIL is.",
        "I'm allergic to kiwi. Scratch that, it's my son who's allergic.",
    ],
)
def test_scratch_that_and_correction_mark_a_slip(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize(
    "said",
    [
        "I'm allergic to kiwi. Scratch that, mangoes.",
        "I'm allergic to kiwi. Correction: mangoes.",
        "I'm allergic to kiwi, scratch that, mangoes.",
    ],
)
def test_scratch_that_says_the_thing_before_was_wrong(said: str) -> None:
    assert facts_after(said) == ["User is allergic to mangoes"]


def test_scratch_that_in_the_next_message_puts_the_thing_right() -> None:
    stored = facts_of_one_update("I'm allergic to kiwi.", "AI: Noted.", "Scratch that, mangoes.")
    assert stored == ["User is allergic to mangoes"]


def test_scratch_that_before_a_remark_keeps_the_need() -> None:
    said = "I'm allergic to kiwi. Scratch that, my son just dropped a kiwi on the floor."
    assert facts_after(said) == ["User is allergic to kiwi"]
