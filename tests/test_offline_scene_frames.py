"""A sentence that sets a scene carries to the rest of the message.

"In my story, I am a dragon. I live in a cave." once stored the cave, and it replaced
the user's real home (attacker 68). Only a short sentence that casts the user as someone
("Pretend I'm a pirate.", "In my story, I am…") sets a scene: "Imagine / Suppose I'm a
beginner." opens a question about the user's own life, whose facts follow (attackers
69-73). What comes before the scene is the user's.
"""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.text import candidates_from_text
from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    "said",
    [
        "In my novel, I am a lighthouse keeper. I live on a rock. I hate visitors.",
        "Let's pretend I'm a baker. I work nights at a small shop.",
        "假装我是厨师。我在一家川菜馆工作。",
        "Pretend I'm a dragon. I sleep on gold.",
    ],
)
def test_what_follows_a_scene_is_not_the_users(said: str) -> None:
    assert candidates_from_text(said) == []


def test_a_scene_does_not_replace_the_real_home() -> None:
    facts = facts_after("I live in Bergen.", "In our game, I'm a wizard. I live in a tower.")
    assert facts == ["User lives in Bergen"]
    assert facts_after("我住在大连。", "假装我是学生。我住在北京。") == ["用户住在大连"]


def test_what_is_said_before_the_scene_is_kept() -> None:
    assert [
        c.content for c in candidates_from_text("I'm allergic to kiwi. Imagine I'm a chef.")
    ] == ["User is allergic to kiwi"]


@pytest.mark.parametrize(
    "said",
    [
        "Imagine Dragons played here last year. I'm allergic to kiwi.",  # a band's name
        "In my book club we read crime novels. I'm allergic to kiwi.",
        "Let's say it's settled. I'm allergic to kiwi.",
        "In my game of chess I lost a rook. I'm allergic to kiwi.",
        "如果我是你，我就去。我对猫过敏。",  # advice, not a scene
        "假设明天下雨怎么办？我对猫过敏。",
    ],
)
def test_everyday_words_like_a_scene_keep_what_follows(said: str) -> None:
    # They once cut the rest of the message, allergies included (attacker 69).
    assert [c.content for c in candidates_from_text(said)] in (
        ["User is allergic to kiwi"],
        ["用户对猫过敏"],
    )
