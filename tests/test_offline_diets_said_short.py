"""Diets said short among the user's descriptions ("I'm GF", "I'm vegan and GF").

Before: "I'm GF and DF." stored nothing, and "I'm pescatarian and GF." lost the pescatarian
diet with it (a joined description whose second part no rule read). Now "GF", "DF" and "NF"
said as one of the user's descriptions after "I'm" are the diets in full; elsewhere they
are left as said ("my GF" is a girlfriend). Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm GF.", ["User is gluten-free"]),
        ("I'm pescatarian and GF.", ["User is pescatarian", "User is gluten-free"]),
        ("Im df and nf", ["User is dairy-free", "User is nut-free"]),
        ("I'm fully GF, DF & NF.", None),
    ],
)
def test_a_diet_said_short_is_the_diet(said: str, stored: list[str] | None) -> None:
    facts = facts_after(said)
    if stored is None:
        assert all(any(diet in fact for fact in facts) for diet in ("gluten", "dairy", "nut"))
    else:
        assert facts == stored


@pytest.mark.parametrize(
    "said", ["I'm cooking for my GF tonight.", "I'm seeing my gf later, she's DF."]
)
def test_the_short_words_elsewhere_are_no_diet_of_the_users(said: str) -> None:
    assert not any("free" in fact for fact in facts_after(said))
