"""How the answers should look, and what the user is not, said once (surveyor 1)."""

from __future__ import annotations

import pytest

from tests.test_offline_extractor import _extract


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        (
            "Please don't use emojis when you reply to me.",
            ["User's standing instruction: please don't use emojis when you reply to me"],
        ),
        (
            "Don't add headings in your answers.",
            ["User's standing instruction: don't add headings in your answers"],
        ),
        (
            "Please keep explanations brief, I'm a busy person.",
            ["User's standing instruction: please keep explanations brief"],
        ),
        ("回答别用表情", ["用户的长期要求：回答别用表情"]),
        ("I'm not really into golf.", ["User is not really into golf"]),
        ("I'm not a morning person at all.", ["User is not a morning person at all"]),
        # one-off wishes about the task at hand stay out
        ("Don't use that library in the script", []),
        ("别用这个方法", []),
    ],
)
def test_standing_wishes_and_negated_tastes(said: str, stored: list[str]) -> None:
    assert [f.content for f in _extract(said).new_facts] == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # surveyor 2: asked as a question, and the language to answer in
        (
            "Can you always answer in numbered lists?",
            ["User's standing instruction: always answer in numbered lists"],
        ),
        ("请用英文回答我。", ["用户的长期要求：请用英文回答我"]),
        ("以后用中文吧", ["用户的长期要求：以后用中文吧"]),
        ("用中文", []),  # a one-off answer, maybe
        ("Can you always check this?", []),
        # a joke allergy, and how long after the fact
        ("I'm allergic to mornings haha", []),
        ("我吃素，已经三年了。", ["用户吃素"]),
    ],
)
def test_survey_two_kinds(said: str, stored: list[str]) -> None:
    assert [f.content for f in _extract(said).new_facts] == stored
