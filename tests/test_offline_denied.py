""" "I never said I was vegan" withdraws the fact; it is no fact of its own.

It once kept "User is vegan" and added "User never said i was vegan"; "ignore what
I said about living in Paris" kept Paris (attacker 68).
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("first", "denial"),
    [
        ("I play golf.", "i never said i played golf"),
        ("I'm from Porto.", "I never said I was from Porto, that's my wife"),
        ("I love opera.", "I never said I loved opera!"),
        ("I live in Lyon.", "ignore what I said about living in Lyon"),
        ("I work at Umbrella Corp.", "forget what I said about working at Umbrella Corp"),
        ("我喜欢吃香菜。", "我从来没说过我喜欢吃香菜"),
    ],
)
def test_a_denied_statement_is_withdrawn(first: str, denial: str) -> None:
    assert facts_after(first) and facts_after(first, denial) == []


def test_a_denial_alone_stores_nothing() -> None:
    assert facts_after("I never said I was a morning person") == []
