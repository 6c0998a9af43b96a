"""Helper 355: what 23bf347 ("I'm …" described) stored wrong or still missed.

- "I'm working at my desk right now" was read as the employer now, and replaced the real one;
- a lasting search said "right now" was dropped as a moment, and a search rule took any noun
  that began with "job", "home", "flat"… ("work boots", "a house plant", "a flat white");
- "interested in" took what is asked for in the chat ("a refund", "more details");
- "I'm Australian-born" was a name; "I'm half-Japanese" was missed;
- "I'm Chinese and vegetarian" lost the diet (a capitalised first description).

Sentences are this helper's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    "later",
    [
        "I'm working at my desk right now.",
        "I'm working at the kitchen table at the moment.",
        "I'm working at full capacity right now.",
        "I'm working at my sister's place for now.",
        "I'm working at the office right now.",
    ],
)
def test_where_one_sits_now_is_no_employer(later: str) -> None:
    assert facts_after("I work at a pottery studio.", later) == ["User works at a pottery studio"]


def test_a_new_employer_now_still_replaces_the_old() -> None:
    after = facts_after("I work at a pottery studio.", "I'm working at a bike shop right now.")
    assert after == ["User is working at a bike shop"]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm looking for a new job right now.", "User is looking for a new job"),
        ("I'm flat hunting at the moment.", "User is flat hunting"),
        (
            "Im searching for a cheaper apartment for now",
            "User is searching for a cheaper apartment",
        ),
    ],
)
def test_a_search_said_now_is_kept(said: str, stored: str) -> None:
    assert facts_after(said) == [stored]


@pytest.mark.parametrize(
    "said",
    [
        "I'm looking for work gloves.",
        "I'm looking for a house plant that survives shade.",
        "I'm looking for a flat white near the station.",
        "I'm looking for job interview tips.",
        "I'm looking for a new home for my rabbit.",
        "I'm looking for my husband, he wandered off.",
        "I'm looking for a home remedy for hiccups.",
        "I'm looking for a role model.",
    ],
)
def test_a_thing_sought_once_is_no_search(said: str) -> None:
    assert not any("looking for" in fact for fact in facts_after(said))


@pytest.mark.parametrize(
    "said",
    [
        "I'm interested in a refund.",
        "I'm interested in more details.",
        "I'm interested in a quote for the fence.",
        "I'm interested in the flat you listed.",
        "I'm interested in buying the blue sofa.",
        "I'm not interested in any of those.",
        "I'm interested in both.",
    ],
)
def test_what_is_asked_for_is_no_interest(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        (
            "I'm interested in plans for greener towns.",
            "User is interested in plans for greener towns",
        ),
        ("I'm interested in one-pot cooking.", "User is interested in one-pot cooking"),
        ("I'm afraid of getting lost.", "User is afraid of getting lost"),
    ],
)
def test_an_interest_or_fear_that_looks_like_a_request_stays(said: str, stored: str) -> None:
    assert facts_after(said) == [stored]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm Canadian-born.", "User is Canadian-born"),
        ("I'm half-Filipino.", "User is half-Filipino"),
    ],
)
def test_a_heritage_joined_to_a_word_is_no_name(said: str, stored: str) -> None:
    assert facts_after(said) == [stored]


def test_a_language_joined_to_a_heritage_is_no_name() -> None:
    assert not any("name" in fact for fact in facts_after("I'm Spanish-speaking."))


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm Thai and vegan.", ["User is Thai", "User is vegan"]),
        ("Im Polish and gluten intolerant", ["User is Polish", "User is gluten intolerant"]),
        ("I'm Jewish and lactose intolerant.", ["User is Jewish", "User is lactose intolerant"]),
    ],
)
def test_a_need_after_a_capitalised_description_is_kept(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("im afraid im allergic to kiwi", "User is allergic to kiwi"),
        ("Im afraid ive got a sesame allergy", "User has a sesame allergy"),
    ],
)
def test_a_regret_without_apostrophes_is_no_fear(said: str, stored: str) -> None:
    """ "im afraid im allergic to kiwi" stored "User is afraid im allergic to kiwi"."""
    assert facts_after(said) == [stored]


@pytest.mark.parametrize("faith", ["Sikh", "Quaker", "Methodist", "Agnostic", "Mormon"])
def test_a_faith_alone_is_no_name(faith: str) -> None:
    """ "I'm Quaker." stored "User's name is Quaker"."""
    assert facts_after(f"I'm {faith}.") == [f"User is {faith}"]


def test_a_name_is_still_a_name() -> None:
    assert facts_after("I'm Rowan.") == ["User's name is Rowan"]


def test_a_negated_deed_after_a_description_is_no_description() -> None:
    """ "I'm Sikh and don't cut my hair" stored "User is don't cut their hair"."""
    assert facts_after("I'm Jain and don't eat root vegetables.") == [
        "User is Jain",
        "User does not eat root vegetables",
    ]
    assert not any("is don't" in fact for fact in facts_after("I'm Sikh and don't shave."))


@pytest.mark.parametrize(
    "said",
    [
        "In my novel, I'm Icelandic.",
        "In the game, I'm Quaker.",
        "In my screenplay, I'm gluten-free.",
    ],
)
def test_what_the_user_is_in_a_scene_is_not_theirs(said: str) -> None:
    """A scene cast without "a …" ("In my novel, I'm Icelandic.") was the user's own."""
    assert facts_after(said) == []
