"""A need's thing put right with what it was not: "Pecans, not walnuts."

Before: after "I'm allergic to walnuts.", "I mean pecans, not walnuts.", "Sorry, amoxicillin,
not penicillin." or "是碧根果，不是核桃。" kept the first thing and lost the one meant (the
"not …" tail was no part of a correction the reader knew), and "…, I mean pecans, not walnuts"
in one sentence stored the words as they were. Now a correction may name the thing that was
wrong, which must be the need's ("Pecans, not cashews." after walnuts puts nothing right), and
says it was wrong (the need is put right, not added to). In the next message, after a reply of
the assistant's that only acknowledged, any such correction is of the need; after a question,
only one in the user's own words ("I meant …"): "Pecans, not walnuts." answers "Walnut or pecan
cookies?". Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after, said_in_one_update


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm allergic to walnuts. I mean pecans, not walnuts.", ["User is allergic to pecans"]),
        ("I'm allergic to walnuts. Pecans, not walnuts!", ["User is allergic to pecans"]),
        ("I'm allergic to walnuts, I mean pecans, not walnuts.", ["User is allergic to pecans"]),
        (
            "I'm allergic to penicillin. Sorry, amoxicillin, not penicillin.",
            ["User is allergic to amoxicillin"],
        ),
        ("I can't eat rye. Oops, barley, not rye.", ["User cannot eat barley"]),
        ("我对核桃过敏。是碧根果，不是核桃。", ["用户对碧根果过敏"]),
        ("我对核桃过敏，我是说碧根果，不是核桃。", ["用户对碧根果过敏"]),
        ("我对青霉素过敏。其实是阿莫西林，不是青霉素。", ["用户对阿莫西林过敏"]),
    ],
)
def test_the_thing_meant_takes_the_place_of_the_one_said_not(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # the thing said not is no thing of the need: nothing is put right
        ("I'm allergic to walnuts. Pecans, not cashews.", ["User is allergic to walnuts"]),
        # a kind of things may still hold ("nuts"): the need stays, the thing meant is added
        (
            "I'm allergic to nuts. Sorry, pecans, not nuts.",
            ["User is allergic to nuts", "User is allergic to pecans"],
        ),
        # "it's …" with no thing said not may be of anything
        ("I'm allergic to walnuts. Actually it's pecans.", ["User is allergic to walnuts"]),
    ],
)
def test_what_stands(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("turns", "stored"),
    [
        (
            ("I'm allergic to penicillin.", "AI: Noted.", "Sorry, amoxicillin, not penicillin."),
            ["User is allergic to amoxicillin"],
        ),
        (
            ("I'm allergic to walnuts.", "AI: Got it!", "Pecans, not walnuts."),
            ["User is allergic to pecans"],
        ),
        (
            (
                "I'm allergic to walnuts.",
                "AI: Okay, I'll remember that.",
                "I meant pecans, not walnuts.",
            ),
            ["User is allergic to pecans"],
        ),
        (
            ("我对核桃过敏。", "AI: 好的，记住了。", "不对，是碧根果，不是核桃。"),
            ["用户对碧根果过敏"],
        ),
    ],
)
def test_in_the_next_message_after_an_acknowledgement(
    turns: tuple[str, ...], stored: list[str]
) -> None:
    assert said_in_one_update(*turns) == stored


@pytest.mark.parametrize(
    "turns",
    [
        (
            "I'm allergic to walnuts.",
            "AI: Would you like walnut or pecan cookies?",
            "Pecans, not walnuts.",
        ),
        ("I'm allergic to walnuts.", "AI: Walnut or pecan cookies?", "Sorry, pecans, not walnuts."),
        ("我对核桃过敏。", "AI: 你要核桃饼干还是碧根果饼干？", "碧根果，不是核桃。"),
    ],
)
def test_an_answer_to_the_assistant_puts_nothing_right(turns: tuple[str, ...]) -> None:
    assert said_in_one_update(*turns)[:1] in (["User is allergic to walnuts"], ["用户对核桃过敏"])
