"""A reaction said bare after a request that leaves a thing out ("No nuts please, I'm allergic.").

Before, each of these stored nothing, the allergy lost: "I'm allergic" says no thing, and
the request before it ("No nuts please", "Hold the shrimp", "without sesame") is no
statement of the user's ("别放芝麻，我过敏" alike). Now the reaction is read of the thing the
request just left out, in the same sentence or the one before. And a need given as a reason
("…because I'm allergic to nuts") or after a dash ("… - I'm allergic to shrimp") is a clause
of its own: after a request it stored nothing, after a statement it was stored inside it
("User carries an EpiPen because they're allergic to bee stings", no need of its own).

Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.text import candidates_from_text


def _needs(said: str) -> list[str]:
    return [c.content for c in candidates_from_text(said) if c.constraint]


@pytest.mark.parametrize(
    ("said", "need"),
    [
        ("No cashews please, I'm allergic.", "User is allergic to cashews"),
        ("Could you hold the prawns? I'm allergic.", "User is allergic to prawns"),
        ("Leave out the sesame - I'm allergic to it.", "User is allergic to sesame"),
        (
            "A curry without peanuts, because I'm severely allergic.",
            "User is severely allergic to peanuts",
        ),
        ("Skip the milk. I'm intolerant.", "User is intolerant to milk"),
        ("Make it nut-free, I'm allergic.", "User is allergic to nuts"),
        ("别放芝麻，我过敏。", "用户对芝麻过敏"),
        ("推荐个汤，不要虾，我严重过敏。", "用户对虾过敏"),
    ],
)
def test_a_bare_reaction_is_of_the_thing_left_out(said: str, need: str) -> None:
    assert _needs(said) == [need]


@pytest.mark.parametrize(
    ("said", "need"),
    [
        (
            "I need a salad without walnuts because I'm allergic to walnuts.",
            "User is allergic to walnuts",
        ),
        ("I carry antihistamines because I'm allergic to wasps.", "User is allergic to wasps"),
        ("I skip bread since I'm coeliac.", "User is coeliac"),
    ],
)
def test_a_need_given_as_a_reason_is_a_need_of_its_own(said: str, need: str) -> None:
    assert need in _needs(said)


@pytest.mark.parametrize(
    "said",
    [
        "I'm allergic.",  # no thing anywhere
        "No worries. I'm allergic.",  # nothing left out
        "No problem, I'm allergic to mornings lol.",  # a thing said, no need
        "No nuts for the party. My son is allergic.",  # someone else's
        "不要客气，我过敏。",  # no thing left out
    ],
)
def test_no_thing_left_out_no_need(said: str) -> None:
    assert _needs(said) == []


def test_a_thing_left_out_two_sentences_back_is_not_read() -> None:
    said = "No cashews in the starter. The main is fish. I'm allergic."
    assert "User is allergic to cashews" not in _needs(said)


# Three forms that stored nothing (attacker 345, found after the reading above): a colon
# after the request, more things after "them", and a clause of the user's after the reaction.
@pytest.mark.parametrize(
    ("said", "need"),
    [
        ("No walnuts please: I'm allergic.", "User is allergic to walnuts"),
        ("Hold the aioli: I'm allergic to garlic.", "User is allergic to garlic"),
        ("Skip the cream: I'm intolerant to lactose.", "User is intolerant to lactose"),
        ("No pecans, I'm allergic to them and kiwi.", "User is allergic to pecans and kiwi"),
        (
            "Without mussels please, I'm allergic to them, clams and squid.",
            "User is allergic to mussels, clams and squid",
        ),
        ("No lobster, I'm allergic to it and I hate crab anyway.", "User is allergic to lobster"),
        ("No celery, I'm allergic and my son is too.", "User is allergic to celery"),
    ],
)
def test_a_reaction_after_a_colon_with_more_things_or_a_clause_is_read(
    said: str, need: str
) -> None:
    assert need in _needs(said)


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a colon after a request parts it from the user's statement, not after a label
        ("No meat on mine: I'm pescatarian.", ["User is pescatarian"]),
        ("Allergies: I have none", []),
        ("Quoted: I am a pilot.", []),
    ],
)
def test_a_colon_after_a_request_parts_two_clauses(said: str, stored: list[str]) -> None:
    assert [c.content for c in candidates_from_text(said)] == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # the request itself is no fact of the user's ("用户不要放花生" was stored beside the need)
        ("不要放腰果，我过敏。", ["用户对腰果过敏"]),
        ("给我做个汤，不要加虾，我过敏。", ["用户对虾过敏"]),
        ("少放盐，我有痛风。", ["用户有痛风"]),
        ("不要搁葱。", []),
    ],
)
def test_a_chinese_request_for_the_dish_is_no_fact(said: str, stored: list[str]) -> None:
    assert [c.content for c in candidates_from_text(said)] == stored


@pytest.mark.parametrize(
    ("said", "need"),
    [
        # attacker 348's forms: a request said with "don't add", an ellipsis between, more
        # things after "and also", and another's clause or a remark after the reaction
        ("Don't add walnuts, I'm allergic.", "User is allergic to walnuts"),
        ("Do not put celery in it, I'm allergic.", "User is allergic to celery"),
        ("No sesame... I'm allergic.", "User is allergic to sesame"),
        ("No mango, I'm allergic to it and also kiwi.", "User is allergic to mango and also kiwi"),
        ("No prawns, I'm allergic to them and so is my daughter.", "User is allergic to prawns"),
        ("No lupin, I'm allergic to it and she's allergic to soy.", "User is allergic to lupin"),
        ("No squid, I'm allergic to it and it makes me itch.", "User is allergic to squid"),
    ],
)
def test_more_requests_and_what_follows_the_reaction(said: str, need: str) -> None:
    stored = [c.content for c in candidates_from_text(said)]
    assert need in stored
    assert not any("she's" in fact or "so is" in fact for fact in stored)
