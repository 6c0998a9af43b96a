"""Every line separator ends a line for the offline extractor, and asides side by side stay apart.

A message from an old Mac client ("\\r"), a form field ("\\x0b") or a pasted
web page (U+2028) ran its lines into one sentence: "I'm a midwife\\rI live in
Hull" became "User is a midwife they live in Hull". Two statements in brackets
side by side were glued the same way (attacker 55).
"""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.text import candidates_from_text


def _contents(text: str) -> list[str]:
    return [c.content for c in candidates_from_text(text) if c.content]


@pytest.mark.parametrize(
    "separator", ["\r", "\r\n", "\n", "\x0b", "\x0c", "\x85", "\u2028", "\u2029"]
)
def test_each_line_separator_ends_a_statement(separator: str) -> None:
    said = f"I'm a midwife{separator}I live in Hull{separator}I don't eat pork"
    assert _contents(said) == [
        "User is a midwife",
        "User lives in Hull",
        "User does not eat pork",
    ]


def test_statements_in_brackets_side_by_side_are_each_their_own() -> None:
    assert _contents("(I'm a midwife) (I live in Hull)") == [
        "User is a midwife",
        "User lives in Hull",
    ]
    assert _contents("（我是护士）（我住在杭州）") == ["用户是护士", "用户住在杭州"]
    assert _contents("(I'm a midwife.)") == ["User is a midwife"]
