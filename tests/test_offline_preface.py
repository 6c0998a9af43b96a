"""A hedge or a preface before the user's statement does not hide it from the offline extractor."""

from __future__ import annotations

import pytest

from deerflow_memory.models import MemoryDocument
from tests.test_offline_extractor import _extract, _fact


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm fairly certain I'm allergic to birch pollen.", ["User is allergic to birch pollen"]),
        ("I guess I'm a morning person.", []),  # too unsure to keep (attacker 52)
        ("Not sure if this is relevant, but I have epilepsy.", ["User has epilepsy"]),
        ("Had bloods done last week and turns out I'm anaemic.", ["User is anaemic"]),
        ("I saw a dermatologist and it turns out I have rosacea.", ["User has rosacea"]),
        ("Some background: I'm a paramedic in Leeds.", ["User is a paramedic in Leeds"]),
        ("Fun fact: my first name is Olwen", ["User's name is Olwen"]),
        # ... not before what is no state of the user's: an event, someone else, the chat
        ("I think I broke it", []),
        ("I'm pretty sure I left my phone at work", []),
        ("I think she's vegan", []),
        ("I think my train leaves at 7", []),
        ("I'm 100% sure that's wrong", []),
        ("I suppose I'm fine", []),
    ],
)
def test_a_hedged_or_prefaced_statement_is_stored(said: str, stored: list[str]) -> None:
    assert [f.content for f in _extract(said).new_facts] == stored


@pytest.mark.parametrize(
    "said",
    [
        # after a hedge or preface only a rule's fact is kept: chat, errands and others stay out
        # (attacker 49)
        "I think I've got it.",
        "Hmm, I think I have the solution.",
        "I think I never got your reply.",
        "I guess I have to wait",
        "Turns out I have a flat tyre",
        "I'm sure I have it somewhere",
        "I feel like I'm talking to a wall",
        "I feel like I'm 80.",
        "Context: my laptop just died",
        "Background: my train leaves at 6",
        "Background: I'd rather not say",
        "Background: I'm not vegan, my brother is.",
        "Because I'm not sure, let's double check.",
        "Being a parent is hard.",
    ],
)
def test_what_a_hedge_hid_before_stays_unstored(said: str) -> None:
    assert _extract(said).new_facts == ()


def test_a_hedged_denial_does_not_remove_a_stored_allergy() -> None:
    document = MemoryDocument(facts=(_fact("f1", "User is allergic to peanuts"),))
    update = _extract("I think I'm not allergic to peanuts anymore.", document=document)
    assert update.is_noop()
