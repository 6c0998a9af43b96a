"""A need, a habit or a taste said with an emoji for the thing ("I'm allergic to 🥜.").

Before: "I'm allergic to 🥜." and "No 🥛 please, I'm intolerant." stored nothing (the need
lost), "I'm allergic to 🦐 and walnuts." stored the emoji itself, and "I love 🍣 and 🍜."
stored "User loves and 🍜". Now an emoji that draws a thing a need may name, after "to",
"eat", "avoid", "no" or a joining word, is said as that thing by its Unicode name (Python's
``unicodedata``: "PEANUTS", "GLASS OF MILK"); one after a verb of liking stays as drawn.
Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm allergic to 🥜.", "User is allergic to peanuts"),
        ("I'm allergic to 🦀 and sesame.", "User is allergic to crabs and sesame"),
        ("I can't eat 🥚 or 🦞.", "User cannot eat eggs or lobster"),
        ("Severely allergic to 🐝!", None),
        ("No 🥛 please, I'm intolerant.", "User is intolerant to milk"),
        ("I'm allergic to 🌰.", "User is allergic to chestnuts"),
    ],
)
def test_a_drawn_thing_is_said_as_its_word(said: str, stored: str | None) -> None:
    facts = facts_after(said)
    if stored is None:  # (a bee draws no thing a need names: no word is made up for it)
        assert facts == []
    else:
        assert stored in facts


def test_a_drawn_taste_keeps_every_thing() -> None:
    assert facts_after("I love 🍣 and 🍜.") == ["User loves 🍣 and 🍜"]


def test_a_drawn_pet_before_a_verb_is_still_someone_else() -> None:
    # (the owner's emoji stays the subject: the cat's need is not the user's)
    assert not any("allergic" in fact for fact in facts_after("My 🐶 is allergic to chicken."))


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a drawn thing with more said after it (the emoji was dropped as decoration, which
        # left "User has been allergic to for years": attacker 349)
        ("I've been allergic to 🦐 since I was nine.", "User has been allergic to shrimp"),
        ("I avoid 🥛 most days.", "User avoids milk most days"),
    ],
)
def test_a_drawn_thing_with_more_after_it_is_said(said: str, stored: str) -> None:
    assert any(fact.startswith(stored) for fact in facts_after(said))
