"""Marks typed around the words: markdown stars, full-width letters, a full-width comma or a
colon after a time, spaced dots, a thanks after taking a withdrawal back.

Before (helper 351's list): "**I'm vegan**", "I'm *pescatarian*" and "**Now** I'm vegan"
stored nothing, "allergic to **peanuts**" kept the stars in the fact; "I'm ＧＦ" was stored as
the user's name and "ＮＯ ＮＵＴＳ: I'M ALLERGIC" stored nothing; "Since last year， I have
asthma", "As of today: I'm vegan" and "现在：我住在杭州" stored nothing; "No sesame. . . I'm
allergic" lost the need (each spaced dot was a stop); and "Yes I am. Thanks" after "Anything
else?" no longer took the withdrawal back. Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.text import candidates_from_text
from tests.test_quality_kinds import facts_of_one_update


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("**I'm pescatarian**", ["User is pescatarian"]),
        ("I'm *coeliac*, just so you know.", ["User is coeliac"]),
        ("I'm allergic to **cashews**.", ["User is allergic to cashews"]),
        ("**Lately** I'm vegetarian.", ["User is vegetarian"]),
        ("I'm ＤＦ.", ["User is dairy-free"]),
        ("ＮＯ ＭＵＳＳＥＬＳ: I'M ALLERGIC.", ["User is allergic to mussels"]),
        ("Since last spring， I have gout.", ["User has gout since last spring"]),
        ("As of today: I'm teetotal.", ["User is now teetotal"]),
        ("现在：我住在宁波。", ["用户住在宁波"]),
        ("No celery. . . I'm allergic.", ["User is allergic to celery"]),
    ],
)
def test_the_words_are_read_through_the_marks(said: str, stored: list[str]) -> None:
    assert [c.content for c in candidates_from_text(said)] == stored


def test_a_star_between_spaces_is_no_emphasis() -> None:
    assert [c.content for c in candidates_from_text("2 * 3 is 6, and I'm vegan.")] == [
        "User is vegan"
    ]


@pytest.mark.parametrize("back", ["Yes I am. Thanks", "Just kidding, thanks!", "jk thx"])
def test_taking_it_back_with_thanks_still_counts(back: str) -> None:
    turns = ("I'm paleo.", "I'm not paleo anymore.", "AI: Got it. Anything else?")
    assert facts_of_one_update(*turns, back) == ["User is paleo"]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # an action between stars is no word of the statement ("I'm vegan *laughs*" lost the
        # diet once the stars of emphasis were taken off: helper 352)
        ("I'm pescatarian *laughs*", ["User is pescatarian"]),
        ("I live in Turin *waves*", ["User lives in Turin"]),
        ("*sighs* I'm coeliac.", ["User is coeliac"]),
    ],
)
def test_an_action_between_stars_is_left_out(said: str, stored: list[str]) -> None:
    assert [c.content for c in candidates_from_text(said)] == stored
