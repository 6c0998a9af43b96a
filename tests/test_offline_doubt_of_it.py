"""A word of doubt in a later sentence doubts what a doctor told only when it speaks of it.

Before: "My allergist says I'm allergic to penicillin. Something went wrong with my car
today." stored nothing: "wrong" anywhere in the next two sentences was read as doubt of the
diagnosis ("I made a mistake at work", "我今天算错了账" too). Now the words that say it of
anything ("wrong", "mistake", "turns out", "错了", "搞错") doubt what was told in its own
sentence, and in the next two only when that sentence speaks of it ("She was wrong.", "The
test was wrong.", "Wrong!", "医生搞错了", "其实搞错了"); the words that only ever doubt
("I doubt it", "misdiagnosed", "false positive", "误诊", "不信") doubt it wherever they are.
Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("said", "need"),
    [
        (
            "My allergist says I'm allergic to penicillin. Something went wrong with my car today.",
            "User is allergic to penicillin",
        ),
        (
            "The blood tests showed I have celiac disease. The printer at work was wrong again.",
            "User has celiac disease",
        ),
        ("医生说我对青霉素过敏。我今天算错了账。", "用户对青霉素过敏"),
        ("体检结果显示我对尘螨过敏。路上走错了路。", "用户对尘螨过敏"),
    ],
)
def test_doubt_of_something_else_keeps_the_need(said: str, need: str) -> None:
    assert need in facts_after(said)


@pytest.mark.parametrize(
    "said",
    [
        "My doctor says I'm allergic to penicillin. She was wrong.",
        "My allergist says I'm allergic to penicillin. The test was wrong, though.",
        "My allergist says I'm allergic to penicillin. Wrong!",
        "My allergist says I'm allergic to penicillin. I think he's mistaken.",
        "My allergist says I'm allergic to penicillin. Turns out it was nothing.",
        "My allergist says I'm allergic to penicillin, but that's a mistake.",
        "My allergist says I'm allergic to penicillin. I had a rash once. It was a false alarm.",
        "My allergist says I'm allergic to penicillin. Lovely weather. I doubt it though.",
        "医生说我对青霉素过敏。医生搞错了。",
        "医生说我对青霉素过敏。其实搞错了。",
        "医生说我对青霉素过敏。结果不准。",
        "医生说我对青霉素过敏。今天好冷。我觉得是误诊。",
    ],
)
def test_doubt_of_what_was_told_still_drops_it(said: str) -> None:
    facts = facts_after(said)
    assert "User is allergic to penicillin" not in facts
    assert "用户对青霉素过敏" not in facts


# Attacker 284: doubt said of what was told in words the first version did not read.
@pytest.mark.parametrize(
    "said",
    [
        "My doctor says I'm allergic to penicillin. Obviously a mistake.",
        "My doctor says I'm allergic to penicillin. My mom thinks she's wrong.",
        "My doctor says I'm allergic to penicillin. The guy is clueless, totally wrong.",
        "医生说我对青霉素过敏。我觉得不准。",
        "医生说我对青霉素过敏。我觉得搞错了。",
    ],
)
def test_doubt_in_other_words_still_drops_it(said: str) -> None:
    facts = facts_after(said)
    assert "User is allergic to penicillin" not in facts
    assert "用户对青霉素过敏" not in facts
