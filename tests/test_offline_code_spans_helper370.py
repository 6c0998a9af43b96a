"""Code spans after 9379d0b (helper 370).

The private-use mark that stands for a hole was kept when the user typed it ("I live in
Oslo\\ue000" stored it in the fact) and, with a backtick anywhere in the message, dropped
the user's own facts holding it; two names typed back to back ("`vim``emacs`") were read
as one word. Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.text import candidates_from_text


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I live in Oslo\ue000.", ["User lives in Oslo"]),
        ("I knit \ue000scarves every winter.", ["User knits scarves every winter"]),
        ("I use \ue000vim daily. I also ran `x = 1` once.", ["User uses vim daily"]),
    ],
)
def test_a_typed_private_use_mark_is_no_hole(said: str, stored: list[str]) -> None:
    found = candidates_from_text(said)
    assert [c.content for c in found if c.content] == stored
    assert not any("\ue000" in repr(c) for c in found)


def test_two_names_back_to_back_are_two_words() -> None:
    found = [c.content for c in candidates_from_text("I switch between `vim``emacs` daily.")]
    assert not any("vimemacs" in fact for fact in found), found
    assert any("vim" in fact and "emacs" in fact for fact in found), found
