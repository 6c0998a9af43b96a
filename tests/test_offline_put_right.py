"""A need's thing put right as soon as it was said: "I'm allergic to peanuts. Sorry, I meant
cashews."

Before: the correction was read alone and said nothing, so the wrong allergy (peanuts) was
stored and the real one (cashews) lost, in a sentence, across sentences and across the
messages of one update, in English and Chinese. Now "I mean" and its kin ("我是说", "应该是",
"不对", "说错了") put the thing meant in the need's place; a mark alone ("Sorry, to bees",
"No wait, cashews") adds the need of the thing and keeps the one before (the user may have
meant both); of a need of several things, which one was wrong is not said, so all are kept.
Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after, said_in_one_update


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm allergic to walnuts. Sorry, I meant pecans.", ["User is allergic to pecans"]),
        ("I'm allergic to walnuts. I mean pecans.", ["User is allergic to pecans"]),
        ("I'm allergic to walnuts, I mean pecans.", ["User is allergic to pecans"]),
        ("I'm allergic to walnuts, sorry, I meant to say pecans.", ["User is allergic to pecans"]),
        ("I can't eat lamb. Make that veal.", ["User cannot eat veal"]),
        ("我对核桃过敏，不对，是碧根果。", ["用户对碧根果过敏"]),
        ("我对核桃过敏。我是说碧根果。", ["用户对碧根果过敏"]),
        ("我对核桃过敏，说错了，应该是碧根果。", ["用户对碧根果过敏"]),
    ],
)
def test_a_need_put_right_is_of_the_thing_meant(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a mark alone: the thing may be meant as well, so the need before stays
        (
            "I'm allergic to walnuts. No wait, pecans.",
            ["User is allergic to walnuts", "User is allergic to pecans"],
        ),
        ("我对核桃过敏。抱歉，是碧根果。", ["用户对核桃过敏", "用户对碧根果过敏"]),
        # of a list, which thing was wrong is not said: all stay
        (
            "I'm allergic to walnuts and kiwi. I mean pecans.",
            ["User is allergic to walnuts and kiwi", "User is allergic to pecans"],
        ),
    ],
)
def test_a_thing_put_right_unclearly_keeps_the_need_before(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    "said",
    [
        "I'm allergic to walnuts. I mean Tom.",  # no thing one reacts to
        "I'm allergic to walnuts. Pecans.",  # no mark: may answer something else
        "I'm allergic to walnuts. Actually, pecans.",
        "I'm allergic to walnuts, I mean to some extent.",
        "I'm allergic to walnuts, but my son is allergic to eggs. I mean pecans.",
        "我对核桃过敏。不对，是王伟。",
        "我对核桃过敏。是碧根果。",
    ],
)
def test_what_is_no_thing_put_right_takes_nothing_away(said: str) -> None:
    assert facts_after(said)[0] in ("User is allergic to walnuts", "用户对核桃过敏")
    assert "User is allergic to pecans" not in facts_after(said)


def test_what_is_not_a_need_of_a_thing_is_not_put_right() -> None:
    assert facts_after("I live in Paris. I mean pecans.") == ["User lives in Paris"]
    assert facts_after("I'm vegan. Sorry, I meant pecans.") == ["User is vegan"]


def test_a_need_put_right_takes_more_after_it() -> None:
    said = "I'm allergic to walnuts. Sorry, I meant pecans. Kiwi too."
    assert facts_after(said) == ["User is allergic to pecans", "User is allergic to kiwi"]


@pytest.mark.parametrize(
    ("messages", "contents"),
    [
        (
            ("I'm allergic to walnuts.", "Sorry, I meant pecans."),
            ["User is allergic to pecans"],
        ),
        (("我对核桃过敏。", "说错了，应该是碧根果。"), ["用户对碧根果过敏"]),
        (
            ("I'm allergic to walnuts.", "No wait, pecans."),
            ["User is allergic to walnuts", "User is allergic to pecans"],
        ),
    ],
)
def test_a_need_put_right_in_the_next_message(
    messages: tuple[str, ...], contents: list[str]
) -> None:
    assert said_in_one_update(*messages) == contents


@pytest.mark.timeout(60)
def test_many_corrections_in_one_sentence_are_read_without_recursion() -> None:
    said = "I'm allergic to walnuts" + ", I mean pecans" * 50_000 + "."
    # (read once: the need, or the need put right; never both or a recursion error)
    assert facts_after(said) in (["User is allergic to walnuts"], ["User is allergic to pecans"])


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # the need said again in full after "I meant" (before: the lead-in kept the sentence
        # from being read, and the wrong need stood)
        ("I'm allergic to walnuts. Sorry, I meant I'm allergic to pecans.", ["pecans"]),
        ("I can't eat lamb. Oops, I meant I can't eat veal.", ["veal"]),
        ("我对核桃过敏。说错了，我是对碧根果过敏。", ["碧根果"]),
        ("我对核桃过敏。我是说我对碧根果过敏。", ["碧根果"]),
        ("Sorry, I meant I'm allergic to pecans.", ["pecans"]),  # nothing before it: read
        # a kind of the need, or a need of a list: the need before stays
        ("I'm allergic to nuts. I meant I'm allergic to peanuts.", ["nuts", "peanuts"]),
        (
            "I'm allergic to walnuts and kiwi. Sorry, I meant I'm allergic to pecans.",
            ["walnuts and kiwi", "pecans"],
        ),
    ],
)
def test_a_need_said_again_in_full_after_i_meant(said: str, stored: list[str]) -> None:
    facts = facts_after(said)
    assert len(facts) == len(stored)
    assert all(thing in fact for thing, fact in zip(stored, facts, strict=True))


def test_a_need_said_again_in_full_in_the_next_message() -> None:
    said = said_in_one_update("I'm allergic to walnuts.", "Sorry, I meant I'm allergic to pecans.")
    assert said == ["User is allergic to pecans"]


def test_a_need_said_again_as_a_question_puts_nothing_right() -> None:
    # (the Chinese question mark was not read as one: the need was put right by a question)
    assert facts_after("我对核桃过敏。说错了，我是对碧根果过敏？") == ["用户对核桃过敏"]
    assert facts_after("I'm allergic to walnuts. Sorry, I meant I'm allergic to pecans?") == [
        "User is allergic to walnuts"
    ]
