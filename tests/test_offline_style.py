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
