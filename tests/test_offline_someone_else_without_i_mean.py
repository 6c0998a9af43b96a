"""Said to be someone else's without "I mean": "Actually, my niece is.", "It's my dad who's
allergic, not me.", "过敏的是我表妹，不是我".

Before, only "I mean …" and "not me" were read: these kept the statement as the user's need,
and "…I mean my stepdaughter is." stored "User's stepdaughter is" (step-, half- and in-law kin
were not known as people). A mark of a slip ("actually", "sorry", "no", "不对") now says so
before a short form or a cleft; a mark of the user's own slip ("oops", "口误") before words in
full too. Sentences are this project's own.
"""

from __future__ import annotations

import re

import pytest

from deerflow_memory.update.offline.ellipsis import Theirs, theirs
from tests.test_quality_kinds import facts_after, said_in_one_update


@pytest.mark.parametrize(
    "said",
    [
        "I'm allergic to walnuts. Actually, my niece is.",
        "I'm allergic to walnuts. Sorry, my niece is.",
        "I'm allergic to walnuts, no, my niece is.",
        "I'm allergic to walnuts. It's my niece who's allergic, not me.",
        "I'm allergic to walnuts. It was my niece who is allergic to walnuts, not me.",
        "I'm allergic to walnuts. Sorry, it's my niece who is.",
        "I'm allergic to walnuts. My niece's allergic, not me.",
        "I'm allergic to walnuts. My niece is allergic, not me.",
        "I'm allergic to walnuts. Whoops, my niece is allergic to walnuts.",
        "I'm allergic to walnuts. I mean my stepdaughter is.",
        "I'm allergic to walnuts. I mean my mother-in-law is.",
        "I'm allergic to walnuts. I mean my daughter Mia is.",
        "I eat halal. Actually, my roommate does.",
        "我对核桃过敏。过敏的是我表妹，不是我。",
        "我对核桃过敏。不对，过敏的是我表妹。",
        "我对核桃过敏。不对，我表妹才是。",
        "我对核桃过敏，口误，我表妹对核桃过敏。",
        "我对核桃过敏。对核桃过敏的是我表妹，不是我。",
    ],
)
def test_a_statement_said_to_be_someone_elses_is_not_the_users(said: str) -> None:
    assert facts_after(said) == []
    # …though said alone it is the user's (so the test cannot pass by nothing being read)
    alone = re.split(r"(?<=[.。])\s*|,\s|，", said)[0]
    assert facts_after(alone) != []


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a slip mark before words in full may tell of them besides
        (
            "I'm allergic to walnuts. Actually, my niece is allergic to kiwi.",
            ["User is allergic to walnuts"],
        ),
        ("I'm allergic to walnuts. Sorry, my niece is too.", ["User is allergic to walnuts"]),
        # the other way round: a contrast
        ("I don't eat veal. Actually, my uncle does.", ["User does not eat veal"]),
        ("I have eczema. No, my niece doesn't.", ["User has eczema"]),
        # a cleft with no mark, or naming another thing, is no correction
        (
            "I'm allergic to walnuts. It's my niece who's allergic to kiwi.",
            ["User is allergic to walnuts"],
        ),
        ("我对核桃过敏。对猕猴桃过敏的是我表妹。", ["用户对核桃过敏"]),
        ("我对核桃过敏。过敏的是我表妹，我也过敏。", ["用户对核桃过敏"]),
        # "Actually, Sam is": a name without "not me" may be a thing put right
        ("I'm allergic to walnuts. Actually, Sam is.", ["User is allergic to walnuts"]),
        # "actually" alone before a person goes on
        ("I'm allergic to walnuts. Actually, my niece.", ["User is allergic to walnuts"]),
    ],
)
def test_what_is_not_said_to_be_someone_elses_stays(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # allergic, said of the person alone, means the last need said
        (
            "I'm vegan and I'm allergic to walnuts. It's my niece who's allergic, not me.",
            ["User is vegan"],
        ),
        # what the cleft names goes, the rest stays
        (
            "I'm allergic to walnuts and kiwi. It's my niece who's allergic to kiwi, not me.",
            ["User is allergic to walnuts"],
        ),
        ("我对核桃和猕猴桃过敏，口误，我表妹对猕猴桃过敏。", ["用户对核桃过敏"]),
    ],
)
def test_only_what_was_said_of_them_goes(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


def test_across_messages_after_a_reply_that_only_acknowledged() -> None:
    said = "I'm allergic to walnuts."
    assert said_in_one_update(said, "AI: Noted.", "Actually, my niece is.") == []
    assert said_in_one_update("我对核桃过敏。", "AI: 好的。", "过敏的是我表妹，不是我。") == []
    # after a question, "No, my niece is." answers it
    assert said_in_one_update(said, "AI: Anything else to avoid?", "No, my niece is.") == [
        "User is allergic to walnuts"
    ]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Actually, my niece is.", Theirs("", "is")),
        ("Sorry, my uncle doesn't.", Theirs("", "doesn't")),
        ("It's my niece who's allergic, not me.", Theirs("", reaction="allerg")),
        ("It's my niece who has it, not me", Theirs("My niece who has it")),
        ("口误，我表妹对核桃过敏", Theirs("我表妹对核桃过敏")),
        ("对核桃过敏的是我表妹，不是我", Theirs("我表妹对核桃过敏")),
        ("过敏的是我表妹", None),  # may answer "who is allergic?"
        ("It's my niece who's allergic.", None),
        ("Actually, my niece is allergic to kiwi.", None),
    ],
)
def test_what_words_say_of_someone_else(text: str, said: Theirs | None) -> None:
    assert theirs(text) == said


@pytest.mark.parametrize(
    "said",
    [
        "My stepson is allergic to eggs.",
        "My half-sister is allergic to eggs.",
        "My father-in-law is allergic to eggs.",
        "I'm allergic to eggs and my stepson is too.",
    ],
)
def test_step_half_and_in_law_kin_are_someone_else(said: str) -> None:
    stored = facts_after(said)
    assert all("step" not in fact and "law" not in fact and "half" not in fact for fact in stored)
    assert stored == (["User is allergic to eggs"] if said.startswith("I'm") else [])


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # "其实" (actually) is a slip mark, and no part of the clause after it
        ("我对腰果和芒果过敏，其实是我表妹对芒果过敏。", ["用户对腰果过敏"]),
        ("我吃素。其实是我表妹吃素。", []),
        ("我对腰果过敏，其实我表妹对芒果过敏。", ["用户对腰果过敏"]),
        ("我对腰果过敏，而我表妹对芒果过敏。", ["用户对腰果过敏"]),
        ("我对腰果过敏。其实我表妹也过敏。", ["用户对腰果过敏"]),
        # …a slip put right in the user's own words
        ("之前说对腰果过敏是我搞错了，其实是对榛子过敏", ["用户对榛子过敏"]),
        ("我住在苏州，其实我住在无锡。", ["用户住在无锡"]),
    ],
)
def test_actually_in_chinese(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored
