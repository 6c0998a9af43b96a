"""What a question's lead clause or "… like me" says of the user is stored offline."""

from __future__ import annotations

import pytest

from deerflow_memory.models import MemoryDocument
from tests.test_offline_extractor import _extract, _fact


@pytest.mark.parametrize(
    ("said", "stored", "constraint"),
    [
        ("Since I'm pescatarian, is miso soup ok?", "User is pescatarian", True),
        (
            "Being lactose intolerant, what cheeses can I still eat?",
            "User is lactose intolerant",
            True,
        ),
        ("Given that I have asthma, is running in cold air safe?", "User has asthma", True),
        ("Since I can't eat gluten, what flour should I use?", "User cannot eat gluten", True),
        ("As someone who doesn't eat pork, what can I order?", "User does not eat pork", True),
        ("As a person with dyslexia, which fonts are easiest to read?", "User has dyslexia", True),
        ("Now that I'm retired, what hobbies would you suggest?", "User is retired", False),
        ("Any stretches for someone with a stiff neck like me?", "User has a stiff neck", True),
        ("Which guitars suit a left-handed person like me?", "User is left-handed", False),
        (
            "What vitamins should a 50-year-old man like me take?",
            "User is a 50-year-old man",
            False,
        ),
    ],
)
def test_a_description_of_the_user_in_a_question_is_stored(
    said: str, stored: str, constraint: bool
) -> None:
    [fact] = _extract(said).new_facts
    assert fact.content == stored
    assert fact.constraint is constraint


@pytest.mark.parametrize(
    "said",
    [
        "Being honest, I didn't enjoy the film.",
        "Being stuck at home, what should I do?",
        "Is this good for people like me?",
        "Because I'm vegan I need B12",  # no comma: the lead is not told from what follows
    ],
)
def test_a_lead_that_describes_no_lasting_state_stores_nothing(said: str) -> None:
    assert _extract(said).new_facts == ()


def test_an_age_said_with_more_than_the_age_is_not_replaced_by_a_newer_one() -> None:
    document = MemoryDocument(
        facts=(_fact("f1", "User is a 61-year-old carpenter"), _fact("f2", "User is 61 years old."))
    )
    update = _extract("I just turned 62", document=document)
    assert [f.content for f in update.new_facts] == ["User is 62 years old"]
    assert [r.id for r in update.facts_to_remove] == ["f2"]


def test_a_verb_after_never_takes_its_plain_form() -> None:
    assert [f.content for f in _extract("As one who never cooks, what can I make?").new_facts] == [
        "User never cooks"
    ]
