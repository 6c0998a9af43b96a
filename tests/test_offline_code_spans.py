"""Code in a message: a name in backticks is the name, other code a hole no fact crosses.

Every code span was cut out of the text, so the clause around it was read with a hole:
"I use `pandas` every day" stored "User uses every day", "My go-to editor is `neovim`"
stored "User's go-to editor is", "I always run `black .` before commits" stored "User always
runs before commits". Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.text import candidates_from_text
from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I use `pandas` every day.", ["User uses pandas every day"]),
        ("I work with `kubectl` a lot.", ["User works with kubectl a lot"]),
        ("My go-to editor is `neovim`.", ["User's go-to editor is neovim"]),
        ("I prefer `pnpm` over npm.", ["User prefers pnpm over npm"]),
        ("I'm vegan and I use `vim` daily.", ["User is vegan", "User uses vim daily"]),
    ],
)
def test_a_name_in_backticks_is_the_name(said: str, stored: list[str]) -> None:
    assert [c.content for c in candidates_from_text(said)] == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I always run `black .` before commits.", []),
        ("I use `rm -rf /tmp/cache` a lot.", []),
        ("I usually type `git commit -m 'wip'` too often.", []),
        ("I'm vegan and I always run `npm ci --silent` first.", ["User is vegan"]),
        ("I no longer use `os.path.join(a, b)`.", []),
        # an empty span is nothing ("``memory``" is the word "memory" typed as code)
        ("I use ``pandas`` every day.", ["User uses pandas every day"]),
        ("```\nI am vegan\n```\nI live in Ghent.", ["User lives in Ghent"]),
    ],
)
def test_no_fact_is_read_across_other_code(said: str, stored: list[str]) -> None:
    assert [c.content for c in candidates_from_text(said) if c.content] == stored


@pytest.mark.parametrize(
    "later", ["Forget what I said about `x = 1; y = 2`.", "I no longer use `vim -u NONE`."]
)
def test_code_withdraws_nothing(later: str) -> None:
    """A retraction whose object is code names nothing that can be withdrawn."""
    assert facts_after("I use vim every day.", later) == ["User uses vim every day"]
